package learn

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
)

// funcTeacher answers by a function of the word (any language, regular or
// not), per prefix or per word; it records the longest word it was asked.
type funcTeacher struct {
	accept  func(w []int) bool
	prefix  bool
	longest int
}

func (t *funcTeacher) PerPrefix() bool { return t.prefix }

func (t *funcTeacher) Query(_ *budget.Budget, words [][]int) ([][]bool, error) {
	out := make([][]bool, len(words))
	for i, w := range words {
		t.longest = max(t.longest, len(w))
		if !t.prefix {
			out[i] = []bool{t.accept(w)}
			continue
		}
		for j := range w {
			out[i] = append(out[i], t.accept(w[:j+1]))
		}
	}
	return out, nil
}

// Non-regular languages over letters 0 and 1 (others ignored).
var nonRegular = map[string]func(w []int) bool{
	// as many 0s as 1s
	"counting": func(w []int) bool {
		d := 0
		for _, a := range w {
			d += 1 - 2*min(a, 1)
		}
		return d == 0
	},
	// 0^n 1^n, n ≥ 1
	"anbn": func(w []int) bool {
		n := len(w) / 2
		if len(w) == 0 || len(w)%2 == 1 {
			return false
		}
		for i, a := range w {
			if (i < n) != (a == 0) {
				return false
			}
		}
		return true
	},
	// A trained model's stand-in: (01)+ on short words, then answers
	// that look random (a hash of the word) more and more often as words
	// grow.
	"model": func(w []int) bool {
		h := fnv.New32a()
		for _, a := range w {
			h.Write([]byte{byte(a)})
		}
		if int(h.Sum32()%16) < len(w)-4 {
			return h.Sum32()&(1<<20) != 0
		}
		for i, a := range w {
			if a != i%2 {
				return false
			}
		}
		return len(w)%2 == 0 && len(w) > 0
	},
}

// wordsUpTo returns every non-empty word of length at most n over k
// letters.
func wordsUpTo(k, n int) [][]int {
	var all [][]int
	level := [][]int{{}}
	for range n {
		var next [][]int
		for _, u := range level {
			for a := range k {
				next = append(next, concat(u, []int{a}))
			}
		}
		all = append(all, next...)
		level = next
	}
	return all
}

