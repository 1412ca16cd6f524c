// Package regex holds brasp's regular expressions: the `.re` file format, its
// parser and printer, and the compiler to a minimal DFA by Brzozowski
// derivatives.
//
// # The `.re` format
//
// A file is an alphabet line followed by one expression, which may span
// several lines:
//
//	# (ab)+ over a b
//	alphabet a b
//	(ab)+
//
// '#' starts a comment that runs to the end of the line (outside quotes).
// Operators, loosest first:
//
//	r | s     union
//	r & s     intersection
//	r s       concatenation (juxtaposition)
//	~r        complement with respect to Σ* (prefix; ~ab is (~a)b)
//	r* r+ r?  star, one or more, optional (postfix)
//
// Atoms: a symbol, `()` the empty word ε, `[]` the empty set, `.` any one
// symbol, and a parenthesised expression.
//
// Symbols. A symbol is written bare (letters, digits and '_') or as a
// double-quoted Go string ("#", "?", "a b"). How a run of bare characters is
// split depends on the alphabet: when every symbol of the alphabet is a single
// character, each character of a bare run is one symbol, so `ab*` is a·b*;
// otherwise a bare run is one symbol, and concatenated symbols are separated
// by white space, operators or quotes: `ab c*` is ab·c*. '?' is an operator
// here, so a symbol containing '?' must be quoted in the expression (it may be
// bare on the alphabet line).
//
// # Semantics and the empty word
//
// An expression denotes a language over Σ*; it may contain ε (for example
// `a*`), and complement is taken with respect to Σ* (so `~[]` is Σ*, ε
// included). B-RASP programs, LTL formulas and transformers read only
// non-empty words, so comparisons with them ignore ε (automata.SigmaPlus).
// To exclude ε explicitly, intersect with `. ~[]`, which is Σ⁺ (one symbol
// followed by anything).
package regex
