// Package toltlf builds the automaton of a letter-based LTL formula (package
// ltl: read at the last position of a non-empty word, strict since and
// until, letter atoms) with the symbolic LTLf engine of package ltlf, whose
// transitions are decision diagrams, instead of a table per letter.
//
// # Letters as propositions
//
// An alphabet of n letters is encoded in k = ⌈log2 n⌉ propositions
// b0 … b(k-1): letter number a is the valuation of a's binary digits, b0
// the most significant (Code). A word is then a trace of valuations, and
// only the n codes of letters are ever read. Each Boolean combination of
// letters (a letter, a `let`-bound set of letters, …) becomes the decision
// diagram of its set of codes, written as a formula over the bits; codes of
// no letter are don't-cares, so a set of 2^(k-1) letters that agree on a
// bit is that bit.
//
// # Reading at the last position
//
// LTLf reads a formula at the first step. With T the translation of a
// position's formula into the same position's (both languages have the
// non-strict S and U, strong and weak next and yesterday, F G O H):
//
//	letters, ∧ ∨ ¬ → ↔     the code formula, the same connectives
//	first, last            Z false, X false (Spot's weak X: the last step)
//	φ since ψ              Y(T φ S T ψ)         (strict: from the step before)
//	φ until ψ              X[!](T φ U T ψ)      (strict: from the step after)
//
// φ holds at the last position iff F(last ∧ T φ) holds at the first. Two
// facts keep the result small enough for the engine's compositional
// products and inside its reach:
//
//   - there is exactly one last position, so "at the last position"
//     commutes with the Boolean connectives, and there X φ and φ until ψ are
//     false, N φ true, F φ and G φ are φ, φ U ψ is ψ (at the first position
//     the past operators are decided the same way, and first is true);
//   - O(first ∧ ψ) and H(first → ψ) have at every position the value of ψ
//     at the first position (they are "anchored"). Where one occurs at the
//     top, among Boolean connectives, it is translated as ψ at the first
//     step; where it occurs under a temporal operator with ψ containing a
//     future operator (past over future, which the engine does not read), f
//     is split by cases on its value: f = ∨_β (∧_j ψ_j ↔ β_j) ∧ f[anchors :=
//     β], at most 2^6 cases.
//
// The harness root O(first ∧ φ) of an LTLf formula φ is so translated as φ
// itself. The result is the minimal symbolic DFA of ltlf.ToDFA, written out
// over the letters (Letters) and minimised by automata.Minimize, which
// numbers states canonically, so the DFA is the very one the bimachine
// construction of package exact gives.
//
// # What is not translated
//
// MOD, Mid and PERIODIC predicates (not LTLf), past operators over future
// subformulas that are not anchored (ltlf.ErrPastOverFuture), and more than
// 6 anchors under temporal operators: Translate and DFA return an error
// wrapping ErrUnsupported or ltlf.ErrPastOverFuture, and exact.FormulaDFA
// falls back on its bimachine.
package toltlf
