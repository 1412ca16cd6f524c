package playground

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/brasp-dev/brasp/source"
)

//go:embed static
var staticFiles embed.FS

// Default limits of a Server; see Config.
const (
	DefaultMaxBody        = 1 << 20
	DefaultTimeout        = 10 * time.Second
	DefaultMaxWord        = 2000
	DefaultMaxPatternWord = 128
	DefaultMaxAttendWord  = 1000
	DefaultMaxCells       = 1 << 21
	// attendBudget and patternBudget bound the display-only work of
	// reporting attended positions (attention ops × n²) and the exact
	// attention pattern (heads × n² × width).
	attendBudget  = 1 << 27
	patternBudget = 1 << 25
)

// Config holds the limits of a Server. A zero field means its default.
type Config struct {
	// MaxBody is the largest request body accepted, in bytes; larger
	// requests get 413 (DefaultMaxBody).
	MaxBody int64
	// Timeout bounds the computation of one request; past it the request
	// gets 503 with a message naming the limit (DefaultTimeout).
	Timeout time.Duration
	// MaxWord is the longest word /api/run and /api/compile accept, in
	// symbols (DefaultMaxWord).
	MaxWord int
	// MaxPatternWord is the longest word for which /api/compile reports the
	// per-head attention pattern (DefaultMaxPatternWord).
	MaxPatternWord int
	// MaxAttendWord is the longest word for which /api/run reports which j
	// every attention operation attended to (DefaultMaxAttendWord).
	MaxAttendWord int
	// MaxCells is the largest table /api/run returns: vectors × word
	// length (DefaultMaxCells).
	MaxCells int
	// Concurrency bounds the number of computations running at once
	// (GOMAXPROCS by default); further requests wait for a slot within
	// their time limit.
	Concurrency int
	// AllowAnyHost turns off the Host check, the server's protection
	// against DNS rebinding. By default a request that reached the server
	// on a loopback address (or through ServeHTTP without a connection) is
	// answered only if its Host header names a loopback host — localhost,
	// an address of 127.0.0.0/8 or [::1], with any port — and gets 403
	// otherwise: a page of another web site cannot then read the
	// playground through a name of its own that it makes resolve to
	// 127.0.0.1. A request that reached the server on another address
	// (brasp serve --addr with a non-loopback host, which exposes the
	// playground on purpose) is answered whatever its Host. Set
	// AllowAnyHost behind a reverse proxy on loopback that forwards
	// another Host, or to answer every Host on every interface when
	// listening on a non-loopback address such as 0.0.0.0 (where a
	// connection to 127.0.0.1 is otherwise still checked).
	AllowAnyHost bool

	// delay is added to every computation (tests of the time limit).
	delay time.Duration
}

// Server is the playground: the embedded page at / and the JSON API under
// /api/. It implements http.Handler.
type Server struct {
	cfg Config
	mux *http.ServeMux
	sem chan struct{}
}

// New returns a playground server with the given limits.
func New(cfg Config) *Server {
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxWord <= 0 {
		cfg.MaxWord = DefaultMaxWord
	}
	if cfg.MaxPatternWord <= 0 {
		cfg.MaxPatternWord = DefaultMaxPatternWord
	}
	if cfg.MaxAttendWord <= 0 {
		cfg.MaxAttendWord = DefaultMaxAttendWord
	}
	if cfg.MaxCells <= 0 {
		cfg.MaxCells = DefaultMaxCells
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = runtime.GOMAXPROCS(0)
	}
	s := &Server{cfg: cfg, mux: http.NewServeMux(), sem: make(chan struct{}, cfg.Concurrency)}
	static, _ := fs.Sub(staticFiles, "static")
	s.mux.Handle("GET /", noCache(http.FileServerFS(static)))
	s.mux.HandleFunc("GET /api/examples", s.handleExamples)
	s.mux.HandleFunc("GET /api/features", s.handleFeatures)
	s.mux.HandleFunc("POST /api/run", post(s, s.run))
	s.mux.HandleFunc("POST /api/compile", post(s, s.compile))
	s.mux.HandleFunc("POST /api/model", s.handleModel)
	s.mux.HandleFunc("POST /api/ltl", post(s, s.ltl))
	s.mux.HandleFunc("POST /api/dfa", post(s, s.dfa))
	s.mux.HandleFunc("POST /api/decompile", post(s, s.decompile))
	s.mux.HandleFunc("POST /api/automaton", post(s, s.automaton))
	notFound := func(w http.ResponseWriter, r *http.Request) {
		writeError(w, &apiError{Status: http.StatusNotFound, Message: fmt.Sprintf("no API endpoint %s %s (see /api/features and the package documentation)", r.Method, r.URL.Path)})
	}
	s.mux.HandleFunc("GET /api/", notFound)
	s.mux.HandleFunc("POST /api/", notFound)
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if !s.cfg.AllowAnyHost {
		if local, ok := loopbackConn(r); ok && !loopbackHost(r.Host) {
			open := ""
			if local != nil {
				open = fmt.Sprintf(" (open http://%s/)", local)
			}
			writeError(w, &apiError{Status: http.StatusForbidden, Message: fmt.Sprintf(
				"forbidden host %q: the playground listens on loopback and answers only requests addressed to localhost, 127.0.0.1 or [::1]%s; "+
					"this keeps other web sites from reaching it through DNS rebinding (brasp serve --addr exposes it on another address)", r.Host, open)})
			return
		}
	}
	s.mux.ServeHTTP(w, r)
}

