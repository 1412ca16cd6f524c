package depth

import (
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/exact"
	"github.com/brasp-dev/brasp/ltl"
)

// randomFormula draws a formula of temporal depth ≤ depth from letters,
// Boolean operators and strict since (and until when withUntil).
func randomFormula(rng *rand.Rand, pool *ltl.Pool, size, depth int, withUntil bool) *ltl.Formula {
	if size <= 1 || depth == 0 && rng.IntN(3) == 0 {
		if rng.IntN(8) == 0 {
			return pool.Const(rng.IntN(2) == 0)
		}
		return pool.Symbol(rng.IntN(len(pool.Alphabet())))
	}
	switch r := rng.IntN(6); {
	case r == 0:
		return pool.Unary(ltl.OpNot, randomFormula(rng, pool, size-1, depth, withUntil))
	case r <= 2 || depth == 0:
		op := ltl.OpAnd
		if r == 2 {
			op = ltl.OpOr
		}
		l := 1 + rng.IntN(max(1, size-1))
		return pool.Binary(op, randomFormula(rng, pool, l, depth, withUntil), randomFormula(rng, pool, max(1, size-l), depth, withUntil))
	default:
		op := ltl.OpSince
		if withUntil && rng.IntN(2) == 0 {
			op = ltl.OpUntil
		}
		l := 1 + rng.IntN(max(1, size-1))
		return pool.Binary(op, randomFormula(rng, pool, l, depth-1, withUntil), randomFormula(rng, pool, max(1, size-l), depth-1, withUntil))
	}
}

// A certificate of depth ≥ dp(φ) against a formula φ would be a bug: the
// two words would agree on φ. Every certificate found is checked on the
// formula itself, and every exact upper bound's program is checked against
// the formula's DFA.
func TestNoCertificateBeatsAFormula(t *testing.T) {
	alpha := alphabet.Alphabet{"a", "b"}
	atoms := Atoms{Alphabet: alpha}
	for _, frag := range []Fragment{Since, SinceUntil} {
		rng := rand.New(rand.NewPCG(7, uint64(frag)))
		exactCount, certs := 0, 0
		for trial := 0; trial < 12; trial++ {
			pool := ltl.NewPool(alpha)
			f := randomFormula(rng, pool, 4+rng.IntN(8), 1+rng.IntN(3), frag == SinceUntil)
			d, err := exact.FormulaDFA(nil, f)
			if err != nil {
				t.Fatal(err)
			}
			lang := Language{Atoms: atoms, DFA: d}
			r, err := Analyze(nil, lang, nil, Options{Fragment: frag, MaxDepth: f.Depth(), Search: SearchOptions{MaxWords: 3000, Samples: 1000, MaxLength: 16, Seed: uint64(trial)}})
			if err != nil {
				t.Fatalf("%v: %s: %v", frag, f, err)
			}
			if r.Lower > f.Depth() {
				t.Fatalf("%v: %s has depth %d but a certificate of depth %d was found: %v / %v", frag, f, f.Depth(), r.Lower-1, r.Witness.In, r.Witness.Out)
			}
			if r.Witness != nil {
				certs++
				if !ltl.Accepts(f, r.Witness.In) || ltl.Accepts(f, r.Witness.Out) {
					t.Fatalf("%v: %s: certificate %v / %v does not separate the formula's verdicts", frag, f, r.Witness.In, r.Witness.Out)
				}
				if err := Check(nil, lang, frag, r.Witness.In, r.Witness.Out, r.Witness.Depth); err != nil {
					t.Fatalf("%v: %s: certificate does not check: %v", frag, f, err)
				}
			}
			if r.Exact {
				exactCount++
				if r.Upper > f.Depth() {
					t.Fatalf("%v: %s: exact bound %d above the formula's depth %d", frag, f, r.Upper, f.Depth())
				}
				pd, err := exact.ProgramDFA(nil, r.Program)
				if err != nil {
					t.Fatal(err)
				}
				if eq, w, _, err := exact.Equivalent(pd, d); err != nil || !eq {
					t.Fatalf("%v: %s: the depth-%d program differs on %v (%v)", frag, f, r.Upper, w, err)
				}
			}
		}
		t.Logf("%v: %d certificates, %d exact bounds", frag, certs, exactCount)
	}
}
