package ltlf

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// corpusPath is the corpus.jsonl file of an LTLf corpus (one JSON object
// per line with the fields "id", "dialect" and "text"), named by the
// environment variable BRASP_LTLF_CORPUS; BenchmarkCorpus is skipped
// without it.
func corpusPath() string { return os.Getenv("BRASP_LTLF_CORPUS") }

// BenchmarkTestdata builds the minimal DFA of each testdata formula.
func BenchmarkTestdata(b *testing.B) {
	files, _ := filepath.Glob("testdata/*.ltlf")
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			b.Fatal(err)
		}
		f, err := Parse(file, src)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(strings.TrimSuffix(filepath.Base(file), ".ltlf"), func(b *testing.B) {
			for b.Loop() {
				if _, err := ToDFA(nil, f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCorpus builds the minimal DFA of the corpus formulas whose id
// matches $BRASP_LTLF_BENCH (a regular expression; all when unset), one
// sub-benchmark per formula: parsing and construction, as the CLI does.
// It is skipped when the corpus is absent.
func BenchmarkCorpus(b *testing.B) {
	if corpusPath() == "" {
		b.Skip("BRASP_LTLF_CORPUS names no corpus")
	}
	fh, err := os.Open(corpusPath())
	if err != nil {
		b.Skip("corpus not present:", err)
	}
	defer fh.Close()
	only := regexp.MustCompile(os.Getenv("BRASP_LTLF_BENCH"))
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		var e struct{ ID, Dialect, Text string }
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			b.Fatal(err)
		}
		if !only.MatchString(e.ID) {
			continue
		}
		d, err := ParseDialect(e.Dialect)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(e.ID, func(b *testing.B) {
			for b.Loop() {
				f, err := ParseOptions(e.ID, []byte(e.Text), Options{Dialect: d})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := ToDFA(nil, f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
