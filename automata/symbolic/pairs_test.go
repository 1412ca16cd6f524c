package symbolic

import (
	"math/rand"
	"testing"

	"github.com/brasp-dev/brasp/bdd"
)

// TestPairTable against a Go map, over pairs with -1 as the second member.
func TestPairTable(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var pt pairTable
	want := map[[2]bdd.Node]bdd.Node{}
	for range 20000 {
		u, v := bdd.Node(r.Intn(300)), bdd.Node(r.Intn(301)-1)
		if r.Intn(2) == 0 {
			x := bdd.Node(r.Int31())
			pt.put(u, v, x)
			want[[2]bdd.Node{u, v}] = x
		}
		got, ok := pt.get(u, v)
		w, wok := want[[2]bdd.Node{u, v}]
		if ok != wok || got != w {
			t.Fatalf("get(%d, %d) = %d, %v; want %d, %v", u, v, got, ok, w, wok)
		}
	}
	if pt.n != len(want) {
		t.Fatalf("%d entries, want %d", pt.n, len(want))
	}
}
