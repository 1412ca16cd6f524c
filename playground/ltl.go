package playground

import (
	"strings"

	"github.com/brasp-dev/brasp/artifact"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/ltl"
)

// LTLRequest is the body of POST /api/ltl: exactly one of Program (convert
// B-RASP to LTL, Thm 3.3) and LTL (convert a .ltl text to B-RASP, Thm 3.2).
type LTLRequest struct {
	Program string `json:"program,omitempty"`
	LTL     string `json:"ltl,omitempty"`
}

// LTLResponse is the answer of POST /api/ltl.
type LTLResponse struct {
	// LTL is the formula as a .ltl file (alphabet line, then the formula;
	// with let bindings when the tree would be large).
	LTL string `json:"ltl"`
	// Program is the B-RASP program of the formula (LTL → B-RASP only).
	Program string `json:"program,omitempty"`
	// Depth is the formula's temporal depth, which equals the attention
	// depth of the program it comes from or goes to.
	Depth          int    `json:"depth"`
	AttentionDepth int    `json:"attentionDepth"`
	DAGSize        int    `json:"dagSize"`
	TreeSize       uint64 `json:"treeSize"`
}

func formatLTL(f *ltl.Formula) string {
	if f.TreeSize() <= ltl.PlainLimit {
		return ltl.FormatFile(f)
	}
	return "alphabet " + f.Alphabet().String() + "\n" + strings.TrimRight(ltl.FormatShared(f), "\n") + "\n"
}

func (a *API) ltl(b *budget.Budget, req *LTLRequest) (any, *apiError) {
	hasProg, hasLTL := strings.TrimSpace(req.Program) != "", strings.TrimSpace(req.LTL) != ""
	switch {
	case hasProg && hasLTL:
		return nil, badRequest("", "give either program (B-RASP → LTL) or ltl (LTL → B-RASP), not both")
	case hasProg:
		p, e := loadProgram(b, req.Program)
		if e != nil {
			return nil, e
		}
		if p.IsTransducer() {
			return nil, badRequest("program", "ltl: the program is a transducer; Theorem 3.3 converts acceptors")
		}
		out, err := artifact.Convert(b, p, artifact.KindLTL, artifact.Options{})
		if err != nil {
			return nil, failed("program", "ltl", err)
		}
		f := out.(*artifact.Formula).F
		return &LTLResponse{LTL: formatLTL(f), Depth: f.Depth(), AttentionDepth: p.Prog.AttentionDepth(), DAGSize: f.DAGSize(), TreeSize: f.TreeSize()}, nil
	case hasLTL:
		in, err := artifact.Load(b, "formula.ltl", []byte(req.LTL), artifact.KindLTL)
		if err != nil {
			return nil, sourceErrors("ltl", err)
		}
		out, err := artifact.Convert(b, in, artifact.KindBRASP, artifact.Options{})
		if err != nil {
			return nil, failed("ltl", "ltl", err)
		}
		f, p := in.(*artifact.Formula).F, out.(*artifact.Program).Prog
		return &LTLResponse{LTL: formatLTL(f), Program: brasp.Format(p), Depth: f.Depth(), AttentionDepth: p.AttentionDepth(), DAGSize: f.DAGSize(), TreeSize: f.TreeSize()}, nil
	}
	return nil, badRequest("", "give program (B-RASP → LTL) or ltl (an alphabet line and a formula, LTL → B-RASP)")
}
