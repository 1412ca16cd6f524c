package main

import (
	"fmt"
	"os"

	"github.com/brasp-dev/brasp/artifact"
)

func init() {
	register(&command{name: "convert", summary: "convert between representations (--to brasp|ltl|transformer|dfa)", run: convertCmd})
}

const convertUsage = "convert [--from KIND] --to KIND [-o OUT] [--multihead] [--layernorm] [--future-only] [--smaller] [--normal-form FORM] [--simplify] [--limit N] FILE"

func convertCmd(e *env, args []string) error {
	fs := newFlags(e, "convert", convertUsage)
	from := fs.String("from", "", "input kind, overriding the file extension")
	to := fs.String("to", "", "target kind: "+kindList())
	out := fs.String("o", "", "write to `OUT` instead of standard output (the extension picks the encoding, e.g. .json or .safetensors)")
	var opts artifact.Options
	fs.BoolVar(&opts.Multihead, "multihead", false, "transformer: depth-preserving multi-head compilation (Thm C.4)")
	fs.BoolVar(&opts.LayerNorm, "layernorm", false, "transformer: compile with layer normalisation (§4.3)")
	fs.BoolVar(&opts.FutureOnly, "future-only", false, "brasp: use only rightmost strict future-masked attention (Thm 5.1)")
	fs.BoolVar(&opts.Smaller, "smaller", false, "decompile with the smaller (bitwise) translation instead of the depth-preserving one")
	normalForm := fs.String("normal-form", "", "brasp: rewrite to a normal form of App. B: `FORM` is "+normalFormList()+" (unary: unary-value, then unary-score)")
	fs.BoolVar(&opts.Simplify, "simplify", false, "brasp: fold constants and drop operations the output does not use (after --normal-form)")
	fs.IntVar(&opts.Limit, "limit", 0, "bound on exponential constructions, e.g. the operations unary-score creates (0: each construction's default)")
	pos, err := parseFlags(e, fs, convertUsage, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return &exitError{code: 2, msg: "convert: want exactly one FILE (usage: brasp " + convertUsage + ")"}
	}
	if *to == "" {
		return &exitError{code: 2, msg: "convert: missing --to KIND (one of " + kindList() + ")"}
	}
	kind, err := artifact.ParseKind(*to)
	if err != nil {
		return &exitError{code: 2, msg: "convert: --to: " + err.Error()}
	}
	if opts.NormalForm, err = artifact.ParseNormalForm(*normalForm); err != nil {
		return &exitError{code: 2, msg: "convert: --normal-form: " + err.Error()}
	}
	if (opts.NormalForm != "" || opts.Simplify) && kind != artifact.KindBRASP {
		return &exitError{code: 2, msg: "convert: --normal-form and --simplify apply only to --to brasp"}
	}
	a, err := loadFile(pos[0], *from)
	if err != nil {
		return err
	}
	b, err := artifact.Convert(a, kind, opts)
	if err != nil {
		return fmt.Errorf("%s: %v", pos[0], err)
	}
	var data []byte
	if enc, ok := b.(artifact.Encoder); ok && *out != "" {
		data, err = enc.Encode(*out)
	} else {
		data, err = b.Format()
	}
	if err != nil {
		return err
	}
	if *out == "" {
		_, err = e.stdout.Write(data)
		return err
	}
	return os.WriteFile(*out, data, 0o644)
}
