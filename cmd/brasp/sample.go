package main

import (
	"bufio"
	"flag"
	"fmt"

	"github.com/brasp-dev/brasp/automata/count"
)

const sampleUsage = "sample [--from KIND] [--lengths MIN:MAX] [--count N | --all] [--balanced | --only accept|reject] [--distinct] [--seed S] [--json] [--verify] [--limit NAME=N]... FILE"

// Defaults of sample and count.
const (
	defaultLengths = "1:20"
	defaultCount   = 100
)

// sampleCmd writes labelled words of the input's language for datasets:
// --count N words of every length of --lengths (default 100 per length,
// with replacement), drawn uniformly among all words of the length
// (labelled by the input's minimal DFA), or half among the accepted and
// half among the rejected (--balanced), or among one side (--only), or
// without replacement (--distinct); or every word of the lengths (--all).
// Each line is WORD<TAB>accept|reject, WORD written as brasp run reads it
// (a trace over propositions), or a JSON object (--json). The same --seed
// gives the same words, those of a length whatever other lengths are
// asked. What a length lacks (no accepted word, say) is said on standard
// error. --verify runs the input itself on every word as well.
func sampleCmd(e *env, args []string) error {
	fs := newFlags(e, "sample", sampleUsage)
	from := fs.String("from", "", "input kind, overriding the file extension")
	lengths := fs.String("lengths", defaultLengths, "the word lengths, `MIN:MAX` or one length N (words are non-empty)")
	n := fs.Int("count", defaultCount, "words per length, `N`")
	all := fs.Bool("all", false, "every word of every length, each once, in alphabet order (instead of --count)")
	balanced := fs.Bool("balanced", false, "half the words of each length accepted, half rejected (as far as the language has words of each side)")
	only := fs.String("only", "", "only the words of one side: `accept` or reject")
	distinct := fs.Bool("distinct", false, "no word twice in a length (an error if a length has fewer words than asked)")
	seed := fs.Uint64("seed", 1, "the random seed `S`: the same seed gives the same words (those of a length do not depend on the other lengths)")
	asJSON := fs.Bool("json", false, `one JSON object per line: {"word": [...], "length": n, "label": "accept"}`)
	verify := fs.Bool("verify", false, "also run the input itself on every word and fail if it disagrees with the label (slow for models)")
	lim := addLimitFlag(fs)
	pos, err := parseFlags(e, fs, sampleUsage, args)
	if err != nil {
		return err
	}
	usageErr := func(msg string) error { return usageError(sampleUsage, "%s", msg) }
	if len(pos) != 1 {
		return usageErr("want exactly one FILE")
	}
	lo, hi, err := count.ParseLengths(*lengths)
	if err != nil {
		return usageErr("--" + err.Error())
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	mode := count.Uniform
	switch {
	case *balanced && *only != "":
		return usageErr("--balanced and --only cannot be combined")
	case *balanced:
		mode = count.Balanced
	case *only == "accept":
		mode = count.OnlyAccept
	case *only == "reject":
		mode = count.OnlyReject
	case *only != "":
		return usageErr(fmt.Sprintf("--only %q: want accept or reject", *only))
	}
	if *all {
		for _, f := range []string{"count", "balanced", "only", "distinct"} {
			if set[f] {
				return usageErr("--all lists every word: it cannot be combined with --" + f)
			}
		}
	}
	if *n < 1 {
		return usageErr(fmt.Sprintf("--count %d: want at least 1 word per length", *n))
	}
	b := e.budget(lim)
	a, l, err := loadLanguage(b, "sample", pos[0], *from)
	if err != nil {
		return err
	}
	out := bufio.NewWriterSize(e.stdout, 1<<16)
	defer out.Flush()
	var line []byte
	emit := func(w []uint64, accepted bool) error {
		if *verify {
			got, err := l.Run(a, w)
			if err != nil || got != accepted {
				return &exitError{code: 3, msg: fmt.Sprintf("sample: internal error: %s on %s: the input says %v (%v), its automaton %v",
					pos[0], l.AppendWord(nil, w), got, err, accepted)}
			}
		}
		if *asJSON {
			line = l.AppendJSON(line[:0], w, accepted)
		} else {
			line = l.AppendWord(line[:0], w)
			line = append(line, '\t')
			if accepted {
				line = append(line, "accept"...)
			} else {
				line = append(line, "reject"...)
			}
		}
		line = append(line, '\n')
		_, err := out.Write(line)
		return err
	}
	if *all {
		return sampleErr(l.A.Enumerate(b, lo, hi, emit))
	}
	t, err := l.A.Count(b, hi)
	if err != nil {
		return sampleErr(err)
	}
	note := func(msg string) {
		out.Flush()
		fmt.Fprintln(e.stderr, "sample: "+msg)
	}
	req := count.Request{Min: lo, Max: hi, Count: *n, Mode: mode, Distinct: *distinct, Seed: *seed}
	return sampleErr(count.Generate(b, t, req, emit, note))
}

// sampleErr names the command in an error of the sampling (the errors of
// --verify already do).
func sampleErr(err error) error {
	if _, ok := err.(*exitError); ok || err == nil {
		return err
	}
	return fmt.Errorf("sample: %w", err)
}
