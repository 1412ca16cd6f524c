// Package ltlf is linear temporal logic on finite traces (LTLf, De Giacomo
// and Vardi 2013) over atomic propositions, written as Spot writes it, and
// its translation to minimal symbolic automata (package automata/symbolic)
// whose transitions are guards over the propositions.
//
// It differs from package ltl, the paper's letter-based logic, in three
// ways: a step is a set of true propositions (a valuation), not one letter;
// a formula is read at the first step, not the last; and X is Spot's weak
// next (X[!] is strong).
//
// # Semantics
//
// A trace is a non-empty finite sequence t = t_0 … t_{n-1} of steps, each
// the set of propositions true there. A formula holds on t when it holds at
// step 0:
//
//	p              p ∈ t_i
//	X[!] φ         i+1 < n and φ(i+1)             (strong next)
//	X φ            i+1 = n or φ(i+1)              (weak next; WX in other dialects)
//	F φ, G φ       φ at some / every j ≥ i
//	φ U ψ          ∃j ≥ i: ψ(j) and φ(k) for i ≤ k < j
//	φ W ψ          (φ U ψ) | G φ                  (weak until)
//	φ R ψ          !(!φ U !ψ)                     (release, weak)
//	φ M ψ          ψ U (φ & ψ)                    (strong release)
//	Y φ, Z φ       i > 0 and φ(i-1) / i = 0 or φ(i-1)
//	O φ, H φ       φ at some / every j ≤ i
//	φ S ψ          ∃j ≤ i: ψ(j) and φ(k) for j < k ≤ i
//
// So at the last step X φ holds and X[!] φ fails whatever φ is, X false
// holds exactly at the last step, G φ and φ R ψ and φ W ψ may be satisfied
// by the end of the trace, and the past operators see nothing before step 0
// (Y φ fails there, Z φ holds).
//
// # Syntax
//
// An .ltlf source is `#` comments, optional `propositions p q …`,
// `dialect NAME` and `semantics empty_trace` lines (the last one reads
// every finite trace, the empty one included, as LTLf2DFA does: see
// EvalEmpty), then one formula, which may span lines:
//
//	# every request is eventually granted
//	propositions req grant
//	G(req -> F grant)
//
// Without a propositions line, the propositions are those of the formula in
// order of first occurrence; with one, every proposition must be declared
// (unused ones still count in the alphabet). Propositions are Spot's:
// letters, digits, '_' and '.', not starting with a digit, or any text in
// double quotes. Operators, in Spot's spellings: true 1, false 0, ! ~,
// & && /\, | || \/, -> => -->, <-> <=> <-->, xor ^, X, X[!], F <>, G [],
// U, R V, W, M, and the past operators Y, Z (WY), O, H, S. Spot's bounded
// operators are read as the formulas Spot defines them to be: X[n] φ is n
// nexts, F[n:m] φ is X[n](φ | X(φ | … X φ)) and G[n:m] φ the same with &,
// F[n:] φ (also F[n:$], F[n:inf]) is X[n] F φ and G[n:] φ is X[n] G φ; a !
// in the bracket (X[n!], F[n:m!], G[!n:m]) makes every next in the
// unfolding strong. With Spot's weak X, F[n:m] φ also holds when the trace
// ends before step m; F[n:m!] is "φ at some step in n..m". The printer
// writes a run of k nexts as X[k] (X[k!] if strong). A leading run of
// F, G and X letters is split off an identifier, as Spot does: GFa is G F a.
// Precedence (Spot's), loosest first: -> and <-> (right-associative), |,
// xor, &, the binary temporal operators U R W M S (right-associative), the
// prefix operators. Other dialects (Dialect) read LTLf2DFA's and Syft's
// files, whose X is strong next.
//
// # Automata
//
// ToDFA builds the minimal symbolic DFA of a formula; see its comment for
// the construction.
package ltlf
