package symbolic

import (
	"testing"

	"github.com/brasp-dev/brasp/bdd"
)

// twoState is the DFA over one proposition p whose start goes to state 1
// on every valuation and state 1 goes to state back (to the start) when
// p holds and stays otherwise, with the given acceptance.
func twoState(accept0, accept1, back bool) *DFA {
	m := bdd.New(nil, 1)
	s0, s1 := m.Terminal(0), m.Terminal(1)
	d := &DFA{Props: []string{"p"}, M: m, Leaf: map[bdd.Node]int{s0: 0, s1: 1}}
	d.Next = []bdd.Node{s1, s1}
	if back {
		d.Next[1] = m.Mk(0, s1, s0)
	}
	d.Accept = []bool{accept0, accept1}
	return d
}

func TestIsEmptyIsFull(t *testing.T) {
	for _, c := range []struct {
		d           *DFA
		empty, full bool
	}{
		{twoState(false, false, false), true, false},
		{twoState(false, true, false), false, true},
		{twoState(false, true, true), false, false}, // "p p" returns to the rejecting start
		{twoState(true, false, false), false, false},
	} {
		if err := c.d.Validate(); err != nil {
			t.Fatal(err)
		}
		if IsEmpty(c.d) != c.empty || IsFull(c.d) != c.full {
			t.Errorf("accept %v, next %v: IsEmpty %v IsFull %v, want %v %v", c.d.Accept, c.d.Next, IsEmpty(c.d), IsFull(c.d), c.empty, c.full)
		}
	}
}
