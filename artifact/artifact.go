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

// Extensions returns the file extensions of kind k, with the dot (none for
// a kind known by its contents).
func Extensions(k Kind) []string {
	info, _ := kindInfo(k)
	return info.Exts
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

// An Edge is one entry of the conversion table as Edges lists it: a
// construction from one kind to another, or a route of several written out.
type Edge struct {
	From, To Kind
	// Via lists the kinds a route passes through, in order; empty for a
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

	// A single construction (made by step) runs with run; its Funcs and
	// Options entries come from names, called only for listings: naming a
	// function (runtime.FuncForPC) and a type (reflect) for every edge when
	// the program starts was a tenth of a small conversion's start-up.
	ref   string
	run   func(b *budget.Budget, a Artifact, opts *Options) (Artifact, error)
	names func() (fn, options string)
}

// step makes the edge of one construction f from kind from to kind to, with
// its options taken from the field of Options that opt selects (field is its
// name, for listings).
func step[F, T Artifact, O any](from, to Kind, ref string, f func(*budget.Budget, F, O) (T, error), field string, opt func(*Options) O) Edge {
	return Edge{
		From: from, To: to,
		ref: ref,
		names: func() (string, string) {
			name := runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
			return name[strings.LastIndexByte(name, '.')+1:], field + " " + reflect.TypeOf(opt(&Options{})).String()
		},
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

// A route is one entry of the conversion table: the constructions (edges
// made by step) that Convert runs in order, each starting where the
// previous one ends (TestTableComplete checks that). A table of routes is
// pointers to package variables only, which the linker lays out as data:
// it costs the program's start-up nothing.
type route []*Edge

func (r route) from() Kind { return r[0].From }
func (r route) to() Kind   { return r[len(r)-1].To }

// run runs the route's constructions in order; in a route of several, an
// error names the one construction that failed, once.
func (r route) run(b *budget.Budget, a Artifact, opts *Options) (Artifact, error) {
	if len(r) == 1 {
		return r[0].run(b, a, opts)
	}
	for _, e := range r {
		var err error
		if a, err = e.run(b, a, opts); err != nil {
			return nil, fmt.Errorf("converting %s to %s: %w", e.From, e.To, err)
		}
	}
	return a, nil
}

// edge is the route as Edges lists it.
func (r route) edge() Edge {
	e := Edge{From: r.from(), To: r.to()}
	for i, s := range r {
		if i > 0 {
			e.Via = append(e.Via, s.From)
		}
		fn, opts := s.names()
		e.Funcs = append(e.Funcs, fn)
		e.Refs = append(e.Refs, s.ref)
		e.Options = append(e.Options, opts)
	}
	return e
}

// Edges lists the conversion table: every pair of distinct kinds Convert
// converts between, with the constructions it runs.
func Edges() []Edge { return listing(edges) }

// listing is the Edges of a table of routes.
func listing(rs []route) []Edge {
	es := make([]Edge, len(rs))
	for i, r := range rs {
		es[i] = r.edge()
	}
	return es
}

// lookup finds the route of rs from one kind to another.
func lookup(rs []route, from, to Kind) (route, bool) {
	for _, r := range rs {
		if r.from() == from && r.to() == to {
			return r, true
		}
	}
	return nil, false
}

// edge looks up the table's route from one kind to another.
func edge(from, to Kind) (route, bool) { return lookup(edges, from, to) }

// ErrNoConversion reports that the table has no edge between two kinds.
var ErrNoConversion = errors.New("no conversion")

// Convert turns a into an artifact of kind to by the table's edge between
// their kinds. Converting to the artifact's own kind returns it unchanged,
// except that B-RASP output, whatever the input kind, then gets
// opts.BRASP (Theorem 5.1, a normal form, simplification): see
// BRASPOptions. With opts.Masks set, output in ltl, brasp or transformer is
// Theorem 5.2's instead, by the edges of maskedEdges (table.go).
func Convert(b *budget.Budget, a Artifact, to Kind, opts Options) (Artifact, error) {
	if f, ok := a.(*LTLf); ok && f.F.EmptyTrace && f.F.EvalEmpty() && (to == KindLTL || to == KindBRASP || to == KindTransformer) {
		what := map[Kind]string{KindLTL: "an LTL formula", KindBRASP: "a B-RASP program", KindTransformer: "a transformer"}[to]
		return nil, fmt.Errorf("the formula holds on the empty trace (semantics empty_trace), and %s reads non-empty traces only: convert --to dfa keeps the empty trace, or drop the semantics line to read the formula on non-empty traces", what)
	}
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
	if from == to {
		return true
	}
	_, ok := edge(loadsAs(from), to)
	return loadsAs(from) == to || ok
}
