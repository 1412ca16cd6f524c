// Package learn is active automata learning: the minimal DFA of a
// language known only through a teacher that answers membership queries
// (is this word accepted?) and equivalence queries (is this hypothesis
// right? if not, a word on which it is wrong).
//
// The pieces are small and separate: a Membership oracle answers a batch of
// words (optionally a verdict per prefix, what a causal model computes in
// one pass); a Cache in front of it never asks a word twice, never asks the
// empty word (brasp's languages are sets of non-empty words; the empty word
// counts as rejected) and counts what is sent (Stats); an Equivalence
// oracle is exact (DFATeacher) or a conformance test.
//
// # The algorithm
//
// Learner is Kearns–Vazirani's discrimination-tree learner with
// Rivest–Schapire counterexample processing, with two changes that make it
// cheap in words when the teacher answers per prefix:
//
//   - The key of a word u at an inner node with test t is the vector of
//     verdicts on u·t' for every prefix t' of t (one query), so nodes branch
//     many ways, and a transition whose key has no child yet is a new state
//     found without an equivalence query.
//   - Every test is the suffix Rivest–Schapire finds followed by Tail random
//     letters: the extra verdicts come with the same query and tell states
//     apart sooner (shallower trees, fewer rounds).
//
// One round sifts all pending transitions level by level, one batch per
// level. A counterexample w costs ⌈log₂|w|⌉ queries (binary search for the
// index where the access word of the hypothesis state stops agreeing) and
// is used again until the hypothesis agrees with it. With n states and k
// letters the learner needs at most n−1 counterexamples, and asks at most
// n·k·h + n·⌈log₂ m⌉ words (h the height of the tree, at most n; m the
// longest counterexample); on random DFAs h stays small.
//
// Why this and not L*, L# or TTT: measured on random minimal DFAs from
// exact teachers (BenchmarkLearnExact; AALpy on the same kind of targets),
// tails of 16 letters take the distinct words asked from 2,365 to about
// 750 on 100 states over 4 letters (AALpy's L# asks about 1,530 there) and
// from 15,612 to about 3,400 on 500 states (AALpy's L#: about 3,350), at
// the speed of a discrimination tree, where an observation tree's
// apartness checks grow quadratically. Without prefix answers (a teacher
// answering one verdict per word) tails buy nothing and are not used: the
// learner is then plain KV with Rivest–Schapire.
//
// Growth (BenchmarkLearnExact, exact teacher, one run each; seconds of
// wall time on a loaded machine, words asked, equivalence rounds):
//
//	states  letters  seconds   words  rounds
//	   100      2      0.001     337      26
//	   100     10      0.009   1,701      25
//	 1,000      4      0.12    6,981     247
//	 1,000     10      0.28   17,085     256
//	 3,000     10      0.89   51,647     746
//	10,000      2      1.5    36,901   2,368
//	10,000     10      4.7   176,280   2,293
//
// Words grow as about 1.7·n·k, rounds as n/4. The 10,000-state run over 10
// letters used 1.4 s of CPU and 120 MB of cached answers (peak RSS 245
// MB). The exact teacher (DFATeacher) costs O(n·k) array look-ups a
// round, not a product search.
//
// # Black boxes
//
// Conformance is the equivalence oracle of a teacher known only by
// membership, cheapest stage first: the words already answered (a
// counterexample among them costs nothing), every short word and every
// transition followed by its target's tests, random words drawn in
// doubling batches (uniform walks from access words, and short loops
// around the states found last, which find the next state of a counter or
// a bounded Dyck language that uniform words never reach), optionally the
// HSI suite for extra states and Angluin's PAC test. The cache makes a
// suite asked again in the next round cost only its new words. Before it
// accepts a hypothesis, it asks some words again, so that a teacher that
// changes its answers is caught without prefix answers too. Every stage is
// counted before it is built (Conformance.Check for the settings, then
// each round), the exhaustive words are built in batches as they are
// asked, and a random word's length is drawn before its letters, so a
// suite too large for learn-queries or learn-bytes is refused by that
// limit, never by running out of memory.
//
// Without prefix answers a word brings one bit, and learning n states over
// k letters needs about n·k·log₂ n of them (the discrimination tree);
// AALpy's learners read one output per letter of every word, which is
// what brasp learn --prefixes does.
package learn
