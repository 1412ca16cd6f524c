package main

import (
	"fmt"
	"io"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/ltl"
)

// The demo's later stages, one per representation, in pipeline order.
func init() {
	demoStages = append(demoStages,
		demoStage{"LTL (Thm 3.3): the program as a formula with strict since/until", demoLTL},
	)
}

func demoLTL(w io.Writer, p *brasp.Program) error {
	f, err := ltl.FromBRASP(p, ltl.DefaultConvertLimits)
	if err != nil {
		return err
	}
	fmt.Fprint(w, indent(ltl.FormatShared(f)))
	fmt.Fprintf(w, "\n    temporal depth %d, %d DAG nodes, %d tree nodes\n", f.Depth(), f.DAGSize(), f.TreeSize())
	back, err := ltl.ToBRASP(f)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "    back to B-RASP (Thm 3.2): %d vectors, attention depth %d\n", len(back.Vectors), back.AttentionDepth())
	for _, s := range demoWords {
		word, _ := p.Alphabet.ParseWord(s)
		fmt.Fprintf(w, "    %s: program %s, formula %s, formula's program %s\n", s,
			verdict(p.Accepts(word)), verdict(ltl.Accepts(f, word)), verdict(back.Accepts(word)))
	}
	return nil
}

func verdict(b bool) string {
	if b {
		return "accepts"
	}
	return "rejects"
}
