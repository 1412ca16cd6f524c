// Package python runs the Python package's test suite (python/tests) from
// `go test ./...`: it builds the brasp binary, writes the random programs
// the suite compares against, and runs the suite with /usr/bin/python3,
// which must have NumPy and PyTorch (Debian's python3-numpy and
// python3-torch). Without them the test is skipped, except under CI, where
// it fails.
package python

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
)

// interpreter is the Python the suite runs with: Debian's, where
// python3-torch installs PyTorch.
const interpreter = "/usr/bin/python3"

// randomPrograms is the number of random programs the suite compiles and
// compares with brasp run.
const randomPrograms = 100

func inCI() bool {
	v := os.Getenv("CI")
	return v != "" && v != "0" && v != "false"
}

func TestPython(t *testing.T) {
	if err := exec.Command(interpreter, "-c", "import numpy, torch").Run(); err != nil {
		if inCI() {
			t.Fatalf("%s cannot import numpy and torch (%v); .ci/run installs python3-numpy and python3-torch", interpreter, err)
		}
		t.Skipf("%s cannot import numpy and torch (%v): install python3-numpy and python3-torch (CI fails here)", interpreter, err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "brasp")
	goCmd := filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	if os.Getenv("GOROOT") == "" {
		goCmd = "go"
	}
	build := exec.Command(goCmd, "build", "-o", bin, "../cmd/brasp")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ../cmd/brasp: %v\n%s", err, out)
	}
	random := filepath.Join(dir, "random")
	if err := os.Mkdir(random, 0o755); err != nil {
		t.Fatal(err)
	}
	writeRandomPrograms(t, random)
	cmd := exec.Command(interpreter, "-m", "unittest", "discover", "-v", "-s", "tests", "-t", "tests")
	cmd.Env = append(os.Environ(), "BRASP_BIN="+bin, "BRASP_RANDOM="+random, "BRASP_TMP="+dir, "PYTHONDONTWRITEBYTECODE=1")
	if deadline, ok := t.Deadline(); ok {
		// The random-program test stops early (saying how many it checked)
		// rather than let go test's timeout kill the whole suite on a slow
		// machine; it always checks at least a quarter of the programs.
		cmd.Env = append(cmd.Env, fmt.Sprintf("BRASP_DEADLINE=%d", deadline.Add(-4*time.Minute).Unix()))
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python tests: %v\n%s", err, out)
	}
	t.Logf("%s", out)
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
