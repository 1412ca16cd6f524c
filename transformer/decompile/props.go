package decompile

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/transformer"
)

// maxProduct bounds each table of the coordinate-wise route.
var maxProduct = budget.Define("decompile-product", 1<<18, "combinations",
	"combinations of input values on which the decompiler of a model over propositions tabulates one coordinate, score or output (the product of the value sets it reads)")

// errNotCoordinateWise is wrapped by the error for a model over
// propositions whose shape the coordinate-wise route does not handle.
var errNotCoordinateWise = errors.New("not decompiled coordinate-wise")

// decompileProps decompiles a model over propositions: coordinate-wise
// (props_coords.go), and when that refuses the model (a layer norm, or a
// table beyond a limit) and it has at most
// transformer.MaxValuationProps propositions, through its model over the
// 2^k valuations, read back over the propositions
// (brasp.FromValuationLetters).
func decompileProps(b *budget.Budget, m *transformer.Model, opts Options) (*brasp.Program, *Info, error) {
	p, info, err := decompileCoordinates(b, m, opts)
	if err == nil {
		return p, info, nil
	}
	k := len(m.Props)
	if !(errors.Is(err, errNotCoordinateWise) || errors.Is(err, budget.ErrLimit)) || errors.Is(err, budget.ErrStopped) {
		return nil, nil, err
	}
	if k > transformer.MaxValuationProps {
		if errors.Is(err, errNotCoordinateWise) {
			return nil, nil, fmt.Errorf("%w; the model over the 2^%d valuations of its %d propositions is not decompiled either (at most %d propositions)", err, k, k, transformer.MaxValuationProps)
		}
		return nil, nil, err
	}
	lm, verr := m.OverValuations()
	if verr != nil {
		return nil, nil, fmt.Errorf("%w; %v", err, verr)
	}
	vp, vinfo, verr := DecompileInfo(b, lm, opts)
	if verr != nil {
		return nil, nil, fmt.Errorf("%w; through the 2^%d valuations of its propositions: %v", err, k, verr)
	}
	if vp, verr = brasp.FromValuationLetters(vp, m.Props); verr != nil {
		return nil, nil, verr
	}
	vinfo.Route = RouteValuations
	return vp, vinfo, nil
}

// The routes of Info.Route.
const (
	// RouteVectors is the decompilation of a model over symbols: the
	// reachable activation vectors, layer by layer.
	RouteVectors = "vectors"
	// RouteCoordinates is the coordinate-wise decompilation of a model
	// over propositions.
	RouteCoordinates = "coordinates"
	// RouteValuations decompiles a model over propositions through its
	// model over the valuations.
	RouteValuations = "valuations"
)

// cval is the finite value set of one residual coordinate at one stage,
// with its Boolean encoding: feature b is bit b of the rank of the value
// among vals (none for a constant coordinate).
type cval struct {
	vals  []*big.Rat // distinct, increasing
	feats []int      // ir node of each bit
	names []string   // and its name
}

// source is one input of a tabulated function: n alternatives, each
// encoded by Boolean variables (bit(a, v) is variable v at alternative a)
// whose expressions are vars.
type source struct {
	n    int
	vars []brasp.Expr
	bit  func(a, v int) bool
}

// rankBit is the encoding of a value set by the bits of the rank.
func rankBit(a, v int) bool { return a>>v&1 == 1 }

// source reads the coordinate at i or j.
func (c *cval) source(at brasp.Var) source {
	s := source{n: len(c.vals), bit: rankBit}
	for _, f := range c.feats {
		s.vars = append(s.vars, ref(f, at))
	}
	return s
}
