package depth

import (
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
)

// The brute-force reference: two pointed words are depth-d equivalent when
// every formula of depth ≤ d gives them the same value. A depth-(d−1)
// formula is, on the positions at hand, a set of "profiles" (the position's
// letter and the values of all depth-(d−1) generators there), so the
// depth-d generators are "Φ since Ψ" (and "Φ until Ψ") for all sets Φ, Ψ of
// the profiles that occur. Evaluating all of them is exponential, which is
// why the engine computes antichains instead; this test checks the two
// agree.

// since and until evaluate "phi since psi" / "phi until psi" at i, strictly.
func since(n, i int, phi, psi func(int) bool) bool {
	for j := i - 1; j >= 0; j-- {
		if psi(j) {
			return true
		}
		if !phi(j) {
			return false
		}
	}
	return false
}

func until(n, i int, phi, psi func(int) bool) bool {
	for j := i + 1; j < n; j++ {
		if psi(j) {
			return true
		}
		if !phi(j) {
			return false
		}
	}
	return false
}

// bruteEquivalent reports whether the last positions of u and v agree on
// every formula of depth ≤ d. It returns ok=false when the profiles are too
// many to enumerate every pair of sets.
func bruteEquivalent(u, v []int, d int, withUntil bool, maxProfiles int) (equal, ok bool) {
	words := [][]int{u, v}
	// prof[x][i] is a string naming position i's profile in word x.
	prof := make([][]string, 2)
	for x, w := range words {
		prof[x] = make([]string, len(w))
		for i, a := range w {
			prof[x][i] = string(rune('a' + a))
		}
	}
	for level := 1; level <= d; level++ {
		// The profiles of the previous level that occur.
		index := map[string]int{}
		for x := range words {
			for _, p := range prof[x] {
				if _, seen := index[p]; !seen {
					index[p] = len(index)
				}
			}
		}
		m := len(index)
		if m > maxProfiles {
			return false, false
		}
		next := make([][]string, 2)
		for x, w := range words {
			n := len(w)
			next[x] = make([]string, n)
			for i := range n {
				bits := []byte(string(rune('a' + w[i])))
				for phi := 0; phi < 1<<m; phi++ {
					for psi := 0; psi < 1<<m; psi++ {
						in := func(set int) func(int) bool {
							return func(j int) bool { return set>>index[prof[x][j]]&1 != 0 }
						}
						bit := since(n, i, in(phi), in(psi))
						bits = append(bits, '0'+boolByte(bit))
						if withUntil {
							bits = append(bits, '0'+boolByte(until(n, i, in(phi), in(psi))))
						}
					}
				}
				next[x][i] = string(bits)
			}
		}
		prof = next
	}
	return prof[0][len(u)-1] == prof[1][len(v)-1], true
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

func randomWord(rng *rand.Rand, sigma, maxLen int) []int {
	w := make([]int, 1+rng.IntN(maxLen))
	for i := range w {
		w[i] = rng.IntN(sigma)
	}
	return w
}

func TestTypesAgreeWithBruteForce(t *testing.T) {
	cases := []struct {
		sigma, depth, maxLen, maxProfiles int
	}{
		{3, 1, 7, 3},
		{2, 2, 6, 6},
	}
	for _, frag := range []Fragment{Since, SinceUntil} {
		for _, c := range cases {
			alpha := alphabet.Alphabet{"a", "b", "c"}[:c.sigma]
			atoms := Atoms{Alphabet: alpha}
			rng := rand.New(rand.NewPCG(uint64(c.depth), uint64(frag)))
			counts := [2]int{}
			for trial := 0; trial < 4000 && counts[0]+counts[1] < 600; trial++ {
				u := randomWord(rng, c.sigma, c.maxLen)
				v := randomWord(rng, c.sigma, c.maxLen)
				if rng.IntN(3) == 0 {
					// Pairs of equal types are rare among random words:
					// also try v = u with one letter run pumped.
					v = pump(rng, u)
				}
				want, ok := bruteEquivalent(u, v, c.depth, frag.hasUntil(), c.maxProfiles)
				if !ok {
					continue
				}
				tab := NewTable(nil, atoms, frag)
				tu, err := tab.WordType(nil, u, c.depth)
				if err != nil {
					t.Fatal(err)
				}
				tv, err := tab.WordType(nil, v, c.depth)
				if err != nil {
					t.Fatal(err)
				}
				if got := tu == tv; got != want {
					t.Fatalf("%v depth %d: %s vs %s: types equal %v, brute force %v", frag, c.depth, alpha.FormatWord(u), alpha.FormatWord(v), got, want)
				}
				counts[boolByte(want)]++
			}
			t.Logf("%v depth %d over %d letters: %d equivalent and %d inequivalent pairs agree", frag, c.depth, c.sigma, counts[1], counts[0])
			if counts[0] == 0 || counts[1] == 0 {
				t.Errorf("%v depth %d: the pairs tried were all of one kind (%v)", frag, c.depth, counts)
			}
		}
	}
}

// pump repeats one letter of w once more.
func pump(rng *rand.Rand, w []int) []int {
	i := rng.IntN(len(w))
	out := append([]int(nil), w[:i+1]...)
	out = append(out, w[i])
	return append(out, w[i+1:]...)
}
