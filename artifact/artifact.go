package artifact

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/budget"
)

// Kind names a representation. Its string is what users write after --to
// and --from.
type Kind string

// The kinds brasp knows.
const (
	KindBRASP       Kind = "brasp"
	KindLTL         Kind = "ltl"
	KindDFA         Kind = "dfa"
	KindRegex       Kind = "re"
	KindTransformer Kind = "transformer"
)

// Artifact is a loaded input of any kind: something with an alphabet that
// accepts or rejects non-empty words. The artifacts of this package are
// *Program, *Formula, *DFA, *Regex and *Transformer, one per kind, each
// holding its representation's central type.
type Artifact interface {
	// Kind is the artifact's representation.
	Kind() Kind
	// Alphabet is the input alphabet.
	Alphabet() alphabet.Alphabet
	// Accepts runs the artifact on a non-empty word of symbol indices.
	Accepts(w []int) (bool, error)
	// Format writes the artifact in its own text format (what `convert`
	// prints).
	Format() ([]byte, error)
}

// Transducer is implemented by artifacts that map each word to an output
// word of the same length (B-RASP programs with output symbols).
type Transducer interface {
	IsTransducer() bool
	Transduce(w []int) ([]int, alphabet.Alphabet, error)
}

// Tracer is implemented by artifacts that can show their computation on a
// word as a Figure-2-style table, and as named Boolean vectors for JSON.
type Tracer interface {
	Table(w []int) (string, error)
	Vectors(w []int) (names []string, values [][]bool, err error)
}

// Inspector is implemented by artifacts with a structural description
// (brasp inspect).
type Inspector interface {
	Inspect() string
}

// Encoder is implemented by artifacts with several file encodings; Encode
// picks one by the output file's name (for example .json or .safetensors).
type Encoder interface {
	Encode(filename string) ([]byte, error)
}

// KindInfo describes how to load a kind.
type KindInfo struct {
	Kind Kind
	// Exts are the file extensions of the kind, with the dot.
	Exts []string
	// Load parses a file's contents; filename is for error messages.
	Load func(b *budget.Budget, filename string, data []byte) (Artifact, error)
}

