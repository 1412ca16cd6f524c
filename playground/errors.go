package playground

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/source"
)

// SourceError is one problem in a program or formula, at its 1-based line
// and column (0 when the problem has no position).
type SourceError struct {
	Line int    `json:"line"`
	Col  int    `json:"col"`
	Msg  string `json:"msg"`
}

// apiError is an error response: {"error": Message, "errors": [...]}.
type apiError struct {
	Status  int           `json:"-"`
	Message string        `json:"error"`
	Errors  []SourceError `json:"errors,omitempty"`
	// Field names the request field the errors refer to ("program", "ltl",
	// "word").
	Field string `json:"field,omitempty"`
	// stopped marks an error caused by the budget's deadline.
	stopped bool
}

func (e *apiError) Error() string { return e.Message }

func badRequest(field, format string, args ...any) *apiError {
	return &apiError{Status: statusUnprocessableEntity, Field: field, Message: fmt.Sprintf(format, args...)}
}

// failed turns the error of a construction into an apiError: a stopped
// budget becomes the time-limit answer, anything else a 422 about field.
func failed(field, what string, err error) *apiError {
	if errors.Is(err, budget.ErrStopped) {
		return &apiError{Status: statusUnavailable, Message: err.Error(), stopped: true}
	}
	return badRequest(field, "%s: %v", what, err)
}

// sourceErrors turns the error of a parser into an apiError with one entry
// per problem, each with its line and column.
// A stopped budget while loading is the request's deadline, not a problem
// of the source: it is answered as failed answers it.
func sourceErrors(field string, err error) *apiError {
	if errors.Is(err, budget.ErrStopped) {
		return failed(field, "", err)
	}
	e := &apiError{Status: statusUnprocessableEntity, Field: field}
	// brasp and ltl report through the source package's types.
	var list source.ErrorList
	var one *source.Error
	switch {
	case errors.As(err, &list) && len(list) > 0:
		for _, x := range list {
			e.Errors = append(e.Errors, SourceError{x.Pos.Line, x.Pos.Col, x.Msg})
		}
	case errors.As(err, &one):
		e.Errors = append(e.Errors, SourceError{one.Pos.Line, one.Pos.Col, one.Msg})
	default:
		for _, line := range strings.Split(err.Error(), "\n") {
			e.Errors = append(e.Errors, parseLocated(line))
		}
	}
	n := len(e.Errors)
	first := e.Errors[0]
	loc := ""
	if first.Line > 0 {
		loc = fmt.Sprintf("%d:%d: ", first.Line, first.Col)
	}
	e.Message = fmt.Sprintf("%s: %s%s", field, loc, first.Msg)
	if n > 1 {
		e.Message += fmt.Sprintf(" (and %d more)", n-1)
	}
	return e
}

// parseLocated reads a message of the form "file:line:col: msg".
func parseLocated(s string) SourceError {
	parts := strings.SplitN(s, ":", 4)
	if len(parts) == 4 {
		line, err1 := strconv.Atoi(parts[1])
		col, err2 := strconv.Atoi(parts[2])
		if err1 == nil && err2 == nil && line > 0 {
			return SourceError{line, col, strings.TrimSpace(parts[3])}
		}
	}
	return SourceError{Msg: s}
}

func jsonReply(status int, v any) *Reply {
	data, err := json.Marshal(v)
	if err != nil {
		status = statusInternalError
		data = []byte(`{"error":"internal error: cannot encode the response"}`)
	}
	return &Reply{Status: status, ContentType: "application/json; charset=utf-8", Body: append(data, '\n')}
}

func errorReply(e *apiError) *Reply { return jsonReply(e.Status, e) }

// decode reads a JSON request body into v, rejecting unknown fields and
// trailing data.
func decode(data []byte, v any) *apiError {
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return &apiError{Status: statusBadRequest, Message: "malformed JSON request: " + jsonErrorString(data, err)}
	}
	if dec.More() {
		return &apiError{Status: statusBadRequest, Message: "malformed JSON request: data after the JSON object"}
	}
	return nil
}

// jsonErrorString describes a JSON decoding error with its byte offset.
func jsonErrorString(data []byte, err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("%v (at byte %d)", se, se.Offset)
	case errors.As(err, &te):
		return fmt.Sprintf("field %q must be a %s, not a JSON %s", te.Field, te.Type, te.Value)
	case errors.Is(err, io.EOF):
		return "empty body (expected a JSON object)"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Sprintf("unexpected end of JSON after %d bytes", len(data))
	}
	return err.Error()
}

func sizeString(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}
