package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The hostile reproducers: inputs that once crashed, answered wrongly or
// hung, each run once in a capped child process (runHostile) with what it
// must do now. Files are written to a fresh directory; an example is read
// from the repository's examples.

// hostileRepro is one reproducer: its files (name → contents; contents
// "@example" copy examples/name), the brasp arguments, and the expectation
// in checkHostile's form ("ok", or "CODE pattern"), plus a pattern stdout
// must match when set.
type hostileRepro struct {
	name   string
	files  map[string]string
	args   string
	want   string
	stdout string
	// gen, when set, writes large files into the directory.
	gen func(t *testing.T, dir string)
	// timeout, when set, replaces the two minutes a reproducer may run.
	timeout time.Duration
}

// writeFile writes a generated file.
func writeFile(name string, data func() string) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// manyProps is a guard-format DFA over n propositions p0 … p(n-1) whose
// language is G(p0 & p(n-1)), its propositions listed forwards or
// backwards.
func manyProps(n int, backwards bool) func() string {
	return func() string {
		ps := make([]string, n)
		for i := range ps {
			k := i
			if backwards {
				k = n - 1 - i
			}
			ps[i] = "p" + strconv.Itoa(k)
		}
		last := "p" + strconv.Itoa(n-1)
		return "propositions " + strings.Join(ps, " ") + "\nstart 0\naccept 0\n0 0 p0 & " + last + "\n0 1 !p0 | !" + last + "\n1 1 true\n"
	}
}

// writeTraceFile writes a trace of steps "a" and "" (every period-th step
// holds a), steps long, as one line.
func writeTraceFile(name string, steps, period int) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		var b strings.Builder
		b.Grow(2 * steps)
		for i := range steps {
			if i > 0 {
				b.WriteByte(';')
			}
			if i%period == 0 {
				b.WriteByte('a')
			}
		}
		b.WriteByte('\n')
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const propQ = "propositions q\nHolds(i) := leftmost [1, 1] P_q(j) : 0\n"

