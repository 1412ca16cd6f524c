package transformer_test

import (
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/compile"
)

func TestDescribeDyck(t *testing.T) {
	p := examplePrograms(t)["dyck1_depth2.brasp"]
	m, err := compile.Compile(nil, p, compile.Options{MultiHead: true})
	if err != nil {
		t.Fatal(err)
	}
	d := transformer.Describe(m)
	for _, want := range []string{
		"3 layers (3 with attention)",
		"head 1.1 [future, rightmost]",
		"score: one(i)·one(j)",
		"P_l.value.Q_l += Q_l",
		"P_l.default_flag += −one",
		"head 3.1 [none, rightmost]",
		"output: accept iff Y − 0.5 ≥ 0",
	} {
		if !strings.Contains(d, want) {
			t.Errorf("Describe lacks %q:\n%s", want, d)
		}
	}
}
