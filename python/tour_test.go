package python

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestTour executes the notebook docs/tour.ipynb afresh (docs/make_tour.py
// writes its cells and runs them with nbconvert's ExecutePreprocessor; a
// failing cell fails the test) and checks that the stored notebook is what
// the current code gives: the same cells, and in each the same outputs up
// to what varies between runs (timings, object addresses, temporary
// directories; the pixels of images, which depend on the installed fonts
// and libraries). Cells tagged "volatile" print what depends on the
// machine's floating point (a training run): there only the kinds of
// output are compared. It needs Debian's jupyter-nbconvert,
// python3-ipykernel, python3-matplotlib and graphviz; without them it is
// skipped, except under CI, where it fails.
func TestTour(t *testing.T) {
	t.Parallel()
	needTorch(t)
	py := interpreter()
	if err := exec.Command(py, "-c", "import nbformat, nbconvert, ipykernel, matplotlib").Run(); err != nil {
		need(t, fmt.Sprintf("%s cannot import nbconvert, ipykernel and matplotlib (%v)", py, err))
	}
	if _, err := exec.LookPath("dot"); err != nil {
		need(t, "graphviz's dot is not on the PATH")
	}
	bin := buildBrasp(t)
	out := filepath.Join(t.TempDir(), "tour.ipynb")
	start := time.Now()
	cmd := exec.Command(py, filepath.Join("..", "docs", "make_tour.py"), "--out", out)
	cmd.Env = append(os.Environ(), "BRASP_BIN="+bin, "PYTHONDONTWRITEBYTECODE=1", "OMP_NUM_THREADS=1")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("docs/make_tour.py: %v\n%s", err, b)
	}
	t.Logf("the notebook ran in %.1f s (%s)", time.Since(start).Seconds(), cpu(cmd))
	want := readNotebook(t, filepath.Join("..", "docs", "tour.ipynb"))
	got := readNotebook(t, out)
	if len(got.Cells) != len(want.Cells) {
		t.Fatalf("docs/tour.ipynb has %d cells, make_tour.py writes %d: run /usr/bin/python3 docs/make_tour.py", len(want.Cells), len(got.Cells))
	}
	for k := range got.Cells {
		if diff := compareCells(got.Cells[k], want.Cells[k]); diff != "" {
			t.Errorf("cell %d: %s\n(stored outputs are not those of the current code: run /usr/bin/python3 docs/make_tour.py)", k+1, diff)
		}
	}
}

// need skips the test with why, or fails it under CI.
func need(t *testing.T, why string) {
	t.Helper()
	if inCI() {
		t.Fatalf("%s; .ci/run installs jupyter-nbconvert python3-ipykernel python3-matplotlib graphviz", why)
	}
	t.Skipf("%s: install jupyter-nbconvert python3-ipykernel python3-matplotlib graphviz (CI fails here)", why)
}

type notebook struct {
	Cells []cell `json:"cells"`
}

type cell struct {
	Type     string `json:"cell_type"`
	Source   text   `json:"source"`
	Metadata struct {
		Tags []string `json:"tags"`
	} `json:"metadata"`
	Outputs []output `json:"outputs"`
}

type output struct {
	Type string          `json:"output_type"`
	Name string          `json:"name"`
	Text text            `json:"text"`
	Data map[string]text `json:"data"`
}

// text is a notebook string: one string or a list of lines.
type text string

func (s *text) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*s = text(one)
		return nil
	}
	var lines []string
	if err := json.Unmarshal(b, &lines); err != nil {
		// Data that is not text (JSON outputs) is compared as written.
		*s = text(b)
		return nil
	}
	*s = text(strings.Join(lines, ""))
	return nil
}

func readNotebook(t *testing.T, path string) *notebook {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nb notebook
	if err := json.Unmarshal(b, &nb); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &nb
}

// volatileText are the parts of an output that differ between runs of
// the same code.
var volatileText = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`0x[0-9a-f]+`), "0x…"},
	{regexp.MustCompile(`\b\d+(\.\d+)? (s|ms|µs)\b`), "… s"},
	{regexp.MustCompile(`/tmp/[^\s'"]*`), "/tmp/…"},
}

func normalise(s text) string {
	out := string(s)
	for _, v := range volatileText {
		out = v.re.ReplaceAllString(out, v.with)
	}
	return out
}

