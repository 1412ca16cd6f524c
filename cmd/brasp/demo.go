package main

import (
	"fmt"
	"io"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/examples"
)

// demoStage is one section of the demo report.
type demoStage struct {
	title string
	run   func(w io.Writer, p *brasp.Program) error
}

// demoStages are the demo's sections after the program and its Figure-2
// tables, in pipeline order (demo_stages.go).
var demoStages = []demoStage{
	{"LTL (Thm 3.3): the program as a formula with strict since/until", demoLTL},
	{"Transformers (Thm 4.1, Thm C.4): the program compiled to masked hard-attention transformers", demoCompile},
	{"Decompilation (Thm 4.2): the multi-head model back to B-RASP, exactly", demoDecompile},
	{"The language: minimal DFA and classification (§5, App. B.4)", demoClassify},
	{"Exact equivalence: program, compiled transformer, decompiled program and the L_{1,2} DFA", demoEquiv},
	{"Depth (Thm 5.6, App. C): lower bounds with certificates, upper bounds with programs", demoDepth},
}

// demoWords are the two strings of the paper's Figure 2.
var demoWords = []string{"llrrllrlrr", "lrrlllrrrl"}

func demoCmd(e *env, args []string) error {
	fs := newFlags(e, "demo", "demo")
	if _, err := parseFlags(e, fs, "demo", args); err != nil {
		return err
	}
	src, err := examples.Source(examples.Dyck)
	if err != nil {
		return err
	}
	p, err := brasp.Parse(examples.Dyck, src)
	if err != nil {
		return err
	}
	w := e.stdout
	fmt.Fprintln(w, "brasp demo: Dyck-1 of depth 2 (L_{1,2}), the running example of Yang, Chiang & Angluin,")
	fmt.Fprintln(w, "\"Masked Hard-Attention Transformers Recognize Exactly the Star-Free Languages\" (NeurIPS 2024), §3.2.")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "== The B-RASP program (examples/%s), attention depth %d\n\n", examples.Dyck, p.AttentionDepth())
	fmt.Fprint(w, indent(brasp.Format(p)))
	for _, s := range demoWords {
		word, err := p.Alphabet.ParseWord(s)
		if err != nil {
			return err
		}
		t := p.Run(word)
		verdict := map[bool]string{true: "accepted", false: "rejected"}[t.Accept()]
		fmt.Fprintf(w, "\n== Figure 2: the Boolean vectors on %s (%s)\n\n", s, verdict)
		fmt.Fprint(w, indent(brasp.FormatTable(t)))
	}
	for _, st := range demoStages {
		fmt.Fprintf(w, "\n== %s\n\n", st.title)
		if err := st.run(w, p); err != nil {
			return fmt.Errorf("demo: %s: %v", st.title, err)
		}
	}
	return nil
}

func indent(s string) string {
	out := make([]byte, 0, len(s)+len(s)/8)
	start := true
	for i := 0; i < len(s); i++ {
		if start && s[i] != '\n' {
			out = append(out, "    "...)
		}
		out = append(out, s[i])
		start = s[i] == '\n'
	}
	return string(out)
}
