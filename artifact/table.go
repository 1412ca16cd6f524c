package artifact

import "sync"

// This file is the conversion table: every kind brasp reads and every
// conversion between two kinds, each written out once. Convert looks an edge
// up here; nothing is registered at run time and no route is searched.
// Converting to B-RASP then applies the options of BRASPOptions (Theorem 5.1,
// the normal forms of App. B, simplification) whatever the edge: see
// finishProgram.

// kinds lists every kind: its file extensions (with the dot) and its loader.
var kinds = []KindInfo{
	{Kind: KindBRASP, Exts: []string{".brasp"}, Load: loadProgram},
	{Kind: KindDFA, Exts: []string{".dfa"}, Load: loadDFA},
	{Kind: KindLTL, Exts: []string{".ltl"}, Load: loadFormula},
	{Kind: KindLTLf, Exts: []string{".ltlf"}, Load: loadLTLf},
	{Kind: KindMONADFA, Load: loadMONADFA},
	{Kind: KindRegex, Exts: []string{".re"}, Load: loadRegex},
	{Kind: KindTransformer, Exts: []string{".json", ".safetensors"}, Load: loadTransformer},
}

// The constructions, each one edge from one kind to another (or to itself),
// with the field of Options it reads.
var (
	// Theorem 3.2: LTL → B-RASP (past-only formulas with --future-only:
	// future-masked attention only, at the same depth).
	ltlToBRASPEdge = step(KindLTL, KindBRASP, "Thm 3.2", ltlToBRASP, "BRASP", func(o *Options) BRASPOptions { return o.BRASP })
	// Theorem 3.3: B-RASP → LTL, through the unary normal forms.
	braspToLTLEdge = step(KindBRASP, KindLTL, "Thm 3.3", braspToLTL, "-", noOptions)
	// Theorem 4.1 (sequential) and Theorem C.4 (multi-head): the compiler.
	compileEdge = step(KindBRASP, KindTransformer, "Thm 4.1, Thm C.4", compileProgram, "Compile", func(o *Options) CompileOptions { return o.Compile })
	// Theorem 4.2: the decompiler.
	decompileEdge = step(KindTransformer, KindBRASP, "Thm 4.2", decompileModel, "Decompile", func(o *Options) DecompileOptions { return o.Decompile })
	// The exact semantics of a program: its minimal DFA.
	braspToDFAEdge = step(KindBRASP, KindDFA, "exact", braspToDFA, "-", noOptions)
	// The exact semantics of a formula: its minimal DFA.
	ltlToDFAEdge = step(KindLTL, KindDFA, "exact", ltlToDFA, "-", noOptions)
	// LTLf progression on decision diagrams: the minimal symbolic DFA of an
	// LTLf formula; and the same over the valuations as letters, the bridge
	// to the letter-based kinds (at most 12 propositions).
	ltlfToDFAEdge       = step(KindLTLf, KindDFA, "LTLf progression", ltlfToDFA, "LTLf", func(o *Options) LTLfOptions { return o.LTLf })
	ltlfToLetterDFAEdge = step(KindLTLf, KindDFA, "LTLf progression, valuation letters", ltlfToLetterDFA, "LTLf", func(o *Options) LTLfOptions { return o.LTLf })
	// Theorem 3.2 on traces: LTLf → B-RASP over the formula's propositions
	// (one initial vector P_p per proposition, any number of them).
	ltlfToBRASPEdge = step(KindLTLf, KindBRASP, "Thm 3.2 (propositions)", ltlfToBRASP, "-", noOptions)
	// Brzozowski derivatives: a regular expression's minimal DFA.
	regexToDFAEdge = step(KindRegex, KindDFA, "derivatives", regexToDFA, "-", noOptions)
	// Krohn–Rhodes (Lemmas B.6–B.8): a counter-free DFA as a program with
	// only rightmost strict future-masked attention; a DFA in AC0 that is not
	// star-free as a B-RASP[MOD] program (Cor. 5.4, package automata/ac0).
	krohnRhodesEdge = step(KindDFA, KindBRASP, "App. B.4, Cor. 5.4", dfaToBRASP, "-", noOptions)

	// Theorem 5.2 (--masks non-strict|causal): a formula with only
	// non-strict (or only causal) operators for a stutter-invariant
	// star-free language, rewritten from a formula or a program or built
	// from the minimal DFA, or a refusal with classify's witness; then
	// Theorem 3.2 with non-strict masks, and the compiler with the model's
	// masks checked.
	maskFormulaEdge   = step(KindLTL, KindLTL, "Thm 5.2", maskFormula, "Masks", maskOptions)
	maskProgramEdge   = step(KindBRASP, KindLTL, "Thm 5.2", maskProgram, "Masks", maskOptions)
	maskDFAEdge       = step(KindDFA, KindLTL, "Thm 5.2", maskDFA, "Masks", maskOptions)
	maskedBRASPEdge   = step(KindLTL, KindBRASP, "Thm 3.2, non-strict masks", maskedToBRASP, "Masks", maskOptions)
	maskedCompileEdge = step(KindBRASP, KindTransformer, "Thm 4.1, masks checked", compileMasked, "Compile,Masks", maskedCompileOptions)
)

// edges is the table Convert reads: the constructions above, and the routes
// through several of them that lead between the other pairs of kinds,
// written out.
var edges = []route{
	{&braspToDFAEdge},
	{&braspToLTLEdge},
	{&compileEdge},

	{&krohnRhodesEdge},
	{&krohnRhodesEdge, &braspToLTLEdge},
	{&krohnRhodesEdge, &compileEdge},

	{&ltlToBRASPEdge},
	{&ltlToDFAEdge},
	{&ltlToBRASPEdge, &compileEdge},

	{&ltlfToDFAEdge},
	{&ltlfToBRASPEdge},
	{&ltlfToLetterDFAEdge, &krohnRhodesEdge, &braspToLTLEdge},
	{&ltlfToBRASPEdge, &compileEdge},

	{&regexToDFAEdge, &krohnRhodesEdge},
	{&regexToDFAEdge},
	{&regexToDFAEdge, &krohnRhodesEdge, &braspToLTLEdge},
	{&regexToDFAEdge, &krohnRhodesEdge, &compileEdge},

	{&decompileEdge},
	{&decompileEdge, &braspToDFAEdge},
	{&decompileEdge, &braspToLTLEdge},
}

// maskedEdges is the table Convert reads instead when Options.Masks is set
// and the output is ltl, brasp or transformer (Theorem 5.2): from every
// kind, its formula of the asked form, then B-RASP, then a transformer.
var maskedEdges = sync.OnceValue(func() []route {
	return maskedFrom(
		route{&maskFormulaEdge},
		route{&maskProgramEdge},
		route{&maskDFAEdge},
		route{&regexToDFAEdge, &maskDFAEdge},
		route{&ltlfToLetterDFAEdge, &maskDFAEdge},
		route{&decompileEdge, &maskProgramEdge},
	)
})

// maskedFrom lists, for each route to a formula of Theorem 5.2, the routes
// to ltl, brasp and transformer that start with it.
func maskedFrom(toFormula ...route) []route {
	var rs []route
	for _, f := range toFormula {
		f = f[:len(f):len(f)] // the appends below copy
		rs = append(rs, f, append(f, &maskedBRASPEdge), append(f, &maskedBRASPEdge, &maskedCompileEdge))
	}
	return rs
}
