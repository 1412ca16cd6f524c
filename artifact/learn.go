package artifact

import (
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/learn"
)

// Learn learns the minimal DFA of a's language of non-empty words by
// active learning (package learn) with a's exact teacher: membership by
// running a's minimal DFA (ToDFA), equivalence by the product search of
// automata.Compare. It is not an edge of the table: its source is a
// teacher, not a kind, and the teachers that matter (a process, a
// trained model) are not files; with a file it verifies the learner, whose
// result must equal ToDFA's. learn.Learn with another Membership and
// Equivalence learns any other teacher.
func Learn(b *budget.Budget, a Artifact, opts Options) (*learn.Result, error) {
	d, err := ToDFA(b, a, opts)
	if err != nil {
		return nil, err
	}
	teacher := &learn.DFATeacher{D: d}
	return learn.Learn(b, d.Alphabet, teacher, teacher)
}
