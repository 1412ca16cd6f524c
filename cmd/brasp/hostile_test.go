package main

import (
	"io"

	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/brasp-dev/brasp/artifact"
	"github.com/brasp-dev/brasp/budget"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The hostile-input suite: every input kind through every command with the
// inputs a careless or hostile user gives (garbage, byte-order marks, deep
// nesting, huge numbers, huge alphabets, oversized files, transducers where
// acceptors are expected). Each case states its outcome: success, or an
// error matching a pattern (a file:line:col position, or a named limit with
// how to raise it) with the exit status the README gives. No case may panic,
// print a Go runtime dump, run past its time, or grow past the memory cap:
// every command runs in a child process (this test binary, see TestMain)
// under a hard address-space limit, so that a regression fails the test
// rather than taking the machine down.

// hostileChildEnv, when set, makes the test binary run brasp with its
// arguments under the memory cap instead of running tests (see TestMain).
const hostileChildEnv = "BRASP_HOSTILE_CHILD"

// hostileMemCap is the child's hard address-space limit. The Go runtime
// reserves address space well beyond the heap it uses (at a 2 GiB limit a
// child dies at about 300 MB of heap), so this is four times the heap cap;
// debug.SetMemoryLimit keeps the heap itself near hostileHeapCap, so that
// the collector works hard before the hard limit is near. A case that needs
// more than about a gigabyte dies with "fatal error: out of memory", which
// fails the test.
const (
	hostileMemCap  = 4 << 30
	hostileHeapCap = 1 << 30
)

// hostileChild runs brasp with the process's arguments under the memory cap
// and returns its exit status.
func hostileChild() int {
	debug.SetMemoryLimit(hostileHeapCap)
	lim := syscall.Rlimit{Cur: hostileMemCap, Max: hostileMemCap}
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &lim); err != nil {
		fmt.Fprintln(os.Stderr, "hostile child: setrlimit:", err)
		return 99
	}
	return Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// hostileResult is what a child printed and how it ended.
type hostileResult struct {
	code           int
	stdout, stderr string
	elapsed        time.Duration
	maxRSS         int64 // kilobytes
}

// runHostile runs brasp args in dir in a capped child process.
func runHostile(t *testing.T, dir string, timeout time.Duration, args ...string) hostileResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), hostileChildEnv+"=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r := hostileResult{stdout: stdout.String(), stderr: stderr.String(), elapsed: time.Since(start)}
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.maxRSS = ru.Maxrss
		}
	}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Errorf("brasp %s: still running after %v (killed)", strings.Join(args, " "), timeout)
		r.code = -1
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	case err != nil:
		t.Fatalf("brasp %s: %v", strings.Join(args, " "), err)
	}
	return r
}

// runtimeDump matches what a panic or a fatal runtime error prints.
var runtimeDump = regexp.MustCompile(`panic|goroutine \d|fatal error|runtime\.|internal error|SIGSEGV|out of memory`)

// hostileFile is one input file of the suite.
type hostileFile struct {
	name string // its extension gives the kind
	data []byte
	size int64 // > 0: a sparse file of this size instead of data
}

// garbage returns n pseudo-random bytes, the same on every run.
func garbage(seed uint64, n int) []byte {
	rng := rand.New(rand.NewPCG(seed, seed))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.UintN(256))
	}
	return b
}

