// Package ac0 turns a regular language in AC0 into a B-RASP program whose
// only position predicates are MOD_r_m (B-RASP[MOD]), the hard direction of
// Corollary 5.4 of the paper made constructive: masked hard-attention
// transformers with rational sinusoidal position embeddings recognise
// exactly the regular languages in AC0. The program compiles to such a
// transformer (package transformer: each MOD_r_m is computed exactly by a
// ReLU layer from sin and cos of 2πi/m), so the regular languages in AC0
// become transformers whose position embeddings are rational sinusoids only.
//
// # The stable semigroup
//
// Let M be the minimal DFA of L, η the map from words to transformations of
// its states, and T_k = η(Σ^k) the set of images of words of length k. The
// sequence T_1, T_2, … is eventually periodic (T_(k+1) = T_k·η(Σ) is a
// function of T_k); let s be the least multiple of the period at or after
// the start of the cycle. Then T_s·T_s = T_(2s) = T_s: T_s is a semigroup,
// the stable semigroup, and s the stability index. By Barrington, Compton,
// Straubing and Thérien, L is in AC0 exactly when T_s is aperiodic (contains
// no non-trivial group), which for transformations means that no element
// of T_s has a cycle of length > 1 on the states (package automata's
// Classify decides the same and gives the witness used when the
// construction refuses).
//
// # Blocks
//
// Cut w = w_1…w_n into blocks of length s: n = q·s + r with 0 ≤ r < s,
// blocks β_k = w_((k−1)s+1)…w_(ks) for k = 1..q, and a last partial block
// u of length r. Each block has an image η(β_k) ∈ T_s, so the state of M
// after the complete blocks is the state of the block DFA B after reading
// η(β_1)…η(β_q), where B has the alphabet T_s, the states of M reachable
// from the start by elements of T_s, and the transitions x·t = t(x). Since
// T_s is closed under composition, the transformations of B's words are
// exactly the elements of T_s restricted to B's states: B's transition
// semigroup is a quotient of a subsemigroup of T_s, hence aperiodic when L
// is in AC0. So B is counter-free and Krohn–Rhodes (package automata:
// Decompose and CascadeToBRASP, paper App. B.4) gives a B-RASP program over
// T_s whose vector A_x(k) says that B is in state x before reading block
// letter k; that program uses only rightmost attention masked j < i.
// Finally w ∈ L iff M accepts from that state after reading u.
//
// # The program
//
// Positions are 1-based; block k ends at position ks, so the block ends are
// the positions where MOD_0_s holds. The program has these vectors:
//
//   - H<p>_<e>(i) for p = 1..s and e ∈ T_p: i ≡ p (mod s) and the symbols
//     of i's block up to i (the last p symbols, i ≥ p) have image e:
//     H1_e(i) := MOD_1_s(i) ∧ ⋁_(η(a)=e) Q_a(i), and for p < s
//     G<p>_e(i) := rightmost [j<i, 1] H<p>_e(j) : 0 (the rightmost j < i is
//     i−1, so this is H<p>_e at i−1) and H<p+1>_f(i) := MOD_(p+1)_s(i) ∧
//     ⋁ over the ways to split f = e·η(a) of G<p>_e(i) ∧ Q_a(i), since at
//     i ≡ p+1 the block so far is the block up to i−1 followed by w_i
//     (induction on p). Symbols with the same transformation are grouped,
//     and a level with one element e has H<p>_e = MOD_p_s and no G vectors.
//     Only one H holds at each position: this keeps the program's state
//     (and its exact DFA construction) to the image of the current block
//     prefix, rather than the last s−1 symbols.
//   - the block program: B's cascade program with Q_t(i) read as H<s>_t(i),
//     its position-wise operations copied and each attention score S(i,j)
//     replaced by MOD_0_s(j) ∧ S(i,j). At a block end i = ks, the block
//     ends j < i are the positions of blocks 1..k−1, in order, and each
//     reads H<s>_t(j) = [η(β) = t] of its own block, so every vector of the
//     block program at i has its value at position k of the block word
//     η(β_1)…η(β_q) (induction over the program: position-wise operations
//     read i only, and the attention operations read exactly the block
//     ends before i). The vectors at other positions are never read.
//   - S_x(i) := ⋁_(y,t: t(y)=x) A_y(i) ∧ H<s>_t(i): after the block ending
//     at i, B is in state x.
//   - P_x(i) := rightmost [j<i, MOD_0_s(j)] S_x(j) : [x is the start]: the
//     state after the last complete block before i (the start when there
//     is none: i ≤ s).
//   - Y(i) := ⋁_r MOD_r_s(i) ∧ Acc_r(i), where Acc_0(i) := ⋁_(x accepting)
//     S_x(i) and, for r > 0, Acc_r(i) := ⋁_(x, e ∈ T_r, e(x) accepting)
//     P_x(i) ∧ H<r>_e(i). At the last position n ≡ r: if r = 0, n is a
//     block end and S_x(n) is the state after all q blocks; otherwise the
//     last block end before n is n − r (or none when q = 0), P_x(n) is the
//     state there, and H<r>_e(n) the image of the partial block u.
//
// So Y(n) = [w ∈ L] for every non-empty w: the program accepts L ∩ Σ⁺. It
// is simplified (constants folded, unread vectors dropped) before it is
// returned. The only position predicates are MOD_r_s; first and last are
// not needed (the last position is where the output is read, and "no block
// end before i" is an attention default).
//
// # Size
//
// With T = Σ_(p≤s) |T_p| and C the number of letter classes, the program
// has T position-wise vectors H with O(T·C) literals in all, at most T
// attention vectors G (each with the constant score 1), the block program (polynomial in the holonomy
// sets of B, which has |T_s| letters and at most |Q| states), and 2|Q| + 1
// more vectors. T can be exponential in |Q| (it counts transformations);
// the construction charges its memory to the limit ac0-bytes and its work
// to the budget's work limit.
//
// Every step is checked in the tests: exact equivalence of the program and
// of its compiled transformer (through the decompiler) with the minimal
// DFA, on the paper's kinds of AC0 languages and on random DFAs that
// classify calls AC0 but not star-free, and refusal with a checked witness
// exactly when classify says the language is not in AC0.
package ac0
