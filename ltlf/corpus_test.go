package ltlf

import (
	"bufio"
	"encoding/json"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
)

// checkAgainstEval builds f's minimal DFA and compares it with the
// evaluator on every trace up to a length where the count passes ~4000,
// plus random traces up to length 10. It returns the number of states.
func checkAgainstEval(t *testing.T, name string, f *Formula, r *rand.Rand) int {
	t.Helper()
	d, err := ToDFA(nil, f)
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return 0
	}
	k := len(f.Props)
	maxLen := 0
	for total := 0; maxLen < 8; maxLen++ {
		total += 1 << (k * (maxLen + 1))
		if k*(maxLen+1) > 13 || total > 4000 {
			break
		}
	}
	if maxLen > 0 {
		allTraces(k, maxLen, func(tr Trace) {
			if runDFA(d, tr) != f.Eval(tr) {
				t.Fatalf("%s: DFA and Eval differ on %s", name, FormatTrace(f.Props, tr))
			}
		})
	}
	for range 200 {
		tr := make(Trace, 1+r.Intn(10))
		for i := range tr {
			for p := range k {
				if r.Intn(2) == 0 {
					tr[i] = tr[i].With(p)
				}
			}
		}
		if runDFA(d, tr) != f.Eval(tr) {
			t.Fatalf("%s: DFA and Eval differ on %s", name, FormatTrace(f.Props, tr))
		}
	}
	return d.NumStates()
}

// TestTestdata: the hand-written formulas parse, print back, and their
// DFAs agree with the evaluator.
func TestTestdata(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.ltlf")
	if len(files) < 10 {
		t.Fatalf("%d testdata files", len(files))
	}
	r := rand.New(rand.NewSource(5))
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Parse(file, src)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		g, err := Parse("", []byte(f.Format()))
		if err != nil || g.String() != f.String() {
			t.Errorf("%s: printed form %q reads back as %v (%v)", file, f.Format(), g, err)
		}
		n := checkAgainstEval(t, file, f, r)
		t.Logf("%s: %d propositions, %d states", file, len(f.Props), n)
	}
}

// TestCorpus reads the public LTLf corpus when it is present (it is kept
// outside the repository): every formula parses in its dialect, and the
// DFAs of those small enough agree with the evaluator.
func TestCorpus(t *testing.T) {
	path := "/work/shared/benchmarks/ltlf/corpus/corpus.jsonl"
	fh, err := os.Open(path)
	if err != nil {
		t.Skip("corpus not present:", err)
	}
	defer fh.Close()
	r := rand.New(rand.NewSource(6))
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<22)
	parsed, total, checked := 0, 0, 0
	for sc.Scan() {
		var e struct{ ID, Dialect, Text string }
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		total++
		d, err := ParseDialect(e.Dialect)
		if err != nil {
			t.Errorf("%s: %v", e.ID, err)
			continue
		}
		f, err := ParseOptions(e.ID, []byte(e.Text), Options{Dialect: d})
		if err != nil {
			t.Errorf("%s: %v", e.ID, err)
			continue
		}
		parsed++
		if len(f.Props) <= 6 && f.Size() <= 60 && !testing.Short() {
			checkAgainstEval(t, e.ID, f, r)
			checked++
		}
	}
	t.Logf("corpus: %d of %d formulas parse; %d checked against the evaluator", parsed, total, checked)
}
