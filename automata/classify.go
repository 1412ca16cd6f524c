package automata

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata/internal/transform"
	"github.com/brasp-dev/brasp/budget"
)

// CountingWitness shows that a word w "counts modulo k": in the minimal DFA,
// State·w^Period = State but State·w ≠ State. Prefix leads from the start to
// State and Suffix tells State and State·w apart, so u·w^n·v (u = Prefix,
// v = Suffix) is accepted or rejected periodically in n with period Period,
// and differently for n ≡ 0 and n ≡ 1: no star-free language does that.
type CountingWitness struct {
	Word   []int
	State  int
	Period int
	Prefix []int
	Suffix []int
	// AcceptedAtZero: u·w^n·v is accepted for n ≡ 0 (mod Period), and then
	// rejected for n ≡ 1, or the other way round.
	AcceptedAtZero bool
}

// StutterWitness shows that a language is not stutter-invariant: exactly one
// of u·a·v and u·a·a·v is accepted (u = Prefix, a = Symbol, v = Suffix).
type StutterWitness struct {
	Prefix  []int
	Symbol  int
	Suffix  []int
	Doubled bool // true: u·a·a·v is accepted and u·a·v rejected
}

// Classification says which of the paper's classes a regular language is in,
// each answer "no" carrying a witness that can be checked by running the DFA.
// The answers refer to Minimal, the minimal DFA; they hold for the language
// over Σ* and for its restriction to Σ⁺ alike (see the package comment).
type Classification struct {
	Minimal *DFA

	StarFree         bool             // aperiodic syntactic monoid (Schützenberger)
	NotStarFreeBy    *CountingWitness // when !StarFree
	StutterInvariant bool             // every symbol is idempotent: a ≡ aa
	NotStutterBy     *StutterWitness  // when !StutterInvariant
	AC0              bool             // quasi-aperiodic: the stable semigroup is aperiodic
	NotAC0By         *CountingWitness // when !AC0; Word has length StabilityIndex
	// AC0Undecided is set when the stable semigroup exceeded the budget's
	// monoid-bytes or monoid-work limit; then AC0 is false and NotAC0By nil,
	// and the other answers still hold.
	AC0Undecided   *budget.Error
	StabilityIndex int // s with T_s·T_s = T_s; 0 when not computed (star-free)
}

// Classify minimises d and decides whether its language is star-free,
// stutter-invariant and in AC0, with witnesses. Star-freeness is decided on
// the image orbit (every word that maps an image onto itself must fix it
// pointwise); AC0 on the stable semigroup T_s = η(Σ^s) of
// Barrington–Compton–Straubing–Thérien, computed only when the language is
// not star-free. The orbit runs under the budget's orbit-bytes limit and the
// stable semigroup under monoid-bytes and monoid-work; when only the AC0
// question exceeds its limits, the answer is marked AC0Undecided instead of
// failing. Any other budget error (a cancelled context, the work limit) is
// returned.
func Classify(b *budget.Budget, d *DFA) (*Classification, error) {
	if err := b.Err(); err != nil {
		return nil, err
	}
	m, err := Minimize(b, d)
	if err != nil {
		return nil, err
	}
	c := &Classification{Minimal: m, StutterInvariant: true}
	o, err := NewImageOrbit(b, m)
	if err != nil {
		return nil, err
	}
	c.NotStarFreeBy = o.CountingWitness()
	c.StarFree = c.NotStarFreeBy == nil
	c.NotStutterBy = stutterWitness(m)
	c.StutterInvariant = c.NotStutterBy == nil
	if c.StarFree {
		c.AC0 = true
		return c, nil
	}
	s, elems, words, err := stableSemigroup(b, m)
	var le *budget.Error
	if errors.As(err, &le) && (le.Limit == MonoidBytes || le.Limit == MonoidWork) {
		c.AC0Undecided = le
		return c, nil
	}
	if err != nil {
		return nil, err
	}
	c.StabilityIndex = s
	c.AC0 = true
	for i, t := range elems {
		if x := cyclePoint(t); x >= 0 {
			c.AC0 = false
			c.NotAC0By = countingWitness(m, words[i], t, x)
			break
		}
	}
	return c, nil
}

// countingWitness builds the witness for word w with transformation t and a
// state x on a cycle of t of length > 1.
func countingWitness(m *DFA, w, t []int, x int) *CountingWitness {
	// Walk x onto its cycle (x is on one already when it comes from a group).
	for range m.NumStates() {
		x = t[x]
	}
	suffix, _ := m.DistinguishingSuffix(x, t[x])
	prefix := m.ShortestWordTo()[x]
	return &CountingWitness{
		Word: w, State: x, Period: cycleLength(t, x), Prefix: prefix, Suffix: suffix,
		AcceptedAtZero: m.Accept[m.Run(x, suffix)],
	}
}

