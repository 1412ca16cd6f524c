// Package examples holds brasp's example inputs — every example of the paper
// and one of each kind the B-RASP web simulator offers — embedded in the
// binary for the demo, the playground and tests, and generators for the
// paper's families: Dyck-k of depth D (§3.2) and STAIR_k (App. C).
package examples

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/position"
)

//go:embed *.brasp *.ltl *.dfa *.re
var files embed.FS

// FS is the example files, at the root of the file system.
var FS fs.FS = files

// Names lists the example B-RASP programs (.brasp files), sorted.
func Names() []string { return list(".brasp") }

// AllNames lists every example file of every kind (.brasp, .ltl, .dfa,
// .re), sorted.
func AllNames() []string { return list("") }

func list(ext string) []string {
	entries, _ := fs.ReadDir(files, ".")
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ext) {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// Source returns the text of an example file.
func Source(name string) ([]byte, error) { return fs.ReadFile(files, name) }

// MustProgram parses an embedded example program; it panics if the example
// is broken, which tests rule out.
func MustProgram(name string) *brasp.Program {
	src, err := Source(name)
	if err != nil {
		panic(err)
	}
	p, err := brasp.Parse(name, src)
	if err != nil {
		panic(err)
	}
	return p
}

// Programs parses every embedded example program (Names), keyed by file
// name, for tests that run something on all of them.
func Programs() (map[string]*brasp.Program, error) {
	out := map[string]*brasp.Program{}
	for _, name := range Names() {
		src, err := Source(name)
		if err != nil {
			return nil, err
		}
		p, err := brasp.Parse(name, src)
		if err != nil {
			return nil, err
		}
		out[name] = p
	}
	return out, nil
}

// Dyck is the paper's running example, Dyck-1 of depth 2.
const Dyck = "dyck1_depth2.brasp"

// bracketPairs are the bracket symbols of Dyck-k for k ≤ 4.
var bracketPairs = [][2]string{{"(", ")"}, {"[", "]"}, {"{", "}"}, {"<", ">"}}

// DyckAlphabet returns the alphabet of Dyck-k: for k = 1 the paper's l and r;
// for 2 ≤ k ≤ 4 the brackets ( ) [ ] { } < >; beyond that l1 r1 … lk rk.
// Opening bracket t has index 2t, its closing bracket 2t+1.
func DyckAlphabet(k int) alphabet.Alphabet {
	var syms []string
	for t := 0; t < k; t++ {
		switch {
		case k == 1:
			syms = append(syms, "l", "r")
		case k <= len(bracketPairs):
			syms = append(syms, bracketPairs[t][0], bracketPairs[t][1])
		default:
			syms = append(syms, fmt.Sprintf("l%d", t+1), fmt.Sprintf("r%d", t+1))
		}
	}
	a, _ := alphabet.New(syms...)
	return a
}

// DyckProgram generalises the paper's L_{1,2} program to Dyck-k of depth D
// (k ≥ 1 bracket types, nesting depth at most D ≥ 1), as §3.2 says is
// straightforward. Round t (1 ≤ t ≤ D) matches the pairs of height t: a
// position not yet matched is matched if it is an opening bracket whose next
// not-yet-matched position holds the corresponding closing bracket, or a
// closing bracket whose previous not-yet-matched position holds the
// corresponding opening bracket. A word is accepted iff every position is
// matched after D rounds. For k = 1, D = 2 this is the paper's program (its
// I is M_1 and its C is M_2). The program has 2kD + D + 1 operations and
// attention depth D + 1.
func DyckProgram(k, depth int) (*brasp.Program, error) {
	if k < 1 || depth < 1 {
		return nil, fmt.Errorf("need k ≥ 1 and D ≥ 1 for Dyck-k of depth D, got k = %d, D = %d", k, depth)
	}
	alpha := DyckAlphabet(k)
	b := brasp.NewBuilder(alpha)
	matched := -1 // M_{t-1}; -1 for M_0 = 0
	suffix := func(t int) string {
		if k == 1 {
			return alpha[2*t+1]
		}
		return fmt.Sprint(t + 1)
	}
	for round := 1; round <= depth; round++ {
		unmatched := brasp.Bool(true)
		var terms []brasp.Expr
		if matched >= 0 {
			terms = append(terms, b.I(matched))
		}
		for t := 0; t < k; t++ {
			open, close := b.SymbolVec(2*t), b.SymbolVec(2*t+1)
			if matched >= 0 {
				unmatched = brasp.Not(b.J(matched))
			}
			next := b.Attend(fmt.Sprintf("N%d_%s", round, suffix(t)), position.Leftmost, position.MaskPast, unmatched, b.J(close), brasp.Bool(false))
			prev := b.Attend(fmt.Sprintf("B%d_%s", round, openName(alpha, t, k)), position.Rightmost, position.MaskFuture, unmatched, b.J(open), brasp.Bool(false))
			terms = append(terms, brasp.And(b.I(open), b.I(next)), brasp.And(b.I(close), b.I(prev)))
		}
		matched = b.Positionwise(fmt.Sprintf("M%d", round), brasp.Or(terms...))
	}
	y := b.Attend("Y", position.Rightmost, position.MaskNone, brasp.Not(b.J(matched)), brasp.Bool(false), brasp.Bool(true))
	b.SetAccept(y)
	return b.Program()
}

func openName(alpha alphabet.Alphabet, t, k int) string {
	if k == 1 {
		return alpha[0]
	}
	return fmt.Sprint(t + 1)
}

// InDyck reports whether w is in Dyck-k of depth at most D, with a stack:
// the direct recognizer the generated programs are tested against. Symbols
// are as in DyckAlphabet. The empty word is in Dyck-k but not in Σ⁺.
func InDyck(w []int, depth int) bool {
	var stack []int
	for _, s := range w {
		if s%2 == 0 {
			stack = append(stack, s/2)
			if len(stack) > depth {
				return false
			}
			continue
		}
		if len(stack) == 0 || stack[len(stack)-1] != s/2 {
			return false
		}
		stack = stack[:len(stack)-1]
	}
	return len(stack) == 0
}

// StairAlphabet is the alphabet of STAIR_k: a, b, c.
var StairAlphabet, _ = alphabet.New("a", "b", "c")

// StairProgram returns a program for STAIR_k (App. C): the words over
// {a, b, c} that contain a^k after deleting the c's. A_t(i) says that a^t
// ends at i once the c's are deleted; each A_t attends to the nearest
// non-c position before i. Its attention depth is k (k-1 for the chain, one
// for "somewhere"), as the depth hierarchy of §5.4 needs.
func StairProgram(k int) (*brasp.Program, error) {
	if k < 1 {
		return nil, fmt.Errorf("STAIR_k needs k ≥ 1, got %d", k)
	}
	b := brasp.NewBuilder(StairAlphabet)
	qa, qb := b.SymbolVec(0), b.SymbolVec(1)
	prev := qa
	for t := 2; t <= k; t++ {
		prev = b.Attend(fmt.Sprintf("A_%d", t), position.Rightmost, position.MaskFuture,
			brasp.Or(b.J(qa), b.J(qb)), brasp.And(b.I(qa), b.J(prev)), brasp.Bool(false))
	}
	y := b.Attend("Y", position.Rightmost, position.MaskNone, b.J(prev), brasp.Bool(true), brasp.Bool(false))
	b.SetAccept(y)
	return b.Program()
}

// InStair reports whether w (over StairAlphabet) is in STAIR_k, directly.
func InStair(w []int, k int) bool {
	run := 0
	for _, s := range w {
		switch s {
		case 0:
			run++
			if run >= k {
				return true
			}
		case 1:
			run = 0
		}
	}
	return false
}

// Title returns the first comment line of an example, for menus.
func Title(name string) string {
	src, err := Source(name)
	if err != nil {
		return name
	}
	line, _, _ := strings.Cut(string(src), "\n")
	return strings.TrimSpace(strings.TrimPrefix(line, "#"))
}
