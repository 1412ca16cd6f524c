package artifact

import (
	"bytes"
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
		b, err := Load(nil, "fuzz", text, k)
		if err != nil {
			t.Fatalf("the printed %s does not load again: %v\n%s", k, err, text)
		}
		again, err := b.Format()
		if err != nil || !bytes.Equal(again, text) {
			t.Fatalf("printing the %s is not stable (%v):\n%s\nvs\n%s", k, err, text, again)
		}
	})
}