// loopbackConn reports whether r reached the server on a loopback address
// (local is that address), or without a TCP connection the server knows
// of (ServeHTTP called directly, a Unix socket; local is nil).
func loopbackConn(r *http.Request) (local net.Addr, ok bool) {
	addr, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	tcp, isTCP := addr.(*net.TCPAddr)
	if !isTCP {
		return nil, true
	}
	return tcp, tcp.IP.IsLoopback()
}

// loopbackHost reports whether the Host header host names a loopback
// host: localhost, or a loopback IP address, with or without a port.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	} else {
		host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func noCache(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		h.ServeHTTP(w, r)
	})
}

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
}

func (e *apiError) Error() string { return e.Message }

func badRequest(field, format string, args ...any) *apiError {
	return &apiError{Status: http.StatusUnprocessableEntity, Field: field, Message: fmt.Sprintf(format, args...)}
}

// sourceErrors turns the error of a parser into an apiError with one entry
// per problem, each with its line and column.
func sourceErrors(field string, err error) *apiError {
	e := &apiError{Status: http.StatusUnprocessableEntity, Field: field}
	// brasp and ltl report through the source package's types.
	var list source.ErrorList
	var one *source.Error
	switch {
	case errors.As(err, &list):
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

func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		data = []byte(`{"error":"internal error: cannot encode the response"}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	w.Write(data)
	w.Write([]byte("\n"))
}

func writeError(w http.ResponseWriter, e *apiError) { writeJSON(w, e.Status, e) }

// decode reads a JSON request body of at most s.cfg.MaxBody bytes into v,
// rejecting unknown fields and trailing data.
func (s *Server) decode(w http.ResponseWriter, r *http.Request, v any) *apiError {
	body := http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)
	data, err := io.ReadAll(body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return &apiError{Status: http.StatusRequestEntityTooLarge,
				Message: fmt.Sprintf("request too large: the limit is %d bytes (%s); shorten the program or the word", s.cfg.MaxBody, sizeString(s.cfg.MaxBody))}
		}
		return &apiError{Status: http.StatusBadRequest, Message: "cannot read the request body: " + err.Error()}
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return &apiError{Status: http.StatusBadRequest, Message: "malformed JSON request: " + jsonErrorString(data, err)}
	}
	if dec.More() {
		return &apiError{Status: http.StatusBadRequest, Message: "malformed JSON request: data after the JSON object"}
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

// post wraps a computation on a decoded request of type Req: it decodes the
// body, runs f under the time limit and the concurrency bound, and writes the
// result or the error as JSON.
func post[Req any](s *Server, f func(*Req) (any, *apiError)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		req := new(Req)
		if e := s.decode(w, r, req); e != nil {
			writeError(w, e)
			return
		}
		res, e := s.compute(r, func() (any, *apiError) { return f(req) })
		if e != nil {
			writeError(w, e)
			return
		}
		writeJSON(w, http.StatusOK, res)
	}
}

// compute runs f in its own goroutine and waits at most s.cfg.Timeout for
// it. A computation that runs past the limit is abandoned (its result is
// dropped); the request sizes bound how long it can go on.
func (s *Server) compute(r *http.Request, f func() (any, *apiError)) (any, *apiError) {
	timer := time.NewTimer(s.cfg.Timeout)
	defer timer.Stop()
	timeout := &apiError{Status: http.StatusServiceUnavailable,
		Message: fmt.Sprintf("time limit exceeded: the request took longer than %v, the server's limit per request; try a shorter word or a smaller program", s.cfg.Timeout)}
	select {
	case s.sem <- struct{}{}:
	case <-timer.C:
		return nil, timeout
	case <-r.Context().Done():
		return nil, &apiError{Status: http.StatusServiceUnavailable, Message: "request cancelled"}
	}
	type result struct {
		v any
		e *apiError
	}
	done := make(chan result, 1)
	go func() {
		defer func() { <-s.sem }()
		defer func() {
			if p := recover(); p != nil {
				done <- result{e: &apiError{Status: http.StatusInternalServerError, Message: fmt.Sprintf("internal error: %v (please report this with the input that caused it)", p)}}
			}
		}()
		if s.cfg.delay > 0 {
			time.Sleep(s.cfg.delay)
		}
		v, e := f()
		done <- result{v, e}
	}()
	select {
	case res := <-done:
		return res.v, res.e
	case <-timer.C:
		return nil, timeout
	case <-r.Context().Done():
		return nil, &apiError{Status: http.StatusServiceUnavailable, Message: "request cancelled"}
	}
}
