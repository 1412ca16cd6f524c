package automata

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/internal/testkit"
	"github.com/brasp-dev/brasp/source"
)

func TestParseA3(t *testing.T) {
	d := loadDFA(t, "a3.dfa")
	if d.NumStates() != 4 || d.States[d.Start] != "0" || !d.Accept[3] {
		t.Fatalf("A_3 parsed wrongly:\n%s", Format(d))
	}
	for word, want := range map[string]bool{"RRR": true, "RRRL": false, "RRRLR": true, "LLLRRRRR": true, "RLRLRR": false} {
		if got := d.Accepts(testkit.Word(t, d.Alphabet, word)); got != want {
			t.Errorf("A_3 on %s = %v, want %v", word, got, want)
		}
	}
}

func TestParseImplicitSink(t *testing.T) {
	d := loadDFA(t, "dyck12.dfa")
	if d.NumStates() != 4 || d.States[3] != "sink" || d.Accept[3] {
		t.Fatalf("want an implicit rejecting sink as fourth state:\n%s", Format(d))
	}
	for word, want := range map[string]bool{"lr": true, "llrr": true, "lllrrr": false, "llrrlr": true, "r": false, "llrrlllrrr": false} {
		if got := d.Accepts(testkit.Word(t, d.Alphabet, word)); got != want {
			t.Errorf("L_{1,2} on %s = %v, want %v", word, got, want)
		}
	}
	// A state already named sink forces a fresh name.
	d2, err := Parse("x.dfa", []byte("alphabet a b\nstart sink\nsink a sink\n"))
	if err != nil || d2.NumStates() != 2 || d2.States[1] != "sink1" {
		t.Fatalf("got %v, %v", d2, err)
	}
}

func TestParseQuoting(t *testing.T) {
	src := `alphabet "(" ")" "#"  # brackets and a hash
start "start"
accept "start" "a b"
"start" "(" "a b"
"a b" ")" "start"
`
	d, err := Parse("q.dfa", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if !d.Accepts(testkit.Word(t, d.Alphabet, `"(" ")" "(" ")"`)) || d.Accepts(testkit.Word(t, d.Alphabet, `"#"`)) {
		t.Error("quoted automaton misbehaves")
	}
	out := Format(d)
	if !strings.Contains(out, `"start" "(" "a b"`) {
		t.Errorf("keyword state not quoted:\n%s", out)
	}
	d2, err := Parse("q2.dfa", []byte(out))
	if err != nil || !d2.Equal(d) {
		t.Fatalf("round trip failed: %v\n%s", err, out)
	}
}

func TestParseErrors(t *testing.T) {
	src := "alphabet a a\nstart p q\nstart p\np c q\np a q\np a r\n% oops\np a\n"
	_, err := Parse("bad.dfa", []byte(src))
	if err == nil {
		t.Fatal("no error")
	}
	want := []string{
		"bad.dfa:1:12: duplicate symbol a",
		"bad.dfa:2:1: start needs exactly one state",
		"bad.dfa:4:3: symbol c is not in the alphabet {a}",
		"bad.dfa:6:1: conflicting transition p a: already goes to q at bad.dfa:5:1",
		"bad.dfa:7:1: unexpected character '%'",
		"bad.dfa:8:1: expected a transition FROM SYMBOL TO",
	}
	// The first pass reports the syntax errors; symbol errors come once
	// the structure is sound, so check the two passes separately.
	msg := errorLines(err)
	for _, w := range []string{want[0], want[1], want[4], want[5]} {
		if !containsPrefix(msg, w) {
			t.Errorf("missing error %q in\n%s", w, strings.Join(msg, "\n"))
		}
	}
	_, err = Parse("bad.dfa", []byte("alphabet a\nstart p\np c q\np a q\np a r\n"))
	msg = errorLines(err)
	for _, w := range []string{"bad.dfa:3:3: symbol c is not in the alphabet {a}", "bad.dfa:5:1: conflicting transition p a: already goes to q at bad.dfa:4:1"} {
		if !containsPrefix(msg, w) {
			t.Errorf("missing error %q in\n%s", w, strings.Join(msg, "\n"))
		}
	}
	for src, w := range map[string]string{
		"":                     "e.dfa:1:1: missing alphabet line",
		"alphabet a\n":         "e.dfa:2:1: missing start line",
		"alphabet\nstart q\n":  "e.dfa:1:1: alphabet needs at least one symbol",
		"alphabet a\nstart \"": "e.dfa:2:7: malformed quoted string",
	} {
		_, err := Parse("e.dfa", []byte(src))
		if !containsPrefix(errorLines(err), w) {
			t.Errorf("Parse(%q): got %v, want %q", src, err, w)
		}
	}
}

func errorLines(err error) []string {
	if err == nil {
		return nil
	}
	var out []string
	if el, ok := err.(source.ErrorList); ok {
		for _, e := range el {
			out = append(out, e.Error())
		}
		return out
	}
	return []string{err.Error()}
}

func containsPrefix(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

func TestFormatRoundTripRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		d := randomDFA(rng, 1+rng.IntN(8), 1+rng.IntN(3))
		out := Format(d)
		e, err := Parse("r.dfa", []byte(out))
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if !e.Equal(d) {
			t.Fatalf("round trip changed the automaton:\n%s\n%s", out, Format(e))
		}
		js, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		var f DFA
		if err := json.Unmarshal(js, &f); err != nil || !f.Equal(d) {
			t.Fatalf("JSON round trip failed: %v\n%s", err, js)
		}
	}
}

