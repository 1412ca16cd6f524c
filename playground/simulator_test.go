package playground

import (
	"strconv"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
)

// simulatorPresets are the presets of the B-RASP web simulator, as its own
// printer writes them into its program box (one operation per line, ! for
// not). The simulator's page offers these four.
var simulatorPresets = map[string]string{
	"dyck": `Q_l(i)
Q_r(i)
P_l(i) := rightmost [j<i, 1] Q_l(j) : 0
S_r(i) := leftmost [i<j, 1] Q_r(j) : 0
I(i) := (Q_l(i) & S_r(i)) | (P_l(i) & Q_r(i))
A_r(i) := leftmost [i<j, !I(j)] Q_r(j) : 0
B_l(i) := rightmost [j<i, !I(j)] Q_l(j) : 0
C(i) := I(i) | (Q_l(i) & A_r(i)) | (Q_r(i) & B_l(i))
Y(i) := rightmost [1, !C(j)] 0 : 1`,
	"stair3": `Q_a(i)
Q_b(i)
Q_c(i)
A_2(i) := rightmost [j<i, Q_a(j) | Q_b(j)] Q_a(i) & Q_a(j) : 0
A_3(i) := rightmost [j<i, Q_a(j) | Q_b(j)] Q_a(i) & A_2(j) : 0
Y(i) := rightmost [1, A_3(j)] 1 : 0`,
	"ab_plus": `Q_a(i)
Q_b(i)
AB(i) := rightmost [j<i, 1] Q_a(j) & Q_b(i) : 0
BA(i) := leftmost [i<j, 1] Q_a(i) & Q_b(j) : 0
I(i) := AB(i) | BA(i)
Y(i) := rightmost [1, !I(j)] 0 : 1`,
	"BprecAnosuccC": `Q_a(i)
Q_b(i)
Q_c(i)
P_a(i) := rightmost [j<i, Q_a(j)] 1 : 0
S_c(i) := leftmost [i<j, Q_c(j)] 1 : 0
I(i) := Q_b(i) & P_a(i) & !S_c(i)
Y(i) := rightmost [1, I(j)] 1 : 0`,
}

// simulatorSyntax are further programs in the simulator's syntax (not its
// presets): non-strict masks, leftmost defaults, a declaration as the last
// line, and a program of declarations only.
var simulatorSyntax = map[string]string{
	"nonstrict": `Q_a(i)
Q_b(i)
F(i) := leftmost [j<=i, Q_b(j)] Q_a(i) | Q_b(j) : Q_a(i)
G(i) := rightmost [i<=j, !F(j)] F(i) & Q_a(j) : !F(i)
Y(i) := leftmost [1, G(j) & !Q_b(i)] 1 : F(i) | G(i)`,
	"lastline": `Q_a(i)
X(i) := Q_a(i)
Q_b(i)`,
	"declarations": `Q_a(i)
Q_b(i)`,
}

