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
// FormulaDFA does the same for LTL. Package artifact's conversion table
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
