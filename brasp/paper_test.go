package brasp

import (
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/internal/testkit"
)

// TestFigure2 checks the Boolean vectors of the paper's Figure 2 (both
// tables), row by row, with both interpreters.
func TestFigure2(t *testing.T) {
	p := testkit.Load(t, "../examples/dyck1_depth2.brasp", Parse)
	cases := []struct {
		word   string
		accept bool
		rows   map[string]string
	}{
		{"llrrllrlrr", true, map[string]string{
			"Q_l": "1100110100", "Q_r": "0011001011", "P_l": "0110011010", "S_r": "0110010110",
			"I": "0110011110", "B_l": "0111011111", "A_r": "1110111110", "C": "1111111111", "Y": "1111111111",
		}},
		{"lrrlllrrrl", false, map[string]string{
			"Q_l": "1001110001", "Q_r": "0110001110", "P_l": "0100111000", "S_r": "1100011100",
			"I": "1100011000", "B_l": "0000111100", "A_r": "1100111100", "C": "1100111100", "Y": "0000000000",
		}},
	}
	for _, c := range cases {
		w := testkit.Word(t, p.Alphabet, c.word)
		for name, run := range map[string]func([]int) *Trace{"reference": p.RunReference, "fast": p.Run} {
			tr := run(w)
			for vec, want := range c.rows {
				k := p.Lookup(vec)
				var got strings.Builder
				for i := range w {
					if tr.Value(k, i) {
						got.WriteByte('1')
					} else {
						got.WriteByte('0')
					}
				}
				if got.String() != want {
					t.Errorf("%s %s: %s = %s, want %s", name, c.word, vec, got.String(), want)
				}
			}
			if tr.Accept() != c.accept {
				t.Errorf("%s %s: accept = %v, want %v", name, c.word, tr.Accept(), c.accept)
			}
		}
	}
}
