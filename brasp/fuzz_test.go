package brasp

import (
	"context"
	"embed"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/source"
)

// seedFiles holds the testdata programs (golden inputs, simulator presets,
// fuzz seeds), embedded so that the fuzz corpus travels with the test binary.
//
//go:embed testdata/golden/*.brasp testdata/presets/*.brasp testdata/seeds/*.brasp
var seedFiles embed.FS

// malformedSeeds are small broken programs that lead the fuzzer into the
// error paths of the scanner, parser and checker.
var malformedSeeds = []string{
	"",
	"\n\n\n",
	"Q_a(i",
	"Q_a(i)\nP(i) :=",
	"Q_a(i)\nP(i) := leftmost [",
	"Q_a(i)\nP(i) := leftmost [j<=",
	"Q_a(i)\nP(i) := rightmost [1, Q_a(j)] Q_a(j) :",
	"Q_a(i)\nP(i) := !!!!(((Q_a(i",
	"Q_\"\\\"\"(i)\nP(i) := Q_\"\\\"\"(i)\n",
	"Q_\"\n",
	"Q_a(i)\r\nP(i) := Q_a(i)\r\n",
	"Q_a(i)\nP(i) := Q_a(i)\noutput",
	"Q_a(i)\nP(i) := Q_a(i)\noutput a:",
	"Q_a(i)\nP(i) := Q_a(i)\noutput a:P b",
	"Q_a(i)\nMOD_0_0(i)\nMOD_01_2(i)\nMOD_1048575_1048576(i)\nP(i) := Q_a(i)\n",
	"Q_a(i)\nP(i) := Q_a(i) \xff\xfe\n",
	"Q_a(i)\nP(i) := Q_a(i) # comment \xff\n",
	"output P\nQ_a(i)\nP(i) := Q_a(i)\n",
	"Q_a(i)\nfirst(i) := Q_a(i)\nQ_b(i) := first(i)\n",
	"Q_a(i)\nP(i) := leftmost [i>j, Q_a(i) & Q_a(j)] Q_a(i) : Q_a(i)\noutput P\n",
	"propositions a b\nX(i) := leftmost [i<j, P_a(j) & !P_b(i)] P_b(j) : P_a(i)\nY(i) := rightmost [1, X(j)] X(j) : 0\n",
	"propositions\nX(i) := 1\n",
	"propositions a\nQ_a(i)\n",
	"Q_a(i)\npropositions a\n",
	"propositions \"x y\" a a\nY(i) := P_\"x y\"(i) & P_b(i)\n",
	"propositions a\npropositions b\nfirst(i)\nZ(i) := P_a(i) | first(i)\n",
}

// fuzzSeeds returns every seed: embedded testdata, the examples on disk,
// the parse-error cases and the malformed snippets.
func fuzzSeeds(tb testing.TB) [][]byte {
	var seeds [][]byte
	err := fs.WalkDir(seedFiles, "testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := seedFiles.ReadFile(path)
		seeds = append(seeds, b)
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	examples, _ := filepath.Glob("../examples/*.brasp")
	for _, f := range examples {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	for _, c := range parseErrorCases {
		seeds = append(seeds, []byte(c.src))
	}
	for _, s := range malformedSeeds {
		seeds = append(seeds, []byte(s))
	}
	for _, s := range simulatorPresets {
		seeds = append(seeds, []byte(s))
	}
	return seeds
}

// FuzzParse checks that no input makes Parse panic; that every error is an
// ErrorList of located messages; and that whenever Parse succeeds, the
// printed program parses back to an equal program that prints the same, and
// both run (reference interpreter) to the same trace on short words, as do
// the program's normal forms.
func FuzzParse(f *testing.F) {
	seeds := fuzzSeeds(f)
	if len(seeds) < 50 {
		f.Fatalf("only %d seeds", len(seeds))
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := Parse("fuzz.brasp", src)
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error is not a non-empty ErrorList: %#v", err)
			}
			for k, e := range list {
				if k == len(list)-1 && errors.Is(e, source.ErrTooMany) {
					continue // the closing count of a capped list has no position
				}
				if e.Msg == "" || !strings.HasPrefix(e.Error(), "fuzz.brasp:") {
					t.Fatalf("badly formed error %q", e.Error())
				}
			}
			if p != nil {
				t.Fatalf("Parse returned a program with an error")
			}
			return
		}
		if err := Validate(p); err != nil {
			t.Fatalf("parsed program does not validate: %v", err)
		}
		out := Format(p)
		q, err := Parse("printed.brasp", []byte(out))
		if err != nil {
			t.Fatalf("printed program does not parse: %v\n%s", err, out)
		}
		if d := diffPrograms(p, q); d != "" {
			t.Fatalf("printed program parses differently: %s\n%s", d, out)
		}
		if again := Format(q); again != out {
			t.Fatalf("Format not stable:\n%s\nvs\n%s", out, again)
		}
		if len(p.Vectors) > 200 {
			return // keep each input fast; the round trip above is the point
		}
		uv := UnaryValue(p)
		us, usErr := UnaryScore(budget.New(context.Background(), budget.Settings{"unary-score-copies": 256}), p)
		if usErr != nil && !errors.Is(usErr, budget.ErrLimit) {
			t.Fatalf("UnaryScore: %v", usErr)
		}
		for n := 1; n <= 4; n++ {
			// A word of symbols, or for a program over propositions a trace
			// of steps (pseudo-random sets of propositions).
			w := make([]int, n)
			var steps [][]uint64
			if p.Props != nil {
				steps = make([][]uint64, n)
				for i := range steps {
					steps[i] = []uint64{uint64(i*7+n) * 0x9E3779B97F4A7C15}
				}
			} else {
				for i := range w {
					w[i] = (i*7 + n) % len(p.Alphabet)
				}
			}
			run := func(x *Program) *Trace {
				if steps != nil {
					return x.RunStepsReference(steps)
				}
				return x.RunReference(w)
			}
			tp, tq, tv := run(p), run(q), run(uv)
			for k, v := range p.Vectors {
				if !slices.Equal(tp.Bits[k], tq.Bits[k]) {
					t.Fatalf("vector %s differs after the round trip on %v", v.Name, w)
				}
				if !slices.Equal(tp.Bits[k], tv.Bits[uv.Lookup(v.Name)]) {
					t.Fatalf("vector %s differs after UnaryValue on %v", v.Name, w)
				}
			}
			if usErr == nil {
				ts := run(us)
				for k, v := range p.Vectors {
					if !slices.Equal(tp.Bits[k], ts.Bits[us.Lookup(v.Name)]) {
						t.Fatalf("vector %s differs after UnaryScore on %v", v.Name, w)
					}
				}
			}
			_ = FormatTable(tp)
			if p.IsTransducer() {
				_, _ = tp.Transduce()
			} else {
				_ = tp.Accept()
			}
		}
	})
}
