package main

import (
	"bufio"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/position"
	"github.com/brasp-dev/brasp/transformer"
)

// wideModel is a model over {a, b} of width d with one head whose score and
// value matrices are dense (d² entries each, nearly all zero): the head
// copies Q_a of the position before into coordinate 2, and the model
// accepts when the last symbol is a. Its entries share one rational per
// value, so that the test process holds it in 16 bytes per entry.
func wideModel(d int) *transformer.Model {
	zero, one := new(big.Rat), big.NewRat(1, 1)
	unit := func(k int) transformer.Vec {
		v := make(transformer.Vec, d)
		for i := range v {
			v[i] = zero
		}
		if k >= 0 {
			v[k] = one
		}
		return v
	}
	matrix := func(r, c int) transformer.Matrix {
		m := make(transformer.Matrix, d)
		for i := range m {
			m[i] = unit(-1)
			if i == r {
				m[i] = unit(c)
			}
		}
		return m
	}
	labels := make([]string, d)
	for i := range labels {
		labels[i] = "c" + strconv.Itoa(i)
	}
	return &transformer.Model{
		Alphabet: alphabet.Alphabet{"a", "b"}, Width: d, Labels: labels,
		Embedding: []transformer.Vec{unit(0), unit(1)},
		Layers: []transformer.Layer{{Heads: []transformer.Head{{
			Mask: position.MaskFuture, Tiebreak: position.Rightmost,
			Score: matrix(-1, -1), Value: matrix(2, 0)}}}},
		Output: transformer.Output{Weight: unit(0), Bias: big.NewRat(-1, 2)},
	}
}

// writeWideJSON writes wideModel(d) as a dense JSON model, written
// directly (a d of 4096 is 67 MB of "0,").
func writeWideJSON(t *testing.T, path string, d int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	vec := func(k int) {
		w.WriteByte('[')
		for i := range d {
			if i > 0 {
				w.WriteByte(',')
			}
			if i == k {
				w.WriteByte('1')
			} else {
				w.WriteByte('0')
			}
		}
		w.WriteByte(']')
	}
	matrix := func(r, c int) {
		w.WriteByte('[')
		for i := range d {
			if i > 0 {
				w.WriteByte(',')
			}
			if i == r {
				vec(c)
			} else {
				vec(-1)
			}
		}
		w.WriteByte(']')
	}
	labels := make([]string, d)
	for i := range labels {
		labels[i] = `"c` + strconv.Itoa(i) + `"`
	}
	w.WriteString(`{"format":"brasp-transformer/1","alphabet":["a","b"],"width":` + strconv.Itoa(d) + `,"labels":[` + strings.Join(labels, ",") + `],"embedding":{"a":`)
	vec(0)
	w.WriteString(`,"b":`)
	vec(1)
	w.WriteString(`},"position":null,"layers":[{"attention":[{"mask":"future","tiebreak":"rightmost","score":`)
	matrix(-1, -1)
	w.WriteString(`,"value":`)
	matrix(2, 0)
	w.WriteString(`}]}],"output":{"weight":`)
	vec(0)
	w.WriteString(`,"bias":-0.5}}`)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// maxModelFactor bounds what loading and running a model may cost: the
// child's peak resident memory over the model's parameters at 8 bytes each
// (the float64 a parameter takes in a runner). Most of it is the model's
// own pointer per parameter and the file's text while it is read.
const maxModelFactor = 4

// TestHostileWideModel: a 67 MB JSON model with one dense width-4096 head
// (and a 2048-wide one as safetensors) loads and answers within seconds, in
// memory proportional to its parameters (it once took 48 s and 4.8 GB, 70
// times the file, and dies under the test's address-space cap).
func TestHostileWideModel(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 67 MB model and runs it in a child process")
	}
	// The files are written by a child (TestHostileWideModelFiles), so
	// that this process stays small: a child's peak resident size counts
	// the parent's too, up to the moment it starts its program.
	dir := t.TempDir()
	gen := exec.Command(os.Args[0], "-test.run=^TestHostileWideModelFiles$")
	gen.Env = append(os.Environ(), wideFilesEnv+"="+dir)
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("writing the models: %v\n%s", err, out)
	}
	for _, c := range []struct {
		file string
		d    int
	}{{"wide.json", 4096}, {"wide.safetensors", 2048}} {
		// One child runs both words: loading the model is the cost, and
		// its peak is the same with one word or two.
		args := []string{"run", c.file, "a", "ab"}
		r := runHostile(t, dir, 2*time.Minute, args...)
		checkHostile(t, args, r, "ok")
		if got, want := strings.Fields(r.stdout), []string{"accept", "reject"}; !slices.Equal(got, want) {
			t.Errorf("run %s a ab: %q, want %q", c.file, got, want)
		}
		params := int64(2*c.d*c.d + 3*c.d + 1)
		factor := float64(r.maxRSS<<10) / float64(8*params)
		t.Logf("run %s a ab: %v, %d MB max RSS, %.2f × the parameters' %d MB", c.file,
			r.elapsed.Round(time.Millisecond), r.maxRSS>>10, factor, 8*params>>20)
		if factor > maxModelFactor {
			t.Errorf("run %s a ab: %d MB max RSS, %.1f × the parameters at 8 bytes, want at most %d ×", c.file, r.maxRSS>>10, factor, maxModelFactor)
		}
	}
}

// wideFilesEnv names the directory TestHostileWideModelFiles writes to.
const wideFilesEnv = "BRASP_WIDE_MODEL_DIR"

// TestHostileWideModelFiles writes the models of TestHostileWideModel, in a
// child it starts.
func TestHostileWideModelFiles(t *testing.T) {
	dir := os.Getenv(wideFilesEnv)
	if dir == "" {
		t.Skip("run by TestHostileWideModel")
	}
	writeWideJSON(t, filepath.Join(dir, "wide.json"), 4096)
	st, err := transformer.EncodeSafetensors(wideModel(2048))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "wide.safetensors"), st, 0o644); err != nil {
		t.Fatal(err)
	}
}
