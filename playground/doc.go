// Package playground is brasp's local web page: write a B-RASP program, run
// it on a word as you type, see the paper's Figure-2 trace, which position
// each attention operation attended to, the compiled transformer and its
// attention pattern, the program's LTL formula, and the minimal DFA of its
// language with its classification. `brasp serve` runs it on 127.0.0.1:8080.
//
// # Why a JSON API rather than WebAssembly
//
// The page is a thin client (hand-written HTML, CSS and JavaScript, embedded
// with go:embed, no build step, no CDN) over a small JSON API served by the
// same binary. The Go packages stay the single implementation of every
// semantics: the page never evaluates a program itself, so what it shows is
// exactly what the CLI and the tests check. A WebAssembly build would also
// reuse the Go code, but would add a multi-megabyte download, a second build
// target to keep working, and no way to bound a runaway computation short of
// killing the tab; a server can enforce request size and time limits, and
// the API is usable from scripts and tests (httptest) as well.
//
// # API
//
// Every POST endpoint takes a JSON object (unknown fields are refused) and
// answers a JSON object. Errors are {"error": MESSAGE, "errors": [{"line",
// "col", "msg"}...], "field": "program"|"ltl"|"word"|"format"} with status
//
//	400  malformed JSON (the message says where)
//	403  the Host header is not a loopback name while the server listens
//	     on loopback (see Limits and safety); every path, not only /api/
//	404  unknown endpoint
//	413  request body larger than Config.MaxBody (1 MiB by default)
//	422  the program, formula or word is wrong: errors lists every problem
//	     with its 1-based line and column; conversions that hit a limit
//	501  the feature's converter is not in this build
//	503  the computation took longer than Config.Timeout (10 s by default)
//
// Endpoints:
//
//	GET  /api/examples  [{"name","title","source","word"}...]: the presets.
//	GET  /api/features  {"run","compile","ltl","dfa","decompile","automaton"}: which
//	                    panels this build can back.
//	POST /api/run       {"program","word"} → RunResponse: alphabet, word
//	                    (one symbol per entry), vectors [{"name","kind",
//	                    "line","depth","def","values":"0110...",
//	                    "attention":{"tiebreak","mask","attended":[j...]}}],
//	                    "accept" (acceptors), "output" (transducers),
//	                    "attentionDepth". attended[i-1] is the 1-based j the
//	                    operation read at position i, 0 when it used the
//	                    default.
//	POST /api/compile   {"program","word","multihead","layernorm"} →
//	                    CompileResponse: layers, attentionLayers, heads,
//	                    width, params, labels, layerInfo (per head: mask,
//	                    tie-break, coordinates read and written, attended
//	                    position per position), programAccept, modelAccept
//	                    (the fast forward pass's verdict), agree, outputScore.
//	POST /api/model     {"program","multihead","layernorm","format":
//	                    "json"|"safetensors"} → the compiled model file
//	                    (Content-Disposition: attachment).
//	POST /api/decompile {"program","multihead","layernorm","smaller"} →
//	                    the compiled model decompiled back (Thm 4.2):
//	                    "program", "vectors", "attentionDepth",
//	                    "modelLayers", and "equivalent" (exact, through
//	                    minimal DFAs) with a shortest "counterexample".
//	POST /api/ltl       {"program"} → {"ltl","depth","attentionDepth",
//	                    "dagSize","treeSize"} (Thm 3.3), or {"ltl": ".ltl
//	                    text"} → the same plus "program" (Thm 3.2).
//	POST /api/dfa       {"program"} → DFAResponse: the minimal DFA (states,
//	                    .dfa text, SVG drawn by DrawDFA), starFree,
//	                    stutterInvariant, ac0, the classification text with
//	                    its witnesses, and the transformer variants of §5.
//	POST /api/automaton {"kind": "re"|"dfa", "source"} → the same for a
//	                    regular expression or a .dfa automaton, plus the
//	                    Krohn–Rhodes B-RASP "program" and its "cascade"
//	                    (Lemmas B.6–B.8) when the language is star-free,
//	                    otherwise "programError".
//
// Words are written as on the command line: one character per symbol when
// every symbol has one character, otherwise separated by spaces. Words are
// limited to Config.MaxWord symbols; attention positions are reported up to
// Config.MaxAttendWord (run) and Config.MaxPatternWord (compile).
//
// # Limits and safety
//
// The server binds to loopback unless told otherwise (brasp serve --addr).
// On loopback it answers only requests whose Host header is localhost,
// 127.0.0.1 (or another 127.x.y.z) or [::1], with any port, and refuses
// others with 403: without this check a page of any web site could read
// the playground by making a name of its own resolve to 127.0.0.1 (DNS
// rebinding). Connections to a non-loopback address, and servers with
// Config.AllowAnyHost (a reverse proxy), are answered whatever their Host.
// Each request body is read through http.MaxBytesReader; each computation
// runs under a time limit and a bound on concurrent computations. A
// computation past its limit is answered with 503 and abandoned (Go cannot
// stop it), which the size limits keep short. A panic in a computation is
// answered with 500 and the server keeps running.
//
// # The page
//
// The program, the word and the compile options live in the URL's fragment
// (#p=...&w=..., then mh=1 for multi-head, ln=1 for layer norm, c=1 once
// the compile panel is in use), so a link reproduces a session, the
// compile panel included. The compile, decompile, LTL, DFA and automaton
// panels appear only when /api/features says the server can back them.
package playground
