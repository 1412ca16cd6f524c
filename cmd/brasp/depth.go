package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/brasp-dev/brasp/artifact"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/depth"
)

const depthUsage = "depth [--fragment since|since-until|all] [--max-depth K] [--json] [--limit NAME=N]... FILE\n       brasp depth [--fragment F] FILE --check IN OUT K"

// depthJSON is the --json output.
type depthJSON struct {
	Fragment string       `json:"fragment"`
	Lower    int          `json:"lower"`
	Upper    *int         `json:"upper"`
	Witness  *witnessJSON `json:"witness,omitempty"`
	Program  string       `json:"program,omitempty"`
	Source   string       `json:"program_source,omitempty"`
	Exact    bool         `json:"exact"`
	Explored []int        `json:"explored,omitempty"`
}

type witnessJSON struct {
	In    string `json:"in"`
	Out   string `json:"out"`
	Depth int    `json:"depth"`
}

// depthCmd prints a lower bound with its certificate (two words, one in the
// language and one out, that no formula of the fragment of the certificate's
// depth tells apart) and an upper bound with a program achieving it.
func depthCmd(e *env, args []string) error {
	fs := newFlags(e, "depth", depthUsage)
	from := fs.String("from", "", "input kind, overriding the file extension")
	fragName := fs.String("fragment", "since", "since (future-masked rightmost attention), since-until (and past-masked leftmost), or all")
	maxDepth := fs.Int("max-depth", 6, "largest depth whose types are computed")
	asJSON := fs.Bool("json", false, "print the bounds as JSON")
	check := fs.Bool("check", false, "re-check a certificate: FILE --check IN OUT K")
	words := fs.Int("search-words", 0, "words typed per depth by the certificate search with until (0: 20000)")
	lim := addLimitFlag(fs)
	pos, err := parseFlags(e, fs, depthUsage, args)
	if err != nil {
		return err
	}
	frag, err := depth.ParseFragment(*fragName)
	if err != nil {
		return &exitError{code: 2, msg: "depth: --fragment: " + err.Error()}
	}
	b := e.budget(lim)
	opts := artifact.DepthOptions{Fragment: frag, MaxDepth: *maxDepth, Convert: artifact.Options{}}
	opts.Search.MaxWords = *words
	if *check {
		if len(pos) != 4 {
			return usageError(depthUsage, "--check wants FILE IN OUT K")
		}
		return depthCheck(e, b, pos, *from, frag, opts)
	}
	if len(pos) != 1 {
		return usageError(depthUsage, "want exactly one FILE")
	}
	a, err := loadFile(b, pos[0], *from)
	if err != nil {
		return err
	}
	r, err := artifact.Depth(b, a, opts)
	if err != nil {
		return fmt.Errorf("%s: %v", pos[0], err)
	}
	out := depthJSON{Fragment: frag.String(), Lower: r.Lower, Exact: r.Exact, Explored: r.Explored, Source: r.ProgramSource}
	if r.Upper >= 0 {
		out.Upper = &r.Upper
		out.Program = brasp.Format(r.Program)
	}
	if w := r.Witness; w != nil {
		out.Witness = &witnessJSON{In: artifact.FormatInput(a, w.In), Out: artifact.FormatInput(a, w.Out), Depth: w.Depth}
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(out)
	}
	fmt.Fprintf(e.stdout, "fragment: %s: %s\n", frag, frag.Describe())
	switch w := r.Witness; {
	case w == nil:
		fmt.Fprintf(e.stdout, "lower bound: 0\n")
	case frag == depth.All:
		fmt.Fprintf(e.stdout, "lower bound: %d: %s is in the language, %s is not, and no LTL formula with since and until of depth %d tells them apart; a program of attention depth d is such a formula of depth 2d (App. C)\n",
			r.Lower, quoteOnce(out.Witness.In), quoteOnce(out.Witness.Out), w.Depth)
	default:
		fmt.Fprintf(e.stdout, "lower bound: %d: %s is in the language, %s is not, and no formula of the fragment of depth %d tells them apart\n",
			r.Lower, quoteOnce(out.Witness.In), quoteOnce(out.Witness.Out), w.Depth)
	}
	if r.Upper < 0 {
		fmt.Fprintf(e.stdout, "upper bound: unknown: no program of this fragment is known")
		if r.Stopped != "" {
			fmt.Fprintf(e.stdout, "; %s", r.Stopped)
		}
		fmt.Fprintln(e.stdout)
		return nil
	}
	fmt.Fprintf(e.stdout, "upper bound: %d: %s\n", r.Upper, r.ProgramSource)
	if r.Meet() {
		fmt.Fprintf(e.stdout, "the bounds meet: depth %d is optimal in this fragment\n", r.Upper)
	} else if r.Stopped != "" {
		fmt.Fprintf(e.stdout, "the bounds do not meet: %s\n", r.Stopped)
	} else {
		fmt.Fprintf(e.stdout, "the bounds do not meet\n")
	}
	fmt.Fprintf(e.stdout, "program (attention depth %d):\n%s", r.Program.AttentionDepth(), out.Program)
	return nil
}

// quoteOnce quotes a word or trace as written for brasp run, unless it
// already quotes its symbols (then the quotes would be quoted again).
func quoteOnce(s string) string {
	if strings.Contains(s, `"`) {
		return s
	}
	return strconv.Quote(s)
}

// depthCheck re-checks a certificate given on the command line.
func depthCheck(e *env, b *budget.Budget, pos []string, from string, frag depth.Fragment, opts artifact.DepthOptions) error {
	a, err := loadFile(b, pos[0], from)
	if err != nil {
		return err
	}
	in, err := artifact.ParseInput(a, pos[1])
	if err != nil {
		return &exitError{code: 2, msg: fmt.Sprintf("depth: IN: %v", err)}
	}
	outWord, err := artifact.ParseInput(a, pos[2])
	if err != nil {
		return &exitError{code: 2, msg: fmt.Sprintf("depth: OUT: %v", err)}
	}
	k, err := strconv.Atoi(pos[3])
	if err != nil || k < 0 {
		return &exitError{code: 2, msg: fmt.Sprintf("depth: K: want a depth ≥ 0, got %q", pos[3])}
	}
	lang, _, err := artifact.DepthLanguage(b, a, opts.Convert)
	if err != nil {
		return fmt.Errorf("%s: %v", pos[0], err)
	}
	if err := depth.Check(b, lang, frag, in, outWord, k); err != nil {
		return fmt.Errorf("certificate rejected: %v", err)
	}
	fmt.Fprintf(e.stdout, "certificate holds: %q is in the language, %q is not, and they have the same depth-%d type in the %s fragment\n", pos[1], pos[2], k, frag)
	return nil
}
