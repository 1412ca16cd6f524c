// Package defaults fills the unset fields of an options or configuration
// struct, where a number that is zero or negative means "the default".
package defaults

// Positive sets *v to d when *v is zero or negative.
func Positive[T ~int | ~int64 | ~uint64 | ~float64](v *T, d T) {
	if *v <= 0 {
		*v = d
	}
}
