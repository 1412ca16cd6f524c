package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/brasp-dev/brasp/internal/bigstack"
)

// harnessFormula is a formula as the LTLf corpus harness writes it: the
// valuations of three propositions as letters, each proposition a let, the
// formula read at the first position.
const harnessFormula = `alphabet "v000" "v001" "v010" "v011" "v100" "v101" "v110" "v111"
let P0_ = (v100 | v101 | v110 | v111) in
let P1_ = (v010 | v011 | v110 | v111) in
let P2_ = (v001 | v011 | v101 | v111) in
O (first & ((G (P0_ -> (X (P1_ U P2_)))) & (F (P2_ & (!P0_)))))
`

// TestConvertOnGrownStack: a conversion on a goroutine whose stack
// bigstack.Grow grew first (as the brasp program's main goroutine is) gives
// the same DFA as on a fresh one.
func TestConvertOnGrownStack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.ltl")
	if err := os.WriteFile(path, []byte(harnessFormula), 0o644); err != nil {
		t.Fatal(err)
	}
	convert := func(grow bool) string {
		var stdout, stderr bytes.Buffer
		bigstack.OnNewGoroutine(grow, func() {
			if code := Main([]string{"convert", path, "--to", "dfa"}, nil, &stdout, &stderr); code != 0 {
				t.Errorf("exit %d: %s", code, stderr.String())
			}
		})
		return stdout.String()
	}
	if a, b := convert(false), convert(true); a != b || a == "" {
		t.Fatalf("fresh stack:\n%s\ngrown stack:\n%s", a, b)
	}
}

// BenchmarkLoadFreshGoroutine loads a harness formula on a new goroutine,
// with the runtime's stack growth deep in the parser (default) or after
// bigstack.Grow, as on the brasp program's main goroutine (grown).
func BenchmarkLoadFreshGoroutine(b *testing.B) {
	path := filepath.Join(b.TempDir(), "f.ltl")
	if err := os.WriteFile(path, []byte(harnessFormula), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, grow := range []bool{false, true} {
		name := "default"
		if grow {
			name = "grown"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				var err error
				bigstack.OnNewGoroutine(grow, func() { _, err = loadFile(nil, path, "") })
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
