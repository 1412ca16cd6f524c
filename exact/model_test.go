package exact

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/examples"
	"github.com/brasp-dev/brasp/transformer/compile"
	"github.com/brasp-dev/brasp/transformer/decompile"
)

// checkModel compiles p (Thm 4.1), checks that the model's exact language
// (decompiled, Thm 4.2, then the bimachine) equals the program's, and that
// the model's own forward pass agrees with the program on a shortest
// counterexample when there is one (there must not be).
func checkModel(t *testing.T, name string, p *brasp.Program, copts compile.Options, dopts decompile.Options) {
	t.Helper()
	m, err := compile.Compile(nil, p, copts)
	if err != nil {
		t.Fatalf("%s: compile: %v", name, err)
	}
	dm, err := ModelDFA(nil, m, dopts)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	dp := mustDFA(t)(ProgramDFA(nil, p))
	eq, w, mAcc, err := Equivalent(dm, dp)
	if err != nil {
		t.Fatal(err)
	}
	if !eq {
		run := func(w []int) bool { ok, _ := m.Accepts(nil, w); return ok }
		checkCounterexample(t, name, len(p.Alphabet), run, p.Accepts, w, mAcc)
		t.Fatalf("%s: compiled model and program differ on %q (model accepts: %v)", name, p.Alphabet.FormatWord(w), mAcc)
	}
}

// TestCompiledModels: every example acceptor, compiled sequentially and with
// multiple heads, and decompiled both ways, has exactly the program's
// language.
func TestCompiledModels(t *testing.T) {
	for _, name := range examples.Names() {
		if !strings.HasSuffix(name, ".brasp") {
			continue
		}
		p := examples.MustProgram(name)
		if p.IsTransducer() {
			continue
		}
		checkModel(t, name, p, compile.Options{}, decompile.Options{})
		checkModel(t, name+" multihead", p, compile.Options{MultiHead: true}, decompile.Options{Smaller: true})
	}
}

func TestCompiledRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	for range 40 {
		p := brasptest.RandomProgram(rng, brasptest.Options{Alphabet: 2, Ops: 2 + rng.IntN(4), Predicates: rng.IntN(2) == 0})
		checkModel(t, "random", p, compile.Options{MultiHead: rng.IntN(2) == 0}, decompile.Options{})
	}
}
