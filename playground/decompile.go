package playground

import (
	"errors"

	"github.com/brasp-dev/brasp/artifact"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
)

// DecompileRequest is the body of POST /api/decompile: compile the program
// (as /api/compile does) and decompile the model back (Thm 4.2).
type DecompileRequest struct {
	Program   string `json:"program"`
	MultiHead bool   `json:"multihead"`
	LayerNorm bool   `json:"layernorm"`
	// Smaller selects the decompiler's smaller (bitwise) translation instead
	// of the depth-preserving one.
	Smaller bool `json:"smaller"`
}

// DecompileResponse is the answer of POST /api/decompile.
type DecompileResponse struct {
	// Program is the decompiled B-RASP program.
	Program        string `json:"program"`
	Vectors        int    `json:"vectors"`
	AttentionDepth int    `json:"attentionDepth"`
	// ModelLayers is the number of attention layers of the compiled model
	// (the depth-preserving translation keeps it as the attention depth).
	ModelLayers int `json:"modelLayers"`
	// Equivalent says whether the decompiled program accepts exactly the
	// words the original program accepts (exact, through minimal DFAs);
	// absent when this build cannot decide it. Counterexample is a shortest
	// word on which they differ.
	Equivalent     *bool  `json:"equivalent,omitempty"`
	Counterexample string `json:"counterexample,omitempty"`
	// EquivError says why equivalence was not decided.
	EquivError string `json:"equivError,omitempty"`
}

func (a *API) decompile(b *budget.Budget, req *DecompileRequest) (any, *apiError) {
	p, m, e := compileProgram(b, a.cfg.MaxCompileVectors, &CompileRequest{Program: req.Program, MultiHead: req.MultiHead, LayerNorm: req.LayerNorm})
	if e != nil {
		return nil, e
	}
	out, err := artifact.Convert(b, artifact.NewTransformer(m), artifact.KindBRASP, artifact.Options{Decompile: artifact.DecompileOptions{Smaller: req.Smaller}})
	if err != nil {
		return nil, failed("program", "decompile", err)
	}
	q := out.(*artifact.Program).Prog
	res := &DecompileResponse{Program: brasp.Format(q), Vectors: len(q.Vectors), AttentionDepth: q.AttentionDepth(), ModelLayers: m.AttentionLayers()}
	r, err := artifact.Equiv(b, p, out, artifact.Options{})
	if err != nil {
		if errors.Is(err, budget.ErrStopped) {
			return nil, failed("program", "decompile", err)
		}
		res.EquivError = err.Error()
	} else {
		res.Equivalent = &r.Equal
		if !r.Equal {
			res.Counterexample = r.Alphabet.FormatWord(r.Word)
		}
	}
	return res, nil
}
