package source

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestPos(t *testing.T) {
	for _, c := range []struct {
		p     Pos
		valid bool
		str   string
	}{
		{Pos{}, false, "-"},
		{Pos{Line: 0, Col: 5}, false, "-"},
		{Pos{Line: 1, Col: 1}, true, "1:1"},
		{Pos{Line: 12, Col: 0}, true, "12:0"},
		{Pos{Line: 3, Col: 40}, true, "3:40"},
	} {
		if got := c.p.IsValid(); got != c.valid {
			t.Errorf("%#v.IsValid() = %v, want %v", c.p, got, c.valid)
		}
		if got := c.p.String(); got != c.str {
			t.Errorf("%#v.String() = %q, want %q", c.p, got, c.str)
		}
	}
	if !(Pos{}).Before(Pos{Line: 1, Col: 1}) || !(Pos{Line: 1, Col: 9}).Before(Pos{Line: 2, Col: 1}) ||
		!(Pos{Line: 2, Col: 1}).Before(Pos{Line: 2, Col: 2}) || (Pos{Line: 2, Col: 2}).Before(Pos{Line: 2, Col: 2}) ||
		(Pos{Line: 3, Col: 1}).Before(Pos{Line: 2, Col: 7}) {
		t.Error("Before does not order by line, then column")
	}
}

func TestErrorForms(t *testing.T) {
	at := Pos{Line: 2, Col: 7}
	for _, c := range []struct {
		e    Error
		want string
	}{
		{Error{File: "f.brasp", Pos: at, Msg: "bad"}, "f.brasp:2:7: bad"},
		{Error{Pos: at, Msg: "bad"}, "2:7: bad"},
		{Error{File: "f.brasp", Msg: "bad"}, "f.brasp: bad"},
		{Error{Msg: "bad"}, "bad"},
		// A named error does not change the text.
		{Error{File: "f.ltl", Pos: at, Msg: "deep", Err: errors.New("named")}, "f.ltl:2:7: deep"},
	} {
		if got := c.e.Error(); got != c.want {
			t.Errorf("%#v.Error() = %q, want %q", c.e, got, c.want)
		}
	}
}

var errNamed = errors.New("named limit")

func TestUnwrap(t *testing.T) {
	e := &Error{Pos: Pos{Line: 1, Col: 1}, Msg: "x", Err: errNamed}
	if !errors.Is(e, errNamed) {
		t.Error("errors.Is(*Error, its named error) = false")
	}
	if errors.Is(&Error{Msg: "x"}, errNamed) {
		t.Error("errors.Is(*Error without a named error, errNamed) = true")
	}

	var l ErrorList
	l.Add("f", Pos{Line: 1, Col: 1}, "first")
	if errors.Is(l.Err(), errNamed) {
		t.Error("errors.Is(list without a named error, errNamed) = true")
	}
	l.AddErr("f", Pos{Line: 3, Col: 1}, errNamed, "%v: more than %d", errNamed, 10)
	err := fmt.Errorf("parsing: %w", l.Err())
	if !errors.Is(err, errNamed) {
		t.Error("errors.Is(wrapped list, errNamed) = false")
	}
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 2 {
		t.Errorf("errors.As(wrapped list, *ErrorList) did not find the list: %v", list)
	}
	var one *Error
	if !errors.As(err, &one) || one.Msg != "first" {
		t.Errorf("errors.As(wrapped list, **Error) = %v, want the first error", one)
	}
	if got, want := l[1].Msg, "named limit: more than 10"; got != want {
		t.Errorf("AddErr message = %q, want %q", got, want)
	}
	if got := len(l.Unwrap()); got != 2 {
		t.Errorf("len(Unwrap()) = %d, want 2", got)
	}
}

func TestErrEmpty(t *testing.T) {
	var l ErrorList
	if err := l.Err(); err != nil {
		t.Errorf("empty ErrorList.Err() = %v, want nil", err)
	}
	if err := (ErrorList{}).Err(); err != nil {
		t.Errorf("ErrorList{}.Err() = %v, want nil", err)
	}
	if got := l.Error(); got != "no errors" {
		t.Errorf("empty ErrorList.Error() = %q, want %q", got, "no errors")
	}
}

