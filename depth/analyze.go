package depth

import (
	"errors"
	"fmt"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/ltl"
	"github.com/brasp-dev/brasp/position"
)

// Language is what bounds are computed for: a language of non-empty words
// over Atoms' alphabet.
type Language struct {
	Atoms Atoms
	// DFA recognises the language (on non-empty words); nil when the
	// language is not known to be regular, in which case only the search
	// for certificates runs.
	DFA *automata.DFA
	// Accepts decides membership; nil means DFA.Accepts.
	Accepts func(w []int) (bool, error)
}

func (l Language) member() func([]int) (bool, error) {
	if l.Accepts != nil {
		return l.Accepts
	}
	return func(w []int) (bool, error) { return l.DFA.Accepts(w), nil }
}

// Known is a program already known to recognise the language, such as the
// input itself or a construction's output: an upper bound in every fragment
// its attention operations belong to.
type Known struct {
	Program *brasp.Program
	// Source says where the program comes from, for the report.
	Source string
}

// Options bound the analysis.
type Options struct {
	Fragment Fragment
	// MaxDepth is the largest depth whose types are computed; 0 means 6.
	MaxDepth int
	// Search bounds the certificate search of fragments with until.
	Search SearchOptions
}

// Result is a lower and an upper bound on the depth of the language in a
// fragment.
type Result struct {
	Fragment Fragment
	// Lower: no program or transformer of the fragment with depth < Lower
	// recognises the language. Witness proves it when Lower > 0.
	Lower   int
	Witness *Certificate
	// Upper is the depth of Program, which recognises the language with
	// attention of the fragment; −1 when no program is known.
	Upper         int
	Program       *brasp.Program
	ProgramSource string
	// Exact reports whether the lower bound was shown to be the best
	// possible by the exhaustive search (since fragment on a regular
	// language): then Upper = Lower and Program was built from the types.
	Exact bool
	// Explored is, per depth tried, the states of the type automaton ×
	// DFA product (since fragment).
	Explored []int
	// Stopped says why the exhaustive search stopped before the bounds met
	// (a limit), or is empty.
	Stopped string
}

// Meet reports whether the bounds are equal.
func (r *Result) Meet() bool { return r.Upper >= 0 && r.Upper == r.Lower }

// ProgramFragment is the smallest fragment a program's attention operations
// belong to: Since when every attention is rightmost with a future mask
// (j<i or j<=i), SinceUntil when the others are leftmost with a past mask
// (i<j or i<=j), All otherwise.
func ProgramFragment(p *brasp.Program) Fragment {
	f := Since
	for _, v := range p.Vectors {
		if v.Kind != brasp.AttentionVector {
			continue
		}
		switch a := v.Att; {
		case a.Tiebreak == position.Rightmost && (a.Mask == position.MaskFuture || a.Mask == position.MaskFutureOrSelf):
		case a.Tiebreak == position.Leftmost && (a.Mask == position.MaskPast || a.Mask == position.MaskPastOrSelf):
			f = max(f, SinceUntil)
		default:
			return All
		}
	}
	return f
}

// Analyze bounds the attention depth a language needs in a fragment.
//
// Since: for k = 0, 1, …, the type automaton of depth k runs against the
// DFA (sinceSearch); a collision is a shortest certificate that depth k is
// not enough, and an exhaustive run without one proves the language a union
// of depth-k types, whose characteristic formulas give a depth-k program.
// The bounds then meet. With until, certificates are searched among words
// (searchCertificate), and the upper bound is the best known program or the
// since fragment's. For All, a since-until certificate of depth c shows that
// no program of depth d with 2d ≤ c exists (App. C), so Lower = ⌊c/2⌋+1.
func Analyze(b *budget.Budget, lang Language, known []Known, opts Options) (*Result, error) {
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = 6
	}
	switch opts.Fragment {
	case Since:
		return analyzeSince(b, lang, known, opts)
	case SinceUntil:
		return analyzeWithUntil(b, lang, known, opts)
	case All:
		r, err := analyzeWithUntil(b, lang, known, opts)
		if err != nil {
			return nil, err
		}
		r.Fragment = All
		if r.Witness != nil {
			r.Lower = r.Witness.Depth/2 + 1
		}
		r.Upper, r.Program, r.ProgramSource = best(known, lang.Atoms, All, r.Upper, r.Program, r.ProgramSource)
		r.Exact = false
		return r, nil
	}
	return nil, fmt.Errorf("unknown fragment %v", opts.Fragment)
}

