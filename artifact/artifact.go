package artifact

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/brasp-dev/brasp/alphabet"
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
// accepts or rejects non-empty words.
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
	Load func(filename string, data []byte) (Artifact, error)
}

// Options are the settings of conversions, classification and equivalence.
// Converters read what concerns them and ignore the rest.
type Options struct {
	// Multihead selects the depth-preserving multi-head compilation (Thm C.4).
	Multihead bool
	// LayerNorm selects the layer-norm compilation of §4.3.
	LayerNorm bool
	// FutureOnly asks B-RASP output to use only rightmost strict
	// future-masked attention (Thm 5.1).
	FutureOnly bool
	// Smaller selects the decompiler's smaller (bitwise) translation instead
	// of the depth-preserving one.
	Smaller bool
	// Limit bounds exponential constructions (states, operations, formula
	// size); 0 means each construction's default.
	Limit int
	// NormalForm asks B-RASP output for a normal form of App. B (unary
	// values, unary scores or both); empty for none. See normalform.go.
	NormalForm NormalForm
	// Simplify asks B-RASP output to have constants folded and the
	// operations the output does not depend on removed (brasp.Simplify),
	// after any NormalForm.
	Simplify bool
}

// Converter turns an artifact into one of another kind.
type Converter func(a Artifact, opts Options) (Artifact, error)

var (
	kinds      = map[Kind]KindInfo{}
	converters = map[Kind]map[Kind]Converter{}
)

// Register adds a kind. It is called from init functions.
func Register(info KindInfo) {
	if _, dup := kinds[info.Kind]; dup {
		panic("artifact: kind registered twice: " + string(info.Kind))
	}
	kinds[info.Kind] = info
}

// RegisterConverter adds a conversion from one kind to another.
func RegisterConverter(from, to Kind, c Converter) {
	if converters[from] == nil {
		converters[from] = map[Kind]Converter{}
	}
	converters[from][to] = c
}

// Kinds lists the registered kinds, sorted.
func Kinds() []Kind {
	var out []Kind
	for k := range kinds {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
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
		exts = append(exts, kinds[k].Exts...)
	}
	return "", fmt.Errorf("%s: unknown file kind %q (known extensions: %s; or give --from KIND)", filename, ext, strings.Join(exts, " "))
}

// ParseKind checks a kind name given by a user.
func ParseKind(s string) (Kind, error) {
	if _, ok := kinds[Kind(s)]; ok {
		return Kind(s), nil
	}
	var names []string
	for _, k := range Kinds() {
		names = append(names, string(k))
	}
	return "", fmt.Errorf("unknown kind %q (known: %s)", s, strings.Join(names, ", "))
}

// Load parses data as kind; an empty kind is taken from the file extension.
func Load(filename string, data []byte, kind Kind) (Artifact, error) {
	if kind == "" {
		var err error
		if kind, err = KindOf(filename); err != nil {
			return nil, err
		}
	}
	info, ok := kinds[kind]
	if !ok {
		_, err := ParseKind(string(kind))
		return nil, err
	}
	return info.Load(filename, data)
}

// ErrNoConversion reports that no chain of converters leads between two
// kinds.
var ErrNoConversion = errors.New("no conversion")

// Convert turns a into an artifact of kind to, through the shortest chain of
// registered converters. Converting to the artifact's own kind returns it
// unchanged unless a converter from the kind to itself is registered (as the
// future-only normalisation of B-RASP is). B-RASP output then gets
// opts.NormalForm and opts.Simplify, whatever the input kind.
func Convert(a Artifact, to Kind, opts Options) (Artifact, error) {
	b, err := convert(a, to, opts)
	if err != nil {
		return nil, err
	}
	if to == KindBRASP {
		return normalize(b, opts)
	}
	return b, nil
}

// convert is Convert without the B-RASP normal forms.
func convert(a Artifact, to Kind, opts Options) (Artifact, error) {
	if a.Kind() == to {
		if c, ok := converters[to][to]; ok {
			return c(a, opts)
		}
		return a, nil
	}
	path := route(a.Kind(), to)
	if path == nil {
		return nil, fmt.Errorf("%w from %s to %s", ErrNoConversion, a.Kind(), to)
	}
	for k := 1; k < len(path); k++ {
		var err error
		if a, err = converters[path[k-1]][path[k]](a, opts); err != nil {
			return nil, fmt.Errorf("converting %s to %s: %w", path[k-1], path[k], err)
		}
	}
	return a, nil
}

// route finds a shortest path of converters by breadth-first search,
// preferring kinds in sorted order for determinism.
func route(from, to Kind) []Kind {
	prev := map[Kind]Kind{from: from}
	queue := []Kind{from}
	for len(queue) > 0 {
		k := queue[0]
		queue = queue[1:]
		if k == to {
			var path []Kind
			for ; k != from; k = prev[k] {
				path = append([]Kind{k}, path...)
			}
			return append([]Kind{from}, path...)
		}
		var next []Kind
		for n := range converters[k] {
			next = append(next, n)
		}
		sort.Slice(next, func(i, j int) bool { return next[i] < next[j] })
		for _, n := range next {
			if _, seen := prev[n]; !seen {
				prev[n] = k
				queue = append(queue, n)
			}
		}
	}
	return nil
}

// CanConvert reports whether some chain of converters leads from one kind to
// another.
func CanConvert(from, to Kind) bool { return from == to || route(from, to) != nil }

// limitHint adds how to raise the limit to err when err is one of the limits
// the CLI's --limit flag sets (named by the sentinel errors of limits), and
// returns err unchanged otherwise.
func limitHint(err error, limits ...error) error {
	for _, l := range limits {
		if errors.Is(err, l) {
			return fmt.Errorf("%w (raise it with --limit N)", err)
		}
	}
	return err
}
