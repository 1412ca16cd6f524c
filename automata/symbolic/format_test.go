package symbolic_test

import (
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/automata/symbolic"
	"github.com/brasp-dev/brasp/ltlf"
)

func TestFormat(t *testing.T) {
	f, err := ltlf.ParseString("G(a -> X b)")
	if err != nil {
		t.Fatal(err)
	}
	d, err := ltlf.ToDFA(nil, f)
	if err != nil {
		t.Fatal(err)
	}
	want := `propositions a b
start 0
accept 1 2
0 1 !a
0 2 a
1 1 !a
1 2 a
2 3 !b
2 1 !a & b
2 2 a & b
3 3 true
`
	if got := symbolic.Format(d); got != want {
		t.Errorf("Format:\n%s\nwant\n%s", got, want)
	}
	if got := symbolic.FormatDiagram(d); !strings.Contains(got, "node 3 a n1 n2\nstate 0 n0\n") {
		t.Errorf("FormatDiagram:\n%s", got)
	}
	if got := symbolic.DOT(d); !strings.Contains(got, `2 -> 1 [label="!a & b"];`) {
		t.Errorf("DOT:\n%s", got)
	}
}
