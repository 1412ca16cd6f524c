// Package artifact loads an input of any kind brasp knows — a B-RASP program,
// an LTL formula, a DFA, a regular expression, a transformer — and converts
// between kinds. It is the library behind the brasp command and the
// playground: they parse flags or requests and call Load, Convert, ToDFA,
// Classify, Cascade and Equiv, and nothing else.
//
// # Data flow
//
// Load parses a file into an Artifact: *Program (package brasp), *Formula
// (ltl), *DFA (automata), *Regex (automata/regex) or *Transformer
// (transformer), each a thin wrapper around its representation's central
// type that runs words (Accepts) and prints itself (Format). Values built in
// Go are wrapped with NewProgram, NewFormula, NewDFA, NewRegex and
// NewTransformer. Convert looks the pair (input kind, output kind) up in the
// conversion table (table.go) and runs that edge: one construction, or a
// route through several written out (re → dfa → brasp is the derivative automaton,
// then Krohn–Rhodes). Every B-RASP result then gets BRASPOptions: Theorem
// 5.1, a normal form of App. B, simplification. ToDFA is Convert to KindDFA
// followed by minimisation; Classify, Cascade and Equiv work on that minimal
// DFA, and Equiv checks its counterexample on the inputs themselves.
//
// Every function that can run long takes a *budget.Budget first (nil: no
// cancellation, default limits); the CLI builds it from --limit NAME=N and
// SIGINT, the playground from each request's deadline. Each construction's
// own settings are a field of Options, of that construction's type
// (CompileOptions, DecompileOptions, ...); an edge reads only its field.
//
// # Adding a conversion
//
// Write the construction as a plain function on the artifact types, with
// the budget first and its own options type last:
//
//	func ltlfToDFA(b *budget.Budget, f *LTLf, opts LTLfOptions) (*DFA, error)
//
// give Options a field for LTLfOptions, and list the edge in table.go with
// step (naming that field), together with the routes through it that make
// sense ({&ltlfToDFAEdge, &krohnRhodesEdge} for ltlf → brasp).
// TestTableComplete and ARCHITECTURE.md's table (checked against Edges by a
// test) then say what is missing. A new kind adds a constant above, an
// artifact type wrapping its central type (with New... and a loader), and a
// line in the kinds table of table.go. A new CLI flag sets the field of
// Options in cmd/brasp (convert.go); a new limit is a budget.Define next to
// the construction and needs no flag.
package artifact
