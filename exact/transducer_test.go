package exact

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/examples"
)

// outputsDiffer reports the first position (1-based) where the output
// vectors of p and q differ on w (over p's alphabet), or 0.
func outputsDiffer(p, q *brasp.Program, w []int) int {
	wq := make([]int, len(w))
	for i, s := range w {
		wq[i] = q.Alphabet.Index(p.Alphabet[s])
	}
	tp, tq := p.RunReference(w), q.RunReference(wq)
	for i := range w {
		for _, s := range outputSymbols(p, q) {
			x, y := false, false
			if g := p.Output.Symbols.Index(s); g >= 0 {
				x = tp.Value(p.Output.Vectors[g], i)
			}
			if g := q.Output.Symbols.Index(s); g >= 0 {
				y = tq.Value(q.Output.Vectors[g], i)
			}
			if x != y {
				return i + 1
			}
		}
	}
	return 0
}

// checkTransducers compares TransducersEquivalent with brute force: no word
// shorter than its witness (up to maxLen) distinguishes p and q, the
// witness does at the reported position, and "equivalent" means no word up
// to maxLen distinguishes them.
func checkTransducers(t *testing.T, name string, p, q *brasp.Program, maxLen int) *TransducerDifference {
	t.Helper()
	diff, err := TransducersEquivalent(nil, p, q)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	limit := maxLen
	if diff != nil {
		limit = min(maxLen, len(diff.Word)-1)
		if pos := outputsDiffer(p, q, diff.Word); pos != diff.Position {
			t.Fatalf("%s: witness %q position %d, brute force %d", name, p.Alphabet.FormatWord(diff.Word), diff.Position, pos)
		}
	}
	brasptest.AllWords(len(p.Alphabet), limit, func(w []int) {
		if len(w) > 0 && outputsDiffer(p, q, w) > 0 {
			t.Fatalf("%s: %q distinguishes them; TransducersEquivalent says %+v", name, p.Alphabet.FormatWord(w), diff)
		}
	})
	return diff
}

func TestTransducersAssociativeRecall(t *testing.T) {
	p := examples.MustProgram("associative_recall.brasp")
	if d := checkTransducers(t, "itself", p, p, 3); d != nil {
		t.Fatalf("not equivalent to itself: %+v", d)
	}
	// Answer 1 for 2: the outputs differ first on the shortest word where
	// the recalled number is 2.
	src := string(mustSource(t, "associative_recall.brasp"))
	bad := strings.Replace(src, "output a:Y_a b:Y_b c:Y_c 1:Y_1 2:Y_2 3:Y_3", "output a:Y_a b:Y_b c:Y_c 1:Y_2 2:Y_1 3:Y_3", 1)
	q, err := brasp.Parse("swapped", []byte(bad))
	if err != nil {
		t.Fatal(err)
	}
	d := checkTransducers(t, "swapped", p, q, 3)
	if d == nil {
		t.Fatal("swapped outputs found equivalent")
	}
	// The shortest: a1aa, where both put out two symbols at position 4 (a,
	// and the recalled 1 or 2), outside the domain of associative recall.
	if got := fmt.Sprintf("%s@%d %v/%v", p.Alphabet.FormatWord(d.Word), d.Position, d.First, d.Second); got != "a1aa@4 [a 1]/[a 2]" {
		t.Errorf("witness %s", got)
	}
}

func mustSource(t *testing.T, name string) []byte {
	t.Helper()
	src, err := examples.Source(name)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestTransducersRandom: random transducers against themselves, against a
// simplified copy (equivalent) and against a copy with one output vector
// negated or moved (usually not), checked by brute force.
func TestTransducersRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 29))
	for k := range 40 {
		opts := brasptest.Options{Alphabet: 2 + k%2, Ops: 3 + k%3, Predicates: k%3 == 0}
		base := brasp.Format(brasptest.RandomProgram(rng, opts))
		p0, err := brasp.Parse("random", []byte(base))
		if err != nil {
			t.Fatal(err)
		}
		n := len(p0.Vectors)
		a, b := p0.Vectors[n-1].Name, p0.Vectors[n-2].Name
		body := dropOutput(base)
		mk := func(x, y, z string) *brasp.Program {
			src := body + fmt.Sprintf("Out_x(i) := %s\nOut_y(i) := %s\nOut_z(i) := %s\noutput x:Out_x y:Out_y z:Out_z\n", x, y, z)
			p, err := brasp.Parse("random", []byte(src))
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			return p
		}
		ai, bi := a+"(i)", b+"(i)"
		p := mk(ai+" & "+bi, ai+" & !"+bi, "!"+ai)
		same := mk(bi+" & "+ai, "!("+bi+" | !"+ai+")", "!"+ai)
		other := mk(ai+" & "+bi, ai+" & "+bi, "!"+ai)
		name := fmt.Sprintf("transducer %d", k)
		if d := checkTransducers(t, name+" vs itself", p, p, 5); d != nil {
			t.Fatalf("%s: not equivalent to itself: %+v", name, d)
		}
		if d := checkTransducers(t, name+" vs rewritten", p, same, 5); d != nil {
			t.Fatalf("%s: not equivalent to its rewriting: %+v", name, d)
		}
		checkTransducers(t, name+" vs changed", p, other, 5)
	}
}

func dropOutput(src string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(src, "\n") {
		if !strings.HasPrefix(line, "output ") {
			b.WriteString(line)
		}
	}
	return b.String()
}

func TestTransducersRefused(t *testing.T) {
	p := examples.MustProgram("associative_recall.brasp")
	acc := examples.MustProgram("dyck1_depth2.brasp")
	if _, err := TransducersEquivalent(nil, p, acc); err == nil {
		t.Error("an acceptor compared as a transducer")
	}
	if _, err := TransducersEquivalent(nil, p, mustTransducer(t, "ab")); err == nil || !strings.Contains(err.Error(), "different alphabets") {
		t.Errorf("different input alphabets: %v", err)
	}
}

func mustTransducer(t *testing.T, alpha string) *brasp.Program {
	t.Helper()
	var b strings.Builder
	for _, c := range alpha {
		fmt.Fprintf(&b, "Q_%c(i)\n", c)
	}
	b.WriteString("Y(i) := 1\noutput x:Y\n")
	p, err := brasp.Parse("t", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return p
}
