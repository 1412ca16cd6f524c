package ltlf

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// checkCompact fails unless ParseTraceCompact reads s exactly as ParseTrace
// does: the same error, or the same steps in order.
func checkCompact(t *testing.T, props []string, s string) {
	t.Helper()
	want, wantErr := ParseTrace(props, s)
	got, err := ParseTraceCompact(props, []byte(s))
	if fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("%q: error %v, want %v", s, err, wantErr)
	}
	if err != nil {
		return
	}
	if got.Len() != len(want) || (got.Narrow == nil) == (got.Wide == nil) {
		t.Fatalf("%q: %d steps (narrow %v), want %d", s, got.Len(), got.Narrow != nil, len(want))
	}
	for i, step := range want {
		k := 0
		if got.Narrow != nil {
			k = int(got.Narrow[i])
		} else {
			k = int(got.Wide[i])
		}
		if FormatTrace(props, Trace{got.Steps[k]}) != FormatTrace(props, Trace{step}) {
			t.Fatalf("%q: step %d is %v, want %v", s, i+1, got.Steps[k], step)
		}
	}
}

// TestParseTraceCompact compares ParseTraceCompact with ParseTrace on
// random traces (braces, spaces, quotes) over 3 and over 70 propositions
// (more than 256 distinct steps: stored two bytes per step) and on bad
// ones.
func TestParseTraceCompact(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	small := []string{"a", "b", "c"}
	var large []string
	for k := range 70 {
		large = append(large, fmt.Sprintf("p%d", k))
	}
	for _, props := range [][]string{small, large} {
		for range 100 {
			var steps []string
			for range 1 + rng.IntN(600) {
				var names []string
				for _, p := range props {
					if rng.IntN(len(props)) < 2 {
						if rng.IntN(5) == 0 {
							p = `"` + p + `"`
						}
						names = append(names, strings.Repeat(" ", rng.IntN(2))+p)
					}
				}
				step := strings.Join(names, ",")
				if rng.IntN(4) == 0 {
					step = "{" + step + "}"
				}
				steps = append(steps, step)
			}
			checkCompact(t, props, strings.Join(steps, ";"))
		}
	}
	for _, s := range []string{"", " ", "{}", ";", "a,,b", "a,", ",a", "a;d", `"a"`, `"a`, "{a", "a};b", "a ; b ;", "{ a , b }"} {
		checkCompact(t, small, s)
	}
	wide, err := ParseTraceCompact(large, []byte(strings.Repeat("p1;p2;p3,p4;", 1)+"p0"))
	if err != nil || wide.Narrow == nil {
		t.Errorf("few distinct steps: %v, want a byte per step", err)
	}
}

// FuzzParseTraceCompact checks ParseTraceCompact against ParseTrace on
// any string.
func FuzzParseTraceCompact(f *testing.F) {
	for _, s := range []string{"a,b;;c", "{}", "{a};{b,c}", ";", "a,,b", `"a"`, "d", "", "a,", " { a } ; b"} {
		f.Add(s)
	}
	for _, s := range []string{`"a;b";c`, `"a,b",c`, `"{}"`, `"a`, `{"a;b"};{}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkCompact(t, []string{"a", "b", "c"}, s)
		checkCompact(t, []string{"a;b", "a,b", "{}", "c"}, s)
	})
}

// TestTraceQuoting: a trace printed by FormatTrace reads back as the same
// trace, whatever the propositions' names (the trace syntax's own
// characters, spaces, keywords), by both readers.
func TestTraceQuoting(t *testing.T) {
	props := []string{"{}", "a;b", "c,d", "x y", "G", "true", "p0", "{", "}"}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		tr := make(Trace, 1+rng.IntN(5))
		for i := range tr {
			for p := range props {
				if rng.IntN(3) == 0 {
					tr[i] = tr[i].With(p)
				}
			}
		}
		s := FormatTrace(props, tr)
		back, err := ParseTrace(props, s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if FormatTrace(props, back) != s || len(back) != len(tr) {
			t.Fatalf("%q read back as %q", s, FormatTrace(props, back))
		}
		checkCompact(t, props, s)
	}
	if _, err := ParseTrace(props, `"a;b`); err == nil || !strings.Contains(err.Error(), "step 1: unclosed quote") {
		t.Fatalf("unclosed quote: %v", err)
	}
}
