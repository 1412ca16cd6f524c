package artifact

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/examples"
)

// ltlfSeeds are LTLf formulas for FuzzConvert (the examples have none).
var ltlfSeeds = []string{
	"G (req -> F grant)\n",
	"propositions a b\na U (b & X[!] !a)\n",
	"F (a & WX false) | G b\n",
}

// FuzzConvert runs the edges of the conversion table on arbitrary input:
// it loads data as one kind, converts it to another, and, where both have
// exact semantics, checks with Equiv that the conversion kept the language
// (the same output at every position, for transducers). A construction may
// refuse, stop at a named limit or at the deadline, but never panic, never
// return an artifact of another language, and never leave Equiv with a
// counterexample that does not separate the two. The seeds are the small
// examples and a few LTLf formulas, each towards every kind the table
// reaches from it.
func FuzzConvert(f *testing.F) {
	add := func(from Kind, src []byte) {
		for _, to := range Kinds() {
			if to != from && CanConvert(from, to) {
				f.Add(string(from), string(to), src)
			}
		}
	}
	for _, name := range examples.AllNames() {
		src, err := examples.Source(name)
		if err != nil {
			f.Fatal(err)
		}
		if len(src) > 700 { // the large transducers take seconds per edge
			continue
		}
		k, err := KindOf(name)
		if err != nil {
			f.Fatal(err)
		}
		add(k, src)
	}
	for _, src := range ltlfSeeds {
		add(KindLTLf, []byte(src))
	}
	f.Fuzz(func(t *testing.T, from, to string, data []byte) {
		fk, err := ParseKind(from)
		if err != nil {
			return
		}
		tk, err := ParseKind(to)
		if err != nil || fk == tk || !CanConvert(fk, tk) {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		b := budget.New(ctx, nil)
		in, err := Load(b, "fuzz", data, fk)
		if err != nil {
			return
		}
		out, err := Convert(b, in, tk, Options{})
		if err != nil {
			return // refused: not star-free, not in AC0, a limit, the deadline
		}
		r, err := Equiv(b, in, out, Options{})
		if errors.Is(err, ErrUnconfirmed) {
			t.Fatalf("%s → %s: %v", fk, tk, err)
		}
		if err != nil {
			return // no exact semantics (Mid), a limit, the deadline
		}
		if !r.Equal {
			shown := r.Trace
			if shown == "" {
				shown = automata.ShowWord(r.Alphabet, r.Word)
			}
			t.Fatalf("%s → %s changed the language: they differ on %s at position %d (the input accepts it: %v)\n%s",
				fk, tk, shown, r.Position, r.FirstAccepts, data)
		}
	})
}
