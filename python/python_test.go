// Package python runs the Python package's test suite (python/tests) from
// `go test ./...`: it builds the brasp binary, writes the random programs
// the suite compares against, and runs each test module as its own Python
// process, in parallel. The interpreter is $BRASP_PYTHON when set (CI sets
// it to a virtual environment where the package is pip-installed, and
// BRASP_INSTALLED=1 so the tests import that install, not the source tree),
// else /usr/bin/python3, which must have NumPy and PyTorch (Debian's
// python3-numpy and python3-torch). Without them the tests are skipped,
// except under CI, where they fail.
package python

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
)

// interpreter is the Python the suite runs with: $BRASP_PYTHON, or
// Debian's, where python3-torch installs PyTorch.
func interpreter() string {
	if p := os.Getenv("BRASP_PYTHON"); p != "" {
		return p
	}
	return "/usr/bin/python3"
}

// randomPrograms is the number of random programs the suite compiles and
// compares with brasp run.
const randomPrograms = 100

// modules are the suite's parts, each run as one Python process: a module,
// or (separated by spaces) several, which then share the second of CPU
// that importing PyTorch costs every process. Parts of 10 to 25 s of CPU
// keep both cores of a small machine busy beside TestTour and TestTrain
// without paying that second a dozen times.
var modules = []string{
	"test_agree",
	"test_props test_teacher",
	"test_module test_harden",
	"test_hard",
	"test_load test_cli test_plot test_softmax test_polish",
}

func inCI() bool {
	v := os.Getenv("CI")
	return v != "" && v != "0" && v != "false"
}

// needTorch skips the test (fails it under CI) when the interpreter cannot
// import NumPy and PyTorch.
func needTorch(t *testing.T) {
	t.Helper()
	py := interpreter()
	if err := exec.Command(py, "-c", "import numpy, torch").Run(); err != nil {
		if inCI() {
			t.Fatalf("%s cannot import numpy and torch (%v); .ci/run installs python3-numpy and python3-torch", py, err)
		}
		t.Skipf("%s cannot import numpy and torch (%v): install python3-numpy and python3-torch (CI fails here)", py, err)
	}
}

func TestPython(t *testing.T) {
	t.Parallel()
	needTorch(t)
	dir := t.TempDir()
	bin := buildBrasp(t)
	random := filepath.Join(dir, "random")
	if err := os.Mkdir(random, 0o755); err != nil {
		t.Fatal(err)
	}
	writeRandomPrograms(t, random)
	env := []string{"BRASP_BIN=" + bin, "BRASP_RANDOM=" + random}
	if deadline, ok := t.Deadline(); ok {
		// The random-program test stops early (saying how many it checked)
		// rather than let go test's timeout kill the whole suite on a slow
		// machine; it always checks at least a quarter of the programs.
		env = append(env, fmt.Sprintf("BRASP_DEADLINE=%d", deadline.Add(-4*time.Minute).Unix()))
	}
	for _, m := range modules {
		t.Run(m, func(t *testing.T) {
			t.Parallel()
			tmp := t.TempDir()
			runUnittest(t, m, append(env, "BRASP_TMP="+tmp)...)
		})
	}
}

// runUnittest runs `python -m unittest -v target` in python/tests with the
// extra environment env (target: one or more names separated by spaces),
// failing the test with the output when it fails.
func runUnittest(t *testing.T, target string, env ...string) {
	t.Helper()
	start := time.Now()
	cmd := exec.Command(interpreter(), append([]string{"-m", "unittest", "-v"}, strings.Fields(target)...)...)
	cmd.Dir = "tests"
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1", "OMP_NUM_THREADS=1")
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python tests %s: %v\n%s", target, err, out)
	}
	t.Logf("%s (%.1f s, %s)\n%s", target, time.Since(start).Seconds(), cpu(cmd), out)
}

// cpu is the user and system time a finished command took, its waited-for
// children included: the cost of a part of the suite, which its wall time
// (the parts run in parallel) does not tell.
func cpu(cmd *exec.Cmd) string {
	s := cmd.ProcessState
	return fmt.Sprintf("%.1f s CPU", (s.UserTime() + s.SystemTime()).Seconds())
}

// TestMain removes the brasp program the tests built (buildBrasp).
func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// built is the brasp program, built once for all the tests of the package.
var built struct {
	once     sync.Once
	dir, bin string
	err      error
}

// buildBrasp builds the brasp program on its first call and returns it.
func buildBrasp(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "brasp-python-test-"); built.err != nil {
			return
		}
		bin := filepath.Join(built.dir, "brasp")
		goCmd := "go"
		if root := os.Getenv("GOROOT"); root != "" {
			goCmd = filepath.Join(root, "bin", "go")
		}
		if out, err := exec.Command(goCmd, "build", "-o", bin, "../cmd/brasp").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build ../cmd/brasp: %v\n%s", err, out)
			return
		}
		built.bin = bin
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

// writeRandomPrograms writes randomPrograms random programs to dir: every
// mask and tie-break, scores and values reading i and j, some with position
// predicates (first, last, MOD, Mid), alphabets of 2 and 3 symbols.
func writeRandomPrograms(t *testing.T, dir string) {
	rng := rand.New(rand.NewPCG(16, 2024))
	for k := range randomPrograms {
		o := brasptest.Options{Alphabet: 2 + k%2, Ops: 3 + rng.IntN(5)}
		switch k % 5 {
		case 1:
			o.JOnly = true
		case 2:
			o.Predicates = true
		case 3:
			o.Predicates, o.Mid = true, true
		}
		p := brasptest.RandomProgram(rng, o)
		file := filepath.Join(dir, fmt.Sprintf("r%03d.brasp", k))
		if err := os.WriteFile(file, []byte(brasp.Format(p)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