// best is the smallest upper bound among the known programs of a fragment
// over the atoms and the one given. A program reading a position predicate
// that is not among the atoms is outside the fragment (a MOD predicate in a
// Krohn–Rhodes program of a language that is not star-free), whatever its
// attention.
func best(known []Known, atoms Atoms, f Fragment, upper int, p *brasp.Program, source string) (int, *brasp.Program, string) {
	for _, k := range known {
		if ProgramFragment(k.Program) > f || !atoms.reads(k.Program) {
			continue
		}
		if d := k.Program.AttentionDepth(); upper < 0 || d < upper {
			upper, p, source = d, k.Program, k.Source
		}
	}
	return upper, p, source
}

func analyzeSince(b *budget.Budget, lang Language, known []Known, opts Options) (*Result, error) {
	if lang.DFA == nil {
		return analyzeWithUntil(b, lang, known, opts)
	}
	r := &Result{Fragment: Since, Upper: -1}
	r.Upper, r.Program, r.ProgramSource = best(known, lang.Atoms, Since, -1, nil, "")
	tab := NewTable(b, lang.Atoms, Since)
	for k := 0; k <= opts.MaxDepth; k++ {
		if r.Upper >= 0 && k >= r.Upper {
			// A known program of depth k exists: no certificate at k.
			break
		}
		res, err := sinceSearch(b, tab, lang.DFA, k)
		if errors.Is(err, budget.ErrLimit) {
			// Keep what is proved so far.
			r.Stopped = fmt.Sprintf("the exhaustive search of depth %d stopped: %v", k, err)
			break
		}
		if err != nil {
			return nil, err
		}
		r.Explored = append(r.Explored, res.States)
		if res.cert != nil {
			r.Lower, r.Witness = k+1, res.cert
			continue
		}
		f := newSynthesizer(tab, res.occurring).language(k, res.finals)
		p, err := ltl.ToBRASP(f)
		if err != nil {
			return nil, err
		}
		r.Upper, r.Program, r.ProgramSource, r.Exact = k, p, fmt.Sprintf("since formula of depth %d built from the depth-%d types", f.Depth(), k), true
		break
	}
	return r, nil
}

func analyzeWithUntil(b *budget.Budget, lang Language, known []Known, opts Options) (*Result, error) {
	r := &Result{Fragment: SinceUntil, Upper: -1}
	// The since fragment is contained in this one: its exact bound is an
	// upper bound here, and its certificates are candidate seeds.
	var seeds [][]int
	if lang.DFA != nil {
		s, err := analyzeSince(b, lang, known, Options{Fragment: Since, MaxDepth: opts.MaxDepth})
		if err != nil && !errors.Is(err, budget.ErrLimit) {
			return nil, err
		}
		if s != nil {
			r.Upper, r.Program, r.ProgramSource, r.Stopped = s.Upper, s.Program, s.ProgramSource, s.Stopped
			if s.Witness != nil {
				seeds = append(seeds, s.Witness.In, s.Witness.Out)
			}
		}
	}
	r.Upper, r.Program, r.ProgramSource = best(known, lang.Atoms, SinceUntil, r.Upper, r.Program, r.ProgramSource)
	for k := 0; k <= opts.MaxDepth; k++ {
		if r.Upper >= 0 && k >= r.Upper {
			break
		}
		cert, err := searchCertificate(b, lang, SinceUntil, k, seeds, opts.Search)
		if err != nil {
			return nil, err
		}
		if cert == nil {
			break
		}
		r.Lower, r.Witness = k+1, cert
		seeds = append(seeds, cert.In, cert.Out)
	}
	return r, nil
}
