// Package ltl is linear temporal logic over finite non-empty words, as in §3.3
// of Yang, Chiang and Angluin, "Masked Hard-Attention Transformers Recognize
// Exactly the Star-Free Languages" (NeurIPS 2024), together with the paper's
// two converters between LTL and B-RASP (Theorems 3.2 and 3.3).
//
// # Formulas
//
// The central type is *Formula, a node of a hash-consed DAG owned by a *Pool:
// building the same operator on the same operands twice returns the same
// node, so shared subformulas stay shared and equal formulas of one pool are
// equal pointers. A pool belongs to one alphabet; symbol atoms are indices
// into it.
//
// Semantics, for a word w = w_1…w_n and a position 1 ≤ i ≤ n (the paper's
// definitions, strict since/until; the other temporal operators have the
// meanings of past-LTL and LTLf tools):
//
//	a              w_i = a
//	first, last    i = 1, i = n
//	MOD_r_m        i ≡ r (mod m)
//	Mid            n is odd and i = ⌈n/2⌉
//	PERIODIC_u_v   an eventually periodic table: prefix u, then v repeated
//	               (tables of 0 and 1; PERIODIC_v without a prefix)
//	φ since ψ      ∃j < i: ψ(j) and φ(k) for all j < k < i   (strict, the paper's)
//	φ until ψ      ∃j > i: ψ(j) and φ(k) for all i < k < j   (strict, the paper's)
//	φ S ψ          ∃j ≤ i: ψ(j) and φ(k) for all j < k ≤ i   (non-strict)
//	φ U ψ          ∃j ≥ i: ψ(j) and φ(k) for all i ≤ k < j   (non-strict)
//	O φ, H φ       φ at some / every j ≤ i                   (once, historically)
//	F φ, G φ       φ at some / every j ≥ i                   (eventually, globally)
//	X φ, N φ       i < n and φ(i+1) / i = n or φ(i+1)        (strong / weak next)
//	Y φ, Z φ       i > 1 and φ(i-1) / i = 1 or φ(i-1)        (strong / weak yesterday)
//
// A formula defines a language over its alphabet by evaluation at the last
// position: w is accepted iff w, n ⊨ φ.
//
// # Syntax
//
// Precedence, loosest first (Spot's): `let NAME = φ in ψ`, `<->`, `->`
// (right-associative), `|`, `&`, the binary temporal operators `since`,
// `until`, `S`, `U` (one level, right-associative), then the prefix operators
// `!`, `X`, `N`, `Y`, `Z`, `F`, `G`, `O`, `H`. Constants are `true`/`1` and
// `false`/`0`. Atoms are symbols, bare (letters, digits, `_`, `?`) or
// double-quoted, and the position predicates `first`, `last`, `MOD_r_m`,
// `Mid` and `PERIODIC_u_v`. A symbol whose name is a keyword (`X`, `true`, `0`, `first`, …) must be
// quoted. `let` names a subformula so that a DAG prints in linear size; the
// name stands for the very same node, so it changes nothing semantically.
//
// A .ltl file is `#` comments, an `alphabet` line listing the symbols, then
// one formula, which may span several lines:
//
//	# φ2 of §3.3: Σ*#b*#
//	alphabet a b "#"
//	"#" & (b since "#")
//
// # Converters
//
// ToBRASP is Theorem 3.2 (one attention operation per temporal operator),
// ToBRASPFutureOnly its past-only variant using only rightmost strict
// future-masked attention (Thm 5.1; StrictPast rewrites S, O and H into
// since), and FromBRASP / FromBRASPVectors are Theorem 3.3 through the
// unary normal forms of package brasp, for all attention kinds, within a
// *budget.Budget. Their doc comments give the formula used for every case.
//
// # Evaluation
//
// NewEvaluator(f).Accepts(w) decides w, n ⊨ f in time O(n·|φ|/64) for the
// Boolean and since/until nodes (bit vectors, 64 positions per machine word;
// since and until are carry chains computed by addition) plus one pass over
// w for the symbols; Evaluate keeps every subformula's vector (Rows and
// FormatTable print them as the paper's Figure 2 does for B-RASP).
//
// # A note on the paper's STAIR_k formula
//
// App. C gives φ_k = 1 since γ_k for STAIR_k. Since is strict, φ_k does not
// see an a^k that ends at the last position: it defines STAIR_k·Σ (the word
// "a" is in STAIR_1 but not in L(1 since a)). testdata/stair*.ltl use
// γ_k | (1 since γ_k), of the same depth k, and the tests check both facts.
//
// # Depth
//
// The temporal depth (§5.4) counts nested temporal operators: atoms and
// constants have depth 0, Boolean connectives take the maximum of their
// operands, and every temporal operator, unary or binary, strict or not, adds
// one. ToBRASP turns every temporal operator into exactly one attention
// operation, so the program's attention depth equals the formula's temporal
// depth.
package ltl
