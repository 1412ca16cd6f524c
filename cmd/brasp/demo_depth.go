package main

import (
	"fmt"
	"io"

	"github.com/brasp-dev/brasp/artifact"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/depth"
	"github.com/brasp-dev/brasp/examples"
)

// demoDepth bounds the depth the example needs, with certificates, and shows
// the hierarchy of Thm 5.6 on STAIR_1..STAIR_6.
func demoDepth(w io.Writer, p *brasp.Program) error {
	for _, frag := range []depth.Fragment{depth.Since, depth.SinceUntil} {
		r, err := artifact.Depth(nil, artifact.NewProgram(p), artifact.DepthOptions{Fragment: frag})
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s: lower %d (%q in, %q out: equal depth-%d types), upper %d (%s)\n", frag, r.Lower,
			p.Alphabet.FormatWord(r.Witness.In), p.Alphabet.FormatWord(r.Witness.Out), r.Witness.Depth, r.Upper, r.ProgramSource)
	}
	fmt.Fprintln(w, "\nSTAIR_k (after deleting c's, the word contains a^k), since fragment:")
	for k := 1; k <= 6; k++ {
		sp, err := examples.StairProgram(k)
		if err != nil {
			return err
		}
		r, err := artifact.Depth(nil, artifact.NewProgram(sp), artifact.DepthOptions{Fragment: depth.Since})
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "    STAIR_%d: lower %d, upper %d, certificate %q / %q\n", k, r.Lower, r.Upper,
			sp.Alphabet.FormatWord(r.Witness.In), sp.Alphabet.FormatWord(r.Witness.Out))
	}
	return nil
}
