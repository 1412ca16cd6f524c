package playground

import (
	"strings"

	"github.com/brasp-dev/brasp/artifact"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/ltl/nonstrict"
)

// NonStrictRequest is the body of POST /api/nonstrict: a program, regular
// expression or automaton whose language the classification found
// stutter-invariant and star-free, and the masks wanted.
type NonStrictRequest struct {
	// Kind is "brasp", "re" or "dfa".
	Kind   string `json:"kind"`
	Source string `json:"source"`
	// Masks is "non-strict" (only j<=i and i<=j) or "causal" (only
	// rightmost j<=i).
	Masks string `json:"masks"`
}

// NonStrictResponse is the answer of POST /api/nonstrict: the program of
// Theorem 5.2 and its size.
type NonStrictResponse struct {
	Program        string `json:"program"`
	Vectors        int    `json:"vectors"`
	AttentionOps   int    `json:"attentionOps"`
	AttentionDepth int    `json:"attentionDepth"`
}

func (a *API) nonStrict(b *budget.Budget, req *NonStrictRequest) (any, *apiError) {
	kinds := map[string]artifact.Kind{"brasp": artifact.KindBRASP, "re": artifact.KindRegex, "dfa": artifact.KindDFA}
	kind, ok := kinds[req.Kind]
	if !ok {
		return nil, badRequest("kind", "kind: %q is not brasp, re or dfa", req.Kind)
	}
	m, err := nonstrict.ParseMasks(req.Masks)
	if err != nil {
		return nil, badRequest("masks", "masks: %v", err)
	}
	if strings.TrimSpace(req.Source) == "" {
		return nil, badRequest("source", "source: empty")
	}
	in, err := artifact.Load(b, "input."+req.Kind, []byte(req.Source), kind)
	if err != nil {
		return nil, sourceErrors("source", err)
	}
	opts := artifact.Options{Masks: m}
	out, err := artifact.Convert(b, in, artifact.KindBRASP, opts)
	if err != nil {
		return nil, failed("source", "--masks "+m.String(), err)
	}
	p := out.(*artifact.Program).Prog
	res := &NonStrictResponse{Program: brasp.Format(p), Vectors: len(p.Vectors), AttentionDepth: p.AttentionDepth()}
	for _, v := range p.Vectors {
		if v.Kind == brasp.AttentionVector {
			res.AttentionOps++
		}
	}
	return res, nil
}
