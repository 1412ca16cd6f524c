// Package exact gives every representation of brasp its exact language as a
// minimal DFA — B-RASP programs, LTL formulas, transformers (through the
// decompiler) — so that any two of them can be compared, with a shortest
// counterexample, by the one product search of package automata
// (automata.CompareAligned; Equivalent here is it on Σ⁺). It also makes Theorem 5.1 executable (FutureOnly: any
// program → an equivalent one using only rightmost strict future-masked
// attention) and, in package exact/mona, cross-checks the LTL construction
// against the MONA tool.
//
// # Use
//
// Three calls show that a program, its compiled transformer and a DFA have
// the same language:
//
//	dp, err := exact.ProgramDFA(nil, p)                               // B-RASP
//	dm, err := exact.ModelDFA(nil, m, decompile.Options{})            // transformer
//	eq, w, firstAccepts, err := exact.Equivalent(dp, dm)              // w: a shortest counterexample
//
// FormulaDFA does the same for LTL (through the symbolic LTLf engine of
// package ltl/toltlf where the formula allows, through this package's
// bimachine otherwise; the same DFA either way). Package artifact's conversion table
// lists the edges brasp → dfa, ltl → dfa, transformer → dfa and brasp →
// brasp (--future-only) that the equiv, classify and convert commands use.
//
// # Words
//
// B-RASP programs, LTL formulas and transformers read non-empty words (Σ⁺).
// Every DFA built here rejects the empty word, and Equivalent compares on Σ⁺
// only, so a DFA or regular expression that accepts ε is equivalent to a
// program that agrees with it on every non-empty word.
//
// # The construction: a bimachine refined one operation at a time
//
// The value of a B-RASP vector at position i of w = w_1…w_n depends on the
// whole word, but in a structured way: it is a function of the letter w_i,
// of the prefix w_1…w_{i-1} and of the suffix w_{i+1}…w_n. ProgramDFA keeps
// two complete DFAs — a left machine L read left to right and a right
// machine R read right to left — and, for every vector, a truth table
// T[ℓ][a][r]: the vector's value at a position whose prefix leads L to ℓ,
// whose letter is a and whose suffix (reversed) leads R to r. This is a
// bimachine (Schützenberger), the classical normal form of letter-to-letter
// regular functions. Initially L counts positions modulo the MOD moduli and
// knows the first position, R knows the last one, and the tables of Q_σ,
// first, last and MOD_r_m are immediate; a position-wise operation is a
// pointwise Boolean combination of tables.
//
// An attention operation P(i) := tb [M, S(i,j)] V(i,j) : D(i) becomes a
// temporal operator, as in the proofs of Theorems 3.3 and 4.1:
//
//   - a forward one (mask j<i or j<=i, either tie-break; "since"-like)
//     refines L: the new left state before position i is (ℓ_i, φ) where
//     φ[ρ][α] is the value at the selected position among j < i — the
//     rightmost or leftmost one whose score holds — or "none", assuming
//     R's state at position i-1 is ρ and that the vectors S and V read at i
//     have the values α (the i-atoms; 2^atoms summaries). Reading w_i = a,
//     the summary for right state r at i is φ[δ_R(r,a)] updated with
//     position i itself, whose table entries are known. This is
//     deterministic, so no guessing is needed: the left machine simply
//     carries, for every possible future, what the past selected;
//   - a backward one (mask j>i or j>=i; "until"-like) refines R, mirror
//     image: (r_i, ψ) with ψ[λ][α] the selection among j > i assuming L's
//     state at i+1 is λ. Both directions are one function (extend in
//     attention.go) over the side it refines, reading the tables through
//     strides; the minimisation below is likewise written once for both
//     sides;
//   - an unmasked one is split: rightmost over all j is the rightmost
//     j >= i if there is one, else the rightmost j < i (leftmost
//     symmetrically) — two directed operations and a choice.
//
// After every operation both machines are minimised (Moore partition
// refinement) with respect to the tables still live — those a later
// operation or the output reads — so the machines never carry more than
// the rest of the program can observe; dead tables are dropped. Finally w
// is accepted iff the output table holds at (ℓ_n, w_n, R's start), which is
// read off as a DFA over L (state = left state plus the output bit at the
// last position read) and minimised by Hopcroft's algorithm.
//
// Why this construction. The alternative the notes describe — an
// unambiguous NFA over truth vectors that guesses the until-values and
// checks the one-step equations, then the subset construction — was
// implemented first and measured: on random programs whose scores read
// several vectors at i, the independent guesses for each i-atom assignment
// multiply, and some six-operation programs exceeded two million NFA
// configurations, while the bimachine never guesses and is minimised after
// each operation, and handles the same thousand random programs in seconds.
// MONA's route (a track per free variable, a product and a projection per
// connective) would need an alphabet of 2^tracks letters without BDDs.
//
// # Programs over propositions: the bimachine with a symbolic letter
//
// A program over propositions reads traces whose steps are valuations of k
// propositions; spelled as letters there would be 2^k of them.
// SymbolicProgramDFA runs the same construction with the letter dimension
// symbolic (symbolic.go, symbolic_attention.go): a table's cell (ℓ, r) is
// a decision diagram over the propositions (package bdd) — the vector's
// value at a position with left state ℓ and right state r, as a function
// of the valuation there — and a machine state's transitions are one
// diagram whose leaves are its successors, as in package automata/symbolic.
// P_p is the variable p in every cell; a position-wise operation is BDD
// apply, cell by cell. For an attention operation and a new state (q, φ),
// the summary before the position under the other machine's state o is
// φ[δ(o, a)], which is o's transition diagram with its leaves relabelled
// by φ (two Boolean diagrams per atom assignment: "some position
// selected", "its value is 1"); the position itself updates it where the
// score's diagram holds. The successor on a valuation a is δ_own(q, a)
// with all the updated summaries: its diagram is built from q's diagram by
// one product per summary code with a scratch multi-terminal diagram whose
// leaves are interned prefixes of the successor's tuple (symbolic_leaves.go),
// so no step ever enumerates valuations. Minimisation is Moore refinement
// on diagrams (equal functions are equal nodes), and the DFA read off the
// left machine is minimised by symbolic.Minimize. The result is the same
// minimal automaton as ProgramDFA's on the program over the 2^k valuation
// letters (checked on random programs over up to six propositions, and
// against LTLf progression on compiled formulas of up to thirty).
//
// Cost: the bimachine computes at every position the values the program
// will need, including those that depend on the future; so where the
// language's reverse needs many states (a formula reading the next step's
// value of many propositions, a conjunction of n response properties,
// whose right machine has 2^n states), the left machine carries summaries
// over all of them and the work grows as the product of the two machines.
// On the LTLf corpus's formulas of 20 to 34 propositions (TestSymbolicCorpus),
// those with small minimal DFAs take milliseconds to seconds; others exceed
// a time limit where LTLf progression, which reads forward only, does not.
//
// Position predicates: first, last and MOD_r_m are regular and built into
// the initial machines; Mid is refused with ErrNotRegular ("Mid is not
// regular: {#a^m#b^m#} is definable with it"). LTL formulas go through
// Theorem 3.2 (ltl.ToBRASP: one attention operation per temporal operator,
// reading only at j), so since becomes a forward and until a backward step.
// Transducers have no language and are refused.
//
// # Measurements
//
// go test ./exact -run '^$' -bench . -benchtime 3x (2 cores under heavy
// shared load): the Dyck-1 depth-2 program in 0.3 ms, Dyck-1 depth 6 in
// 9 ms, Dyck-2 depth 3 in 3.4 ms, STAIR_16 in 1.1 ms, STAIR_64 in 64 ms, 50
// random 20-operation programs with predicates in 49 ms. On the LTL suite
// of package exact/mona (φ1–φ4, STAIR_1..16, Dyck-1 depth 1..3, 100 random
// formulas), FormulaDFA's median time is 0.4% of MONA's process CPU time
// and 3.5% of MONA's time above its startup cost (MONA_TIMING=1 go test
// ./exact/mona -run TestTiming -v).
//
// # Limits
//
// The construction is exponential in the worst case (star-free languages can
// need non-elementary DFAs in the formula size). Every construction takes a
// *budget.Budget whose named limits bound the states of each machine
// (exact-states), the bytes of its truth tables and summaries (exact-bytes),
// the i-atoms of one operation (exact-atoms) and the MOD counter
// (exact-modulus); exceeding one returns a *budget.Error naming it, and the
// budget's context stops the work.
package exact
