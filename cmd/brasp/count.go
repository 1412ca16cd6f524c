package main

import (
	"bufio"
	"fmt"
	"math/big"
	"text/tabwriter"

	"github.com/brasp-dev/brasp/artifact"
	"github.com/brasp-dev/brasp/automata/count"
	"github.com/brasp-dev/brasp/budget"
)

const countUsage = "count [--from KIND] [--lengths MIN:MAX] [--json] [--limit NAME=N]... FILE"

// countCmd prints, for every length of --lengths, how many words of that
// length the input accepts and rejects and how many there are, exactly
// (counted on its minimal DFA, over propositions on its symbolic DFA):
// columns under a header, or one JSON object per length (--json), the
// counts as JSON numbers of any size.
func countCmd(e *env, args []string) error {
	fs := newFlags(e, "count", countUsage)
	from := fs.String("from", "", "input kind, overriding the file extension")
	lengths := fs.String("lengths", defaultLengths, "the word lengths, `MIN:MAX` or one length N (words are non-empty)")
	asJSON := fs.Bool("json", false, `one JSON object per length: {"length": n, "accepted": A, "rejected": R, "total": T}`)
	lim := addLimitFlag(fs)
	pos, err := parseFlags(e, fs, countUsage, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError(countUsage, "want exactly one FILE")
	}
	lo, hi, err := count.ParseLengths(*lengths)
	if err != nil {
		return usageError(countUsage, "--%v", err)
	}
	b := e.budget(lim)
	_, l, err := loadLanguage(b, "count", pos[0], *from)
	if err != nil {
		return err
	}
	out := bufio.NewWriter(e.stdout)
	defer out.Flush()
	if *asJSON {
		err = l.A.Counts(b, lo, hi, func(n int, acc, rej, total *big.Int) error {
			_, err := fmt.Fprintf(out, "{\"length\":%d,\"accepted\":%s,\"rejected\":%s,\"total\":%s}\n", n, acc, rej, total)
			return err
		})
		if err != nil {
			return fmt.Errorf("count: %w", err)
		}
		return nil
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "length\taccepted\trejected\ttotal\t")
	err = l.A.Counts(b, lo, hi, func(n int, acc, rej, total *big.Int) error {
		_, err := fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t\n", n, acc, rej, total)
		return err
	})
	if err != nil {
		return fmt.Errorf("count: %w", err)
	}
	return tw.Flush()
}

// loadLanguage reads FILE (of kind from, or by its name) as the language
// count and sample draw from: its minimal DFA with letter or valuation
// weights, and the input itself.
func loadLanguage(b *budget.Budget, cmd, path, from string) (artifact.Artifact, *artifact.Language, error) {
	a, err := loadFile(b, path, from)
	if err != nil {
		return nil, nil, err
	}
	l, err := artifact.LanguageOf(b, a, artifact.Options{})
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %s: %v", cmd, path, err)
	}
	return a, l, nil
}
