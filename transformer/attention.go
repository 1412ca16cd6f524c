package transformer

import (
	"errors"

	"github.com/brasp-dev/brasp/budget"
)

// AttentionPattern runs the dense forward pass on w (ForwardDense) and
// returns, with its activations, which position every head attended to:
// pattern[l][h][i] is the 0-based position j that head h of layer l
// attends to at the 0-based query position i — the unmasked position of
// highest score, ties broken by the head's tie-break — or -1 when the mask
// leaves no position to attend to (as at i = 0 under a strict past mask).
// pattern[l] is empty for a layer without heads.
//
// The positions are recorded by the very score comparison and tie-break
// that produce the returned activations, in whichever arithmetic the pass
// uses (checked float64 or exact), so a caller showing them (the
// playground, a debugger) shows what the model computed and needs no
// forward pass of its own. The pass is O(n²·d) per head: it is meant for
// inspecting short words. It runs within b (see Runner.SetBudget).
func (m *Model) AttentionPattern(b *budget.Budget, w []int) (pattern [][][]int, a *Activations, err error) {
	r, err := m.runner(b)
	if err != nil {
		return nil, nil, err
	}
	return r.AttentionPattern(w)
}

// AttentionPattern is Model.AttentionPattern.
func (r *Runner) AttentionPattern(w []int) (pattern [][][]int, a *Activations, err error) {
	if err := r.m.checkWord(w); err != nil {
		return nil, nil, err
	}
	pattern = make([][][]int, len(r.m.Layers))
	for l := range r.m.Layers {
		pattern[l] = make([][]int, len(r.m.Layers[l].Heads))
		for h := range pattern[l] {
			pattern[l][h] = make([]int, len(w))
		}
	}
	if r.floatOK {
		xs, err := r.denseFloatPattern(w, pattern)
		if !errors.Is(err, errInexact) {
			if err != nil {
				return nil, nil, err
			}
			return pattern, newActivations(identityClasses(len(w)), xs, nil), nil
		}
	}
	// The exact pass overwrites every entry the float pass recorded.
	if a, err = r.m.denseExactPattern(r.bud, w, pattern, nil); err != nil {
		return nil, nil, err
	}
	return pattern, a, nil
}
