// Package brasp implements Boolean RASP (B-RASP), the programming language of
// §3 of Yang, Chiang and Angluin, "Masked Hard-Attention Transformers
// Recognize Exactly the Star-Free Languages" (NeurIPS 2024): its syntax,
// checker, printer, two interpreters, attention depth and normal forms.
//
// The pipeline is Parse (source → checked *Program) → Run (→ *Trace) →
// Accept/Transduce, with Format printing a program back to source, and
// FormatTable printing a trace as the paper's Figure 2. Converters in other
// packages build programs with a Builder.
//
// # Language reference
//
// A program is a sequence of lines, one operation per line. It is compatible
// with the public B-RASP web simulator (https://b-rasp.github.io/): every
// program the simulator runs parses here unchanged and means the same.
//
//	Q_a(i)                                   declares input symbol a (initial vector Q_a)
//	P(i) := EXPR                             position-wise operation
//	P(i) := leftmost  [MASK, SCORE] VALUE : DEFAULT
//	P(i) := rightmost [MASK, SCORE] VALUE : DEFAULT
//
// MASK is 1 (no masking), j<i (strict future masking), i<j (strict past
// masking), or the non-strict masks of §5.2, j<=i and i<=j. The mirrored
// spellings i>j, j>i, i>=j and j>=i are accepted too. SCORE and VALUE may read
// any earlier vector at i or at j; DEFAULT and position-wise operations read
// only at i. Expressions use 0, 1, references NAME(i) and NAME(j), ! (binds
// tightest), & and |, and parentheses.
//
// For each position i, an attention operation picks j_i, the smallest
// (leftmost) or largest (rightmost) j allowed by the mask whose score is 1;
// its value is VALUE(i, j_i), or DEFAULT(i) when there is no such j.
// Positions are 1-based in the paper and in messages; Trace.Value takes
// 0-based indices.
//
// Words: the simulator reads each character of the input as a symbol, and a
// character the program does not declare as a position where every symbol
// vector is 0. Parse and Run refuse such words by default (a typo should
// not pass silently); ParseWordUndeclared reads them the simulator's way,
// with NoSymbol at those positions.
//
// Names consist of letters, digits, '_' and '?'. Extensions to the simulator's
// syntax:
//
//   - '#' starts a comment that runs to the end of the line.
//   - true and false are synonyms for 1 and 0.
//   - Symbols may have several characters (Q_ab declares the symbol ab) and
//     any symbol can be written in double quotes inside a name: Q_"#",
//     Q_"(", P_"?". The printer quotes exactly the part that needs it.
//   - Position predicates are initial vectors declared like symbols:
//     first(i) (i = 1), last(i) (i = n), MOD_r_m(i) (i ≡ r mod m, 0 ≤ r < m)
//     and Mid(i) (n odd and i = ⌈n/2⌉), §5.3, and your own eventually
//     periodic tables (Thm 5.3, Cor. 5.5): PERIODIC_<period>(i) or
//     PERIODIC_<prefix>_<period>(i), each table a string of 0 and 1, holds
//     at position i ≤ |prefix| when prefix[i] is 1 and after that when the
//     period, repeated, has a 1 at i − |prefix| (PERIODIC_01: the even
//     positions; PERIODIC_1_0: the first; PERIODIC_0110_1: from 2 on but
//     not 4). Tables are regular (LowerPeriodic writes them with MOD_r_m and
//     attention), so programs using them have exact DFAs and compile to
//     transformers with rational sinusoidal position embeddings only.
//   - Atomic propositions: a first line "propositions p q r" declares the
//     initial vectors P_p(i), P_q(i), P_r(i) (P_p(i) is 1 where p is true)
//     in place of symbols. Such a program reads traces, each position a set
//     of true propositions, as LTLf does (RunSteps), declares no Q_σ, and
//     costs one vector per proposition however many there are;
//     ToValuationLetters gives the equivalent program over the 2^k
//     valuations. Proposition names are names, or quoted: propositions
//     "x.y" declares P_"x.y".
//   - A line "output NAME" names the output vector. Without one, the output
//     is the program's last line, a declaration or an operation, as in the
//     simulator: the program accepts a word iff that vector is 1 at the
//     last position (Q_a(i) / X(i) := Q_a(i) / Q_b(i) accepts the words
//     ending in b).
//   - A transducer (§3.1, the associative-recall example of App. A) names
//     one vector per output symbol: "output a:Y_a b:Y_b "?":Y_?". Its output
//     at position i is the symbol whose vector is 1 at i.
//
// # Expressions and rewrites
//
// Expr is the one expression type of scores, values, defaults and
// position-wise operations. Every rewrite of expressions, here and in the
// converters, goes through one toolkit (expr_rewrite.go): MapRefs (copy with
// references replaced), ReadAt (move every reference to i or j), Fold (fold
// constants, double negations and repeated operands: the one simplifier, used
// by Simplify, the normal forms, the fast interpreter and the decompiler),
// Substitute (MapRefs and Fold in one pass), and Conjoin/Disjoin/Negate,
// which drop neutral constants but never a reference (so that attention
// depth is kept). Program-to-program transformations (the normal forms of
// App. B in normalform.go, Simplify and DeadCode in simplify.go) build their
// result with one rewriter (program_rewrite.go) that keeps the old names.
//
// # Errors
//
// The checker reports every problem at once, as file:line:col: msg —
// undefined or redefined names, uses before definition, (j) where only (i)
// is allowed, an empty alphabet, a missing output vector. Hostile input is
// bounded by MaxNesting, MaxVectors and MaxSourceBytes.
package brasp
