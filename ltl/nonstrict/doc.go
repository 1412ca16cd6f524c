// Package nonstrict makes Theorem 5.2 of Yang, Chiang and Angluin, "Masked
// Hard-Attention Transformers Recognize Exactly the Star-Free Languages"
// (NeurIPS 2024) constructive: a stutter-invariant star-free language gets
// an LTL formula with only non-strict temporal operators, hence a B-RASP
// program whose attention uses only the masks j<=i and i<=j, hence a
// transformer whose heads are only future-or-self / past-or-self masked.
// Its causal form uses only rightmost [j<=i, ...] attention: the standard
// decoder mask with hard attention.
//
// # The construction
//
// Write ♮w for the word w with every run of equal adjacent letters
// collapsed to one letter ("aabbba" ↦ "aba"), and blk(i) for the index of
// the run (block) that position i of w lies in; blk maps the positions of w
// onto those of ♮w. A language L is stutter-invariant when u·a·v ∈ L ⇔
// u·a·a·v ∈ L for all u, v and letters a; then w ∈ L ⇔ ♮w ∈ L.
//
// Rewrite maps any formula φ to a formula T(φ) with only the non-strict
// operators S (since, non-strict), U, O, H, F, G and the Boolean
// connectives, such that
//
//	(★)  w, i ⊨ T(φ)  ⇔  ♮w, blk(i) ⊨ φ     for every word w and position i.
//
// Taking i = |w| (blk(|w|) = |♮w|): w ∈ L(T(φ)) ⇔ ♮w ∈ L(φ). So when L(φ)
// is stutter-invariant, L(T(φ)) = L(φ) (Peled and Wilke's theorem, here
// with an explicit translation). When it is not, L(T(φ)) is the
// stutter-closure of L(φ)'s stutter-free words, a different language: the
// converters refuse such input before rewriting, with the witness that
// automata.Classify found.
//
// T is defined node by node on φ's DAG (shared subformulas are rewritten
// once and stay shared):
//
//	T(a)          = a
//	T(¬φ), T(φ∧ψ), …  the same connective on T(φ), T(ψ)
//	T(φ S ψ)      = T(φ) S T(ψ)          and likewise U, O, H, F, G
//	T(Y φ)        = prev(T(φ))           T(Z φ) = ¬prev(¬T(φ))
//	T(X φ)        = next(T(φ))           T(N φ) = ¬next(¬T(φ))
//	T(φ since ψ)  = prev(T(φ) S T(ψ))    (φ since ψ ≡ Y(φ S ψ))
//	T(φ until ψ)  = next(T(φ) U T(ψ))    (φ until ψ ≡ X(φ U ψ))
//	T(first)      = ⋁_a a ∧ H a          T(last) = ⋁_a a ∧ G a
//
// with the "previous/next change of letter" operators
//
//	prev(χ) = ⋁_a a ∧ (a S (¬a ∧ χ))
//	next(χ) = ⋁_a a ∧ (a U (¬a ∧ χ)).
//
// MOD_r_m and Mid have no such translation (they are not block-invariant);
// Rewrite refuses them with ErrPredicate and the converters then start from
// the language's automaton instead.
//
// Proof of (★), by induction on φ. Call a formula block-invariant on w
// when its truth at i depends only on blk(i); by induction every T(φ) is,
// since the right-hand side of (★) is. Letters: the letter at i is the
// letter of block blk(i). Connectives: immediate. Non-strict since: let
// b = blk(i). If ♮w, b ⊨ φ S ψ with witness block c ≤ b, take j = i when
// c = b and otherwise the last position of block c; then T(ψ) holds at j
// and T(φ) at every k with j < k ≤ i, because such k lie in blocks
// c+1, …, b where φ holds. Conversely, a witness j ≤ i of T(φ) S T(ψ) at
// i gives c = blk(j) ≤ b, and every block c' with c < c' ≤ b has a position
// in (j, i], so φ holds at c'. O and H are 1 S φ and ¬O¬φ; the future
// operators are the mirror image. prev: for i in a block of letter a, the
// positions k ≤ i with a S-witness j for a S (¬a ∧ χ) are exactly j =
// start(blk(i)) − 1, the last position of the previous block (every
// position after j up to i has letter a and j does not, so (j, i] lies in
// the block of i and j just before it); so prev(χ) holds at i iff blk(i) > 1 and χ holds at the previous
// block, that is iff ♮w, blk(i) ⊨ Y φ when χ = T(φ). The disjunct of a
// letter other than w_i is false at i. Strict since: φ since ψ ≡ Y(φ S ψ)
// on any word (both say ∃ j < i: ψ(j) ∧ ∀ j < k < i: φ(k)), so
// T(φ since ψ) = prev(T(φ S ψ)). Z φ ≡ ¬Y¬φ, first ≡ ¬Y 1 ≡ H-of-the-first-
// block, and the future cases are symmetric. ∎
//
// # The two forms
//
// NonStrict output may use every non-strict operator; ToProgram (Thm 3.2's
// construction with non-strict M) turns S, O, H into rightmost attention
// masked j<=i and U, F, G into leftmost attention masked i<=j, and the
// compiler (Thm 4.1 with non-strict M) turns those into future-or-self /
// past-or-self heads.
//
// Causal output uses only S, O and H, which ToProgram writes as rightmost
// [j<=i, ...] attention alone. T maps past operators to past operators, so
// T of a past-only formula is causal. Past-only formulas come from Theorem
// 5.1: the language's minimal DFA → its Krohn–Rhodes cascade → the
// future-only B-RASP program of krohnrhodes.DFAToBRASP (rightmost [j<i]
// attention only) → ltl.FromBRASP, whose formula then uses only since and
// Y-like operators. When the input is itself a formula (or a program with
// one, Theorem 3.3) that T can take — no MOD or Mid, and for Causal no
// future operator — it is rewritten directly, which is usually much
// smaller; for minimal automata of at most 32 states both routes are taken
// and the smaller result kept.
//
// # Size and depth
//
// T keeps sharing: |T(φ)| = O(|Σ|·|φ|) distinct subformulas (prev and next
// add 3|Σ| nodes per strict operator, memoised per operand). Every strict
// since/until, Y, Z, X, N adds one level of non-strict operators on top of
// its own, so the temporal depth is at most twice φ's (plus one for first
// and last); the non-strict operators of φ keep their depth. In LTL a
// prev/next is |Σ| S/U operators; ToProgram makes it one attention
// operation whose score reads the letter at i (rightmost j ≤ i whose letter
// differs from i's). Boolean combinations of letters are simplified
// to canonical letter sets (a | b over {a, b} is 1), and a letter set
// conjoined with a case split over letters keeps only its own cases.
//
// Sweep then merges equal subformulas, bottom-up: a subformula is replaced
// by a constant, a letter set, an earlier subformula or the negation of one
// when their truth values agree on a sample of words and the exact check
// H(φ ↔ ψ) ≡ true confirms it (so the replacement is sound at every
// position of every word, not only at the last). The converters sweep the
// Krohn–Rhodes formula before rewriting and every output after: for
// (a+b+)+ the output drops from 35 distinct subformulas at depth 3 to 10 at
// depth 2; O(b ∧ Y O a) (Σ*aΣ*bΣ* over {a, b, c}) rewrites to
// O(b ∧ (b S (¬b ∧ O a))) and sweeps to O(b ∧ O a).
package nonstrict
