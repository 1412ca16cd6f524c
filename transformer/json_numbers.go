package transformer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"sync"

	"github.com/brasp-dev/brasp/budget"
)

// jsonNumbers is a vector or a matrix of a model's JSON file: an array of
// numbers, or an array of arrays of numbers. encoding/json hands its text
// over once (UnmarshalJSON keeps it), and parse reads it straight into
// rationals within the loader's budget, with no value built per number, so
// that a model costs about a pointer per parameter while it loads (the
// parameters a file repeats most, small integers, are shared: see
// sharedInt). What is wrong with the value is kept, not returned, so that
// the field that reads it can name itself in the error.
type jsonNumbers struct {
	text   []byte      // the value's text until parsed; nil when absent or null
	set    bool        // present and not null
	found  string      // what the value is when not an array ("a string", ...)
	object []byte      // the text of an object value (a sparse matrix)
	nums   []*big.Rat  // every number, row after row
	rows   []int       // the length of each row; nil for an array of numbers
	err    *numbersErr // the first bad entry
}

// numbersErr is a bad entry: its indices and what is wrong.
type numbersErr struct {
	index []int
	msg   string
}

func (e *numbersErr) at(path string) error {
	for _, k := range e.index {
		path += fmt.Sprintf("[%d]", k)
	}
	return fmt.Errorf("%s: %s", path, e.msg)
}

// UnmarshalJSON implements json.Unmarshaler: it keeps the text for parse.
func (j *jsonNumbers) UnmarshalJSON(b []byte) error {
	*j = jsonNumbers{}
	if b = bytes.TrimSpace(b); len(b) > 0 && string(b) != "null" {
		j.set, j.text = true, bytes.Clone(b)
	}
	return nil
}

// numbersEvery is how many numbers parse reads between two steps of its
// budget (a look at the context and the live heap).
const numbersEvery = 1 << 12

// parse reads the text kept by UnmarshalJSON, once, and drops it. The text
// is valid JSON (the decoder has checked it), so the reader only looks for
// the structure it wants, and stops at the first entry that is not a
// number. Only a stopped budget or the memory backstop is an error here;
// what is wrong with the value is kept for the field to report.
func (j *jsonNumbers) parse(bud *budget.Budget) error {
	b := j.text
	if b == nil {
		return nil
	}
	j.text = nil
	switch {
	case b[0] == '{':
		j.object = b
		return nil
	case b[0] != '[':
		j.found = jsonFound(b[0])
		return nil
	}
	// Every number but the last is followed by a comma: the count of
	// commas bounds the count of numbers, and the slice is made once.
	capacity := bytes.Count(b, []byte{','}) + 1
	if err := bud.Step(int64(capacity)); err != nil {
		return err
	}
	j.nums = make([]*big.Rat, 0, capacity)
	s := numScanner{b: b, i: 1}
	for k := 0; ; k++ {
		s.space()
		if k == 0 && s.peek() == ']' {
			return nil
		}
		nested := s.peek() == '['
		switch {
		case k == 0:
			if nested {
				j.rows = []int{}
			}
		case nested && j.rows == nil:
			j.err = &numbersErr{[]int{k}, "want a number, found an array"}
			return nil
		case !nested && j.rows != nil:
			j.err = &numbersErr{[]int{k}, "want an array, found " + jsonFound(s.peek())}
			return nil
		}
		if nested {
			s.i++
			n := 0
			for s.space(); s.peek() != ']'; n++ {
				if !j.number(&s, k, n) {
					return nil
				}
				if s.space(); s.peek() == ',' {
					s.i++
					s.space()
				}
				if len(j.nums)%numbersEvery == 0 {
					if err := bud.Step(numbersEvery); err != nil {
						return err
					}
				}
			}
			s.i++
			j.rows = append(j.rows, n)
		} else if !j.number(&s, k, -1) {
			return nil
		}
		if len(j.nums)%numbersEvery == 0 {
			if err := bud.Step(numbersEvery); err != nil {
				return err
			}
		}
		if s.space(); s.peek() != ',' {
			return nil
		}
		s.i++
	}
}

// number reads the number at the scanner into j.nums, or records why the
// entry (row k, column c; c < 0 in an array of numbers) is not one.
func (j *jsonNumbers) number(s *numScanner, k, c int) bool {
	r, msg := s.number()
	if msg != "" {
		index := []int{k}
		if c >= 0 {
			index = append(index, c)
		}
		j.err = &numbersErr{index, msg}
		return false
	}
	j.nums = append(j.nums, r)
	return true
}

// vec is the value as a vector of n numbers.
func (j *jsonNumbers) vec(bud *budget.Budget, n int, path string) (Vec, error) {
	if err := j.check(bud, path, false); err != nil {
		return nil, err
	}
	if len(j.nums) != n {
		return nil, fmt.Errorf("%s: has %d entries, want %d", path, len(j.nums), n)
	}
	return Vec(j.nums[:n:n]), nil
}

// list is the value as a vector of any length, nil when absent.
func (j *jsonNumbers) list(bud *budget.Budget, path string) (Vec, error) {
	if err := j.parse(bud); err != nil || !j.set {
		return nil, err
	}
	return j.vec(bud, len(j.nums), path)
}

