package playground

import (
	"strings"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/artifact"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/examples"
	"github.com/brasp-dev/brasp/position"
)

// Example is one preset of GET /api/examples.
type Example struct {
	Name   string `json:"name"`
	Title  string `json:"title"`
	Source string `json:"source"`
	// Word is a word to try the example on.
	Word string `json:"word"`
}

// exampleWords are words that show each preset at work.
var exampleWords = map[string]string{
	"dyck1_depth2.brasp":       "llrrllrlrr",
	"ab_plus.brasp":            "ababab",
	"ab_ba_preset.brasp":       "abab",
	"abc_a_bc_b_a.brasp":       "cacbbaa",
	"associative_recall.brasp": "a1b2b3a2c1a",
	"induction_heads.brasp":    "abcabcb",
	"stair3_preset.brasp":      "acacabca",
}

// Examples returns the presets the page offers: every example of package
// examples with its title and a word to try.
func Examples() []Example {
	var out []Example
	for _, name := range examples.Names() {
		src, err := examples.Source(name)
		if err != nil {
			continue
		}
		word, ok := exampleWords[name]
		if !ok {
			word = "aabcaa"
			if p, err := brasp.Parse(name, src); err == nil {
				if _, err := p.Alphabet.ParseWord(word); err != nil {
					word = strings.Repeat(p.Alphabet[0], 3)
				}
			}
		}
		out = append(out, Example{Name: name, Title: examples.Title(name), Source: string(src), Word: word})
	}
	return out
}

// Features is the answer of GET /api/features, which the page asks first:
// an answer means a playground server is there; without one the page runs
// the WebAssembly build.
type Features struct {
	// Runtime is "server" (brasp serve) or "wasm" (the WebAssembly build
	// in the page's Web Worker).
	Runtime string `json:"runtime"`
}

func currentFeatures() Features { return Features{Runtime: runtimeName} }

// RunRequest is the body of POST /api/run.
type RunRequest struct {
	Program string `json:"program"`
	Word    string `json:"word"`
	// Undeclared reads characters the program does not declare as symbols
	// whose every symbol vector is 0, as the B-RASP web simulator does,
	// instead of refusing the word (words of one-character symbols only).
	Undeclared bool `json:"undeclared,omitempty"`
}

// RunResponse is the answer of POST /api/run: the paper's Figure-2 table
// of the program on the word, and the verdict.
type RunResponse struct {
	Alphabet []string `json:"alphabet"`
	// Word is the input, one symbol per entry.
	Word []string `json:"word"`
	// Vectors are the program's vectors in definition order.
	Vectors []VectorTrace `json:"vectors"`
	// AttentionDepth is the program's attention depth (§5.4).
	AttentionDepth int `json:"attentionDepth"`
	// Transducer is set for programs with output symbols.
	Transducer bool `json:"transducer"`
	// Accept is the acceptor's verdict (absent for transducers and the
	// empty word).
	Accept *bool `json:"accept,omitempty"`
	// OutputVector names the acceptor's output vector.
	OutputVector string `json:"outputVector,omitempty"`
	// Output is the transducer's output word, one symbol per position.
	Output []string `json:"output,omitempty"`
	// OutputError says why a transducer has no output word.
	OutputError string `json:"outputError,omitempty"`
	// Note explains a missing verdict or attention information.
	Note string `json:"note,omitempty"`
	// Undeclared lists the characters of the word read as undeclared
	// symbols (RunRequest.Undeclared).
	Undeclared []string `json:"undeclared,omitempty"`
}

// VectorTrace is one row of the table.
type VectorTrace struct {
	Name string `json:"name"`
	// Kind is symbol, predicate, position-wise or attention.
	Kind string `json:"kind"`
	// Line is the line of the definition in the source.
	Line  int `json:"line"`
	Depth int `json:"depth"`
	// Def is the definition as printed by brasp.Format.
	Def string `json:"def"`
	// Values is the vector as a string of 0s and 1s, one per position.
	Values string `json:"values"`
	// Attention is set for attention operations.
	Attention *AttentionTrace `json:"attention,omitempty"`
}

// AttentionTrace says which position an attention operation read at each
// position.
type AttentionTrace struct {
	Tiebreak string `json:"tiebreak"`
	Mask     string `json:"mask"`
	// Attended[i-1] is the 1-based position j_i attended to at position i,
	// or 0 when no unmasked position has score 1 (the default was used).
	// Omitted for words longer than the server's MaxAttendWord.
	Attended []int `json:"attended,omitempty"`
}

// loadProgram reads the program field of a request.
func loadProgram(b *budget.Budget, src string) (*artifact.Program, *apiError) {
	if strings.TrimSpace(src) == "" {
		return nil, badRequest("program", "program: the program is empty; declare the alphabet with Q_σ(i) lines (pick a preset to start)")
	}
	a, err := artifact.Load(b, "program.brasp", []byte(src), artifact.KindBRASP)
	if err != nil {
		return nil, sourceErrors("program", err)
	}
	return a.(*artifact.Program), nil
}

// parseWord reads a word over p's alphabet, within the length limit.
func (a *API) parseWord(alpha alphabet.Alphabet, word string) ([]int, *apiError) {
	w, err := alpha.ParseWord(word)
	if err != nil {
		return nil, badRequest("word", "word: %v (the simulator's reading of undeclared characters as all-zero symbols is an option of the page)", err)
	}
	if len(w) > a.cfg.MaxWord {
		return nil, badRequest("word", "word: %d symbols is more than the playground's limit of %d", len(w), a.cfg.MaxWord)
	}
	return w, nil
}

