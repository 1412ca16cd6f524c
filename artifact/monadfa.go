package artifact

import (
	"fmt"

	"github.com/brasp-dev/brasp/automata/monadfa"
	"github.com/brasp-dev/brasp/budget"
)

// KindMONADFA names MONA's `mona -w` DFA output as an input kind. Such a
// file is also recognised by its contents under any name and under --from
// dfa (SniffKind, loadDFA); the name lets a user say what the file is. It
// loads as a DFA over propositions (*SymbolicDFA, whose Kind is dfa), so
// every conversion from dfa applies to it.
const KindMONADFA Kind = "mona-dfa"

// loadsAs is the kind of the artifacts an input kind loads as: dfa for
// mona-dfa, k itself otherwise. The conversion table's edges start from
// it.
func loadsAs(k Kind) Kind {
	if k == KindMONADFA {
		return KindDFA
	}
	return k
}

// loadMONADFA reads a file given as --from mona-dfa, refusing one without
// MONA's header with a message that says what was expected.
func loadMONADFA(b *budget.Budget, filename string, data []byte) (Artifact, error) {
	if !monadfa.Looks(data) {
		return nil, fmt.Errorf("%s: not MONA's -w output (it has no line %q)",
			filename, "DFA for formula with free variables: ...")
	}
	return loadMONA(b, filename, data)
}
