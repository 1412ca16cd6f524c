package python

import "testing"

// TestTrain runs the tests of brasp.train (python/tests/test_train.py): a
// training run on (ab)+ that must reach 100% on its training lengths and
// save, reload, score and plot its model, then the model's masks and
// positions and every bad input of the command. Like TestPython it needs
// NumPy and PyTorch, and skips without them except under CI; it runs
// beside TestPython's modules.
func TestTrain(t *testing.T) {
	t.Parallel()
	needTorch(t)
	runUnittest(t, "test_train", "BRASP_BIN="+buildBrasp(t), "BRASP_TRAIN_TEST=1", "BRASP_TMP="+t.TempDir())
}
