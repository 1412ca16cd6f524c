package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/brasp-dev/brasp/internal/oneproc"
	"github.com/brasp-dev/brasp/internal/playgroundcmd"
	"github.com/brasp-dev/brasp/internal/testkit"
	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	oneproc.Restore() // tests run in parallel; only the brasp program starts on one processor
	if len(os.Args) > 1 && os.Args[1] == teacherArg {
		// A teacher started by a capped child (which set the variable
		// below): before that test.
		os.Exit(runTeacher(os.Args[2:]))
	}
	if os.Getenv(hostileChildEnv) != "" {
		os.Exit(hostileChild())
	}
	testscript.Main(m, map[string]func(){
		"brasp": func() { os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		// serve and site run brasp-playground, found on the PATH.
		"brasp-playground": func() { os.Exit(playgroundcmd.Main(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the end-to-end CLI tests in testdata/script/*.txtar
// (go test ./cmd/brasp -run TestScripts/NAME runs one; -update, the
// switch of package testkit that rewrites every golden file, rewrites
// their expected outputs where a cmp target is in the archive). Scripts find
// the repository's example files in $EXAMPLES.
func TestScripts(t *testing.T) {
	examples, err := filepath.Abs(filepath.Join("..", "..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *testkit.Update,
		Setup: func(e *testscript.Env) error {
			e.Setenv("EXAMPLES", examples)
			return nil
		},
	})
}