// stutterWitness returns a witness that some symbol is not idempotent in the
// minimal DFA m, or nil if every symbol is.
func stutterWitness(m *DFA) *StutterWitness {
	prefixes := m.ShortestWordTo()
	order := make([]int, m.NumStates())
	for q := range order {
		order[q] = q
	}
	slices.SortStableFunc(order, func(p, q int) int { return len(prefixes[p]) - len(prefixes[q]) })
	for _, q := range order {
		for a := range m.Alphabet {
			once := m.Delta[q][a]
			twice := m.Delta[once][a]
			if once != twice {
				v, _ := m.DistinguishingSuffix(once, twice)
				return &StutterWitness{Prefix: prefixes[q], Symbol: a, Suffix: v, Doubled: m.Accept[m.Run(twice, v)]}
			}
		}
	}
	return nil
}

// stableSemigroup computes T_1 = η(Σ), T_(k+1) = T_k·η(Σ) until the sequence
// of sets repeats, and returns the stability index s (the least multiple of
// the period that is at least the index where the repetition starts; then
// T_s·T_s = T_s) with the elements of T_s and a word of length s for each.
// Each T_k is remembered by a SHA-256 digest of its sorted elements; T_s is
// recomputed at the end. The two levels it holds at a time (elements, keys
// and words) are charged to monoid-bytes, and every composition to
// monoid-work: the sequence can be long (its index and period are not
// bounded by the size of one level).
func stableSemigroup(b *budget.Budget, m *DFA) (int, [][]int, [][]int, error) {
	n := m.NumStates()
	letters := m.letterMaps()
	type level struct {
		elems [][]int
		words [][]int
		bytes int64
	}
	mem := b.Meter(MonoidBytes, "the stable semigroup")
	work := b.Meter(MonoidWork, "the stable semigroup")
	first := level{}
	seen := map[string]bool{}
	for a, l := range letters {
		if k := transform.Key(l); !seen[k] {
			seen[k] = true
			first.elems = append(first.elems, l)
			first.words = append(first.words, []int{a})
			first.bytes += elementBytes(n, 1)
		}
	}
	if err := mem.Add(first.bytes); err != nil {
		return 0, nil, nil, err
	}
	step := func(cur level) (level, error) {
		next := level{}
		seen := map[string]bool{}
		for i, e := range cur.elems {
			for a, l := range letters {
				if err := work.Add(int64(n)); err != nil {
					return level{}, err
				}
				t := transform.Compose(e, l)
				if key := transform.Key(t); !seen[key] {
					seen[key] = true
					eb := elementBytes(n, len(cur.words[i])+1)
					if err := mem.Add(eb); err != nil {
						return level{}, err
					}
					next.bytes += eb
					next.elems = append(next.elems, t)
					next.words = append(next.words, append(slices.Clone(cur.words[i]), a))
				}
			}
		}
		return next, nil
	}
	seenLevel := map[[sha256.Size]byte]int{}
	cur := first
	for k := 1; ; k++ {
		keys := make([]string, len(cur.elems))
		for i, e := range cur.elems {
			keys[i] = transform.Key(e)
		}
		slices.Sort(keys)
		digest := sha256.Sum256([]byte(strings.Join(keys, "")))
		if start, ok := seenLevel[digest]; ok {
			period := k - start
			s := ((start + period - 1) / period) * period
			mem.Release(cur.bytes)
			ts := first
			for i := range s - 1 {
				next, err := step(ts)
				if err != nil {
					return 0, nil, nil, err
				}
				if i > 0 { // the first level stays charged
					mem.Release(ts.bytes)
				}
				ts = next
			}
			return s, ts.elems, ts.words, nil
		}
		seenLevel[digest] = k
		next, err := step(cur)
		if err != nil {
			return 0, nil, nil, err
		}
		if k > 1 {
			mem.Release(cur.bytes)
		}
		cur = next
	}
}

// TransformerVariant is one of the transformer variants of §5 of the paper,
// with the class of languages it recognises.
type TransformerVariant struct {
	Name       string
	Recognises bool
	Reason     string
	// Unknown, when not empty, says why the answer is not known (the
	// question it rests on exceeded a limit); Recognises is then false.
	Unknown string
}

// TransformerVariants says which masked hard-attention transformer variants
// recognise the language (over Σ⁺): strict masking without position
// embeddings recognises exactly the star-free languages (Thms 4.1–4.2, and
// future-masked rightmost attention suffices, Thm 5.1); non-strict masking
// exactly the stutter-invariant star-free ones (Thm 5.2); rational sinusoidal
// position embeddings exactly the regular languages in AC0 (Cor. 5.4).
func (c *Classification) TransformerVariants() []TransformerVariant {
	ac0 := TransformerVariant{Name: "strict masking, rational sinusoidal position embeddings", Recognises: c.AC0, Reason: "regular and in AC0 (§5.3, Cor. 5.4)"}
	if c.AC0Undecided != nil {
		ac0.Unknown = "whether it is in AC0 is unknown: " + c.AC0Undecided.Error()
	}
	return []TransformerVariant{
		{Name: "strict masking, no position embeddings", Recognises: c.StarFree, Reason: "star-free (§4, Thm 5.1)"},
		{Name: "non-strict masking, no position embeddings", Recognises: c.StarFree && c.StutterInvariant, Reason: "stutter-invariant and star-free (§5.2)"},
		ac0,
	}
}

