package artifact

import (
	"bytes"
	"os"
	"testing"

	"github.com/brasp-dev/brasp/examples"
)

// FuzzLoad loads arbitrary bytes as every kind: Load must return an artifact
// or an error, never panic, and what it loads must print (Format) to text
// that loads again and prints the same. The seeds are the examples and
// a compiled model.
func FuzzLoad(f *testing.F) {
	for _, name := range examples.AllNames() {
		src, err := examples.Source(name)
		if err != nil {
			f.Fatal(err)
		}
		k, err := KindOf(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(k), src)
	}
	m, err := Convert(nil, NewProgram(examples.MustProgram(examples.Dyck)), KindTransformer, Options{})
	if err != nil {
		f.Fatal(err)
	}
	model, err := m.Format()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(KindTransformer), model)
	mona, err := os.ReadFile("../automata/monadfa/testdata/req_grant.txt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(KindMONADFA), mona)
	f.Add(string(KindMONADFA), []byte("alphabet a b\nstart 0\naccept 0\n0 0 a\n0 0 b\n"))
	f.Fuzz(func(t *testing.T, kind string, data []byte) {
		k, err := ParseKind(kind)
		if err != nil {
			return
		}
		a, err := Load(nil, "fuzz", data, k)
		if err != nil {
			return
		}
		text, err := a.Format()
		if err != nil {
			t.Fatalf("Format: %v", err)
		}
		again := k
		if k == KindMONADFA {
			// MONA's output prints in brasp's guard format, a dfa.
			again = KindDFA
		}
		b, err := Load(nil, "fuzz", text, again)
		if err != nil {
			t.Fatalf("the printed %s does not load again: %v\n%s", k, err, text)
		}
		reprinted, err := b.Format()
		if err != nil || !bytes.Equal(reprinted, text) {
			t.Fatalf("printing the %s is not stable (%v):\n%s\nvs\n%s", k, err, text, reprinted)
		}
	})
}
