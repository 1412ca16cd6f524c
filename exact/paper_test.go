package exact

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/examples"
	"github.com/brasp-dev/brasp/internal/testkit"
	"github.com/brasp-dev/brasp/ltl"
	"github.com/brasp-dev/brasp/ltl/ltltest"
)

// loadDFA parses the automaton at path.
func loadDFA(t *testing.T, path string) *automata.DFA {
	return testkit.Load(t, path, automata.Parse)
}

// loadLTL parses the formula ltl/testdata/name.
func loadLTL(t *testing.T, name string) *ltl.Formula {
	return testkit.Load(t, filepath.Join("..", "ltl", "testdata", name), ltl.ParseFile)
}

func mustDFA(t *testing.T) func(*automata.DFA, error) *automata.DFA {
	return func(d *automata.DFA, err error) *automata.DFA {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
}

// accepter runs one side of a comparison on a word of its own alphabet.
type accepter func(w []int) bool

// checkCounterexample verifies a reported difference by running both sides
// themselves (not their DFAs) on the word, and that it is shortest: every
// shorter non-empty word is treated alike by the two sides.
func checkCounterexample(t *testing.T, name string, sigma int, a, b accepter, w []int, aAccepts bool) {
	t.Helper()
	if len(w) == 0 {
		t.Fatalf("%s: empty counterexample", name)
	}
	if a(w) != aAccepts || b(w) == aAccepts {
		t.Fatalf("%s: counterexample %v does not separate the sides when run (a %v, b %v, reported a accepts %v)", name, w, a(w), b(w), aAccepts)
	}
	if len(w) > 1 {
		brasptest.AllWords(sigma, len(w)-1, func(v []int) {
			if a(v) != b(v) {
				t.Fatalf("%s: %v is shorter than the reported counterexample %v", name, v, w)
			}
		})
	}
}

// TestDyckEquivalences: the paper's running example, its DFA (Fig. of L_{1,2})
// and the generated Dyck-k programs against the stack recogniser; depth 2 vs
// depth 3 is a near miss with the counterexample lllrrr.
func TestDyckEquivalences(t *testing.T) {
	prog := examples.MustProgram(examples.Dyck)
	d := mustDFA(t)(ProgramDFA(nil, prog))
	eq, w, _, err := Equivalent(d, loadDFA(t, filepath.Join("..", "automata", "testdata", "dyck12.dfa")))
	if err != nil || !eq {
		t.Fatalf("Dyck program vs L_{1,2} DFA: %v %v %v", eq, w, err)
	}
	// The three depths 0, 1, 2 and the sink, and a start state that
	// rejects ε unlike depth 0.
	if d.NumStates() != 5 {
		t.Errorf("minimal DFA of the Dyck program has %d states, want 5", d.NumStates())
	}
	for k := 1; k <= 2; k++ {
		for depth := 1; depth <= 3; depth++ {
			p, err := examples.DyckProgram(k, depth)
			if err != nil {
				t.Fatal(err)
			}
			d := mustDFA(t)(ProgramDFA(nil, p))
			maxLen := 10
			if k == 2 {
				maxLen = 6
			}
			brasptest.AllWords(2*k, maxLen, func(w []int) {
				if d.Accepts(w) != examples.InDyck(w, depth) {
					t.Fatalf("Dyck-%d depth %d on %v: DFA %v", k, depth, w, d.Accepts(w))
				}
			})
		}
	}
	p3, _ := examples.DyckProgram(1, 3)
	d3 := mustDFA(t)(ProgramDFA(nil, p3))
	eq, w, firstAcc, err := Equivalent(d, d3)
	if err != nil || eq || firstAcc || prog.Alphabet.FormatWord(w) != "lllrrr" {
		t.Fatalf("depth 2 vs depth 3: %v %q %v %v", eq, prog.Alphabet.FormatWord(w), firstAcc, err)
	}
	checkCounterexample(t, "dyck2 vs dyck3", 2, prog.Accepts, p3.Accepts, w, firstAcc)
}

// TestStairEquivalences: the STAIR_k example programs against their LTL
// formulas (App. C), and near misses STAIR_k vs STAIR_{k+1} with the
// counterexample a^k.
func TestStairEquivalences(t *testing.T) {
	for k := 1; k <= 6; k++ {
		var p *brasp.Program
		if k <= 5 {
			p = examples.MustProgram(fmt.Sprintf("stair%d.brasp", k))
		} else {
			var err error
			if p, err = examples.StairProgram(k); err != nil {
				t.Fatal(err)
			}
		}
		f := loadLTL(t, fmt.Sprintf("stair%d.ltl", k))
		dp := mustDFA(t)(ProgramDFA(nil, p))
		df := mustDFA(t)(FormulaDFA(nil, f))
		if eq, w, _, err := Equivalent(dp, df); err != nil || !eq {
			t.Fatalf("STAIR_%d program vs formula: %v %v", k, w, err)
		}
		// Counting the a's of the current run 0..k-1 (ε included in 0), and
		// the accepting sink.
		if dp.NumStates() != k+1 {
			t.Errorf("STAIR_%d: minimal DFA has %d states, want k+1 = %d", k, dp.NumStates(), k+1)
		}
		if k < 6 {
			g := loadLTL(t, fmt.Sprintf("stair%d.ltl", k+1))
			dg := mustDFA(t)(FormulaDFA(nil, g))
			eq, w, firstAcc, err := Equivalent(dp, dg)
			if err != nil || eq || !firstAcc || p.Alphabet.FormatWord(w) != strings.Repeat("a", k) {
				t.Fatalf("STAIR_%d vs STAIR_%d: %v %v %v %v", k, k+1, eq, w, firstAcc, err)
			}
			ev := ltl.NewEvaluator(g)
			checkCounterexample(t, fmt.Sprintf("stair%d vs stair%d", k, k+1), 3, p.Accepts, ev.Accepts, w, firstAcc)
		}
	}
	for k := 1; k <= 16; k++ {
		p, _ := examples.StairProgram(k)
		d := mustDFA(t)(ProgramDFA(nil, p))
		rng := rand.New(rand.NewPCG(uint64(k), 1))
		for range 300 {
			w := brasptest.RandomWord(rng, 3, 1+rng.IntN(40))
			if d.Accepts(w) != examples.InStair(w, k) {
				t.Fatalf("STAIR_%d on %v", k, w)
			}
		}
	}
}

// TestPaperFormulas: φ1–φ4 of §3.3 against the evaluator; the Mid formula is
// refused.
func TestPaperFormulas(t *testing.T) {
	for _, name := range []string{"phi1", "phi2", "phi3", "phi4"} {
		f := loadLTL(t, name+".ltl")
		d := mustDFA(t)(FormulaDFA(nil, f))
		ev := ltl.NewEvaluator(f)
		brasptest.AllWords(3, 7, func(w []int) {
			if d.Accepts(w) != ev.Accepts(w) {
				t.Fatalf("%s on %v", name, w)
			}
		})
	}
	if _, err := FormulaDFA(nil, loadLTL(t, "mid.ltl")); err == nil || !strings.Contains(err.Error(), "Mid is not regular: {#a^m#b^m#} is definable with it") {
		t.Fatalf("Mid: %v", err)
	}
}

// TestExamples: every example acceptor's DFA against the reference
// interpreter.
func TestExamples(t *testing.T) {
	for _, name := range examples.Names() {
		if !strings.HasSuffix(name, ".brasp") {
			continue
		}
		p := examples.MustProgram(name)
		if p.IsTransducer() {
			if _, err := ProgramDFA(nil, p); err != ErrTransducer {
				t.Errorf("%s: transducer: %v", name, err)
			}
			continue
		}
		d := mustDFA(t)(ProgramDFA(nil, p))
		maxLen := 7
		if len(p.Alphabet) > 2 {
			maxLen = 6
		}
		checkProgram(t, name, p, d, maxLen)
	}
}

// TestRandomFormulas: hundreds of random formulas (mixed since/until,
// non-strict operators, predicates) against the evaluator on every word up
// to length 7.
func TestRandomFormulas(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	for i := range 400 {
		pool := ltl.NewPool(brasptest.Alphabet(2))
		f := ltltest.RandomFormula(rng, pool, 3+rng.IntN(12), true)
		d, err := FormulaDFA(nil, f)
		if err != nil {
			t.Fatalf("%d: %s: %v", i, ltl.Format(f), err)
		}
		ev := ltl.NewEvaluator(f)
		brasptest.AllWords(2, 7, func(w []int) {
			if d.Accepts(w) != ev.Accepts(w) {
				t.Fatalf("%d: %s on %v: DFA %v", i, ltl.Format(f), w, d.Accepts(w))
			}
		})
	}
}

// TestRandomNearMisses compares pairs of random programs: every reported
// counterexample is checked by running both programs' reference
// interpreters, and checked to be shortest; equal verdicts are checked on
// all words up to length 6.
func TestRandomNearMisses(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	diff := 0
	for range 200 {
		opts := brasptest.Options{Alphabet: 2, Ops: 3 + rng.IntN(3), Predicates: rng.IntN(2) == 0}
		p, q := brasptest.RandomProgram(rng, opts), brasptest.RandomProgram(rng, opts)
		// Share the alphabet but not necessarily the predicates.
		dp, dq := mustDFA(t)(ProgramDFA(nil, p)), mustDFA(t)(ProgramDFA(nil, q))
		eq, w, pAcc, err := Equivalent(dp, dq)
		if err != nil {
			t.Fatal(err)
		}
		a := func(w []int) bool { return p.RunReference(w).Accept() }
		b := func(w []int) bool { return q.RunReference(w).Accept() }
		if eq {
			brasptest.AllWords(2, 6, func(w []int) {
				if a(w) != b(w) {
					t.Fatalf("reported equivalent, but they differ on %v", w)
				}
			})
			continue
		}
		diff++
		checkCounterexample(t, "random pair", 2, a, b, w, pAcc)
	}
	if diff < 50 {
		t.Errorf("only %d of 200 random pairs differ: the test is too weak", diff)
	}
}

// TestAlignAlphabets: different symbol orders are aligned; a symbol only one
// side knows is rejected by the other.
func TestAlignAlphabets(t *testing.T) {
	ab, _ := automata.Parse("ab.dfa", []byte("alphabet a b\nstart s\naccept t\ns a t\nt b t\n"))
	ba, _ := automata.Parse("ba.dfa", []byte("alphabet b a\nstart s\naccept t\ns a t\nt b t\n"))
	if eq, w, _, err := Equivalent(ab, ba); err != nil || !eq {
		t.Fatalf("reordered alphabets: %v %v", w, err)
	}
	abc, _ := automata.Parse("abc.dfa", []byte("alphabet a b c\nstart s\naccept t\ns a t\nt b t\nt c t\n"))
	eq, w, firstAcc, err := Equivalent(ab, abc)
	if err != nil || eq || firstAcc || automata.MergeAlphabets(ab.Alphabet, abc.Alphabet).FormatWord(w) != "ac" {
		t.Fatalf("extra symbol: %v %v %v %v", eq, w, firstAcc, err)
	}
}