func writeHostile(t *testing.T, dir string, f hostileFile) {
	t.Helper()
	path := filepath.Join(dir, f.name)
	if f.size > 0 {
		h, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := h.Truncate(f.size); err != nil {
			t.Fatal(err)
		}
		h.Close()
		return
	}
	if err := os.WriteFile(path, f.data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// hostileCommands are the commands every input goes through, by name; F
// stands for the input file.
var hostileCommands = []struct{ name, args string }{
	{"run", "run F a"},
	{"to-brasp", "convert F --to brasp"},
	{"to-ltl", "convert F --to ltl"},
	{"to-dfa", "convert F --to dfa"},
	{"to-transformer", "convert F --to transformer -o out.json"},
	{"inspect", "inspect F"},
	{"classify", "classify F"},
	{"equiv", "equiv F F"},
	{"depth", "depth F"},
	{"count", "count F --lengths 1:5"},
	{"sample", "sample F --lengths 1:5 --count 3"},
}

// hostileCase is one input and what every command must do with it: want
// maps a command name (or "*" for the others) to "ok", or to the exit
// status and a pattern the error output must match: "1 pattern".
type hostileCase struct {
	file hostileFile
	want map[string]string
}

// nested returns prefix, then open n times, then middle, then close n times.
func nested(prefix, open, middle, close string, n int) []byte {
	return []byte(prefix + strings.Repeat(open, n) + middle + strings.Repeat(close, n) + "\n")
}

const bom = "\xef\xbb\xbf"

// loadErr is the expectation of an input no loader accepts: every command
// fails with exit status 1 (equiv: 2, "cannot decide") and the pattern.
func loadErr(pattern string) map[string]string {
	return map[string]string{"*": "1 " + pattern, "equiv": "2 " + pattern}
}

// limitErr is loadErr for a named limit.
func limitErr(file, limit string) map[string]string {
	return loadErr(`input file ` + regexp.QuoteMeta(file) + ` exceeds the limit ` + limit + `=\d+ bytes \(needs \d+\) \(raise it with --limit ` + limit + `=N\)`)
}

func hostileLoadCases() []hostileCase {
	manySymbols := make([]string, 10000)
	for i := range manySymbols {
		manySymbols[i] = "s" + strconv.Itoa(i)
	}
	return []hostileCase{
		// Garbage: positioned errors, at most ten of them and a count.
		{hostileFile{name: "garbage.brasp", data: garbage(1, 4096)}, loadErr(`garbage.brasp:\d+:\d+: `)},
		{hostileFile{name: "garbage.ltl", data: garbage(2, 4096)}, loadErr(`garbage.ltl:\d+:\d+: `)},
		{hostileFile{name: "garbage.ltlf", data: garbage(3, 4096)}, loadErr(`garbage.ltlf:\d+:\d+: `)},
		{hostileFile{name: "garbage.re", data: garbage(4, 4096)}, loadErr(`garbage.re:\d+:\d+: `)},
		{hostileFile{name: "garbage.dfa", data: garbage(5, 4096)}, loadErr(`garbage.dfa:\d+:\d+: `)},
		{hostileFile{name: "garbage.json", data: garbage(6, 4096)}, loadErr(`garbage.json:\d+:\d+: model JSON: invalid character`)},
		{hostileFile{name: "garbage.safetensors", data: garbage(7, 4096)}, loadErr(`garbage.safetensors: safetensors: `)},
		// A byte-order mark is not skipped: it is an unexpected character at 1:1.
		{hostileFile{name: "bom.brasp", data: []byte(bom + "Q_a(i)\nY(i) := Q_a(i)\n")}, loadErr(`bom.brasp:1:1: unexpected character`)},
		{hostileFile{name: "bom.ltl", data: []byte(bom + "alphabet a\na\n")}, loadErr(`bom.ltl:1:1: unexpected character`)},
		{hostileFile{name: "bom.ltlf", data: []byte(bom + "a U b\n")}, loadErr(`bom.ltlf:1:1: unexpected character`)},
		{hostileFile{name: "bom.re", data: []byte(bom + "alphabet a\na*\n")}, loadErr(`bom.re:1:1: unexpected character`)},
		{hostileFile{name: "bom.dfa", data: []byte(bom + "alphabet a\nstart 0\naccept 0\n0 a 0\n")}, loadErr(`bom.dfa:1:1: unexpected character`)},
		{hostileFile{name: "bom.json", data: []byte(bom + "{}")}, loadErr(`bom.json:1:1: model JSON: invalid character`)},
		// Deep nesting: the parsers' nesting limits, never a stack overflow.
		{hostileFile{name: "deep.brasp", data: nested("Q_a(i)\nY(i) := ", "(", "Q_a(i)", ")", 100000)}, loadErr(`deep.brasp:2:\d+: expression nested too deeply`)},
		{hostileFile{name: "deep.ltl", data: nested("alphabet a\n", "(", "a", ")", 100000)}, loadErr(`deep.ltl:2:\d+: .*more than 1000 levels`)},
		{hostileFile{name: "deep.ltlf", data: nested("", "!(", "a", ")", 100000)}, loadErr(`deep.ltlf:1:\d+: `)},
		{hostileFile{name: "deep.re", data: nested("alphabet a\n", "(", "a", ")", 100000)}, loadErr(`deep.re:2:\d+: expression nested deeper than 1000`)},
		{hostileFile{name: "deep.json", data: nested("", "[", "", "]", 100000)}, loadErr(`deep.json:1:\d+: model JSON: `)},
		// Huge numbers.
		{hostileFile{name: "number.brasp", data: []byte("Q_a(i)\nMOD_1_99999999999999999999(i)\nY(i) := MOD_1_99999999999999999999(i)\n")}, loadErr(`number.brasp:2:1: `)},
		{hostileFile{name: "number.ltl", data: []byte("alphabet a\nMOD_1_99999999999999999999\n")}, loadErr(`number.ltl:2:1: bad predicate`)},
		{hostileFile{name: "letter.dfa", data: []byte("alphabet a\nstart 0\naccept 0\n0 a 0\n0 b 0\n")}, loadErr(`letter.dfa:5:3: `)},
		{hostileFile{name: "number.json", data: []byte(`{"alphabet":["a"],"width":99999999999999,"layers":[]}`)}, loadErr(`number.json: `)},
		{hostileFile{name: "number.safetensors", data: append([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, "{}"...)}, loadErr(`number.safetensors: safetensors: `)},
		// Oversized files (sparse: nothing is written, and nothing may be read).
		{hostileFile{name: "big.brasp", size: 65 << 20}, limitErr("big.brasp", "input-bytes")},
		{hostileFile{name: "big.ltl", size: 65 << 20}, limitErr("big.ltl", "input-bytes")},
		{hostileFile{name: "big.ltlf", size: 65 << 20}, limitErr("big.ltlf", "input-bytes")},
		{hostileFile{name: "big.re", size: 65 << 20}, limitErr("big.re", "input-bytes")},
		{hostileFile{name: "big.dfa", size: 65 << 20}, limitErr("big.dfa", "input-bytes")},
		{hostileFile{name: "big.json", size: 1<<30 + 1}, limitErr("big.json", "model-bytes")},
		{hostileFile{name: "big.safetensors", size: 1<<30 + 1}, limitErr("big.safetensors", "model-bytes")},
		// Alphabets: a duplicate symbol among 10,000.
		{hostileFile{name: "dup.re", data: []byte("alphabet " + strings.Join(manySymbols, " ") + " s5\ns1\n")}, loadErr(`dup.re:1:\d+: duplicate symbol s5`)},
	}
}

// hostileValidCases are inputs that load but ask too much of some
// commands: 10,000-symbol alphabets, a transducer where an acceptor is
// expected, a language outside AC0, a non-regular predicate, a huge
// modulus.
func hostileValidCases(t *testing.T) []hostileCase {
	example := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join("..", "..", "examples", name))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	syms := make([]string, 10000)
	for i := range syms {
		syms[i] = "s" + strconv.Itoa(i)
	}
	alpha := "alphabet " + strings.Join(syms, " ") + "\n"
	var dfa strings.Builder
	dfa.WriteString(alpha + "start 0\naccept 1\n")
	for i := range syms {
		to := 0
		if i == 1 {
			to = 1
		}
		fmt.Fprintf(&dfa, "0 s%d %d\n1 s%d 1\n", i, to, i) // .* s1 .*
	}
	notInAlphabet := `1 word 1: symbol 1 \(a\) is not in the alphabet \{s0 s1 s2 s3 s4 s5 s6 s7 s8 s9 s10 s11 s12 s13 s14 s15 s16 s17 s18 s19 … and 9980 more\}`
	wideFFN := `1 exceeds the limit compile-ffn-inputs=20 coordinates`
	transducer := "1 a transducer has no language"
	notAC0 := "1 the language is not in AC0"
	mid := "1 Mid is not regular"
	modulus := `1 exceeds the limit exact-modulus=4096 positions \(needs 1048576\) \(raise it with --limit exact-modulus=N\)`
	return []hostileCase{
		{hostileFile{name: "alpha.re", data: []byte(alpha + ".* s1 .*\n")}, map[string]string{
			"*": "ok", "run": notInAlphabet, "to-transformer": wideFFN, "inspect": "1 re inputs have no inspector"}},
		{hostileFile{name: "alpha.dfa", data: []byte(dfa.String())}, map[string]string{
			"*": "ok", "run": notInAlphabet, "to-transformer": wideFFN}},
		{hostileFile{name: "recall.brasp", data: example("associative_recall.brasp")}, map[string]string{
			"*": "ok", "to-ltl": "1 transducer", "to-dfa": transducer, "classify": transducer, "count": transducer, "sample": transducer,
			"depth": "1 depth bounds are for acceptors; this input is a transducer"}},
		{hostileFile{name: "parity.dfa", data: example("parity.dfa")}, map[string]string{
			"*": "ok", "to-brasp": notAC0, "to-ltl": notAC0, "to-transformer": notAC0}},
		{hostileFile{name: "mid.ltl", data: example("mid.ltl")}, map[string]string{
			"*": "ok", "to-dfa": mid, "classify": mid, "count": mid, "sample": mid, "equiv": "2 Mid is not regular"}},
		{hostileFile{name: "mod.brasp", data: []byte("Q_a(i)\nMOD_1_1048576(i)\nY(i) := MOD_1_1048576(i) & Q_a(i)\n")}, map[string]string{
			"*": modulus, "run": "ok", "to-brasp": "ok", "to-ltl": "ok", "inspect": "ok", "equiv": "2" + modulus[1:],
			"to-transformer": "1 MOD_1_1048576: the sinusoid of period 1048576 does not separate residue 1"}},
	}
}

// TestHostileInputs runs every hostile input through every command, two
// children at a time, and logs the peak memory of the worst case.
func TestHostileInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child process per input and command")
	}
	dir := t.TempDir()
	cases := append(hostileLoadCases(), hostileValidCases(t)...)
	for _, c := range cases {
		writeHostile(t, dir, c.file)
	}
	var mu sync.Mutex
	var worst hostileResult
	var worstArgs string
	t.Run("cases", func(t *testing.T) {
		for _, c := range cases {
			t.Run(c.file.name, func(t *testing.T) {
				t.Parallel()
				for _, cmd := range hostileCommands {
					want, ok := c.want[cmd.name]
					if !ok {
						want = c.want["*"]
					}
					args := strings.Fields(strings.ReplaceAll(cmd.args, "F", c.file.name))
					if cmd.name == "to-transformer" {
						args[len(args)-1] = c.file.name + ".out.json"
					}
					r := runHostile(t, dir, 2*time.Minute, args...)
					mu.Lock()
					if r.maxRSS > worst.maxRSS {
						worst, worstArgs = r, strings.Join(args, " ")
					}
					mu.Unlock()
					checkHostile(t, args, r, want)
				}
			})
		}
	})
	t.Logf("worst case: brasp %s: %d KB max RSS, %v", worstArgs, worst.maxRSS, worst.elapsed.Round(time.Millisecond))
}