// coalesce joins consecutive outputs of one stream: where the kernel cuts
// a stream into outputs depends on timing.
func coalesce(outs []output) []output {
	var joined []output
	for _, o := range outs {
		if n := len(joined); n > 0 && o.Type == "stream" && joined[n-1].Type == "stream" && joined[n-1].Name == o.Name {
			joined[n-1].Text += o.Text
			continue
		}
		joined = append(joined, o)
	}
	return joined
}

// compareCells says how got differs from want, or "".
func compareCells(got, want cell) string {
	if got.Type != want.Type || got.Source != want.Source {
		return fmt.Sprintf("the source differs:\n%s\n--- stored:\n%s", got.Source, want.Source)
	}
	volatile := slices.Contains(want.Metadata.Tags, "volatile")
	gots, wants := coalesce(got.Outputs), coalesce(want.Outputs)
	if len(gots) != len(wants) {
		return fmt.Sprintf("%d outputs, stored %d", len(gots), len(wants))
	}
	for k, g := range gots {
		w := wants[k]
		if g.Type != w.Type || g.Name != w.Name {
			return fmt.Sprintf("output %d is %s %s, stored %s %s", k+1, g.Type, g.Name, w.Type, w.Name)
		}
		if g.Type == "error" {
			return fmt.Sprintf("output %d is an error", k+1)
		}
		if !volatile && normalise(g.Text) != normalise(w.Text) {
			return fmt.Sprintf("output %d:\n%s\n--- stored:\n%s", k+1, g.Text, w.Text)
		}
		var gk, wk []string
		for m := range g.Data {
			gk = append(gk, m)
		}
		for m := range w.Data {
			wk = append(wk, m)
		}
		slices.Sort(gk)
		slices.Sort(wk)
		if !slices.Equal(gk, wk) {
			return fmt.Sprintf("output %d has %v, stored %v", k+1, gk, wk)
		}
		if plain, ok := g.Data["text/plain"]; ok && !volatile && normalise(plain) != normalise(w.Data["text/plain"]) {
			return fmt.Sprintf("output %d:\n%s\n--- stored:\n%s", k+1, plain, w.Data["text/plain"])
		}
	}
	return ""
}

// TestCompareCells checks what the notebook comparison tells apart and
// what it lets vary.
func TestCompareCells(t *testing.T) {
	stream := func(s string) output { return output{Type: "stream", Name: "stdout", Text: text(s)} }
	mk := func(volatile bool, outs ...output) cell {
		c := cell{Type: "code", Source: "print(x)", Outputs: outs}
		if volatile {
			c.Metadata.Tags = []string{"volatile"}
		}
		return c
	}
	stored := mk(false, stream("equivalent: True\n"), stream("300 steps in 14.8 s at 0x7f0d\n"))
	for _, tc := range []struct {
		name string
		got  cell
		same bool
	}{
		{"identical", stored, true},
		{"one stream cut elsewhere, other timings and addresses", mk(false, stream("equivalent: True\n300 steps in 9.1 s at 0x55aa\n")), true},
		{"a changed verdict", mk(false, stream("equivalent: False\n300 steps in 14.8 s at 0x7f0d\n")), false},
		{"a changed count", mk(false, stream("equivalent: True\n301 steps in 14.8 s at 0x7f0d\n")), false},
		{"an error", mk(false, stream("equivalent: True\n"), output{Type: "error"}), false},
		{"a figure more", mk(false, stream("equivalent: True\n300 steps in 14.8 s at 0x7f0d\n"), output{Type: "display_data", Data: map[string]text{"image/png": "x"}}), false},
	} {
		if diff := compareCells(tc.got, stored); (diff == "") != tc.same {
			t.Errorf("%s: compareCells = %q, want same=%v", tc.name, diff, tc.same)
		}
	}
	vol := mk(true, stream("accuracy 0.99\n"))
	if diff := compareCells(mk(true, stream("accuracy 0.97\n")), vol); diff != "" {
		t.Errorf("a volatile cell's text is compared: %s", diff)
	}
	if diff := compareCells(mk(true, stream("accuracy 0.97\n"), output{Type: "display_data"}), vol); diff == "" {
		t.Error("a volatile cell's kinds of output are not compared")
	}
}
