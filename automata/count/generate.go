package count

import (
	"encoding/binary"
	"fmt"
	"math/big"
	"math/rand/v2"

	"github.com/brasp-dev/brasp/budget"
)

// AllWords bounds the words Enumerate lists (brasp sample --all).
var AllWords = budget.Define("all-words", 1<<24, "words",
	"words that sample --all lists (every word of every length asked)")

// Mode is how Generate chooses the words of a length.
type Mode int

const (
	// Uniform draws uniformly among all words of the length, each
	// labelled by the automaton.
	Uniform Mode = iota
	// Balanced draws half the words (the odd one on a side chosen at
	// random, so that --count 1 is balanced over the lengths) uniformly among
	// the accepted words and half among the rejected, in a random order;
	// a length where one side has no word (or, distinct, too few) gets
	// the rest from the other side, and Generate says so.
	Balanced
	// OnlyAccept and OnlyReject draw uniformly among the words of one
	// side; a length where that side has none is left out, and Generate
	// says so.
	OnlyAccept
	OnlyReject
)

// Request is what Generate draws: Count words of every length from Min to
// Max (1 ≤ Min ≤ Max ≤ the table's Max), chosen by Mode, with
// replacement, or, Distinct, without (an error when a length has fewer
// words than asked), from a random source seeded by Seed and the length:
// the words of a length do not depend on the other lengths asked.
type Request struct {
	Min, Max int
	Count    int
	Mode     Mode
	Distinct bool
	Seed     uint64
}

// NewRand is the random source of a seed: PCG, so a seed gives the same
// draws on every platform.
func NewRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seedStream)) }

// seedStream is the second word of the PCG state, fixed so that one seed
// gives one stream.
const seedStream = 0x62726173702d7321

// lengthSource is the random source of the words of one length: ChaCha8
// keyed by the seed and the length, so that the words of a length depend
// on the seed and the length alone, not on which other lengths are
// drawn (a training and a test range drawn with one seed agree where
// they overlap), and the lengths' streams are independent.
func lengthSource(seed uint64, n int) *rand.ChaCha8 {
	var key [32]byte
	binary.LittleEndian.PutUint64(key[0:], seed)
	binary.LittleEndian.PutUint64(key[8:], uint64(n))
	copy(key[16:], "brasp sample")
	return rand.NewChaCha8(key)
}

// Generate draws the words of r from t's automaton, length by length,
// calling emit with each word (its letters, valid until emit returns) and
// whether the automaton accepts it, and note with what it should tell the
// user (a length with no word of a side). Every draw is charged to the
// budget's work, so a cancelled budget stops it.
func Generate(b *budget.Budget, t *Table, r Request, emit func(w []uint64, accepted bool) error, note func(string)) error {
	if r.Min < 1 || r.Max < r.Min || r.Max > t.max {
		return fmt.Errorf("lengths %d:%d outside the table's 1:%d", r.Min, r.Max, t.max)
	}
	sp, err := t.Sampler(b, rand.New(lengthSource(r.Seed, r.Min)))
	if err != nil {
		return err
	}
	g := &generator{b: b, sp: sp, emit: emit, meter: t.meter}
	for n := r.Min; n <= r.Max; n++ {
		if err := g.length(r, n, note); err != nil {
			return err
		}
	}
	return nil
}

// generator draws the words of one request.
type generator struct {
	b     *budget.Budget
	sp    *Sampler
	emit  func([]uint64, bool) error
	w     []uint64
	seen  map[string]bool // the words of this length drawn so far, when distinct
	key   []byte
	meter *budget.Meter // the table's
	held  int64         // what seen holds, charged to meter
}

