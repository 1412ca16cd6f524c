package symbolic_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/symbolic"
	"github.com/brasp-dev/brasp/ltlf"
)

// TestFromLetters: FromLetters inverts ToLetters (the same automaton,
// compared symbolically), and on random letter automata every state moves
// on every valuation as its letter does.
func TestFromLetters(t *testing.T) {
	for _, src := range []string{"G(a -> F b)", "a U (b & X[!] c)", "F(a & !b) & G(c -> X d)"} {
		f, err := ltlf.ParseString(src)
		if err != nil {
			t.Fatal(err)
		}
		d, err := ltlf.ToDFA(nil, f)
		if err != nil {
			t.Fatal(err)
		}
		letters, err := symbolic.ToLetters(nil, d, valuationName)
		if err != nil {
			t.Fatal(err)
		}
		back, err := symbolic.FromLetters(nil, letters, d.Props)
		if err != nil {
			t.Fatal(err)
		}
		if c, err := symbolic.Compare(nil, d, back); err != nil || c != nil {
			t.Errorf("%s: FromLetters(ToLetters(d)) differs from d: %v %v", src, c, err)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for k := range 5 {
		names := make([]string, 1<<k)
		for v := range names {
			names[v] = valuationName(symbolic.Valuation(k, v))
		}
		props := []string{"p", "q", "r", "s", "t"}[:k]
		for range 20 {
			l := automata.RandomDFA(rng, alphabet.Alphabet(names), 1+rng.IntN(6))
			s, err := symbolic.FromLetters(nil, l, props)
			if err != nil {
				t.Fatal(err)
			}
			for q := range l.NumStates() {
				for v := range names {
					if got := s.Step(q, func(i int) bool { return v>>i&1 == 1 }); got != l.Delta[q][v] {
						t.Fatalf("k=%d: state %d on valuation %d goes to %d, want %d", k, q, v, got, l.Delta[q][v])
					}
				}
			}
		}
	}
	if _, err := symbolic.FromLetters(nil, automata.RandomDFA(rng, alphabet.Alphabet{"a", "b", "c"}, 2), []string{"p", "q"}); err == nil {
		t.Error("FromLetters accepted 3 letters for 2 propositions")
	}
}

// FuzzFromLetters: any letter automaton over the valuations of up to 4
// propositions (its table drawn from the bytes) becomes a symbolic one
// that moves as it does on every valuation; a wrong alphabet size is an
// error.
func FuzzFromLetters(f *testing.F) {
	f.Add(uint8(2), uint8(3), []byte{0, 1, 2, 1, 0, 2, 2, 2, 1, 0, 0, 1})
	f.Add(uint8(0), uint8(1), []byte{0})
	f.Add(uint8(3), uint8(2), []byte{7, 7, 7})
	f.Fuzz(func(t *testing.T, k, n uint8, table []byte) {
		k, n = k%5, n%8+1
		letters := 1 << k
		if len(table) > 0 && table[0] == 255 {
			letters++ // an alphabet that is not the valuations
		}
		names := make([]string, letters)
		for v := range names {
			names[v] = fmt.Sprint(v)
		}
		d := automata.NewDFA(alphabet.Alphabet(names), int(n))
		for q := range int(n) {
			d.Accept[q] = q%2 == 1
			for v := range letters {
				if i := q*letters + v; i < len(table) {
					d.Delta[q][v] = int(table[i]) % int(n)
				}
			}
		}
		props := []string{"p", "q", "r", "s"}[:k]
		s, err := symbolic.FromLetters(nil, d, props)
		if letters != 1<<k {
			if err == nil {
				t.Fatal("FromLetters accepted the wrong number of letters")
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		for q := range int(n) {
			for v := range letters {
				if got := s.Step(q, func(i int) bool { return v>>i&1 == 1 }); got != d.Delta[q][v] {
					t.Fatalf("state %d on valuation %d goes to %d, want %d", q, v, got, d.Delta[q][v])
				}
			}
		}
	})
}
