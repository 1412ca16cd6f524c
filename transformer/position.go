package transformer

import (
	"fmt"
	"math"
	"math/big"
	"sync"
)

// PositionKind says what a position-embedding term computes from the
// position i (1-based, as in the paper) and the word length n.
type PositionKind uint8

// The kinds of position-embedding terms. Sin and Cos make up the rational
// sinusoidal embedding of §5.3; the others are finite-image predicates θ_n(i)
// with values in {0,1} (Last and Mid depend on n, which the definition of a
// position embedding family (θ_n) allows).
const (
	PosSin   PositionKind = iota // sin(2π·f·i)
	PosCos                       // cos(2π·f·i)
	PosFirst                     // [i = 1]
	PosLast                      // [i = n]
	PosMid                       // [n odd and i = (n+1)/2]
	PosMod                       // [i ≡ R (mod M)]
	PosTable                     // an eventually periodic table of values (Prefix, then Period repeated)
)

var positionKindNames = [...]string{"sin", "cos", "first", "last", "mid", "mod", "table"}

// String is the kind's name in model files.
func (k PositionKind) String() string {
	if int(k) < len(positionKindNames) {
		return positionKindNames[k]
	}
	return "invalid"
}

// parsePositionKind is the inverse of PositionKind.String.
func parsePositionKind(s string) (PositionKind, bool) {
	for k, n := range positionKindNames {
		if n == s {
			return PositionKind(k), true
		}
	}
	return 0, false
}

// MaxPositionPeriod bounds the least common multiple of the periods of a
// model's periodic position terms (the denominators of the sinusoid
// frequencies, the moduli and the lengths of the tables' periods), which is
// the number of distinct position embedding values the forward passes
// tabulate, and the length of a table's prefix.
const MaxPositionPeriod = 1 << 20

// PositionTerm adds Scale·t(i,n) to coordinate Coord of the embedding of
// position i in a word of length n, where t is the term's function.
//
// Sinusoid values: sin(2π·f·i) is computed from the exact fractional part t
// of f·i. When the value is rational (t a multiple of 1/12 giving 0, ±1/2 or
// ±1) it is exact; otherwise it is the float64 math.Sin (math.Cos) of
// 2π·float64(t) rounded to float32 (the precision position embeddings are
// usually stored in), taken as an exact dyadic rational. The embedding
// therefore has finite image, NumPy computes the same values
// (np.float32(np.sin(2*np.pi*t))), and products with short dyadic weights
// are exact in float64.
type PositionTerm struct {
	Kind PositionKind
	// Frequency is f for Sin and Cos (nil otherwise).
	Frequency *big.Rat
	// R and M define Mod: i ≡ R (mod M), 0 ≤ R < M.
	R, M int
	// Prefix and Period define Table: the value at 1-based position i is
	// Prefix[i−1] for i ≤ len(Prefix) and Period[(i−len(Prefix)−1) mod
	// len(Period)] after that (Period is not empty). Such a table is any
	// position embedding with finite image that does not depend on the word
	// length (Thm 5.3, Cor 5.5), in the same eventually periodic form as the
	// PERIODIC_<prefix>_<period> predicates of programs.
	Prefix, Period []*big.Rat
	// Negated makes a predicate term contribute 1 − [pred] instead of [pred]
	// (used by the layer-norm encoding, where every truth value is a pair).
	Negated bool
	// Coord is the residual coordinate the term adds to.
	Coord int
	// Scale multiplies the term's value.
	Scale *big.Rat
}

// period returns the term's period in i (0 for terms that are not periodic).
func (t *PositionTerm) period() int64 {
	switch t.Kind {
	case PosSin, PosCos:
		if t.Frequency.Denom().IsInt64() {
			return t.Frequency.Denom().Int64()
		}
		return math.MaxInt64
	case PosMod:
		return int64(t.M)
	case PosTable:
		return int64(len(t.Period))
	}
	return 0
}

// TableValue returns a table term's entry for 1-based position i ≥ 1 (not
// a copy).
func (t *PositionTerm) TableValue(i int) *big.Rat {
	if i <= len(t.Prefix) {
		return t.Prefix[i-1]
	}
	return t.Period[(i-len(t.Prefix)-1)%len(t.Period)]
}

// rationalTwelfths()[k] is sin(2πk/12) when rational (made on first use,
// not at every program's start-up).
var rationalTwelfths = sync.OnceValue(func() map[int64]*big.Rat {
	return map[int64]*big.Rat{
		0: big.NewRat(0, 1), 1: big.NewRat(1, 2), 3: big.NewRat(1, 1), 5: big.NewRat(1, 2),
		6: big.NewRat(0, 1), 7: big.NewRat(-1, 2), 9: big.NewRat(-1, 1), 11: big.NewRat(-1, 2),
	}
})

