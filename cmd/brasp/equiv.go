package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/brasp-dev/brasp/artifact"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/exact"
)

const equivUsage = "equiv [--from KIND | --from A_KIND,B_KIND] [--limit NAME=N]... [--up-to N] A B"

// equivCmd prints "equivalent" (exit 0) or
// `not equivalent: "WORD" (A accepts, B rejects)` with a shortest such word
// (exit 1); for two transducers, `not equivalent: "WORD" at position P (A
// outputs x, B outputs y)` with a shortest word on which their outputs
// differ and the first position where they do. artifact.Equiv has run the word on both inputs themselves, so
// the verdict never rests on the DFA construction alone (exit 3 if it
// failed that check). Like diff, it exits
// with 2 when it cannot decide (an unreadable input, a limit, a non-regular
// or transducer input), so that scripts can tell that from "not equivalent".
// --from names the kinds of inputs whose extension does not (one kind for
// both, or one each). With --up-to N it runs both inputs on every word up to length N instead:
// a bounded check, labelled as such, for inputs that are not regular (Mid).
// With --json it writes the verdict as one JSON object (equivJSON), with the
// same exit codes.
func equivCmd(e *env, args []string) error {
	fs := newFlags(e, "equiv", equivUsage)
	lim := addLimitFlag(fs)
	from := fs.String("from", "", "input kind, overriding the file extension: `KIND` for both inputs, or A_KIND,B_KIND (an empty one: by its extension)")
	asJSON := fs.Bool("json", false, `the verdict as one JSON object: {"equivalent": bool, "word": [symbols], "accepted_by": A, ...}`)
	upTo := fs.Int("up-to", 0, "a bounded check: compare on every word up to length `N` by running both inputs (not a proof; for inputs that are not regular, such as programs with Mid)")
	pos, err := parseFlags(e, fs, equivUsage, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usageError(equivUsage, "want exactly two files")
	}
	trouble := func(err error) error { return &exitError{code: 2, msg: err.Error()} }
	kinds := strings.Split(*from, ",")
	switch len(kinds) {
	case 1:
		kinds = append(kinds, kinds[0])
	case 2:
	default:
		return &exitError{code: 2, msg: fmt.Sprintf("equiv: --from: want KIND or A_KIND,B_KIND, have %q", *from)}
	}
	bud := e.budget(lim)
	a, err := loadFile(bud, pos[0], kinds[0])
	if err != nil {
		return trouble(err)
	}
	b, err := loadFile(bud, pos[1], kinds[1])
	if err != nil {
		return trouble(err)
	}
	if *upTo != 0 {
		r, err := artifact.EquivUpTo(bud, a, b, *upTo)
		if err != nil {
			return trouble(fmt.Errorf("equiv: %v", err))
		}
		if *asJSON {
			return writeEquivJSON(e, r, pos, *upTo)
		}
		if r.Equal {
			fmt.Fprintf(e.stdout, "equivalent on every word up to length %d (a bounded check, not a proof)\n", *upTo)
			return nil
		}
		return notEquivalent(e, r, pos)
	}
	r, err := artifact.Equiv(bud, a, b, artifact.Options{})
	if errors.Is(err, exact.ErrNotRegular) {
		return trouble(fmt.Errorf("equiv: %v (equiv --up-to N compares on every word up to length N instead: a bounded check)", err))
	}
	if errors.Is(err, artifact.ErrUnconfirmed) {
		return &exitError{code: 3, msg: fmt.Sprintf("equiv: %v", err)}
	}
	if err != nil {
		return trouble(fmt.Errorf("equiv: %v", err))
	}
	if *asJSON {
		return writeEquivJSON(e, r, pos, 0)
	}
	if r.Equal {
		fmt.Fprintln(e.stdout, "equivalent")
		return nil
	}
	return notEquivalent(e, r, pos)
}

// equivJSON is `brasp equiv --json`: the verdict, and when the inputs
// differ a shortest word that tells them apart (as symbols, and as brasp
// run reads it) with which input accepts it, or for transducers the first
// position where their outputs differ.
type equivJSON struct {
	Equivalent bool `json:"equivalent"`
	// UpTo is the bound of a bounded check (--up-to), 0 for a proof.
	UpTo       int      `json:"up_to,omitempty"`
	Word       []string `json:"word,omitempty"`
	Text       string   `json:"text,omitempty"`
	AcceptedBy string   `json:"accepted_by,omitempty"`
	RejectedBy string   `json:"rejected_by,omitempty"`
	// Position (1-based) and the outputs there, for transducers.
	Position      int      `json:"position,omitempty"`
	FirstOutputs  []string `json:"first_outputs,omitempty"`
	SecondOutputs []string `json:"second_outputs,omitempty"`
}

// writeEquivJSON writes r as equivJSON and exits as equiv does: 0 when
// equivalent, 1 when not.
func writeEquivJSON(e *env, r *artifact.EquivResult, pos []string, upTo int) error {
	j := equivJSON{Equivalent: r.Equal, UpTo: upTo}
	if !r.Equal {
		j.Text = r.Trace
		if j.Text == "" {
			j.Word = symbols(r.Alphabet, r.Word)
			j.Text = r.Alphabet.FormatWord(r.Word)
		}
		if r.Transducers {
			j.Position, j.FirstOutputs, j.SecondOutputs = r.Position, r.FirstOutputs, r.SecondOutputs
		} else if r.FirstAccepts {
			j.AcceptedBy, j.RejectedBy = pos[0], pos[1]
		} else {
			j.AcceptedBy, j.RejectedBy = pos[1], pos[0]
		}
	}
	enc := json.NewEncoder(e.stdout)
	if err := enc.Encode(j); err != nil {
		return err
	}
	if !r.Equal {
		return &exitError{code: 1}
	}
	return nil
}

// notEquivalent prints the counterexample of r and exits with 1.
func notEquivalent(e *env, r *artifact.EquivResult, pos []string) error {
	shown := r.Trace
	if shown == "" {
		shown = automata.ShowWord(r.Alphabet, r.Word)
	}
	if r.Transducers {
		fmt.Fprintf(e.stdout, "not equivalent: %s at position %d (%s outputs %s, %s outputs %s)\n",
			shown, r.Position, pos[0], outputs(r.FirstOutputs), pos[1], outputs(r.SecondOutputs))
		return &exitError{code: 1}
	}
	acc, rej := pos[0], pos[1]
	if !r.FirstAccepts {
		acc, rej = rej, acc
	}
	fmt.Fprintf(e.stdout, "not equivalent: %s (%s accepts, %s rejects)\n", shown, acc, rej)
	return &exitError{code: 1}
}

// outputs shows the output symbols a transducer puts out at one position:
// the symbol, "nothing" or "x and y" where it is undefined.
func outputs(syms []string) string {
	switch len(syms) {
	case 0:
		return "nothing"
	case 1:
		return syms[0]
	}
	return strings.Join(syms, " and ")
}