func hostileRepros() []hostileRepro {
	return []hostileRepro{
		// --masks on a program over propositions: read over its valuation
		// letters, as every conversion to ltl reads it.
		{name: "masks-props-brasp", files: map[string]string{"q.brasp": propQ},
			args: "convert q.brasp --to brasp --masks causal", want: "ok", stdout: `rightmost \[j<=i`},
		{name: "masks-props-ltl", files: map[string]string{"q.brasp": propQ},
			args: "convert q.brasp --to ltl --masks non-strict", want: "ok", stdout: `alphabet "\{\}" "\{q\}"`},
		// The depth tables are charged before they are allocated.
		{name: "depth-check-huge-k", files: map[string]string{"stair3.ltl": "@example"},
			args: "depth stair3.ltl --check aaab aab 1000000000",
			want: `1 exceeds the limit depth-type-bytes=\d+ bytes \(needs \d+\) \(raise it with --limit depth-type-bytes=N\)`},
		// One compact trace reader for every kind that reads traces: a
		// 60 MB trace of 3·10^7 steps costs a few bytes per step, and
		// X[16384] a on 200,000 steps holds a few truth rows.
		{name: "ltlf-next-chain-trace", files: map[string]string{"x.ltlf": "X[16384] a\n"},
			gen: writeTraceFile("t.txt", 200_000, 3), args: "run x.ltlf --input-file t.txt", want: "ok", stdout: "^reject\n$"},
		{name: "ltlf-60MB-trace", files: map[string]string{"g.ltlf": "G a\n"},
			gen: writeTraceFile("big.txt", 30_000_000, 1), args: "run g.ltlf --input-file big.txt", want: "ok", stdout: "^accept\n$"},
		{name: "brasp-props-60MB-trace", files: map[string]string{"g.brasp": gBRASP},
			gen: writeTraceFile("big.txt", 30_000_000, 1), args: "run g.brasp --input-file big.txt", want: "ok", stdout: "^accept\n$"},
		{name: "symbolic-dfa-60MB-trace", files: map[string]string{"g.dfa": "propositions a\nstart 0\naccept 0\n0 0 a\n0 1 !a\n1 1 true\n"},
			gen: writeTraceFile("big.txt", 30_000_000, 1), args: "run g.dfa --input-file big.txt", want: "ok", stdout: "^accept\n$"},
		// depth: upper bounds only from programs in the fragment asked
		// over the input's own atoms; (aa)* is not star-free.
		{name: "depth-aa-star", files: map[string]string{"aa_star.re": "@example"},
			args: "depth aa_star.re", want: "ok", stdout: `upper bound: unknown: no program of this fragment is known`},
		// semantics empty_trace: compared against the other input's own
		// verdict on the empty trace, refused by conversions that cannot
		// accept it.
		{name: "equiv-empty-trace-program", files: map[string]string{"ge.ltlf": "semantics empty_trace\nG a\n", "g.brasp": gBRASP},
			args: "equiv ge.ltlf g.brasp", want: "1 ", stdout: `^not equivalent: the empty trace \(ge.ltlf accepts, g.brasp rejects\)`},
		{name: "convert-empty-trace", files: map[string]string{"ge.ltlf": "semantics empty_trace\nG a\n"},
			args: "convert ge.ltlf --to brasp", want: `1 holds on the empty trace \(semantics empty_trace\), and a B-RASP program reads non-empty traces only`},
		{name: "convert-empty-trace-rejected", files: map[string]string{"fe.ltlf": "semantics empty_trace\nF a\n"},
			args: "convert fe.ltlf --to transformer", want: "ok"},
		// Counterexample traces quote what needs quoting, as run reads it.
		{name: "equiv-quoted-trace", files: map[string]string{"w.ltlf": `"{}" & X "a;b"` + "\n", "w2.ltlf": `"{}" & X X "a;b"` + "\n"},
			args: "equiv w.ltlf w2.ltlf", want: "1 ", stdout: `^not equivalent: "\{\}"; \(w2.ltlf accepts, w.ltlf rejects\)`},
		{name: "run-quoted-trace", files: map[string]string{"w2.ltlf": `"{}" & X X "a;b"` + "\n"},
			args: `run w2.ltlf "{}";`, want: "ok", stdout: "^accept\n$"},
		// A bare --limit N saturates instead of wrapping; amounts read as
		// the help says.
		{name: "bare-limit-huge", files: map[string]string{"q.brasp": propQ}, gen: convertFile("q.brasp", "transformer", "q.json"),
			args: "convert q.json --to brasp --limit 281474976710656", want: "ok", stdout: "leftmost"},
		{name: "bare-limit-suffix", files: map[string]string{"q.brasp": propQ},
			args: "convert q.brasp --to ltl --limit 1G", want: "ok"},
		{name: "limit-too-large", files: map[string]string{"q.brasp": propQ},
			args: "convert q.brasp --to ltl --limit work=99999999999999999999",
			want: `2 --limit work=99999999999999999999: 99999999999999999999 is too large: the largest limit is 4611686018427387904 \(2\^62\)`},
		// Messages: positions and JSON's words for a model's JSON; depth
		// witnesses of a formula over propositions as traces, quoted once,
		// and read back by --check.
		{name: "json-model-type", files: map[string]string{"m.json": "{\"format\":\"brasp-transformer/1\",\n\"width\":\"x\"}\n"},
			args: "run m.json a", want: `1 m.json:2:11: model JSON: field width: want an integer, found a string`},
		{name: "depth-ltlf-witness", files: map[string]string{"ab.ltlf": "a U b\n"},
			args: "depth ab.ltlf", want: "ok", stdout: `lower bound: 2: "\{b\};\{\};\{\}" is in the language, "\{\};\{b\};\{\};\{\}" is not`},
		{name: "depth-ltlf-check", files: map[string]string{"ab.ltlf": "a U b\n"},
			args: "depth ab.ltlf --check b;; ;b;; 1", want: "ok", stdout: `^certificate holds`},
		// A .bdd file written by convert --to dfa reads back.
		{name: "bdd-read-back", files: map[string]string{"ab.ltlf": "a U b\n"}, gen: convertFile("ab.ltlf", "dfa", "x.bdd"),
			args: "equiv x.bdd ab.ltlf", want: "ok", stdout: "^equivalent\n$"},
		// Hangs: each within seconds now (minutes before).
		{name: "ltlf-until-chain", gen: writeFile("u.ltlf", func() string { return strings.Repeat("a U ", 3000) + "b\n" }),
			args: "convert u.ltlf --to dfa", want: "ok", stdout: "^propositions a b\n", timeout: 40 * time.Second},
		{name: "ltlf-next-chain-dfa", files: map[string]string{"x.ltlf": "X[16384] X[16384] a\n"},
			args: "convert x.ltlf --to dfa -o x.dfa", want: "ok", timeout: 40 * time.Second},
		{name: "mona-dont-cares", gen: writeFile("m.mona", func() string { return monaDontCares(30) }),
			args: "convert m.mona --to dfa", want: "ok", stdout: "0 1 V29", timeout: 40 * time.Second},
		{name: "guard-80000-props-equiv", gen: func(t *testing.T, dir string) {
			writeFile("x.dfa", manyProps(80000, false))(t, dir)
			writeFile("y.dfa", manyProps(80000, true))(t, dir)
		}, args: "equiv x.dfa y.dfa", want: "ok", stdout: "^equivalent\n$", timeout: 40 * time.Second},
		{name: "guard-huge-start", files: map[string]string{"s.dfa": "propositions a\nstart 16777215\n"},
			args: "run s.dfa a", want: `1 s.dfa:2:7: state 16777215 has no edges`, timeout: 10 * time.Second},
	}
}

