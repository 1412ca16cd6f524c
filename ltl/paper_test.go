package ltl

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/internal/testkit"
)

// loadTestdata parses testdata/name.
func loadTestdata(t testing.TB, name string) *Formula {
	return testkit.Load(t, filepath.Join("testdata", name), ParseFile)
}

// wordString writes a word over single-character symbols as a string.
func wordString(f *Formula, w []int) string { return f.Alphabet().FormatWord(w) }

// regexRecognizer accepts exactly the words matching the anchored pattern.
func regexRecognizer(pattern string) func(string) bool {
	re := regexp.MustCompile("^(?:" + pattern + ")$")
	return re.MatchString
}

// hashABHash recognises #a^m#b^m#, m ≥ 0, directly.
func hashABHash(s string) bool {
	if len(s) < 3 || len(s)%2 == 0 || s[0] != '#' || s[len(s)-1] != '#' || s[len(s)/2] != '#' {
		return false
	}
	m := (len(s) - 3) / 2
	return strings.Count(s[1:1+m], "a") == m && strings.Count(s[2+m:2+2*m], "b") == m
}

// stairRecognizer recognises STAIR_k: after deleting c's, the word contains
// a^k.
func stairRecognizer(k int) func(string) bool {
	return func(s string) bool {
		return strings.Contains(strings.ReplaceAll(s, "c", ""), strings.Repeat("a", k))
	}
}

// checkLanguage compares acceptance by f with a direct recognizer on all
// words up to maxLen, and returns how many words each accepts (so that a test
// also shows the language is not trivial).
func checkLanguage(t *testing.T, f *Formula, accepts func(w []int) bool, want func(string) bool, maxLen int) (nAccepted int) {
	t.Helper()
	bad := 0
	testkit.EachWord(len(f.Alphabet()), 1, maxLen, func(w []int) {
		s := wordString(f, w)
		got, exp := accepts(w), want(s)
		if got != exp && bad < 5 {
			t.Errorf("%s on %q: got %v, want %v", Format(f), s, got, exp)
			bad++
		}
		if exp {
			nAccepted++
		}
	})
	return nAccepted
}

// The paper's formulas (§3.3, §5.3) and the languages it names for them.
var paperLanguages = []struct {
	file  string
	depth int
	want  func(string) bool
}{
	{"phi1.ltl", 0, regexRecognizer(`[ab#]*#`)},
	{"phi2.ltl", 1, regexRecognizer(`[ab#]*#b*#`)},
	{"phi3.ltl", 2, regexRecognizer(`[ab#]*#a*#b*#`)},
	{"phi4.ltl", 3, regexRecognizer(`#a*#b*#`)},
	{"mid.ltl", 3, hashABHash},
}

func TestPaperFormulas(t *testing.T) {
	for _, tc := range paperLanguages {
		t.Run(tc.file, func(t *testing.T) {
			f := loadTestdata(t, tc.file)
			if f.Depth() != tc.depth {
				t.Errorf("temporal depth %d, want %d", f.Depth(), tc.depth)
			}
			n := checkLanguage(t, f, NewEvaluator(f).Accepts, tc.want, 8)
			if n == 0 {
				t.Error("no word accepted: the check is vacuous")
			}
		})
	}
}

// TestStair checks the STAIR_k formulas of testdata against the direct
// recognizer, and records the paper's off-by-one: φ_k = 1 since γ_k is strict
// at the last position, so it defines STAIR_k·Σ, not STAIR_k.
func TestStair(t *testing.T) {
	t.Parallel()
	for k := 1; k <= 6; k++ {
		t.Run(fmt.Sprint("STAIR_", k), func(t *testing.T) {
			f := loadTestdata(t, stairFile(k))
			if f.Depth() != k {
				t.Errorf("temporal depth %d, want %d", f.Depth(), k)
			}
			maxLen := 8
			if k > 4 {
				maxLen = 9
			}
			if checkLanguage(t, f, NewEvaluator(f).Accepts, stairRecognizer(k), maxLen) == 0 {
				t.Error("vacuous")
			}
			// The paper's φ_k = 1 since γ_k.
			p := f.Pool()
			paper := p.Since(p.True(), stairGamma(p, k))
			inStairSigma := func(s string) bool { return len(s) > 1 && stairRecognizer(k)(s[:len(s)-1]) }
			checkLanguage(t, paper, NewEvaluator(paper).Accepts, inStairSigma, 7)
			a := strings.Repeat("a", k)
			if Accepts(paper, testkit.Word(t, p.Alphabet(), a)) {
				t.Errorf("paper's φ_%d accepts %s", k, a)
			}
		})
	}
}

// stairGamma is γ_1 = a, γ_k = a ∧ (c since γ_{k-1}) over the alphabet a b c.
func stairGamma(p *Pool, k int) *Formula {
	a, c := p.Symbol(p.Alphabet().Index("a")), p.Symbol(p.Alphabet().Index("c"))
	g := a
	for i := 2; i <= k; i++ {
		g = p.And(a, p.Since(c, g))
	}
	return g
}

func stairFile(k int) string { return fmt.Sprintf("stair%d.ltl", k) }