// learnBounded learns t's language through conformance with every word
// kept within n letters.
func learnBounded(t *testing.T, m Membership, alpha alphabet.Alphabet, n, length, extra int) *Result {
	t.Helper()
	cache := NewCache(nil, m, alpha, &Stats{})
	cache.SetMaxLength(n)
	res, err := LearnWith(nil, cache, NewConformance(cache, length, extra, -1, 50, n), nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestBoundNeverExceeded: with a bound on the length of words, no word
// longer is ever sent, whoever builds it (tails, random middles,
// counterexample processing, the suite, the HSI words), in plain and
// prefix mode, over random bounds, alphabets and teachers; the result line
// names the longest word asked.
func TestBoundNeverExceeded(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 60 {
		k := 1 + rng.IntN(3)
		alpha := alphabet.Alphabet{"a", "b", "c"}[:k]
		n := 1 + rng.IntN([]int{12, 8, 5}[k-1])
		var accept func([]int) bool
		name := "random DFA"
		if i%2 == 0 {
			d := automata.RandomDFA(rng, alpha, 1+rng.IntN(30))
			accept = func(w []int) bool { return d.Accepts(w) }
		} else {
			name = []string{"counting", "anbn", "model"}[i/2%3]
			accept = nonRegular[name]
		}
		for _, prefix := range []bool{false, true} {
			teacher := &funcTeacher{accept: accept, prefix: prefix}
			res := learnBounded(t, teacher, alpha, n, rng.IntN(3), rng.IntN(2))
			if teacher.longest > n {
				t.Fatalf("%s over %d letters, bound %d, prefix %v: asked a word of length %d", name, k, n, prefix, teacher.longest)
			}
			if res.Stats.LongestWord != teacher.longest {
				t.Fatalf("the stats say the longest word asked has %d letters, the teacher saw %d", res.Stats.LongestWord, teacher.longest)
			}
		}
	}
}

// TestBoundedIsMinimalCover: over non-regular teachers and regular ones,
// with the default exhaustive test up to the bound, the result agrees with
// the teacher on every word up to the bound, has at most as many states as
// those words plus one, and exactly as many as the minimal cover automaton
// of the teacher's words up to the bound (built here from every answer).
func TestBoundedIsMinimalCover(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for i := range 24 {
		k := 2 + rng.IntN(2)
		alpha := alphabet.Alphabet{"a", "b", "c"}[:k]
		n := 1 + rng.IntN(8)
		if k == 3 {
			n = min(n, 6)
		}
		name := []string{"counting", "anbn", "model"}[i%3]
		accept := nonRegular[name]
		all := wordsUpTo(k, n)
		want := truncatedCover(t, alpha, all, accept, n)
		for _, prefix := range []bool{false, true} {
			res := learnBounded(t, &funcTeacher{accept: accept, prefix: prefix}, alpha, n, n, 0)
			what := fmt.Sprintf("%s over %d letters up to %d (prefix %v)", name, k, n, prefix)
			for _, w := range all {
				if res.DFA.Accepts(w) != accept(w) {
					t.Fatalf("%s: the result and the teacher disagree on %v", what, w)
				}
			}
			if res.DFA.NumStates() > len(all)+1 {
				t.Fatalf("%s: %d states, more than the %d words up to the bound plus one", what, res.DFA.NumStates(), len(all))
			}
			if res.DFA.NumStates() != want {
				t.Fatalf("%s: %d states, the minimal cover has %d", what, res.DFA.NumStates(), want)
			}
		}
	}
}

// truncatedCover is the number of states of the minimal DFA agreeing with
// accept on the words all (every word up to n): the minimal cover of the
// trie of those words.
func truncatedCover(t *testing.T, alpha alphabet.Alphabet, all [][]int, accept func([]int) bool, n int) int {
	t.Helper()
	k := len(alpha)
	// The trie: node 0 the empty word, then the words in order (each
	// word's parent comes before it), a sink last.
	d := automata.NewDFA(alpha, len(all)+2)
	sink := len(all) + 1
	for q := range d.Delta {
		for a := range k {
			d.Delta[q][a] = sink
		}
	}
	index := map[string]int{fmt.Sprint([]int{}): 0}
	for i, w := range all {
		index[fmt.Sprint(w)] = i + 1
		d.Delta[index[fmt.Sprint(w[:len(w)-1])]][w[len(w)-1]] = i + 1
		d.Accept[i+1] = accept(w)
	}
	c, err := automata.MinimalCover(nil, d, n)
	if err != nil {
		t.Fatal(err)
	}
	return c.NumStates()
}

// TestGrowthWarning: a^n b^n, learned without a bound, warns
// that the language may not be regular, in plain and prefix mode; random
// regular targets learned the same way do not.
func TestGrowthWarning(t *testing.T) {
	alpha := alphabet.Alphabet{"a", "b"}
	for _, name := range []string{"anbn"} {
		for _, prefix := range []bool{false, true} {
			cache := NewCache(nil, &funcTeacher{accept: nonRegular[name], prefix: prefix}, alpha, &Stats{})
			// It ends learned, or at learn-growth-rounds (the suite finds
			// the next member of the family every round).
			res, err := LearnWith(nil, cache, NewConformance(cache, 4, 0, -1, 50, 0), nil)
			var be *budget.Error
			if err != nil && (!errors.As(err, &be) || be.Limit != maxGrowthRounds) {
				t.Fatal(err)
			}
			if GrowthWarning(res) == "" {
				t.Errorf("%s (prefix %v): learned %d states, counterexamples %v, no warning", name, prefix, res.Stats.States, res.Stats.CounterexampleLengths)
			}
		}
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for i := range 30 {
		k := 2 + i%3
		d := randomMinimal(rng, 10+rng.IntN(80), k)
		for _, prefix := range []bool{false, true} {
			res, _ := learnBlackBox(t, d, prefix)
			if w := GrowthWarning(res); w != "" {
				t.Errorf("a random %d-state DFA over %d letters (prefix %v): %s", d.NumStates(), k, prefix, w)
			}
		}
	}
}

// TestGrowthLimit: a^n b^n under a conformance test with the HSI suite
// (which finds the next member of the family every round) ends with
// learn-growth-rounds named and the last hypothesis kept, where it grew a
// state a round past any time bound; bounded Dyck-1 of depth 64 and 80,
// regular languages with a chain as long, are learned exactly within the
// default, in plain and prefix mode (depth 80 takes 67 rounds along one
// family from one verdict per word: past a default of 64).
func TestGrowthLimit(t *testing.T) {
	alpha := alphabet.Alphabet{"a", "b"}
	for _, prefix := range []bool{false, true} {
		cache := NewCache(nil, &funcTeacher{accept: nonRegular["anbn"], prefix: prefix}, alpha, &Stats{})
		res, err := LearnWith(nil, cache, NewConformance(cache, 4, 1, -1, 50, 0), nil)
		var be *budget.Error
		if !errors.As(err, &be) || be.Limit != maxGrowthRounds || !strings.Contains(err.Error(), "may not be regular") {
			t.Fatalf("a^n b^n (prefix %v): %v, %d states", prefix, err, res.Stats.States)
		}
		if res.DFA == nil {
			t.Errorf("a^n b^n (prefix %v): the last hypothesis is lost", prefix)
		}
		t.Logf("a^n b^n (prefix %v): %d states, %d rounds: %v", prefix, res.Stats.States, res.Stats.EquivalenceRounds, err)
	}
	for _, depth := range []int{64, 80} {
		d := dyck(depth)
		for _, prefix := range []bool{false, true} {
			res, _ := learnBlackBox(t, d, prefix)
			if !automata.Equivalent(res.DFA, d, automata.SigmaPlus) {
				t.Errorf("Dyck-1 of depth %d (prefix %v): learned %d states, not the target", depth, prefix, res.DFA.NumStates())
			}
			t.Logf("Dyck-1 of depth %d (prefix %v): %d rounds, %d along one family", depth, prefix, res.Stats.EquivalenceRounds, res.Stats.GrowthRounds)
		}
	}
}

// TestGrowthAlternating: counterexamples of a family that alternate
// between two shapes, each growing (a^n b^n in prefix mode, --test-length
// 1, --random-mean 200: 22 states learned, exit 0, no warning, because
// only 8 of 12 lengths were as long as the one before), read as growth
// along one family.
func TestGrowthAlternating(t *testing.T) {
	lengths := []int{2, 3, 6, 10, 8, 12, 16, 14, 18, 16, 20, 18, 20}
	if _, ok := chainGrowth(lengths, dyck(20)); !ok {
		t.Errorf("lengths %v over a chain of 22 states: not read as growth along one family", lengths)
	}
}
