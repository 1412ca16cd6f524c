package depth

import (
	"errors"
	"hash/maphash"
	"math/rand/v2"

	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/internal/defaults"
)

// SearchOptions bound the certificate search of fragments with until, where
// no finite type automaton is built and certificates are looked for among
// concrete words.
type SearchOptions struct {
	// MaxWords is how many words of short-lex order are typed (all words up
	// to the length where the count is reached); 0 means 20,000.
	MaxWords int
	// Samples is how many random words are typed after them; 0 means
	// 5,000.
	Samples int
	// MaxLength is the longest random word; 0 means 64.
	MaxLength int
	// Seed makes the random words reproducible.
	Seed uint64
}

func (o SearchOptions) withDefaults() SearchOptions {
	defaults.Positive(&o.MaxWords, 20000)
	defaults.Positive(&o.Samples, 5000)
	defaults.Positive(&o.MaxLength, 64)
	return o
}

// collisions records, per word type, the first word in and out of the
// language seen with it. Word types are compared by a 64-bit hash of their
// canonical form (typeHash), so that nothing but the words is kept between
// words; a collision of hashes is re-checked exactly (Check) before it is
// reported, so a collision of the hash function cannot give a false
// certificate.
type collisions struct {
	lang    Language
	frag    Fragment
	k       int
	member  func([]int) (bool, error)
	seed    maphash.Seed
	in, out map[uint64][]int
}

// add types w and reports a certificate when w's type has been seen with the
// other verdict.
func (c *collisions) add(b *budget.Budget, w []int) (*Certificate, error) {
	tab := NewTable(b, c.lang.Atoms, c.frag)
	types, err := tab.WordTypes(b, w, c.k)
	if err != nil {
		return nil, err
	}
	t := tab.typeHash(c.seed, c.k, types[c.k][len(w)-1])
	acc, err := c.member(w)
	if err != nil {
		return nil, err
	}
	mine, other := c.in, c.out
	if !acc {
		mine, other = c.out, c.in
	}
	if _, ok := mine[t]; !ok {
		mine[t] = append([]int(nil), w...)
	}
	if v, ok := other[t]; ok {
		cert := &Certificate{In: mine[t], Out: v, Depth: c.k}
		if !acc {
			cert.In, cert.Out = v, mine[t]
		}
		if err := Check(b, c.lang, c.frag, cert.In, cert.Out, c.k); err != nil {
			if errors.Is(err, budget.ErrLimit) || errors.Is(err, budget.ErrStopped) {
				return nil, err
			}
			return nil, nil // a collision of the hash, not of the types
		}
		return cert, nil
	}
	return nil, nil
}

// searchCertificate looks for two words of one depth-k type, one in the
// language and one out: first the given seeds, then every word in short-lex
// order (so the first certificate found this way is among the shortest),
// then random words drawn with long runs of one letter, which is where
// types of deep formulas collide. Any certificate it returns is sound; not
// finding one proves nothing.
func searchCertificate(b *budget.Budget, lang Language, frag Fragment, k int, seeds [][]int, opts SearchOptions) (*Certificate, error) {
	opts = opts.withDefaults()
	c := &collisions{lang: lang, frag: frag, k: k, member: lang.member(), seed: maphash.MakeSeed(), in: map[uint64][]int{}, out: map[uint64][]int{}}
	for _, w := range seeds {
		if len(w) == 0 {
			continue
		}
		if cert, err := c.add(b, w); cert != nil || err != nil {
			return cert, err
		}
	}
	sigma := len(lang.Atoms.Alphabet)
	count := 0
	for n := 1; count < opts.MaxWords; n++ {
		w := make([]int, n)
		for {
			if cert, err := c.add(b, w); cert != nil || err != nil {
				return cert, err
			}
			count++
			if count >= opts.MaxWords || !nextWord(w, sigma) {
				break
			}
		}
	}
	rng := rand.New(rand.NewPCG(opts.Seed, 0x6465707468))
	for range opts.Samples {
		if cert, err := c.add(b, randomRuns(rng, sigma, 1+rng.IntN(opts.MaxLength))); cert != nil || err != nil {
			return cert, err
		}
	}
	return nil, nil
}

// nextWord advances w to the next word of its length in lexicographic
// order, reporting false after the last.
func nextWord(w []int, sigma int) bool {
	for i := len(w) - 1; i >= 0; i-- {
		if w[i]++; w[i] < sigma {
			return true
		}
		w[i] = 0
	}
	return false
}

// randomRuns draws a word of length n as runs of one letter with random
// lengths.
func randomRuns(rng *rand.Rand, sigma, n int) []int {
	w := make([]int, 0, n)
	for len(w) < n {
		a := rng.IntN(sigma)
		run := 1 + rng.IntN(1+rng.IntN(8))
		for r := 0; r < run && len(w) < n; r++ {
			w = append(w, a)
		}
	}
	return w
}