// monaDontCares is MONA's output for "V(k-1) is false at every step" over
// k free variables: labels of k-1 don't-cares and a bit.
func monaDontCares(k int) string {
	vars := make([]string, k)
	for i := range vars {
		vars[i] = "V" + strconv.Itoa(i)
	}
	x := strings.Repeat("X", k-1)
	return "DFA for formula with free variables: " + strings.Join(vars, " ") +
		"\nInitial state: 0\nAccepting states: 1\nAutomaton has 3 states and 3 BDD-nodes\nTransitions:\n" +
		"State 0: " + x + "X -> state 1\nState 1: " + x + "0 -> state 1\nState 1: " + x + "1 -> state 2\nState 2: " + x + "X -> state 2\n"
}

// convertFile converts a file of the directory in process (brasp convert
// in --to kind -o out).
func convertFile(in, kind, out string) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		var stderr strings.Builder
		if code := Main([]string{"convert", filepath.Join(dir, in), "--to", kind, "-o", filepath.Join(dir, out)}, nil, io.Discard, &stderr); code != 0 {
			t.Fatalf("convert %s --to %s: %s", in, kind, stderr.String())
		}
	}
}

// gBRASP is G a as a program over propositions.
const gBRASP = "propositions a\nBad(i) := rightmost [j<=i, !P_a(j)] 1 : 0\nAll(i) := !Bad(i)\n"

func TestHostileRepros(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child process per reproducer")
	}
	for _, c := range hostileRepros() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for name, data := range c.files {
				if data == "@example" {
					b, err := os.ReadFile(filepath.Join("..", "..", "examples", name))
					if err != nil {
						t.Fatal(err)
					}
					data = string(b)
				}
				if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if c.gen != nil {
				c.gen(t, dir)
			}
			args := strings.Fields(c.args)
			timeout := 2 * time.Minute
			if c.timeout > 0 {
				timeout = c.timeout
			}
			r := runHostile(t, dir, timeout, args...)
			checkHostile(t, args, r, c.want)
			if c.stdout != "" && !regexp.MustCompile(c.stdout).MatchString(r.stdout) {
				t.Errorf("brasp %s: stdout does not match %q:\n%s", c.args, c.stdout, firstLines(r.stdout, 12))
			}
		})
	}
}
