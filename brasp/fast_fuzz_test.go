package brasp_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
)

// FuzzFastMatchesReference is a differential fuzz target: for any program
// that parses and any word (bytes taken modulo the alphabet size, 255 an
// out-of-alphabet symbol), the fast interpreter, with the normal chunk size
// and with one-word chunks, produces the reference interpreter's trace.
func FuzzFastMatchesReference(f *testing.F) {
	examples, _ := filepath.Glob("../examples/*.brasp")
	for k, path := range examples {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src, []byte{0, 1, 1, 0, 2, 1, 0, 0, 1, byte(k)})
	}
	for _, src := range []string{
		"Q_a(i)\nQ_b(i)\nA(i) := leftmost [i<j, Q_a(j)] Q_b(j) : 1\nB(i) := rightmost [j<=i, A(i) & !A(j)] Q_a(j) : A(i)\n",
		"Q_a(i)\nfirst(i)\nlast(i)\nMOD_1_3(i)\nMid(i)\nA(i) := leftmost [j<=i, MOD_1_3(j) | Mid(j)] last(j) : first(i)\n",
		"Q_a(i)\nQ_b(i)\nQ_c(i)\nA(i) := rightmost [i<=j, Q_a(i) & Q_b(j) | Q_c(i) & Q_a(j)] Q_c(j) | Q_b(i) : 0\n",
	} {
		f.Add([]byte(src), []byte{1, 0, 2, 255, 1, 1, 0, 2, 2, 0, 1})
	}
	f.Fuzz(func(t *testing.T, src, word []byte) {
		p, err := brasp.Parse("fuzz.brasp", src)
		if err != nil || len(p.Vectors) > 100 {
			return
		}
		if len(word) > 200 {
			word = word[:200]
		}
		w := make([]int, len(word))
		for i, b := range word {
			w[i] = int(b) % len(p.Alphabet)
			if b == 255 {
				w[i] = -1
			}
		}
		want := p.RunReference(w)
		r := brasp.NewRunner(p)
		for _, chunk := range []int{0, 1} {
			brasp.SetRunnerChunk(r, chunk)
			if err := sameTrace(want, r.Run(w)); err != nil {
				t.Fatalf("fast (chunk %d) ≠ reference: %v\nword %v\nprogram:\n%s", chunk, err, w, brasp.Format(p))
			}
		}
	})
}