func TestJSONErrors(t *testing.T) {
	for _, src := range []string{
		`{"alphabet":[],"states":["a"],"start":"a"}`,
		`{"alphabet":["x"],"states":["a","a"],"start":"a"}`,
		`{"alphabet":["x"],"states":["a"],"start":"b"}`,
		`{"alphabet":["x"],"states":["a"],"start":"a","transitions":{"a":{"y":"a"}}}`,
		`{"alphabet":["x"],"states":["a"],"start":"a","transitions":{"a":{"x":"c"}}}`,
	} {
		var d DFA
		if err := json.Unmarshal([]byte(src), &d); err == nil {
			t.Errorf("accepted %s", src)
		}
	}
	var d DFA
	if err := json.Unmarshal([]byte(`{"alphabet":["x","y"],"states":["a"],"start":"a","accept":["a"],"transitions":{"a":{"x":"a"}}}`), &d); err != nil {
		t.Fatal(err)
	}
	if d.NumStates() != 2 || !d.Accepts([]int{0, 0}) || d.Accepts([]int{1}) {
		t.Errorf("implicit sink missing:\n%s", Format(&d))
	}
}

func TestDOT(t *testing.T) {
	out := DOT(loadDFA(t, "tomita4.dfa"))
	for _, want := range []string{"digraph dfa {", `s0 -> s1 [label="0"]`, "doublecircle", "__start -> s0"} {
		if !strings.Contains(out, want) {
			t.Errorf("DOT output lacks %q:\n%s", want, out)
		}
	}
}

// minimalByMoore is an independent reference: the number of Nerode classes of
// the reachable states, by naive Moore refinement.
func minimalByMoore(d *DFA) int {
	reach := d.Reachable()
	class := make([]int, d.NumStates())
	for q := range class {
		if d.Accept[q] {
			class[q] = 1
		}
	}
	for {
		sig := map[string]int{}
		next := make([]int, len(class))
		for q := range class {
			if !reach[q] {
				continue
			}
			key := []int{class[q]}
			for _, r := range d.Delta[q] {
				key = append(key, class[r])
			}
			k := fmt.Sprint(key)
			if _, ok := sig[k]; !ok {
				sig[k] = len(sig)
			}
			next[q] = sig[k]
		}
		if slices.Equal(next, class) || countDistinct(next, reach) == countDistinct(class, reach) {
			return countDistinct(next, reach)
		}
		class = next
	}
}

func countDistinct(class []int, reach []bool) int {
	seen := map[int]bool{}
	for q, c := range class {
		if reach[q] {
			seen[c] = true
		}
	}
	return len(seen)
}

func TestMinimizeRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	words := testkit.Words(2, 0, 8)
	for range 500 {
		n, k := 1+rng.IntN(12), 1+rng.IntN(2)
		d := randomDFA(rng, n, k)
		m := minimize(t, d)
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
		if got, want := m.NumStates(), minimalByMoore(d); got != want {
			t.Fatalf("Minimize gave %d states, Moore %d:\n%s", got, want, Format(d))
		}
		for _, w := range words {
			if slices.Max(append([]int{0}, w...)) >= k {
				continue
			}
			if m.Accepts(w) != d.Accepts(w) {
				t.Fatalf("Minimize changed the language on %v", w)
			}
		}
		// Canonical: a renamed and permuted copy minimises to the same table.
		perm := rng.Perm(n)
		p := NewDFA(d.Alphabet, n)
		p.Start = perm[d.Start]
		for q := range n {
			p.Accept[perm[q]] = d.Accept[q]
			for a, r := range d.Delta[q] {
				p.Delta[perm[q]][a] = perm[r]
			}
		}
		mp := minimize(t, p)
		if !slices.EqualFunc(mp.Delta, m.Delta, slices.Equal) || !slices.Equal(mp.Accept, m.Accept) {
			t.Fatalf("Minimize is not canonical")
		}
	}
}