func (a *API) run(b *budget.Budget, req *RunRequest) (any, *apiError) {
	prog, e := loadProgram(b, req.Program)
	if e != nil {
		return nil, e
	}
	p := prog.Prog
	var w []int
	var undeclared []string
	if req.Undeclared {
		var err error
		if w, undeclared, err = brasp.ParseWordUndeclared(p.Alphabet, req.Word); err != nil {
			return nil, badRequest("word", "word: %v", err)
		}
		if len(w) > a.cfg.MaxWord {
			return nil, badRequest("word", "word: %d symbols is more than the playground's limit of %d", len(w), a.cfg.MaxWord)
		}
	} else if w, e = a.parseWord(p.Alphabet, req.Word); e != nil {
		return nil, e
	}
	n := len(w)
	if cells := len(p.Vectors) * n; cells > a.cfg.MaxCells {
		return nil, badRequest("word", "word: the table would have %d vectors × %d positions = %d cells, more than the playground's limit of %d; shorten the word", len(p.Vectors), n, cells, a.cfg.MaxCells)
	}
	if err := b.Step(int64(len(p.Vectors)) * int64(n)); err != nil {
		return nil, failed("word", "run", err)
	}
	t := p.Run(w)
	attOps := 0
	for _, v := range p.Vectors {
		if v.Kind == brasp.AttentionVector {
			attOps++
		}
	}
	showAttended := n <= a.cfg.MaxAttendWord && attOps*n*n <= attendBudget
	res := &RunResponse{
		Alphabet:       p.Alphabet,
		Word:           make([]string, n),
		AttentionDepth: p.AttentionDepth(),
		Transducer:     p.IsTransducer(),
		Undeclared:     undeclared,
	}
	var chars []rune // the characters of an undeclared reading
	if req.Undeclared {
		chars = []rune(strings.TrimSpace(req.Word))
	}
	for i, k := range w {
		if k == brasp.NoSymbol {
			res.Word[i] = string(chars[i])
		} else {
			res.Word[i] = p.Alphabet[k]
		}
	}
	for k, v := range p.Vectors {
		vt := VectorTrace{Name: v.Name, Kind: v.Kind.String(), Line: v.NamePos.Line, Depth: p.Depth(k), Def: brasp.FormatVector(v)}
		var values strings.Builder
		for i := 0; i < n; i++ {
			if t.Value(k, i) {
				values.WriteByte('1')
			} else {
				values.WriteByte('0')
			}
		}
		vt.Values = values.String()
		if v.Kind == brasp.AttentionVector {
			vt.Attention = &AttentionTrace{Tiebreak: v.Att.Tiebreak.String(), Mask: v.Att.Mask.Predicate()}
			if showAttended {
				vt.Attention.Attended = make([]int, n)
				for i := 0; i < n; i++ {
					vt.Attention.Attended[i] = Attended(t, k, i) + 1
				}
				if err := b.Step(int64(n) * int64(n)); err != nil {
					return nil, failed("word", "run", err)
				}
			}
		}
		res.Vectors = append(res.Vectors, vt)
	}
	if !showAttended {
		res.Note = "the word is too long for the playground to show which position each attention operation read"
	}
	switch {
	case n == 0:
		res.Note = "type a word: B-RASP reads non-empty words"
	case p.IsTransducer():
		out, err := t.Transduce()
		if err != nil {
			res.OutputError = err.Error()
		} else {
			for _, k := range out {
				res.Output = append(res.Output, p.Output.Symbols[k])
			}
		}
	default:
		acc := t.Accept()
		res.Accept = &acc
		res.OutputVector = p.Vectors[p.Output.Accept].Name
	}
	if !p.IsTransducer() {
		res.OutputVector = p.Vectors[p.Output.Accept].Name
	}
	return res, nil
}

// Attended returns the 0-based position j that attention vector k of the
// trace's program attended to at 0-based position i, or -1 when no position
// allowed by the mask has score 1 (the default was used). It scans from i
// outwards in the order the tie-break prefers, reading the trace's values,
// so it costs O(n) per query; for non-attention vectors it returns -1.
func Attended(t *brasp.Trace, k, i int) int {
	v := t.Prog.Vectors[k]
	if v.Kind != brasp.AttentionVector {
		return -1
	}
	a := v.Att
	score := func(j int) bool {
		return brasp.Eval(a.Score, func(vec int, x brasp.Var) bool {
			if x == brasp.VarJ {
				return t.Value(vec, j)
			}
			return t.Value(vec, i)
		})
	}
	n := t.N()
	lo, hi := 0, n-1 // the range of j the mask allows
	switch a.Mask {
	case position.MaskFuture:
		hi = i - 1
	case position.MaskFutureOrSelf:
		hi = i
	case position.MaskPast:
		lo = i + 1
	case position.MaskPastOrSelf:
		lo = i
	}
	if a.Tiebreak == position.Leftmost {
		for j := lo; j <= hi; j++ {
			if score(j) {
				return j
			}
		}
		return -1
	}
	for j := hi; j >= lo; j-- {
		if score(j) {
			return j
		}
	}
	return -1
}
