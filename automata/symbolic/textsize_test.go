package symbolic_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/automata/symbolic"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/ltlf"
)

// GuardTextSize is a faithful measure of what Format writes: never less,
// and within a factor of two, on automata whose guards have few and many
// paths; CheckGuardText refuses below it and accepts at it.
func TestGuardTextSize(t *testing.T) {
	var responses []string
	for i := range 5 {
		responses = append(responses, fmt.Sprintf("G(a%d -> F b%d)", i, i))
	}
	for _, src := range []string{
		"true", "G(a -> X b)", `G("long proposition name" -> F b)`,
		"(a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5) U b", strings.Join(responses, " & "),
	} {
		f, err := ltlf.ParseString(src)
		if err != nil {
			t.Fatal(err)
		}
		d, err := ltlf.ToDFA(nil, f)
		if err != nil {
			t.Fatal(err)
		}
		got, est := float64(len(symbolic.Format(d))), symbolic.GuardTextSize(d)
		if est < got || est > 2*got+64 {
			t.Errorf("%s: estimated %.0f bytes, Format writes %.0f", src, est, got)
		}
		s := budget.Settings{}
		if err := s.Set(fmt.Sprintf("guard-text-bytes=%d", int64(est)-1)); err != nil {
			t.Fatal(err)
		}
		var le *budget.Error
		if err := symbolic.CheckGuardText(budget.New(context.Background(), s), d); !errors.As(err, &le) {
			t.Errorf("%s: below the estimate: %v", src, err)
		}
		if err := s.Set(fmt.Sprintf("guard-text-bytes=%d", int64(est))); err != nil {
			t.Fatal(err)
		}
		if err := symbolic.CheckGuardText(budget.New(context.Background(), s), d); err != nil {
			t.Errorf("%s: at the estimate: %v", src, err)
		}
	}
}
