package position

// Mask says which positions j an attention operation or head at position i
// may read.
type Mask uint8

// The masks: none, the paper's strict future and past masks (§4.1), and
// their non-strict variants (§5.2).
const (
	MaskNone         Mask = iota // every j
	MaskFuture                   // j < i (the paper's strict future masking)
	MaskPast                     // j > i (strict past masking)
	MaskFutureOrSelf             // j ≤ i
	MaskPastOrSelf               // j ≥ i
)

// Masks lists every mask, in the order of their values.
var Masks = []Mask{MaskNone, MaskFuture, MaskPast, MaskFutureOrSelf, MaskPastOrSelf}

var (
	maskPredicates = [...]string{"1", "j<i", "i<j", "j<=i", "i<=j"}
	maskNames      = [...]string{"none", "future", "past", "future-or-self", "past-or-self"}
)

// Valid reports whether m is one of Masks.
func (m Mask) Valid() bool { return int(m) < len(maskNames) }

// Allows reports whether the mask lets position i read position j.
func (m Mask) Allows(i, j int) bool {
	switch m {
	case MaskFuture:
		return j < i
	case MaskPast:
		return j > i
	case MaskFutureOrSelf:
		return j <= i
	case MaskPastOrSelf:
		return j >= i
	}
	return true
}

// Strict reports whether the mask excludes j = i, as the paper's masks do.
func (m Mask) Strict() bool { return m == MaskFuture || m == MaskPast }

// Predicate is the mask as B-RASP programs write it: 1, j<i, i<j, j<=i or
// i<=j.
func (m Mask) Predicate() string {
	if !m.Valid() {
		return "invalid"
	}
	return maskPredicates[m]
}

// Name is the mask as transformer model files write it: none, future, past,
// future-or-self or past-or-self.
func (m Mask) Name() string {
	if !m.Valid() {
		return "invalid"
	}
	return maskNames[m]
}

// String is Name.
func (m Mask) String() string { return m.Name() }

// MaskNamed is the inverse of Mask.Name.
func MaskNamed(name string) (Mask, bool) {
	for k, n := range maskNames {
		if n == name {
			return Mask(k), true
		}
	}
	return 0, false
}
