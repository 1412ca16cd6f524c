package artifact

import (
	"fmt"

	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/decompile"
)

func init() {
	RegisterConverter(KindTransformer, KindBRASP, decompileTransformer)
}

// modelHolder is implemented by the transformer artifact: it exposes the
// loaded model.
type modelHolder interface {
	Model() *transformer.Model
}

// decompileTransformer is the transformer → B-RASP converter (Thm 4.2):
// the depth-preserving translation, or the smaller one with opts.Smaller.
// opts.Limit, when positive, bounds the number of reachable activation
// vectors per layer (decompile.Options.MaxClasses) and scales the other
// enumeration limits with it.
func decompileTransformer(a Artifact, opts Options) (Artifact, error) {
	m, err := modelOf(a)
	if err != nil {
		return nil, err
	}
	o := decompile.Options{Smaller: opts.Smaller}
	if opts.Limit > 0 {
		o.MaxClasses = opts.Limit
		if opts.Limit > decompile.DefaultMaxClasses {
			scale := opts.Limit / decompile.DefaultMaxClasses
			o.MaxCombos = decompile.DefaultMaxCombos * scale
			o.MaxWork = decompile.DefaultMaxWork * int64(scale)
		}
	}
	p, err := decompile.Decompile(m, o)
	if err != nil {
		return nil, limitHint(err, decompile.ErrLimit)
	}
	return &Program{Prog: p}, nil
}

// modelOf returns the model of a transformer artifact: directly when the
// artifact exposes it, otherwise by reading back its JSON encoding (which
// is exact).
func modelOf(a Artifact) (*transformer.Model, error) {
	if h, ok := a.(modelHolder); ok {
		return h.Model(), nil
	}
	data, err := a.Format()
	if err != nil {
		return nil, err
	}
	m, err := transformer.DecodeJSON(data)
	if err != nil {
		return nil, fmt.Errorf("reading the transformer: %v", err)
	}
	return m, nil
}
