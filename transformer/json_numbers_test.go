package transformer

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/budget"
)

// TestJSONNumbers: the number reader's answers and errors on each shape a
// vector or matrix field may be given, and small integers shared.
func TestJSONNumbers(t *testing.T) {
	read := func(text string) *jsonNumbers {
		var j jsonNumbers
		if err := j.UnmarshalJSON([]byte(text)); err != nil {
			t.Fatal(err)
		}
		return &j
	}
	for _, c := range []struct {
		text   string
		matrix bool
		want   string // the error, or the numbers read
	}{
		{`[1, -2, "1/3", 0.5, 1e2, "\u0031"]`, false, "1 -2 1/3 1/2 100 1"},
		{`[[1, 2], [3, 4]]`, true, "1 2 3 4"},
		{` [ [ 1 ,2 ] , [3,4 ] ] `, true, "1 2 3 4"},
		{`[]`, false, ""},
		{`[1, [2]]`, false, "f[1]: want a number, found an array"},
		{`[[1], 2]`, true, "f[1]: want an array, found a number"},
		{`[[1], [2, null]]`, true, "f[1][1]: missing number"},
		{`[[1], [2, {"a": 1}]]`, true, "f[1][1]: want a number, found an object"},
		{`[1, true]`, false, "f[1]: want a number, found true or false"},
		{`[1, "x"]`, false, `f[1]: "x" is not a number`},
		{`[1, 1e99999]`, false, "f[1]: number \"1e99999\": exponent out of range"},
		{`"1"`, false, "f: want an array, found a string"},
		{`{"a": 1}`, false, "f: want an array, found an object"},
		{`[1, 2]`, true, "f[0]: want an array, found a number"},
		{`[[1, 2]]`, false, "f[0]: want a number, found an array"},
	} {
		j := read(c.text)
		var got string
		var err error
		if c.matrix {
			var m Matrix
			if m, err = j.matrix(nil, len(j.rowsOf(t)), 2, "f"); err == nil {
				for _, row := range m {
					for _, x := range row {
						got += " " + x.RatString()
					}
				}
			}
		} else {
			var v Vec
			if v, err = j.list(nil, "f"); err == nil {
				for _, x := range v {
					got += " " + x.RatString()
				}
			}
		}
		if err != nil {
			got = " " + err.Error()
		}
		if got = strings.TrimPrefix(got, " "); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.text, got, c.want)
		}
	}
	v, err := read(`[0, 0, -1, 1024, 1025]`).list(nil, "f")
	if err != nil {
		t.Fatal(err)
	}
	if v[0] != v[1] || v[0] != sharedInt(0) || v[2] != sharedInt(-1) || v[3] != sharedInt(1024) || v[4].RatString() != "1025" {
		t.Errorf("small integers are not shared: %p %p %p", v[0], v[1], v[2])
	}
	// A stopped budget stops the reader.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	long := "[" + strings.Repeat("1, ", 1<<14) + "1]"
	if _, err := read(long).list(budget.New(ctx, nil), "f"); !errors.Is(err, budget.ErrStopped) {
		t.Errorf("stopped budget: got %v", err)
	}
}

// rowsOf parses j and returns its rows (for the test's matrix shape).
func (j *jsonNumbers) rowsOf(t *testing.T) []int {
	if err := j.parse(nil); err != nil {
		t.Fatal(err)
	}
	return j.rows
}
