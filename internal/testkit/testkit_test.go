package testkit

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
)

func TestWords(t *testing.T) {
	for _, c := range []struct {
		k, min, max int
		want        string
	}{
		{2, 0, 2, "[[] [0] [1] [0 0] [0 1] [1 0] [1 1]]"},
		{2, 1, 2, "[[0] [1] [0 0] [0 1] [1 0] [1 1]]"},
		{3, 2, 2, "[[0 0] [0 1] [0 2] [1 0] [1 1] [1 2] [2 0] [2 1] [2 2]]"},
		{1, 0, 3, "[[] [0] [0 0] [0 0 0]]"},
		{0, 0, 3, "[[]]"},
		{0, 1, 3, "[]"},
		{2, 3, 2, "[]"},
	} {
		if got := fmt.Sprint(Words(c.k, c.min, c.max)); got != c.want {
			t.Errorf("Words(%d, %d, %d) = %s, want %s", c.k, c.min, c.max, got, c.want)
		}
	}
	n := 0
	EachWord(3, 1, 6, func([]int) { n++ })
	if n != 3+9+27+81+243+729 {
		t.Errorf("EachWord(3, 1, 6) gave %d words", n)
	}
}

func TestLetters(t *testing.T) {
	for k, want := range map[int]string{0: "a", 1: "a", 3: "a b c", 30: "a b c d e f g h i j k l m n o p q r s t u v w x y z"} {
		if got := Letters(k).String(); got != want {
			t.Errorf("Letters(%d) = %s, want %s", k, got, want)
		}
	}
}

func TestWord(t *testing.T) {
	alpha, _ := alphabet.New("a", "b")
	if got := fmt.Sprint(Word(t, alpha, "abba")); got != "[0 1 1 0]" {
		t.Errorf("Word(abba) = %s", got)
	}
	if got := Word(t, alpha, ""); got == nil || len(got) != 0 {
		t.Errorf("Word(\"\") = %#v, want an empty non-nil word", got)
	}
}

func TestLoadAndGolden(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "n.txt")
	if err := os.WriteFile(path, []byte("42"), 0o644); err != nil {
		t.Fatal(err)
	}
	n := Load(t, path, func(_ string, src []byte) (int, error) { return strconv.Atoi(string(src)) })
	if n != 42 {
		t.Errorf("Load = %d", n)
	}
	if err := compareGolden(path, []byte("42")); err != nil {
		t.Error(err)
	}
	if err := compareGolden(path, []byte("43")); err == nil {
		t.Error("compareGolden accepts output that differs from the file")
	}
	if err := compareGolden(filepath.Join(dir, "missing"), nil); err == nil {
		t.Error("compareGolden accepts a missing file")
	}
}

func TestCancelAtLook(t *testing.T) {
	cancelled := 0
	ctx := CancelAtLook(3, func() { cancelled++ })
	for look := 1; look <= 5; look++ {
		select {
		case <-ctx.Done():
			if look < 3 {
				t.Fatalf("done at look %d", look)
			}
		default:
			if look >= 3 {
				t.Fatalf("not done at look %d", look)
			}
		}
	}
	if cancelled != 1 || ctx.Err() == nil {
		t.Fatalf("atCancel called %d times, Err %v", cancelled, ctx.Err())
	}
}

func TestImports(t *testing.T) {
	imports := Imports(t, ".")
	if !slices.Contains(imports, "go/parser") || slices.Contains(imports, "os/exec") {
		t.Errorf("Imports(.) = %v, want go/parser among them and no os/exec", imports)
	}
}
