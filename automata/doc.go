// Package automata holds brasp's finite automata: complete deterministic
// automata (the central type DFA) over an alphabet.Alphabet, the `.dfa` text
// format, JSON and DOT, Hopcroft minimisation, Boolean products, language
// equivalence with a shortest distinguishing word, nondeterministic automata
// with the subset construction, the transition monoid, the classification of
// a regular language (star-free, stutter-invariant, AC0) with checkable
// witnesses, and the image orbit that the aperiodicity test and the
// Krohn–Rhodes decomposition (package automata/krohnrhodes) share.
//
// # The empty word
//
// A DFA reads words of Σ*: it accepts the empty word ε iff its start state is
// accepting. The rest of brasp (B-RASP, LTL, transformers) reads only non-empty
// words (Σ⁺), so comparisons against those representations use the domain
// SigmaPlus of Compare, which ignores ε. The classification properties
// (aperiodicity, stutter invariance, quasi-aperiodicity) are unchanged by
// adding or removing ε from a language, because {ε} and Σ⁺ are star-free and
// stutter invariance only speaks of non-empty words; so the classification of
// L holds for L ∩ Σ⁺, the language a B-RASP program can recognise.
//
// # Equivalence
//
// One breadth-first search of the product of two automata finds a shortest
// word (first in short-lex order) on which they disagree; everything that
// compares languages calls it. Compare runs it on two DFAs over one
// alphabet; CompareAligned first puts both on the merged alphabet (Align:
// a symbol one side does not know leads it to a rejecting sink), which is
// what exact.Equivalent and `brasp equiv` use; DistinguishingSuffix runs it
// on two states of one DFA, for the witnesses of Classify and the holonomy
// decomposition. The search charges every pair it reaches to the
// product-bytes limit.
//
// # Limits
//
// Constructions that can blow up exponentially (subset construction, image
// orbits, monoids) take a *budget.Budget first and charge what they keep, in
// bytes, to the limits of limit.go (SubsetBytes, OrbitBytes, MonoidBytes,
// MonoidWork), and their work to b.Step; past a limit, or when the budget's
// context is cancelled, they stop with the budget's error, which names the
// limit and how to raise it (--limit NAME=N). Minimize needs no budget: it
// is O(k·n·log n) in the automaton it is given.
package automata