// checkHostile checks one result against its expectation.
func checkHostile(t *testing.T, args []string, r hostileResult, want string) {
	t.Helper()
	name := "brasp " + strings.Join(args, " ")
	if runtimeDump.MatchString(r.stderr) {
		t.Errorf("%s: a runtime dump or internal error:\n%s", name, firstLines(r.stderr, 20))
		return
	}
	if n := strings.Count(r.stderr, "\n"); n > 12 {
		t.Errorf("%s: %d lines of errors, want at most 11:\n%s", name, n, firstLines(r.stderr, 20))
	}
	if want == "ok" {
		if r.code != 0 {
			t.Errorf("%s: exit %d, want success:\n%s", name, r.code, firstLines(r.stderr, 12))
		}
		return
	}
	code, pattern, _ := strings.Cut(want, " ")
	if strconv.Itoa(r.code) != code {
		t.Errorf("%s: exit %d, want %s:\n%s", name, r.code, code, firstLines(r.stderr, 12))
	}
	if !regexp.MustCompile(pattern).MatchString(r.stderr) {
		t.Errorf("%s: error output does not match %q:\n%s", name, pattern, firstLines(r.stderr, 12))
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = append(lines[:n], "...")
	}
	return strings.Join(lines, "\n")
}

// TestHostileLoad loads every hostile input in process, through package
// artifact, as the playground and other Go callers do: the same errors as
// the command line (without its "brasp: " prefix), never a panic. Oversized
// inputs come from a reader of zeros under a small size limit, and must be
// refused after reading at most one byte past it.
func TestHostileLoad(t *testing.T) {
	small := budget.New(context.Background(), budget.Settings{"input-bytes": 1 << 20, "model-bytes": 1 << 20})
	check := func(c hostileCase, mustLoad bool) {
		kind, err := artifact.KindOf(c.file.name)
		if err != nil {
			t.Fatal(err)
		}
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("%s: panic: %v", c.file.name, r)
			}
		}()
		if c.file.size > 0 {
			r := &countingZeros{left: c.file.size}
			_, err := artifact.LoadReader(small, c.file.name, r, kind)
			if !errors.Is(err, budget.ErrLimit) {
				t.Errorf("%s: %v, want a named-limit error", c.file.name, err)
			}
			if r.read > 1<<20+1+32<<10 { // the limit, one byte, a read buffer
				t.Errorf("%s: read %d bytes before refusing", c.file.name, r.read)
			}
			return
		}
		_, err = artifact.Load(nil, c.file.name, c.file.data, kind)
		_, pattern, _ := strings.Cut(c.want["*"], " ")
		switch {
		case mustLoad && err != nil:
			t.Errorf("%s: %v, want it to load", c.file.name, err)
		case mustLoad:
		case err == nil:
			t.Errorf("%s: loads, want an error matching %q", c.file.name, pattern)
		case !regexp.MustCompile(pattern).MatchString(err.Error()):
			t.Errorf("%s: %v\nwant an error matching %q", c.file.name, err, pattern)
		case strings.Count(err.Error(), "\n") > 10:
			t.Errorf("%s: %d lines of errors", c.file.name, strings.Count(err.Error(), "\n")+1)
		}
	}
	for _, c := range hostileLoadCases() {
		check(c, false)
	}
	for _, c := range hostileValidCases(t) {
		check(c, true)
	}
}

// countingZeros reads left zero bytes and counts what was read.
type countingZeros struct{ left, read int64 }

func (z *countingZeros) Read(p []byte) (int, error) {
	if z.left == 0 {
		return 0, io.EOF
	}
	n := min(int64(len(p)), z.left)
	clear(p[:n])
	z.left -= n
	z.read += n
	return int(n), nil
}