// length draws the words of length n.
func (g *generator) length(r Request, n int, note func(string)) error {
	t := g.sp.t
	g.sp.rng = rand.New(lengthSource(r.Seed, n)) // each length its own stream
	if r.Distinct {
		g.meter.Release(g.held)
		g.held = 0
		g.seen = map[string]bool{}
	}
	count := uint64(r.Count)
	var acc, rej uint64 // how many of each side, for the modes that choose
	switch r.Mode {
	case Uniform:
		if r.Distinct {
			if total := t.Total(n); total.Cmp(new(big.Int).SetUint64(count)) < 0 {
				return fmt.Errorf("length %d has %s: --distinct cannot draw %d", n, words(total, ""), count)
			}
		}
		for range count {
			if err := g.draw(n, r.Distinct, func() ([]uint64, bool) { return g.sp.DrawAny(n, g.w[:0]) }); err != nil {
				return err
			}
		}
		return nil
	case OnlyAccept:
		acc = count
	case OnlyReject:
		rej = count
	case Balanced:
		acc, rej = count/2, count/2
		if count%2 == 1 {
			if g.sp.rng.Uint64()&1 == 0 {
				acc++
			} else {
				rej++
			}
		}
	}
	have := [2]*big.Int{t.Words(Accept, n), t.Words(Reject, n)}
	want := [2]*uint64{&acc, &rej}
	for s := Accept; s <= Reject; s++ {
		if *want[s] == 0 || have[s].Sign() != 0 {
			continue
		}
		if r.Mode != Balanced {
			note(fmt.Sprintf("length %d: no %sed word; none drawn", n, s))
			return nil
		}
		note(fmt.Sprintf("length %d: no %sed word; all %d drawn are %sed", n, s, count, 1-s))
		*want[1-s] += *want[s]
		*want[s] = 0
	}
	if r.Distinct {
		for s := Accept; s <= Reject; s++ {
			if have[s].Cmp(new(big.Int).SetUint64(*want[s])) >= 0 {
				continue
			}
			short := have[s].Uint64()
			if r.Mode != Balanced {
				return fmt.Errorf("length %d has %s: --distinct cannot draw %d", n, words(have[s], s.String()+"ed "), count)
			}
			if total := new(big.Int).Add(have[0], have[1]); total.Cmp(new(big.Int).SetUint64(count)) < 0 {
				return fmt.Errorf("length %d has %s: --distinct cannot draw %d", n, words(total, ""), count)
			}
			note(fmt.Sprintf("length %d: only %s; %d %sed drawn", n, words(have[s], s.String()+"ed "), count-short, 1-s))
			*want[1-s] += *want[s] - short
			*want[s] = short
		}
	}
	// A random order of the sides: each word accepted with the chance of
	// the accepted words still to draw.
	for acc+rej > 0 {
		s := Reject
		if g.sp.rng.Uint64N(acc+rej) < acc {
			s = Accept
			acc--
		} else {
			rej--
		}
		if err := g.draw(n, r.Distinct, func() ([]uint64, bool) {
			w, _ := g.sp.Draw(s, n, g.w[:0])
			return w, s == Accept
		}); err != nil {
			return err
		}
	}
	return nil
}

// draw draws a word with next, again while it was drawn before when
// distinct, and emits it.
func (g *generator) draw(n int, distinct bool, next func() ([]uint64, bool)) error {
	for {
		w, acc := next()
		g.w = w
		if err := g.b.Step(int64(n)); err != nil {
			return err
		}
		if distinct {
			g.key = g.key[:0]
			for _, l := range w {
				g.key = binary.AppendUvarint(g.key, l)
			}
			if g.seen[string(g.key)] {
				continue
			}
			g.seen[string(g.key)] = true
			g.held += int64(len(g.key)) + 48
			if err := g.meter.Add(int64(len(g.key)) + 48); err != nil {
				return err
			}
		}
		return g.emit(w, acc)
	}
}

// Enumerate calls emit with every word of every length from lo to hi,
// shortest first and in the order of the letters within a length (the
// word valid until emit returns), and whether the automaton accepts it.
// The number of words is checked against the all-words limit first.
func (a *Automaton) Enumerate(b *budget.Budget, lo, hi int, emit func(w []uint64, accepted bool) error) error {
	if a.canSample != nil {
		return a.canSample
	}
	total := new(big.Int)
	for n := lo; n <= hi; n++ {
		total.Add(total, new(big.Int).Exp(&a.letters, big.NewInt(int64(n)), nil))
	}
	need := int64(1<<63 - 1)
	if total.IsInt64() {
		need = total.Int64()
	}
	if err := b.Check(AllWords, need, fmt.Sprintf("the list of every word of lengths %d to %d", lo, hi)); err != nil {
		return err
	}
	for n := lo; n <= hi; n++ {
		if err := a.enumerate(b, n, emit); err != nil {
			return err
		}
	}
	return nil
}

// enumerate lists the words of length n: an odometer over the letters,
// keeping the state after each prefix so that a word costs the letters
// that changed.
func (a *Automaton) enumerate(b *budget.Budget, n int, emit func(w []uint64, accepted bool) error) error {
	last := a.letters.Uint64() - 1
	w := make([]uint64, n)
	qs := make([]int, n+1)
	qs[0] = a.start
	for i := range n {
		qs[i+1] = a.step(qs[i], 0)
	}
	for {
		if err := b.Step(int64(n)); err != nil {
			return err
		}
		if err := emit(w, a.accept[qs[n]]); err != nil {
			return err
		}
		i := n - 1
		for i >= 0 && w[i] == last {
			w[i] = 0
			i--
		}
		if i < 0 {
			return nil
		}
		w[i]++
		for j := i; j < n; j++ {
			qs[j+1] = a.step(qs[j], w[j])
		}
	}
}

// words is "1 word" or "n words", with what said between.
func words(n *big.Int, what string) string {
	if n.Cmp(big.NewInt(1)) == 0 {
		return "1 " + what + "word"
	}
	return n.String() + " " + what + "words"
}