// Kinds lists the kinds, sorted.
func Kinds() []Kind {
	out := make([]Kind, len(kinds))
	for i, info := range kinds {
		out[i] = info.Kind
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func kindInfo(k Kind) (KindInfo, bool) {
	for _, info := range kinds {
		if info.Kind == k {
			return info, true
		}
	}
	return KindInfo{}, false
}

// KindOf returns the kind of a file from its extension.
func KindOf(filename string) (Kind, error) {
	ext := strings.ToLower(filepath.Ext(filename))
	for _, info := range kinds {
		for _, e := range info.Exts {
			if e == ext {
				return info.Kind, nil
			}
		}
	}
	var exts []string
	for _, k := range Kinds() {
		info, _ := kindInfo(k)
		exts = append(exts, info.Exts...)
	}
	return "", fmt.Errorf("%s: unknown file kind %q (known extensions: %s; or give --from KIND)", filename, ext, strings.Join(exts, " "))
}

// ParseKind checks a kind name given by a user.
func ParseKind(s string) (Kind, error) {
	if _, ok := kindInfo(Kind(s)); ok {
		return Kind(s), nil
	}
	var names []string
	for _, k := range Kinds() {
		names = append(names, string(k))
	}
	return "", fmt.Errorf("unknown kind %q (known: %s)", s, strings.Join(names, ", "))
}

// Load parses data as kind; an empty kind is taken from the file extension.
// Data larger than the kind's size limit (InputLimit) is refused. Loading a
// regular expression builds its minimal DFA under b.
func Load(b *budget.Budget, filename string, data []byte, kind Kind) (Artifact, error) {
	if kind == "" {
		var err error
		if kind, err = KindOf(filename); err != nil {
			return nil, err
		}
	}
	info, ok := kindInfo(kind)
	if !ok {
		_, err := ParseKind(string(kind))
		return nil, err
	}
	if err := CheckSize(b, InputLimit(kind), int64(len(data)), "input file "+filename); err != nil {
		return nil, err
	}
	return info.Load(b, filename, data)
}

// An Edge is one entry of the conversion table: a construction from one kind
// to another, or a chain of constructions written out.
type Edge struct {
	From, To Kind
	// Via lists the kinds a chain passes through, in order; empty for a
	// single construction.
	Via []Kind
	// Funcs names the Go function of each construction, in order.
	Funcs []string
	// Refs says which result of the paper (or which algorithm) each
	// construction is, in order.
	Refs []string
	// Options names, for each construction in order, the field of Options
	// it reads and that field's type ("Compile compile.Options").
	Options []string

	run func(b *budget.Budget, a Artifact, opts *Options) (Artifact, error)
	// steps are a chain's single constructions, in order; nil for one.
	steps []Edge
}

// step makes the edge of one construction f from kind from to kind to, with
// its options taken from the field of Options that opt selects (field is its
// name, for listings).
func step[F, T Artifact, O any](from, to Kind, ref string, f func(*budget.Budget, F, O) (T, error), field string, opt func(*Options) O) Edge {
	name := runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
	name = name[strings.LastIndexByte(name, '.')+1:]
	return Edge{
		From: from, To: to,
		Funcs:   []string{name},
		Refs:    []string{ref},
		Options: []string{field + " " + reflect.TypeOf(opt(&Options{})).String()},
		run: func(b *budget.Budget, a Artifact, opts *Options) (Artifact, error) {
			if s, isSym := a.(*SymbolicDFA); isSym {
				if _, wantsLetters := any((*DFA)(nil)).(F); wantsLetters {
					// A symbolic DFA (MONA's output) enters the letter-based
					// constructions over its valuation letters.
					d, err := s.Letters(b)
					if err != nil {
						return nil, err
					}
					a = d
				}
			}
			in, ok := a.(F)
			if !ok {
				return nil, fmt.Errorf("%s → %s: want %s, have %T (wrap values with the constructors of package artifact)", from, to, reflect.TypeOf((*F)(nil)).Elem(), a)
			}
			if err := b.Err(); err != nil {
				return nil, err
			}
			out, err := f(b, in, opt(opts))
			if err != nil {
				return nil, err
			}
			return out, nil
		},
	}
}

// chain makes the edge that runs es in order; each must start where the
// previous one ends; a chain among es is run as its own steps, so an error
// names the one construction that failed, once.
func chain(es ...Edge) Edge {
	var flat []Edge // a chain in es contributes its own steps
	for _, e := range es {
		if e.steps != nil {
			flat = append(flat, e.steps...)
		} else {
			flat = append(flat, e)
		}
	}
	c := Edge{From: flat[0].From, To: flat[len(flat)-1].To, steps: flat}
	for i, e := range flat {
		if i > 0 {
			if e.From != flat[i-1].To {
				panic(fmt.Sprintf("artifact: chain %s → %s then %s → %s", flat[i-1].From, flat[i-1].To, e.From, e.To))
			}
			c.Via = append(c.Via, e.From)
		}
		c.Funcs = append(c.Funcs, e.Funcs...)
		c.Refs = append(c.Refs, e.Refs...)
		c.Options = append(c.Options, e.Options...)
	}
	c.run = func(b *budget.Budget, a Artifact, opts *Options) (Artifact, error) {
		for _, e := range flat {
			var err error
			if a, err = e.run(b, a, opts); err != nil {
				return nil, fmt.Errorf("converting %s to %s: %w", e.From, e.To, err)
			}
		}
		return a, nil
	}
	return c
}

// Edges lists the conversion table: every pair of distinct kinds Convert
// converts between, with the constructions it runs.
func Edges() []Edge { return append([]Edge(nil), edges...) }

// edge looks up the table's edge from one kind to another.
func edge(from, to Kind) (Edge, bool) {
	for _, e := range edges {
		if e.From == from && e.To == to {
			return e, true
		}
	}
	return Edge{}, false
}

// ErrNoConversion reports that the table has no edge between two kinds.
var ErrNoConversion = errors.New("no conversion")

// Convert turns a into an artifact of kind to by the table's edge between
// their kinds. Converting to the artifact's own kind returns it unchanged,
// except that B-RASP output, whatever the input kind, then gets
// opts.BRASP (Theorem 5.1, a normal form, simplification): see
// BRASPOptions. With opts.Masks set, output in ltl, brasp or transformer is
// Theorem 5.2's instead, by the edges of maskedEdges (table.go).
func Convert(b *budget.Budget, a Artifact, to Kind, opts Options) (Artifact, error) {
	if opts.Masks != 0 && (to == KindLTL || to == KindBRASP || to == KindTransformer) {
		return convertMasked(b, a, to, opts)
	}
	if a.Kind() != to {
		e, ok := edge(a.Kind(), to)
		if !ok {
			return nil, fmt.Errorf("%w from %s to %s", ErrNoConversion, a.Kind(), to)
		}
		var err error
		if a, err = e.run(b, a, &opts); err != nil {
			return nil, err
		}
	}
	if to == KindBRASP {
		p, ok := a.(*Program)
		if !ok {
			return nil, fmt.Errorf("brasp: want *artifact.Program, have %T", a)
		}
		return finishProgram(b, p, opts)
	}
	return a, nil
}

// CanConvert reports whether the table converts one kind into another.
func CanConvert(from, to Kind) bool {
	_, ok := edge(from, to)
	return from == to || ok
}