// Sinusoid returns sin(2π·f·i) (or cos when cos is set) as the exact
// rational the model uses; see PositionTerm.
func Sinusoid(f *big.Rat, i int, cos bool) *big.Rat {
	num := new(big.Int).Mul(f.Num(), big.NewInt(int64(i)))
	den := f.Denom()
	num.Mod(num, den) // 0 ≤ num < den: t = num/den is the fractional part of f·i
	twelve := new(big.Int).Mul(num, big.NewInt(12))
	if q, r := new(big.Int).QuoRem(twelve, den, new(big.Int)); r.Sign() == 0 {
		k := q.Int64()
		if cos {
			k = (k + 3) % 12
		}
		if v, ok := rationalTwelfths()[k]; ok {
			return new(big.Rat).Set(v)
		}
	}
	t, _ := new(big.Rat).SetFrac(num, den).Float64()
	var v float64
	if cos {
		v = math.Cos(2 * math.Pi * t)
	} else {
		v = math.Sin(2 * math.Pi * t)
	}
	return new(big.Rat).SetFloat64(float64(float32(v)))
}

// PositionFacts are what a predicate term reads of a position: the
// position itself (MOD reads its residue) and whether it is the first, the
// last or the middle one of its word.
type PositionFacts struct {
	I                int
	First, Last, Mid bool
}

// Holds evaluates a predicate term (first, last, mid, MOD, negated or not)
// on the facts of a position; other kinds of term do not hold.
func (t *PositionTerm) Holds(f PositionFacts) bool {
	var b bool
	switch t.Kind {
	case PosFirst:
		b = f.First
	case PosLast:
		b = f.Last
	case PosMid:
		b = f.Mid
	case PosMod:
		b = f.I%t.M == t.R
	default:
		return false
	}
	return b != t.Negated
}

// holds evaluates a predicate term at 1-based position i of a word of length n.
func (t *PositionTerm) holds(i, n int) bool {
	return t.Holds(PositionFacts{I: i, First: i == 1, Last: i == n, Mid: n%2 == 1 && i == (n+1)/2})
}

// Value returns the term's contribution (before Scale) at 1-based position i
// of a word of length n.
func (t *PositionTerm) Value(i, n int) *big.Rat {
	switch t.Kind {
	case PosSin, PosCos:
		return Sinusoid(t.Frequency, i, t.Kind == PosCos)
	case PosTable:
		return new(big.Rat).Set(t.TableValue(i))
	}
	if t.holds(i, n) {
		return big.NewRat(1, 1)
	}
	return new(big.Rat)
}

// positionClasses says which positions of a word have the same position
// embedding apart from the length-dependent predicates: positions up to
// prefix (the longest table prefix) each have their own, and after that
// positions with the same residue modulo period (the lcm of the periods of
// the periodic terms).
type positionClasses struct {
	period, prefix int
}

// positionPeriod returns the position classes of the terms, or an error if
// the lcm of their periods exceeds MaxPositionPeriod.
func positionPeriod(terms []PositionTerm) (positionClasses, error) {
	pc, err := positionLCM(terms)
	if err != nil {
		return positionClasses{}, err
	}
	for k := range terms {
		pc.prefix = max(pc.prefix, len(terms[k].Prefix))
	}
	return pc, nil
}

// positionLCM returns the lcm of the periods of the terms (1 if there are
// none), or an error if it exceeds MaxPositionPeriod.
func positionLCM(terms []PositionTerm) (positionClasses, error) {
	l := int64(1)
	for k := range terms {
		p := terms[k].period()
		if p <= 1 {
			continue
		}
		g := gcd(l, p)
		if l/g > MaxPositionPeriod/p+1 {
			return positionClasses{}, fmt.Errorf("position embedding: the periods of its terms have a least common multiple above MaxPositionPeriod = %d", MaxPositionPeriod)
		}
		l = l / g * p
		if l > MaxPositionPeriod {
			return positionClasses{}, fmt.Errorf("position embedding: the periods of its terms have least common multiple %d, above MaxPositionPeriod = %d", l, MaxPositionPeriod)
		}
	}
	return positionClasses{period: int(l)}, nil
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// positionKey identifies the positions whose embedding is the same in a
// word of length n: the residue of i modulo the period, i itself within the
// tables' prefix (0 after it), and the length-dependent predicates that
// hold at i.
type positionKey struct {
	residue, prefix  int
	first, last, mid bool
}

// keyOf returns the position key of 1-based position i in a word of length n.
func keyOf(i, n int, pc positionClasses) positionKey {
	k := positionKey{residue: i % pc.period, first: i == 1, last: i == n, mid: n%2 == 1 && i == (n+1)/2}
	if i <= pc.prefix {
		k.prefix = i
	}
	return k
}

// positionVector returns θ_n(i) as a Width-long exact vector.
func (m *Model) positionVector(i, n int) Vec {
	v := Zeros(m.Width)
	for k := range m.Position {
		t := &m.Position[k]
		x := t.Value(i, n)
		x.Mul(x, t.Scale)
		v[t.Coord].Add(v[t.Coord], x)
	}
	return v
}
