package python

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestTrain runs the tests of brasp.train (python/tests/test_train.py): a
// training run on (ab)+ that must reach 100% on its training lengths and
// save, reload, score and plot its model, then the model's masks and
// positions and every bad input of the command. Like TestPython it needs
// NumPy and PyTorch in /usr/bin/python3, and skips without them except
// under CI.
func TestTrain(t *testing.T) {
	if err := exec.Command(interpreter, "-c", "import numpy, torch").Run(); err != nil {
		if inCI() {
			t.Fatalf("%s cannot import numpy and torch (%v); .ci/run installs python3-numpy and python3-torch", interpreter, err)
		}
		t.Skipf("%s cannot import numpy and torch (%v): install python3-numpy and python3-torch (CI fails here)", interpreter, err)
	}
	bin := buildBrasp(t)
	cmd := exec.Command(interpreter, "-m", "unittest", "-v", "test_train")
	cmd.Dir = "tests"
	cmd.Env = append(os.Environ(), "BRASP_BIN="+bin, "BRASP_TRAIN_TEST=1", "PYTHONDONTWRITEBYTECODE=1", "OMP_NUM_THREADS=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python tests of brasp.train: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

// buildBrasp builds the brasp program into the test's temporary directory.
func buildBrasp(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "brasp")
	goCmd := "go"
	if root := os.Getenv("GOROOT"); root != "" {
		goCmd = filepath.Join(root, "bin", "go")
	}
	if out, err := exec.Command(goCmd, "build", "-o", bin, "../cmd/brasp").CombinedOutput(); err != nil {
		t.Fatalf("go build ../cmd/brasp: %v\n%s", err, out)
	}
	return bin
}