// TestSimulatorPresetsPaste pastes the simulator's presets, and programs in
// its syntax, unchanged: brasp parses them, the simulator check finds
// nothing different, and every vector equals the simulator's (as modelled
// by readSimulator) on every word up to length 7, undeclared characters
// included.
func TestSimulatorPresetsPaste(t *testing.T) {
	all := map[string]string{}
	for k, v := range simulatorPresets {
		all[k] = v
	}
	for k, v := range simulatorSyntax {
		all[k] = v
	}
	for name, src := range all {
		p, err := brasp.Parse(name, []byte(src))
		if err != nil {
			t.Fatalf("%s: brasp does not parse the simulator's text: %v", name, err)
		}
		sp := readSimulator(src)
		if len(sp.dropped) != 0 || sp.stop != 0 || len(sp.ops) != len(p.Vectors) {
			t.Fatalf("%s: the simulator model drops %v, stops at %d, reads %d of %d lines", name, sp.dropped, sp.stop, len(sp.ops), len(p.Vectors))
		}
		// The output is the last line in both.
		if got, want := p.Vectors[p.Output.Accept].Name, sp.ops[len(sp.ops)-1].name; got != want {
			t.Errorf("%s: brasp's output %s, the simulator's %s", name, got, want)
		}
		chars := append([]string(nil), p.Alphabet...)
		chars = append(chars, "x") // undeclared
		words := 0
		brasptest.AllWords(len(chars), 7, func(w []int) {
			if len(w) == 0 {
				return
			}
			var s strings.Builder
			for _, k := range w {
				s.WriteString(chars[k])
			}
			word := s.String()
			bw, _, err := brasp.ParseWordUndeclared(p.Alphabet, word)
			if err != nil {
				t.Fatal(err)
			}
			vals, err := sp.run(nil, []rune(word))
			if err != nil {
				t.Fatal(err)
			}
			tr := p.Run(bw)
			for k, v := range p.Vectors {
				for i := range bw {
					if tr.Value(k, i) != vals[v.Name][i] {
						t.Fatalf("%s on %s: %s at %d: brasp %v, simulator %v", name, word, v.Name, i+1, tr.Value(k, i), vals[v.Name][i])
					}
				}
			}
			if tr.Accept() != vals[sp.ops[len(sp.ops)-1].name][len(bw)-1] {
				t.Fatalf("%s on %s: verdicts differ", name, word)
			}
			words++
			if strings.Contains(word, "x") {
				return
			}
			diffs, err := SimulatorDifferences(nil, src, word, 100)
			if err != nil || len(diffs) != 0 {
				t.Fatalf("%s on %s: the simulator check says %v (%v)", name, word, diffs, err)
			}
		})
		t.Logf("%s: %d words, every vector as in the simulator", name, words)
	}
}

// TestSimulatorDifferences checks that the check names what brasp reads
// differently.
func TestSimulatorDifferences(t *testing.T) {
	for _, c := range []struct {
		name, program, word string
		want                []string // substrings, one per difference, in order
	}{
		{"same", simulatorSyntax["lastline"], "ab", nil},
		{"output line", "Q_a(i)\nX(i) := Q_a(i)\nQ_b(i)\noutput X\n", "ab",
			[]string{"line 4: an output line", "line 4: the output vector: brasp reads X, the simulator its last line, Q_b (line 3)", "the verdict differs: brasp rejects, the simulator accepts"}},
		{"comment and extension", "# L\nQ_a(i)\nQ_b(i)\nY(i) := true & Q_b(i) # tail\n", "ab",
			[]string{"line 1: a comment", "line 4: not in the simulator's syntax (a comment)", "the output vector: brasp reads Y, the simulator its last line, Q_b"}},
		{"stops", "Q_a(i)\nQ_bb(i)\nY(i) := Q_bb(i) & Q_a(i)\n", "a",
			[]string{"line 2: not in the simulator's syntax (a symbol of several characters)", "line 3: the simulator stops loading here: Q_bb", "the output vector"}},
		{"word", simulatorPresets["ab_plus"], "ab x?", []string{"the word has spaces", `'x', '?'`}},
		{"redefinition", "Q_a(i)\nX(i) := Q_a(i)\nX(i) := !Q_a(i)\n", "a", []string{"brasp does not accept the program"}},
		{"mask spelling", "Q_a(i)\nY(i) := rightmost [i>j, 1] Q_a(j) : 0\n", "aa", []string{"line 2: not in the simulator's syntax (a mask", "the output vector"}},
	} {
		diffs, err := SimulatorDifferences(nil, c.program, c.word, 100)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range diffs {
			s := d.Msg
			if d.Line > 0 {
				s = "line " + strconv.Itoa(d.Line) + ": " + s
			}
			got = append(got, s)
		}
		ok := len(got) == len(c.want)
		for k := 0; ok && k < len(got); k++ {
			ok = strings.Contains(got[k], c.want[k])
		}
		if !ok {
			t.Errorf("%s: differences\n  %s\nwant\n  %s", c.name, strings.Join(got, "\n  "), strings.Join(c.want, "\n  "))
		}
	}
}
