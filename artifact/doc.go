// Package artifact loads an input of any kind brasp knows — a B-RASP program,
// an LTL formula, a DFA, a regular expression, a transformer — and converts
// between kinds. It is the library behind the brasp command: the CLI parses
// flags and calls Load, Convert, Classify and Equiv, and so can any Go
// program or the playground server.
//
// # Adding a kind
//
// Each representation registers itself from its own file in this package
// (brasp.go, ltl.go, automata.go, transformer.go, ...), in an init function:
//
//	func init() {
//		Register(KindInfo{Kind: KindLTL, Exts: []string{".ltl"}, Load: loadLTL})
//		RegisterConverter(KindLTL, KindBRASP, ltlToBRASP)
//	}
//
// Load returns a value implementing Artifact; it may also implement the
// optional interfaces Transducer, Tracer, Inspector and Encoder, which the
// CLI discovers by type assertion. A converter turns one artifact into an
// artifact of another kind; Convert finds the shortest chain of registered
// converters (for example re → dfa → brasp). Classification and exact
// equivalence go through the minimal DFA: a file that registers a converter
// to KindDFA makes its kind classifiable and comparable.
//
// Files and what they own:
//
//	doc.go, artifact.go   the registry, Load, Convert (lead)
//	brasp.go              B-RASP programs (lead)
//	ltl.go                LTL formulas (issue 3)
//	automata.go           .dfa and .re, Classify (issue 6)
//	transformer.go        .json and .safetensors models (issues 4, 5)
//	exact.go              any kind → DFA, Equiv (issue 7)
//	normalform.go         B-RASP normal forms of App. B on B-RASP output
package artifact
