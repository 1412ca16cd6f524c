package artifact

import (
	"fmt"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/depth"
	"github.com/brasp-dev/brasp/exact"
	"github.com/brasp-dev/brasp/ltl"
)

// DepthOptions are the settings of Depth.
type DepthOptions struct {
	Fragment depth.Fragment
	// MaxDepth bounds the depths whose types are computed (0: depth's
	// default).
	MaxDepth int
	Search   depth.SearchOptions
	// Convert are the settings of the constructions that read the input
	// (its DFA, its depth-preserving program, Thm 5.1).
	Convert Options
}

// DepthLanguage is what depth bounds are computed for, read off an artifact:
// its alphabet and position predicates, its minimal DFA when it is regular,
// and the programs it already is (a B-RASP program, an LTL formula's
// depth-preserving program, a transformer's depth-preserving decompilation).
func DepthLanguage(b *budget.Budget, a Artifact, opts Options) (depth.Language, []depth.Known, error) {
	var known []depth.Known
	var preds []brasp.Predicate
	// The input's own predicates are atoms of the logic; a construction's
	// program (Thm 5.1's) is known but adds none: one reading a predicate
	// the input does not is outside every fragment (depth.Analyze).
	addKnown := func(p *brasp.Program, source string) {
		if p.IsTransducer() {
			return
		}
		known = append(known, depth.Known{Program: p, Source: source})
		if source == futureOnlySource {
			return
		}
		for _, v := range p.Vectors {
			if v.Kind == brasp.PredicateVector && !hasPredicate(preds, v.Pred) {
				preds = append(preds, v.Pred)
			}
		}
	}
	switch x := a.(type) {
	case *Program:
		addKnown(x.Prog, "the input program")
	case *Formula:
		p, err := ltl.ToBRASP(x.F)
		if err != nil {
			return depth.Language{}, nil, err
		}
		addKnown(p, fmt.Sprintf("the input formula (temporal depth %d), by Thm 3.2", x.F.Depth()))
	case *Transformer:
		p, err := Convert(b, a, KindBRASP, opts)
		if err != nil {
			return depth.Language{}, nil, err
		}
		addKnown(p.(*Program).Prog, "the input transformer's depth-preserving decompilation (Thm 4.2)")
	}
	if t, ok := a.(Transducer); ok && t.IsTransducer() {
		return depth.Language{}, nil, fmt.Errorf("depth bounds are for acceptors; this input is a transducer")
	}
	lang := depth.Language{
		Atoms:   depth.Atoms{Alphabet: a.Alphabet(), Predicates: preds},
		Accepts: a.Accepts,
	}
	d, err := ToDFA(b, a, opts)
	switch {
	case err == nil:
		lang.DFA = d
	case hasPredicateKind(preds, brasp.Mid):
		// Not regular: only the search for certificates runs.
		return lang, known, nil
	default:
		return depth.Language{}, nil, err
	}
	// Thm 5.1's construction gives a program with future-masked rightmost
	// attention only: an upper bound in every fragment. It is skipped when
	// it fails (a limit, or a language that is not star-free).
	fo := opts
	fo.BRASP = BRASPOptions{FutureOnly: true}
	if p, err := Convert(b, a, KindBRASP, fo); err == nil {
		addKnown(p.(*Program).Prog, futureOnlySource)
	}
	return lang, known, nil
}

const futureOnlySource = "the future-only program of Thm 5.1 (Krohn–Rhodes)"

func hasPredicate(ps []brasp.Predicate, p brasp.Predicate) bool {
	for _, q := range ps {
		if q == p {
			return true
		}
	}
	return false
}

func hasPredicateKind(ps []brasp.Predicate, k brasp.PredKind) bool {
	for _, q := range ps {
		if q.Kind == k {
			return true
		}
	}
	return false
}

// Depth bounds the attention depth the artifact's language needs in a
// fragment (package depth). A program built from the types is checked to be
// exactly equivalent to the language before it is returned, and the
// certificate is re-checked from scratch (depth.Check).
func Depth(b *budget.Budget, a Artifact, opts DepthOptions) (*depth.Result, error) {
	lang, known, err := DepthLanguage(b, a, opts.Convert)
	if err != nil {
		return nil, err
	}
	r, err := depth.Analyze(b, lang, known, depth.Options{Fragment: opts.Fragment, MaxDepth: opts.MaxDepth, Search: opts.Search})
	if err != nil {
		return nil, err
	}
	if w := r.Witness; w != nil {
		frag := opts.Fragment
		if err := depth.Check(b, lang, frag, w.In, w.Out, w.Depth); err != nil {
			return nil, fmt.Errorf("internal error: the certificate does not check: %v", err)
		}
	}
	if r.Exact && lang.DFA != nil {
		pd, err := exact.ProgramDFA(b, r.Program)
		if err != nil {
			return nil, err
		}
		eq, w, _, err := exact.Equivalent(pd, lang.DFA)
		if err != nil {
			return nil, err
		}
		if !eq {
			return nil, fmt.Errorf("internal error: the depth-%d program built from the types differs from the input on %s", r.Upper, automata.ShowWord(lang.Atoms.Alphabet, w))
		}
	}
	return r, nil
}
