package learn

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestTrie inserts random words into tries over few letters (rows), many
// (a map), and more than a node holds inline, and checks every node
// against a map of the words: kid finds exactly the words inserted,
// children lists exactly their one-letter extensions, verdicts stay where
// they were set, and the bytes counted are what growth announced.
func TestTrie(t *testing.T) {
	for _, k := range []int{1, 2, 10, denseLetters, denseLetters + 1, 300, inlineLetters + 5} {
		t.Run(fmt.Sprintf("letters=%d", k), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(k), 1))
			tr := newTrie(k)
			ids := map[string]int32{fmt.Sprint([]int{}): 0}
			verdict := map[int32]int8{}
			// Few distinct letters per position, so that nodes branch.
			letters := []int{0, k - 1, k / 2, rng.IntN(k)}
			for range 3000 {
				w := make([]int, rng.IntN(12))
				for i := range w {
					w[i] = letters[rng.IntN(len(letters))]
				}
				n := int32(0)
				for i, a := range w {
					next := tr.kid(n, a)
					if want := ids[fmt.Sprint(w[:i+1])]; next != want {
						t.Fatalf("kid of %v by %d: %d, want %d", w[:i], a, next, want)
					}
					if next == 0 {
						before, grow := tr.bytes, tr.growth(n)
						next = tr.addKid(n, a)
						if tr.bytes-before != grow {
							t.Fatalf("growth announced %d bytes, the trie grew by %d", grow, tr.bytes-before)
						}
						ids[fmt.Sprint(w[:i+1])] = next
					}
					n = next
				}
				v := int8(1 + rng.IntN(2))
				tr.setOut(n, v)
				verdict[n] = v
			}
			if int(tr.n) != len(ids) {
				t.Fatalf("%d nodes for %d words", tr.n, len(ids))
			}
			for n, v := range verdict {
				if tr.out(n) != v {
					t.Fatalf("node %d: verdict %d, want %d", n, tr.out(n), v)
				}
			}
			// Every node but the root is the child of exactly one node.
			kids := map[int32][]int32{}
			for n := range tr.n {
				var got []int32
				for a, c := range tr.children(n) {
					if tr.kid(n, a) != c || c == 0 {
						t.Fatalf("children of %d: %d by %d, kid says %d", n, c, a, tr.kid(n, a))
					}
					got = append(got, c)
				}
				kids[n] = got
			}
			seen := map[int32]bool{}
			for _, cs := range kids {
				for _, c := range cs {
					if seen[c] {
						t.Fatalf("node %d is a child twice", c)
					}
					seen[c] = true
				}
			}
			if len(seen) != len(ids)-1 {
				t.Fatalf("children name %d nodes, want %d", len(seen), len(ids)-1)
			}
		})
	}
}
