package ltl

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/position"
)

func TestToBRASPFutureOnly(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(13, 14))
	p := NewPool(mustAlphabet("a", "b"))
	opt := genOptions{ops: []Op{OpNot, OpAnd, OpOr, OpImplies, OpIff, OpSince, OpSinceNS, OpYesterday, OpWeakYesterday, OpOnce, OpHistorically}, predicates: true}
	for trial := 0; trial < 500; trial++ {
		f := randomFormula(r, p, 1+r.IntN(10), opt)
		prog, err := ToBRASPFutureOnly(f)
		if err != nil {
			t.Fatal(err)
		}
		if prog.AttentionDepth() != f.Depth() {
			t.Fatalf("%s: depth %d became %d", Format(f), f.Depth(), prog.AttentionDepth())
		}
		for _, v := range prog.Vectors {
			if v.Kind == brasp.AttentionVector && (v.Att.Tiebreak != position.Rightmost || v.Att.Mask != position.MaskFuture) {
				t.Fatalf("%s: %s", Format(f), brasp.FormatVector(v))
			}
		}
		ev, run := NewEvaluator(f), brasp.NewRunner(prog)
		brasptest.AllWords(2, 7, func(w []int) {
			if ev.Accepts(w) != run.Run(w).Accept() {
				t.Fatalf("%s on %v", Format(f), w)
			}
		})
	}
	f, _ := Parse(p, "", []byte("O (a U b)"))
	if _, err := ToBRASPFutureOnly(f); !errors.Is(err, ErrFutureOperator) || err.Error() != "formula uses a future operator: U in a U b" {
		t.Errorf("future operator: %v", err)
	}
}