// Format writes the classification as the CLI prints it: lines
// "star-free: yes/no", "stutter-invariant: yes/no", "ac0: yes/no",
// "dfa-states: N", each "no" followed by its witness, then one line per
// transformer variant.
func (c *Classification) Format() string {
	alpha := c.Minimal.Alphabet
	var b strings.Builder
	yes := func(v bool) string {
		if v {
			return "yes"
		}
		return "no"
	}
	fmt.Fprintf(&b, "star-free: %s\n", yes(c.StarFree))
	if w := c.NotStarFreeBy; w != nil {
		fmt.Fprintf(&b, "  witness: %s\n", w.describe(alpha, ""))
	}
	fmt.Fprintf(&b, "stutter-invariant: %s\n", yes(c.StutterInvariant))
	if w := c.NotStutterBy; w != nil {
		fmt.Fprintf(&b, "  witness: %s\n", w.Describe(alpha))
	}
	if c.AC0Undecided != nil {
		fmt.Fprintf(&b, "ac0: unknown (%v)\n", c.AC0Undecided)
	} else {
		fmt.Fprintf(&b, "ac0: %s\n", yes(c.AC0))
	}
	if w := c.NotAC0By; w != nil {
		fmt.Fprintf(&b, "  witness: %s\n", w.describe(alpha, fmt.Sprintf(" (|w| = %d, the stability index: w^n stays in the stable semigroup, where it generates a group of order %d)", c.StabilityIndex, w.Period)))
	}
	fmt.Fprintf(&b, "dfa-states: %d\n", c.Minimal.NumStates())
	for _, v := range c.TransformerVariants() {
		if v.Unknown != "" {
			fmt.Fprintf(&b, "transformer, %s: unknown (%s; it recognises the languages %s)\n", v.Name, v.Unknown, v.Reason)
			continue
		}
		fmt.Fprintf(&b, "transformer, %s: %s (%s)\n", v.Name, yes(v.Recognises), v.Reason)
	}
	return b.String()
}

// Describe says what the witness shows, in the words `brasp classify` uses:
// the word w, the period, u and v, and which of u·w^n·v are accepted.
func (w *CountingWitness) Describe(alpha alphabet.Alphabet) string { return w.describe(alpha, "") }

// Words returns u·w^Period·v and u·w^(Period+1)·v: two non-empty words that
// the language treats differently.
func (w *CountingWitness) Words() (atZero, atOne []int) {
	build := func(n int) []int {
		out := slices.Clone(w.Prefix)
		for range n {
			out = append(out, w.Word...)
		}
		return append(out, w.Suffix...)
	}
	return build(w.Period), build(w.Period + 1)
}

// Words returns u·a·v and u·a·a·v, and which of them is accepted.
func (w *StutterWitness) Words() (accepted, rejected []int) {
	single := append(append(slices.Clone(w.Prefix), w.Symbol), w.Suffix...)
	double := append(append(slices.Clone(w.Prefix), w.Symbol, w.Symbol), w.Suffix...)
	if w.Doubled {
		return double, single
	}
	return single, double
}

// Describe says what the witness shows, in the words `brasp classify` uses:
// u, a, v, and which of u·a·v and u·a·a·v is accepted.
func (w *StutterWitness) Describe(alpha alphabet.Alphabet) string {
	acc, rej := w.Words()
	return fmt.Sprintf("u = %s, a = %s, v = %s: %s is accepted, %s is rejected",
		ShowWord(alpha, w.Prefix), ShowWord(alpha, []int{w.Symbol}), ShowWord(alpha, w.Suffix), ShowWord(alpha, acc), ShowWord(alpha, rej))
}

func (w *CountingWitness) describe(alpha alphabet.Alphabet, extra string) string {
	at0, at1 := "accepted", "rejected"
	if !w.AcceptedAtZero {
		at0, at1 = at1, at0
	}
	return fmt.Sprintf("w = %s counts modulo %d%s: with u = %s and v = %s, u·w^n·v is %s for n ≡ 0 and %s for n ≡ 1 (mod %d)",
		ShowWord(alpha, w.Word), w.Period, extra, ShowWord(alpha, w.Prefix), ShowWord(alpha, w.Suffix), at0, at1, w.Period)
}

// ShowWord writes w for messages: quoted in the CLI convention, or ε.
// A word whose symbols are quoted already (a symbol such as a valuation
// "{p,q}" that cannot be written bare) is shown as the CLI reads it, not
// quoted a second time.
func ShowWord(alpha alphabet.Alphabet, w []int) string {
	if len(w) == 0 {
		return "ε"
	}
	text := alpha.FormatWord(w)
	if strings.ContainsRune(text, '"') {
		return text
	}
	return strconv.Quote(text)
}
