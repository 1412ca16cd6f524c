package decompile

import (
	"os"
	"testing"

	"github.com/brasp-dev/brasp/transformer"
)

func TestTmpJSON(t *testing.T) {
	os.WriteFile("/tmp/prev.json", transformer.EncodeJSON(prevIsA()), 0o644)
}
