package depth

import (
	"hash/maphash"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
)

// FuzzTypes checks that the two ways of comparing types agree: interning
// both words in one table, and hashing the canonical form of each word's
// type computed in a table of its own.
func FuzzTypes(f *testing.F) {
	f.Add([]byte("aaab"), []byte("aab"), uint8(2), false)
	// The hash once reused a buffer its recursion overwrote: aab and aaa
	// collided at depth 2.
	f.Add([]byte("aab"), []byte("aaa"), uint8(2), false)
	f.Add([]byte("llrlrrlr"), []byte("llrlrrlrrlr"), uint8(2), true)
	f.Add([]byte("abcabc"), []byte("cbacba"), uint8(3), true)
	atoms := Atoms{Alphabet: alphabet.Alphabet{"a", "b", "c"}}
	seed := maphash.MakeSeed()
	f.Fuzz(func(t *testing.T, u, v []byte, k uint8, withUntil bool) {
		if len(u) == 0 || len(v) == 0 || len(u) > 40 || len(v) > 40 {
			return
		}
		wu, wv := make([]int, len(u)), make([]int, len(v))
		for i, c := range u {
			wu[i] = int(c) % 3
		}
		for i, c := range v {
			wv[i] = int(c) % 3
		}
		depth := int(k % 4)
		frag := Since
		if withUntil {
			frag = SinceUntil
		}
		shared := NewTable(nil, atoms, frag)
		tu, err := shared.WordType(nil, wu, depth)
		if err != nil {
			t.Fatal(err)
		}
		tv, err := shared.WordType(nil, wv, depth)
		if err != nil {
			t.Fatal(err)
		}
		hash := func(w []int) uint64 {
			tab := NewTable(nil, atoms, frag)
			types, err := tab.WordTypes(nil, w, depth)
			if err != nil {
				t.Fatal(err)
			}
			return tab.typeHash(seed, depth, types[depth][len(w)-1])
		}
		if (tu == tv) != (hash(wu) == hash(wv)) {
			t.Fatalf("%v depth %d: %v and %v: interned equal %v, hashes equal %v", frag, depth, wu, wv, tu == tv, hash(wu) == hash(wv))
		}
	})
}
