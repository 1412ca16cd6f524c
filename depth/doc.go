// Package depth measures the attention depth a language needs: lower bounds
// with certificates, upper bounds with programs, exactly where it can.
//
// # Depth and fragments
//
// The paper's §5.4 and App. C relate three depths: the layers of a masked
// hard-attention transformer, the attention depth of a B-RASP program and the
// temporal depth of an LTL formula (each since or until adds one). With
// future-masked rightmost attention only, the three are equal and match LTL
// with since only (Thm 5.6); with future-masked rightmost and past-masked
// leftmost attention they match LTL with since and until; with every
// attention kind a program of depth d is a formula of depth 2d (App. C).
// Fragment names these three cases; formulas are read at the last position,
// as the programs' outputs are, over non-empty words.
//
// # Types
//
// Let the label of position i of a word w be the set of atoms true there
// (its letter, and the position predicates first, last, MOD_r_m and
// PERIODIC_<prefix>_<period> the language reads; a table is like MOD, the
// type automaton tracks the position's class: the position itself within
// the longest prefix, its residue modulo the lcm of the periods after it).
// The depth-k type tp_k(w, i) is defined by
//
//	tp_0(w, i)   = label(i)
//	tp_k(w, i)   = (label(i), ⌈P_k(w, i)⌉, ⌈F_k(w, i)⌉)
//	P_k(w, i)    = { (tp_{k−1}(w, j), { tp_{k−1}(w, m) : j < m < i }) : j < i }
//	F_k(w, i)    = { (tp_{k−1}(w, j), { tp_{k−1}(w, m) : i < m < j }) : j > i }
//
// where ⌈A⌉ keeps the pairs (T, S) of A for which no (T, S′) ∈ A has
// S′ ⊊ S (an antichain; F is left out in the since fragment).
//
// Claim: tp_k(w, i) = tp_k(v, i′) iff every formula of the fragment of
// temporal depth ≤ k has the same value at (w, i) and (v, i′).
//
// Proof, by induction on k. For k = 0 the formulas are Boolean combinations
// of atoms, whose values are the label. For k > 0, a formula of depth ≤ k is
// a Boolean combination of atoms and of φ since ψ (φ until ψ) with φ, ψ of
// depth ≤ k−1. By induction the values of φ and ψ at a position are
// functions of its depth-(k−1) type, and each set of depth-(k−1) types that
// occur is defined by a formula of depth ≤ k−1 (a disjunction of
// conjunctions of formulas separating two types). "φ since ψ" holds at i iff
// some j < i has ψ and every m strictly between has φ, that is iff some pair
// (T, S) of P_k(w, i) has T ⊨ ψ and S ⊨ φ, iff (since φ holds on every
// superset's types only if it holds on the subset's) some pair of the
// antichain ⌈P_k(w, i)⌉ does. So the type decides every since formula, and
// until symmetrically through F. Conversely, if two positions have different
// types, either the labels differ (an atom separates them) or, say, a pair
// (T, S) of one antichain is above no pair of the other: then "χ(S) since
// χ(T)", with χ(S) the formula of the set S and χ(T) that of {T}, holds at
// the first and fails at the second. ∎
//
// Two non-empty words are depth-k equivalent when their last positions have
// the same depth-k type. A certificate for a lower bound d is a pair u ∈ L,
// v ∉ L of depth-(d−1) equivalent words: no formula of depth d−1 separates
// them, so none defines L, and (by the theorems above) no program or
// transformer of the fragment of that depth recognises L. Check verifies a
// certificate from scratch.
//
// # Computing bounds
//
// Types are computed left to right (P) and right to left (F), level by level,
// and interned (Table). Along a word, P_k(w, i+1) follows from P_k(w, i) and
// tp_{k−1}(w, i) alone (advance: the position left behind joins every pair's
// set and becomes a pair of its own). So in the since fragment the tuple of
// types of the current position is the state of a deterministic finite
// automaton; run against the language's DFA, breadth first, it either finds
// two words with one final type and different verdicts (a shortest
// certificate) or explores every reachable pair, which proves L a union of
// depth-k types, and then the disjunction of the characteristic formulas of
// the accepted types is a since formula of depth k for L, compiled to a
// program by Thm 3.2. Trying k = 0, 1, … thus computes the exact since depth
// when the product fits its limit (depth-product-bytes). With until, types
// are not computed by a left-to-right automaton; certificates are searched
// among words in short-lex order and at random, comparing hashes of the
// types' canonical forms and re-checking every collision exactly, and upper
// bounds come from known programs (the input itself, Thm 5.1's future-only
// program, the since fragment's exact program). For every attention kind, a
// since-until certificate of depth c bounds the depth below by ⌊c/2⌋+1.
//
// The type automaton can be large: the number of depth-k types grows like a
// tower of exponentials in k. Everything runs under a budget.Budget whose
// limits (depth-type-bytes, depth-product-bytes) bound the memory; a limit
// hit during the exhaustive search ends it with the bounds proved so far.
package depth