func TestCompareAndProducts(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	words := testkit.Words(2, 0, 9)
	for range 400 {
		a := randomDFA(rng, 1+rng.IntN(5), 2)
		b := randomDFA(rng, 1+rng.IntN(5), 2)
		for _, domain := range []Domain{SigmaStar, SigmaPlus} {
			diff, err := Compare(nil, a, b, domain)
			if err != nil {
				t.Fatal(err)
			}
			var first []int
			for _, w := range words {
				if (domain == SigmaPlus && len(w) == 0) || a.Accepts(w) == b.Accepts(w) {
					continue
				}
				first = w
				break
			}
			switch {
			case first == nil && diff != nil:
				t.Fatalf("Compare found %v but no word up to length 9 differs", diff.Word)
			case first != nil && diff == nil:
				t.Fatalf("Compare missed %v", first)
			case first != nil && (!slices.Equal(first, diff.Word) || diff.AcceptedByFirst != a.Accepts(first)):
				t.Fatalf("Compare gave %v (first accepts: %v), want %v", diff.Word, diff.AcceptedByFirst, first)
			}
		}
		inter, _ := Intersect(a, b)
		uni, _ := Union(a, b)
		dif, _ := Difference(a, b)
		comp := Complement(a)
		ne := RestrictNonEmpty(a)
		for _, w := range words[:200] {
			x, y := a.Accepts(w), b.Accepts(w)
			if inter.Accepts(w) != (x && y) || uni.Accepts(w) != (x || y) || dif.Accepts(w) != (x && !y) || comp.Accepts(w) == x || ne.Accepts(w) != (x && len(w) > 0) {
				t.Fatalf("Boolean operation wrong on %v", w)
			}
		}
	}
	if _, err := Compare(nil, randomDFA(rng, 2, 2), randomDFA(rng, 2, 3), SigmaStar); err == nil {
		t.Error("different alphabets accepted")
	}
}

func TestDeterminize(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	words := testkit.Words(2, 0, 8)
	for range 300 {
		n := 1 + rng.IntN(6)
		m := NewNFA(testkit.Letters(2), n)
		m.Start = []int{rng.IntN(n)}
		for q := range n {
			m.Accept[q] = rng.IntN(3) == 0
			for range rng.IntN(4) {
				m.AddTransition(q, rng.IntN(2), rng.IntN(n))
			}
			if rng.IntN(4) == 0 {
				m.AddEpsilon(q, rng.IntN(n))
			}
		}
		d, err := m.Determinize(nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range words {
			// Reference: the set of runs explored word by word.
			if d.Accepts(w) != m.Accepts(w) || (len(w) <= 6 && d.Accepts(w) != nfaAcceptsNaive(m, w)) {
				t.Fatalf("subset construction wrong on %v", w)
			}
		}
	}
	// The classic blow-up: the n-th symbol from the end is b.
	n := 10
	m := NewNFA(testkit.Letters(2), n+1)
	m.Start = []int{0}
	m.AddTransition(0, 0, 0)
	m.AddTransition(0, 1, 0)
	m.AddTransition(0, 1, 1)
	for q := 1; q < n; q++ {
		m.AddTransition(q, 0, q+1)
		m.AddTransition(q, 1, q+1)
	}
	m.Accept[n] = true
	// Each subset of 11 states over 2 symbols costs 145 bytes.
	small := budget.New(context.Background(), budget.Settings{"subset-bytes": 100 * 145})
	if _, err := m.Determinize(small); !errors.Is(err, budget.ErrLimit) || !strings.Contains(err.Error(), "--limit subset-bytes=N") {
		t.Errorf("limit not enforced: %v", err)
	}
	d, err := m.Determinize(budget.New(context.Background(), budget.Settings{"subset-bytes": 1 << 10 * 145}))
	if err != nil || minimize(t, d).NumStates() != 1<<n {
		t.Errorf("want %d states, got %v", 1<<n, err)
	}
}

// nfaAcceptsNaive explores runs recursively (no subsets, no bitsets).
func nfaAcceptsNaive(m *NFA, w []int) bool {
	var run func(q, i int, epsBudget int) bool
	run = func(q, i, epsBudget int) bool {
		if i == len(w) && m.Accept[q] {
			return true
		}
		if epsBudget > 0 {
			for _, r := range m.Eps[q] {
				if run(r, i, epsBudget-1) {
					return true
				}
			}
		}
		if i < len(w) {
			for _, r := range m.Delta[q][w[i]] {
				if run(r, i+1, m.NumStates()) {
					return true
				}
			}
		}
		return false
	}
	for _, s := range m.Start {
		if run(s, 0, m.NumStates()) {
			return true
		}
	}
	return false
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"a3.dfa", "dyck12.dfa", "tomita3.dfa", "first_a.dfa"} {
		src, err := testdataFS.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte("alphabet \"(\" x\nstart \"start\"\naccept \"start\"\n\"start\" \"(\" q # c\n"))
	f.Add([]byte("alphabet a a\nstart p q\n% \"\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := Parse("fuzz.dfa", src)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.dfa:") {
				t.Fatalf("error without position: %v", err)
			}
			return
		}
		if err := d.Validate(); err != nil {
			t.Fatalf("parsed an invalid automaton: %v", err)
		}
		out := Format(d)
		e, err := Parse("fuzz2.dfa", []byte(out))
		if err != nil {
			t.Fatalf("printer output does not parse: %v\n%s", err, out)
		}
		if !e.Equal(d) || Format(e) != out {
			t.Fatalf("round trip changed the automaton:\n%s\n%s", out, Format(e))
		}
	})
}
