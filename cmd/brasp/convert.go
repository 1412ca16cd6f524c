package main

import (
	"fmt"

	"github.com/brasp-dev/brasp/artifact"
	"github.com/brasp-dev/brasp/ltl/nonstrict"
	"github.com/brasp-dev/brasp/transformer/softmax"
)

const convertUsage = "convert [--from KIND] --to KIND [-o OUT] [--multihead] [--layernorm] [--periodic sinusoid|table] [--smaller] [--future-only] [--normal-form FORM] [--simplify] [--masks non-strict|causal] [--softmax --max-length N] [--limit NAME=N]... FILE"

// convertCmd converts its input to the kind --to names (artifact.Convert)
// and prints the result, or writes it to -o OUT in the encoding OUT's
// extension picks. Each flag sets a field of the options of one
// construction (artifact.Options); a new construction's flag goes here.
func convertCmd(e *env, args []string) error {
	fs := newFlags(e, "convert", convertUsage)
	from := fs.String("from", "", "input kind, overriding the file extension")
	to := fs.String("to", "", "target kind: "+kindList())
	out := fs.String("o", "", "write to `OUT` instead of standard output (the extension picks the encoding, e.g. .json or .safetensors)")
	lim := addLimitFlag(fs)
	var o artifact.Options
	fs.BoolVar(&o.Compile.MultiHead, "multihead", false, "transformer: depth-preserving multi-head compilation (Thm C.4)")
	fs.BoolVar(&o.Compile.LayerNorm, "layernorm", false, "transformer: compile with layer normalisation (§4.3)")
	periodic := fs.String("periodic", "sinusoid", "transformer: PERIODIC_ table predicates as `MODE` sinusoid (lowered to MOD_r_m, read from rational sinusoids, Cor. 5.4) or table (a table position term, Thm 5.3)")
	fs.BoolVar(&o.Decompile.Smaller, "smaller", false, "decompile with the smaller (bitwise) translation instead of the depth-preserving one")
	fs.BoolVar(&o.BRASP.FutureOnly, "future-only", false, "brasp: use only rightmost strict future-masked attention (Thm 5.1)")
	normalForm := fs.String("normal-form", "", "brasp: rewrite to a normal form of App. B: `FORM` is "+normalFormList()+" (unary: unary-value, then unary-score)")
	fs.BoolVar(&o.BRASP.Simplify, "simplify", false, "brasp: fold constants and drop operations the output does not use (after --normal-form)")
	masks := fs.String("masks", "", "ltl, brasp, transformer: only non-strict masks j<=i, i<=j (`MASKS` non-strict) or only rightmost j<=i (causal), for stutter-invariant star-free input (Thm 5.2)")
	toSoftmax := fs.Bool("softmax", false, "transformer: export a softmax-attention model with a certificate of agreement up to --max-length (JSON)")
	maxLength := fs.Int("max-length", 0, "transformer --softmax: the word length `N` up to which the softmax model is certified")
	pos, err := parseFlags(e, fs, convertUsage, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError(convertUsage, "want exactly one FILE")
	}
	if *to == "" {
		return &exitError{code: 2, msg: "convert: missing --to KIND (one of " + kindList() + ")"}
	}
	kind, err := artifact.ParseKind(*to)
	if err != nil {
		return &exitError{code: 2, msg: "convert: --to: " + err.Error()}
	}
	switch *periodic {
	case "sinusoid":
	case "table":
		o.Compile.PositionTables = true
	default:
		return &exitError{code: 2, msg: fmt.Sprintf("convert: --periodic: %q is not sinusoid or table", *periodic)}
	}
	if o.BRASP.NormalForm, err = artifact.ParseNormalForm(*normalForm); err != nil {
		return &exitError{code: 2, msg: "convert: --normal-form: " + err.Error()}
	}
	if (o.BRASP.NormalForm != "" || o.BRASP.Simplify) && kind != artifact.KindBRASP {
		return &exitError{code: 2, msg: "convert: --normal-form and --simplify apply only to --to brasp"}
	}
	if o.BRASP.FutureOnly && kind != artifact.KindBRASP {
		return &exitError{code: 2, msg: "convert: --future-only applies only to --to brasp"}
	}
	if *masks != "" {
		if o.Masks, err = nonstrict.ParseMasks(*masks); err != nil {
			return &exitError{code: 2, msg: "convert: --masks: " + err.Error()}
		}
		if kind != artifact.KindLTL && kind != artifact.KindBRASP && kind != artifact.KindTransformer {
			return &exitError{code: 2, msg: "convert: --masks applies only to --to ltl, brasp or transformer"}
		}
		if o.BRASP.FutureOnly || o.BRASP.NormalForm != "" {
			return &exitError{code: 2, msg: "convert: --masks does not combine with --future-only or --normal-form"}
		}
	}
	if *toSoftmax && (kind != artifact.KindTransformer || *maxLength < 1) {
		return &exitError{code: 2, msg: "convert: --softmax needs --to transformer and --max-length N (N ≥ 1)"}
	}
	if !*toSoftmax && *maxLength != 0 {
		return &exitError{code: 2, msg: "convert: --max-length applies only with --softmax"}
	}
	b := e.budget(lim)
	a, err := loadFile(b, pos[0], *from)
	if err != nil {
		return err
	}
	res, err := artifact.Convert(b, a, kind, o)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	var data []byte
	if *toSoftmax {
		sm, err := softmax.Export(b, res.(*artifact.Transformer).M, *maxLength)
		if err != nil {
			return fmt.Errorf("%s: %w", pos[0], err)
		}
		data, err = softmax.Encode(sm)
		if err != nil {
			return err
		}
	} else if enc, ok := res.(artifact.Encoder); ok && *out != "" {
		data, err = enc.Encode(*out)
	} else {
		data, err = res.Format()
	}
	if err != nil {
		return err
	}
	if *out == "" {
		return writeChunks(e.ctx, e.stdout, data)
	}
	return writeOutput(e.ctx, *out, data)
}
