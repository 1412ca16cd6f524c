package brasp

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// diffPrograms describes the first structural difference between a and b
// (alphabet, vectors, expressions by EqualExpr, output), or returns "".
// Source positions and whether the output line was written are ignored.
func diffPrograms(a, b *Program) string {
	if !a.Alphabet.Equal(b.Alphabet) {
		return fmt.Sprintf("alphabet %v vs %v", a.Alphabet, b.Alphabet)
	}
	if len(a.Vectors) != len(b.Vectors) {
		return fmt.Sprintf("%d vectors vs %d", len(a.Vectors), len(b.Vectors))
	}
	for k, v := range a.Vectors {
		w := b.Vectors[k]
		if v.Name != w.Name || v.Kind != w.Kind {
			return fmt.Sprintf("vector %d: %s (%s) vs %s (%s)", k, v.Name, v.Kind, w.Name, w.Kind)
		}
		switch v.Kind {
		case SymbolVector:
			if v.Symbol != w.Symbol {
				return fmt.Sprintf("vector %s: symbol %d vs %d", v.Name, v.Symbol, w.Symbol)
			}
		case PredicateVector:
			if v.Pred != w.Pred {
				return fmt.Sprintf("vector %s: predicate %v vs %v", v.Name, v.Pred, w.Pred)
			}
		case PositionwiseVector:
			if !EqualExpr(v.Expr, w.Expr) {
				return fmt.Sprintf("vector %s: %s vs %s", v.Name, FormatExpr(v.Expr), FormatExpr(w.Expr))
			}
		case AttentionVector:
			x, y := v.Att, w.Att
			if x.Tiebreak != y.Tiebreak || x.Mask != y.Mask || !EqualExpr(x.Score, y.Score) ||
				!EqualExpr(x.Value, y.Value) || !EqualExpr(x.Default, y.Default) {
				return fmt.Sprintf("vector %s: %s vs %s", v.Name, FormatAttention(x), FormatAttention(y))
			}
		}
	}
	o, p := a.Output, b.Output
	if o.Accept != p.Accept || o.Symbols.Equal(p.Symbols) == false || (o.Symbols == nil) != (p.Symbols == nil) ||
		fmt.Sprint(o.Vectors) != fmt.Sprint(p.Vectors) {
		return fmt.Sprintf("output %+v vs %+v", o, p)
	}
	return ""
}

// TestFormatRoundTripRandom checks Format(Parse(Format(p))) == Format(p)
// and structural equality on random programs, with quoted and
// multi-character symbols and tricky names.
func TestFormatRoundTripRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for c := 0; c < 500; c++ {
		p := genProgram(t, rng, rng.IntN(12)+1)
		src := Format(p)
		q, err := Parse("random", []byte(src))
		if err != nil {
			t.Fatalf("program %d does not parse back: %v\n%s", c, err, src)
		}
		if d := diffPrograms(p, q); d != "" {
			t.Fatalf("program %d parses back differently: %s\n%s", c, d, src)
		}
		if again := Format(q); again != src {
			t.Fatalf("program %d: Format not stable:\n%s\nvs\n%s", c, src, again)
		}
	}
}
