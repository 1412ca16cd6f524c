package count

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/regex/regextest"
	"github.com/brasp-dev/brasp/internal/testkit"
)

// generated is one word Generate emitted.
type generated struct {
	w   string
	n   int
	acc bool
}

// generate runs Generate and returns the words and notes.
func generate(t *testing.T, a *Automaton, r Request) ([]generated, []string, error) {
	t.Helper()
	tb := table(t, a, r.Max)
	var words []generated
	var notes []string
	err := Generate(nil, tb, r, func(w []uint64, acc bool) error {
		words = append(words, generated{fmt.Sprint(w), len(w), acc})
		return nil
	}, func(s string) { notes = append(notes, s) })
	return words, notes, err
}

// TestGenerateModes: the number of words of each side per mode, the notes
// where a side is empty or short, and the errors of --distinct.
func TestGenerateModes(t *testing.T) {
	ab := fromDFA(t, regextest.DFA(t, "a b", "(ab)+"))
	words, notes, err := generate(t, ab, Request{Min: 1, Max: 4, Count: 5, Mode: Balanced, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	acc := map[int]int{}
	for _, g := range words {
		if g.acc {
			acc[g.n]++
		}
	}
	// Lengths 2 and 4: 2 or 3 accepted of 5 (the odd one on a random
	// side); 1 and 3: all 5 rejected.
	if len(words) != 20 || acc[1]+acc[3] != 0 || acc[2] < 2 || acc[2] > 3 || acc[4] < 2 || acc[4] > 3 {
		t.Errorf("balanced: %d words, accepted per length %v", len(words), acc)
	}
	// One word per length: accepted about half the time.
	words, _, err = generate(t, fromDFA(t, regextest.DFA(t, "a b", "a.*")), Request{Min: 1, Max: 200, Count: 1, Mode: Balanced, Seed: 1})
	n := 0
	for _, g := range words {
		if g.acc {
			n++
		}
	}
	if err != nil || n < 70 || n > 130 {
		t.Errorf("balanced, one word per length: %v, %d of 200 accepted", err, n)
	}
	want := []string{"length 1: no accepted word; all 5 drawn are rejected", "length 3: no accepted word; all 5 drawn are rejected"}
	if !reflect.DeepEqual(notes, want) {
		t.Errorf("notes %q, want %q", notes, want)
	}
	words, notes, err = generate(t, ab, Request{Min: 1, Max: 4, Count: 3, Mode: OnlyAccept})
	if err != nil || len(words) != 6 || len(notes) != 2 {
		t.Errorf("only accept: %v, %d words, notes %q", err, len(words), notes)
	}
	// Distinct: all four words of length 2, each once.
	words, _, err = generate(t, ab, Request{Min: 2, Max: 2, Count: 4, Distinct: true, Seed: 9})
	seen := map[string]bool{}
	for _, g := range words {
		seen[g.w] = true
	}
	if err != nil || len(seen) != 4 {
		t.Errorf("distinct: %v, %d different words of %d", err, len(seen), len(words))
	}
	for r, msg := range map[Request]string{
		{Min: 2, Max: 2, Count: 5, Distinct: true}:                   "length 2 has 4 words: --distinct cannot draw 5",
		{Min: 2, Max: 2, Count: 2, Distinct: true, Mode: OnlyAccept}: "length 2 has 1 accepted word: --distinct cannot draw 2",
		{Min: 2, Max: 2, Count: 5, Distinct: true, Mode: Balanced}:   "length 2 has 4 words: --distinct cannot draw 5",
		{Min: 0, Max: 2, Count: 1}:                                   "lengths 0:2 outside the table's 1:2",
	} {
		if _, _, err := generate(t, ab, r); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%+v: %v, want %q", r, err, msg)
		}
	}
	// Balanced and distinct, short of accepted words: the rest rejected.
	words, notes, err = generate(t, ab, Request{Min: 2, Max: 2, Count: 4, Distinct: true, Mode: Balanced})
	if err != nil || len(words) != 4 || len(notes) != 1 || notes[0] != "length 2: only 1 accepted word; 3 rejected drawn" {
		t.Errorf("balanced distinct: %v, %d words, notes %q", err, len(words), notes)
	}
}

// TestGenerateIsDeterministic: a seed gives the same words every time,
// another seed others.
func TestGenerateIsDeterministic(t *testing.T) {
	a := fromDFA(t, automata.RandomDFA(rand.New(rand.NewPCG(8, 8)), testkit.Letters(3), 6))
	for _, mode := range []Mode{Uniform, Balanced} {
		r := Request{Min: 1, Max: 70, Count: 5, Mode: mode, Seed: 42}
		w1, _, err1 := generate(t, a, r)
		w2, _, err2 := generate(t, a, r)
		r.Seed = 43
		w3, _, err3 := generate(t, a, r)
		if err := errors.Join(err1, err2, err3); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(w1, w2) || reflect.DeepEqual(w1, w3) {
			t.Errorf("mode %d: same seed equal %v, other seed equal %v", mode, reflect.DeepEqual(w1, w2), reflect.DeepEqual(w1, w3))
		}
	}
}

// TestGenerateLengthsIndependent: the words of a length depend on the seed
// and the length, not on the other lengths asked.
func TestGenerateLengthsIndependent(t *testing.T) {
	a := fromDFA(t, automata.RandomDFA(rand.New(rand.NewPCG(9, 9)), testkit.Letters(3), 6))
	for _, mode := range []Mode{Uniform, Balanced, OnlyReject} {
		w1, _, err1 := generate(t, a, Request{Min: 1, Max: 10, Count: 7, Mode: mode, Seed: 5})
		w2, _, err2 := generate(t, a, Request{Min: 5, Max: 12, Count: 7, Mode: mode, Seed: 5})
		if err := errors.Join(err1, err2); err != nil {
			t.Fatal(err)
		}
		var from1, from2 []generated
		for _, g := range w1 {
			if g.n >= 5 {
				from1 = append(from1, g)
			}
		}
		for _, g := range w2 {
			if g.n <= 10 {
				from2 = append(from2, g)
			}
		}
		if len(from1) == 0 || !reflect.DeepEqual(from1, from2) {
			t.Errorf("mode %d: lengths 5 to 10 differ between the ranges 1:10 and 5:12", mode)
		}
	}
}
