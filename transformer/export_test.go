package transformer

// Internals the external tests check.
var (
	ForwardExact = (*Model).forwardExact
	DenseFloat   = (*Runner).denseFloat
	ErrInexact   = errInexact
)

// FloatOK reports whether r starts its passes in float64.
func FloatOK(r *Runner) bool { return r.floatOK }
