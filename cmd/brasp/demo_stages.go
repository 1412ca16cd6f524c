package main

import (
	"fmt"
	"io"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/exact"
	"github.com/brasp-dev/brasp/examples"
	"github.com/brasp-dev/brasp/ltl"
	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/compile"
	"github.com/brasp-dev/brasp/transformer/decompile"
)

func demoLTL(w io.Writer, p *brasp.Program) error {
	f, err := ltl.FromBRASP(nil, p)
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

func demoCompile(w io.Writer, p *brasp.Program) error {
	fmt.Fprintf(w, "    %-28s %6s %5s %5s %10s\n", "construction", "layers", "heads", "width", "parameters")
	for _, c := range []struct {
		name string
		opts compile.Options
	}{
		{"sequential (Thm 4.1)", compile.Options{}},
		{"multi-head (Thm C.4)", compile.Options{MultiHead: true}},
		{"multi-head + layer norm", compile.Options{MultiHead: true, LayerNorm: true}},
	} {
		m, err := compile.Compile(nil, p, c.opts)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "    %-28s %6d %5d %5d %10d\n", c.name, m.AttentionLayers(), m.NumHeads(), m.Width, m.NumParams())
		for _, s := range demoWords {
			word, _ := p.Alphabet.ParseWord(s)
			acc, err := m.Accepts(nil, word)
			if err != nil {
				return err
			}
			if acc != p.Accepts(word) {
				return fmt.Errorf("%s: the model and the program disagree on %s", c.name, s)
			}
		}
	}
	for _, s := range demoWords {
		word, _ := p.Alphabet.ParseWord(s)
		fmt.Fprintf(w, "    %s: every model %s, as the program does\n", s, verdict(p.Accepts(word)))
	}
	return nil
}

// demoModel is the multi-head compilation of the demo program.
func demoModel(p *brasp.Program) (*transformer.Model, error) {
	return compile.Compile(nil, p, compile.Options{MultiHead: true})
}

func demoDecompile(w io.Writer, p *brasp.Program) error {
	m, err := demoModel(p)
	if err != nil {
		return err
	}
	q, err := decompile.Decompile(nil, m, decompile.Options{})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "    %d vectors, attention depth %d (the model has %d layers)\n\n", len(q.Vectors), q.AttentionDepth(), m.AttentionLayers())
	fmt.Fprint(w, indent(brasp.Format(q)))
	return nil
}

func demoClassify(w io.Writer, p *brasp.Program) error {
	d, err := exact.ProgramDFA(nil, p)
	if err != nil {
		return err
	}
	c, err := automata.Classify(nil, d)
	if err != nil {
		return err
	}
	fmt.Fprint(w, indent(c.Format()))
	return nil
}

func demoEquiv(w io.Writer, p *brasp.Program) error {
	src, err := examples.Source("dyck1_depth2.dfa")
	if err != nil {
		return err
	}
	paper, err := automata.Parse("dyck1_depth2.dfa", src)
	if err != nil {
		return err
	}
	dp, err := exact.ProgramDFA(nil, p)
	if err != nil {
		return err
	}
	m, err := demoModel(p)
	if err != nil {
		return err
	}
	dm, err := exact.ModelDFA(nil, m, decompile.Options{})
	if err != nil {
		return err
	}
	for _, other := range []struct {
		name string
		d    *automata.DFA
	}{{"the compiled multi-head transformer", dm}, {"the DFA of L_{1,2} (Figure 2a)", paper}} {
		eq, word, _, err := exact.Equivalent(dp, other.d)
		if err != nil {
			return err
		}
		if !eq {
			return fmt.Errorf("the program and %s differ on %q", other.name, p.Alphabet.FormatWord(word))
		}
		fmt.Fprintf(w, "    the program and %s: equivalent (on all non-empty words)\n", other.name)
	}
	return nil
}