// matrix is the value as a rows × cols matrix; its rows share one array.
func (j *jsonNumbers) matrix(bud *budget.Budget, rows, cols int, path string) (Matrix, error) {
	if err := j.check(bud, path, true); err != nil {
		return nil, err
	}
	if len(j.rows) != rows {
		return nil, fmt.Errorf("%s: has %d rows, want %d", path, len(j.rows), rows)
	}
	m := make(Matrix, rows)
	for r, n := range j.rows {
		if n != cols {
			return nil, fmt.Errorf("%s[%d]: has %d entries, want %d", path, r, n, cols)
		}
		m[r] = Vec(j.nums[r*cols : (r+1)*cols : (r+1)*cols])
	}
	return m, nil
}

// check parses the value and reports one that is not an array (of
// arrays, when nested) of numbers.
func (j *jsonNumbers) check(bud *budget.Budget, path string, nested bool) error {
	if err := j.parse(bud); err != nil {
		return err
	}
	switch {
	case j.err != nil:
		return j.err.at(path)
	case j.object != nil:
		return fmt.Errorf("%s: want an array, found an object", path)
	case j.found != "":
		return fmt.Errorf("%s: want an array, found %s", path, j.found)
	case nested && j.rows == nil && len(j.nums) > 0:
		return fmt.Errorf("%s[0]: want an array, found a number", path)
	case !nested && j.rows != nil:
		return fmt.Errorf("%s[0]: want a number, found an array", path)
	}
	return nil
}

// jsonFound names the JSON value that starts with c.
func jsonFound(c byte) string {
	switch c {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "true or false"
	case 'n':
		return "null"
	}
	return "a number"
}

// numScanner walks valid JSON text.
type numScanner struct {
	b []byte
	i int
}

func (s *numScanner) peek() byte {
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

func (s *numScanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\r', '\n':
			s.i++
		default:
			return
		}
	}
}

// number reads a number, or a string holding one ("1/3"), and returns it,
// or a message saying why the value there is not one.
func (s *numScanner) number() (*big.Rat, string) {
	switch c := s.peek(); c {
	case '"':
		start := s.i
		s.i++
		escaped := false
		for s.i < len(s.b) && s.b[s.i] != '"' {
			if s.b[s.i] == '\\' {
				escaped = true
				s.i++
			}
			s.i++
		}
		s.i++
		text := string(s.b[start+1 : min(s.i, len(s.b))-1])
		if escaped {
			if err := json.Unmarshal(s.b[start:s.i], &text); err != nil {
				return nil, err.Error()
			}
		}
		r, err := ParseRat(strings.TrimSpace(text))
		if err != nil {
			return nil, err.Error()
		}
		return sharedRat(r), ""
	case 'n':
		return nil, "missing number"
	case '[', '{', 't', 'f':
		return nil, "want a number, found " + jsonFound(c)
	}
	start := s.i
	for s.i < len(s.b) && !endsNumber(s.b[s.i]) {
		s.i++
	}
	text := s.b[start:s.i]
	if v, ok := smallIntText(text); ok {
		return sharedInt(v), ""
	}
	r, err := ParseRat(string(text))
	if err != nil {
		return nil, err.Error()
	}
	return sharedRat(r), ""
}

// endsNumber reports whether c ends a number's text in an array.
func endsNumber(c byte) bool {
	return c == ',' || c == ']' || c == ' ' || c == '\t' || c == '\r' || c == '\n'
}

// smallIntText reads a JSON integer literal in the range of sharedInt.
func smallIntText(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 4 {
		return 0, false
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = 10*v + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, v >= -maxSharedInt && v <= maxSharedInt
}

// maxSharedInt bounds the integers the loaders share.
const maxSharedInt = 1024

// sharedInts are the rationals -maxSharedInt … maxSharedInt, made once.
var sharedInts = sync.OnceValue(func() []*big.Rat {
	t := make([]*big.Rat, 2*maxSharedInt+1)
	for k := range t {
		t[k] = big.NewRat(int64(k-maxSharedInt), 1)
	}
	return t
})

// sharedInt returns the one rational the loaders use for the integer v
// (|v| ≤ maxSharedInt). Models read from files hold these in every entry
// equal to a small integer (most entries of a compiled model are 0 or ±1),
// so a parameter costs a pointer, not a rational of its own: entries are
// read-only (see Model).
func sharedInt(v int64) *big.Rat { return sharedInts()[v+maxSharedInt] }

// sharedRat returns r, or the shared rational of its value when r is a
// small integer.
func sharedRat(r *big.Rat) *big.Rat {
	if r.IsInt() && r.Num().IsInt64() {
		if v := r.Num().Int64(); v >= -maxSharedInt && v <= maxSharedInt {
			return sharedInt(v)
		}
	}
	return r
}

// sharedZeroMatrix is a rows × cols matrix of zeros that all share one
// rational, for a loader to fill (by replacing entries, never changing
// them).
func sharedZeroMatrix(rows, cols int) Matrix {
	zero := sharedInt(0)
	flat := make(Vec, rows*cols)
	for k := range flat {
		flat[k] = zero
	}
	m := make(Matrix, rows)
	for r := range m {
		m[r] = flat[r*cols : (r+1)*cols : (r+1)*cols]
	}
	return m
}
