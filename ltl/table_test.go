package ltl

import (
	"testing"

	"github.com/brasp-dev/brasp/internal/testkit"
)

func TestFormatTable(t *testing.T) {
	f := loadTestdata(t, "phi2.ltl")
	w := testkit.Word(t, f.Alphabet(), "a#bb#")
	got := FormatTable(f, w)
	want := `input               a "#" b b "#"
"#"                 0   1 0 0   1
b                   0   0 1 1   0
(b since "#")       0   0 1 1   1
"#" & (b since "#") 0   0 0 0   1
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	labels, _ := Rows(loadTestdata(t, "stair6.ltl"), nil)
	if last := labels[len(labels)-1]; last != "[14] = [12] | [13]" {
		t.Errorf("labels %q", labels)
	}
}
