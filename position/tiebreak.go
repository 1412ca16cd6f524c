package position

// Tiebreak says which of the best-scoring unmasked positions an attention
// operation or head reads: the tie-breaking functions C of §4.1.
type Tiebreak uint8

// The two tie-breaks.
const (
	Leftmost  Tiebreak = iota // the smallest j
	Rightmost                 // the largest j
)

// String is the tie-break as programs and model files write it: leftmost
// or rightmost.
func (t Tiebreak) String() string {
	switch t {
	case Leftmost:
		return "leftmost"
	case Rightmost:
		return "rightmost"
	}
	return "invalid"
}

// TiebreakNamed is the inverse of Tiebreak.String.
func TiebreakNamed(name string) (Tiebreak, bool) {
	switch name {
	case "leftmost":
		return Leftmost, true
	case "rightmost":
		return Rightmost, true
	}
	return 0, false
}
