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
// A counterexample w costs ⌈log₂|w|⌉ queries (binary search for the
// index where the access word of the hypothesis state stops agreeing) and
// is used again until the hypothesis agrees with it. A round takes up to
// 1 + n/RoundShare counterexamples of a hypothesis with n states, so
// rounds grow as log n, not as n (an exact check costs O(n·k) a round).
// Refining is one pipeline whose tasks share the batches, one batch per
// step: the binary searches of up to Together counterexamples, the probes
// of the splits they find, and the sifts of the transitions those splits
// move or create, each moving down the tree as far as the answers known
// go. A search works on the run of the hypothesis when it began (its
// verdicts are the teacher's on access words, true whatever the
// hypothesis becomes) and is given up if the hypothesis leaves that run;
// a counterexample searched again asks first at its last cut and the few
// indices after it, where the next cut most often is. With a conformance
// test and a hypothesis of at least PullFrom states, whenever nothing is
// left to search, the pipeline takes the counterexamples among the words
// answered before (free: the suite's first stage), until the states of
// the round have doubled. So a round's deep sifts, the next searches and
// their splits go out together, and a teacher that answers a batch slowly
// is asked fewer, larger batches: a trained model that is not regular
// (BenchmarkLearnPasses has teachers like it) is asked 15 words per
// forward pass where one phase at a time (search, split, sift, the next
// round) asked 6.6, at the same words per state. With n states and k letters the learner needs
// at most n−1 counterexamples, and asks at most n·k·h + n·⌈log₂ m⌉ words
// (h the height of the tree, at most n; m the longest counterexample); on
// random DFAs h stays small.
//
// The cache keeps every answer in a trie whose nodes hold one child
// inline and a row of children only when they branch (most words asked
// are an access word and a test that nothing else shares): 7 bytes a
// node where a row each cost 41 over 10 letters.
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
// Growth (BenchmarkLearnExact, exact teacher, one run each: words asked,
// equivalence rounds, bytes of cached answers):
//
//	 states  letters      words  rounds  cache bytes
//	    100      2          341      16        35 K
//	    100     10        1,703      16       228 K
//	  1,000      4        7,003      22       843 K
//	  1,000     10       17,134      24       2.3 M
//	  3,000     10       51,795      25       7.0 M
//	 10,000      2       37,057      25       3.9 M
//	 10,000     10      176,693      24        24 M
//	100,000     10    1,912,675      22       261 M
//
// Words grow as about 1.9·n·k. The 100,000-state run over 10 letters took
// 36 s of CPU and a peak RSS of 800 MB (one counterexample a round, rounds
// were n/6 and each copied and checked the whole hypothesis: 113 s, 2.9
// GB, 1.3 GB of cached answers in rows of children).
//
// # Black boxes
//
// Conformance is the equivalence oracle of a teacher known only by
// membership, cheapest stage first: the words already answered (a
// counterexample among them costs nothing), every short word and every
// transition followed by its target's tests, random words drawn in
// doubling batches (uniform walks from access words, and short loops
// around the states found last, which find the next state of a counter or
// a bounded Dyck language that uniform words never reach; counted as the
// new words they ask, since a draw that repeats an answered word cannot
// be a counterexample), optionally the
// HSI suite for extra states and Angluin's PAC test. The cache makes a
// suite asked again in the next round cost only its new words. Before it
// accepts a hypothesis, it asks some words again, and without prefix
// answers a few words drawn from all those answered before every round, so
// that a teacher that changes its answers, or answers at random, is caught
// without prefix answers too. Every stage is
// counted before it is built (Conformance.Check for the settings, then
// each round), the exhaustive words are built in batches as they are
// asked, and a random word's length is drawn before its letters, so a
// suite too large for learn-queries or learn-bytes is refused by that
// limit, never by running out of memory.
//
// A language that is not regular (a counter: aⁿbⁿ) makes the
// hypotheses grow a state or two a round along one family of words; the
// suite asks the newest counterexamples with their runs of letters lengthened
// (a⁴b⁴ → a⁵b⁵), so that the next member is found, and after
// learn-growth-rounds rounds of such growth the run stops with that limit,
// saying the language may not be regular (GrowthWarning words a run that
// ended sooner). Bounded Dyck-1 takes 56 such rounds at depth 64 and 77
// at depth 96 from one verdict per word, within the default of 96.
//
// With a bound n on the length of words (Cache.SetMaxLength: a model with
// learned positions reads no longer word), the cache is the one place that
// keeps it: no word longer than n is sent, whoever built it (tails, random
// middles, counterexample processing, the suite); a longer word is cut (in
// prefix mode) or not asked, and counts as rejected. The language learned
// is then the teacher's words up to n, a finite language the suite can
// check word by word (a hypothesis that accepts a longer word gets one as
// a counterexample, found without a query), and the result is its minimal
// cover automaton (automata.MinimalCover): the smallest DFA agreeing with
// the answers on every word up to n, never more states than those words
// plus one.
//
// Without prefix answers a word brings one bit, and learning n states over
// k letters needs about n·k·log₂ n of them (the discrimination tree);
// AALpy's learners read one output per letter of every word, which is
// what brasp learn --prefixes does.
package learn