func TestSortAndError(t *testing.T) {
	var l ErrorList
	l.Add("f", Pos{Line: 3, Col: 2}, "c")
	l.Add("f", Pos{Line: 1, Col: 5}, "b")
	l.Add("f", Pos{Line: 3, Col: 2}, "d") // same position as c: stays after it
	l.Add("f", Pos{}, "whole file")       // no position: first
	l.Add("f", Pos{Line: 1, Col: 2}, "a")
	l.Add("f", Pos{Line: 2, Col: 9}, "%s%d", "x", 1)
	err := l.Err()
	want := strings.Join([]string{
		"f: whole file",
		"f:1:2: a",
		"f:1:5: b",
		"f:2:9: x1",
		"f:3:2: c",
		"f:3:2: d",
	}, "\n")
	if err == nil || err.Error() != want {
		t.Errorf("Err().Error() =\n%v\nwant\n%s", err, want)
	}
	// Err sorts l itself, as go/scanner's Sort does.
	if l[0].Msg != "whole file" || l[5].Msg != "d" {
		t.Errorf("Err did not sort the list in place: %v", l)
	}
	if got, want := (ErrorList{{Msg: "only"}}).Error(), "only"; got != want {
		t.Errorf("one-error list prints %q, want %q", got, want)
	}
}

// TestCap checks that a list of many problems keeps MaxKept of them, counts
// the rest, and prints MaxPrinted then "and N more errors".
func TestCap(t *testing.T) {
	var l ErrorList
	const n = 1300
	for i := n; i > 0; i-- { // added last position first: printing sorts
		l.AddErr("f", Pos{Line: i, Col: 1}, errNamed, "problem %d", i)
	}
	if len(l) != MaxKept+1 || l.Len() != n {
		t.Fatalf("len = %d, Len() = %d; want %d kept and %d found", len(l), l.Len(), MaxKept+1, n)
	}
	err := l.Err()
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != MaxPrinted+1 {
		t.Fatalf("printed %d lines, want %d:\n%v", len(lines), MaxPrinted+1, err)
	}
	// The kept problems are the first added (lines n down to n-99), sorted.
	if got, want := lines[0], fmt.Sprintf("f:%d:1: problem %d", n-MaxKept+1, n-MaxKept+1); got != want {
		t.Errorf("first line %q, want %q", got, want)
	}
	if got, want := lines[MaxPrinted], fmt.Sprintf("and %d more errors", n-MaxPrinted); got != want {
		t.Errorf("last line %q, want %q", got, want)
	}
	if last := l[len(l)-1]; !errors.Is(last, ErrTooMany) || last.Msg != fmt.Sprintf("and %d more errors", n-MaxKept) {
		t.Errorf("closing entry %q does not count the %d dropped problems", last.Msg, n-MaxKept)
	}
	if !errors.Is(err, errNamed) || !errors.Is(err, ErrTooMany) {
		t.Error("errors.Is does not see the kept problems' and the cap's named errors")
	}

	var small ErrorList
	for i := 1; i <= MaxPrinted+1; i++ {
		small.Add("f", Pos{Line: i, Col: 1}, "p")
	}
	if got := strings.Split(small.Err().Error(), "\n"); len(got) != MaxPrinted+1 || got[MaxPrinted] != "and 1 more error" {
		t.Errorf("11 problems print %q, want 10 then \"and 1 more error\"", got)
	}
}

// TestGiveUp checks that a list whose scanner stopped at Full ends with
// "too many errors", not a count it does not know.
func TestGiveUp(t *testing.T) {
	var l ErrorList
	for i := 1; !l.Full(); i++ {
		l.Add("f", Pos{Line: 1, Col: i}, "bad")
	}
	lines := strings.Split(l.Err().Error(), "\n")
	if len(lines) != MaxPrinted+1 || lines[MaxPrinted] != "too many errors" {
		t.Errorf("a list given up on prints %q, want ten problems and \"too many errors\"", lines)
	}
	if last := l[len(l)-1]; last.Msg != "too many errors" {
		t.Errorf("closing entry %q, want \"too many errors\"", last.Msg)
	}
}
