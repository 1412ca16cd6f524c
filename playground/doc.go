// Package playground is brasp's local web page: write a B-RASP program, run
// it on a word as you type, see the paper's Figure-2 trace, which position
// each attention operation attended to, the compiled transformer and its
// attention pattern, the program's LTL formula, and the minimal DFA of its
// language with its classification. `brasp serve` runs it on 127.0.0.1:8080.
//
// # One API, two runtimes
//
// The page is a thin client (hand-written HTML, CSS and JavaScript, no
// build step, no CDN) over a small JSON API, type API: the Go packages
// stay the single implementation of every semantics, and the page never
// evaluates a program itself. The API runs in two places:
//
//   - `brasp serve`: Server, an http.Handler that serves the embedded page
//     and answers /api/ with the API;
//   - the static site `brasp site DIR` writes: the page, and the same API
//     compiled to WebAssembly (package playground/wasm, GOOS=js
//     GOARCH=wasm, built from the module source with -ldflags=-s -w; the
//     API does not import net/http, which keeps the module near 1.9 MB
//     gzipped). The site's index.html names the runtime (a
//     <meta name="brasp-runtime" content="wasm"> that Site.Write adds), so
//     the page asks no server for anything but the site's own files (its
//     icon is inline); the page served by Server asks GET /api/features.
//     The static page starts two Web Workers running the module, one for the cheap
//     requests answered as you type and one for the expensive ones, and
//     terminates and restarts a worker whose computation outlives its time
//     limit, so that no program can freeze the tab.
//
// Both answer the same requests with the same bytes (tested in Chromium
// against a plain static file server).
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
//	404  unknown endpoint or page
//	413  request body larger than Config.MaxBody (1 MiB by default)
//	422  the program, formula or word is wrong: errors lists every problem
//	     with its 1-based line and column; conversions that hit a limit
//	405  the method is not the endpoint's (GET for the page and
//	     examples/features, POST for the rest)
//	503  the computation took longer than its time limit (Config)
//
// Endpoints:
//
//	GET  /api/examples  [{"name","title","source","word"}...]: the presets.
//	GET  /api/features  {"runtime": "server"|"wasm"}: who answers.
//	POST /api/run       {"program","word","undeclared"} → RunResponse: alphabet, word
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
//	POST /api/nonstrict {"kind": "brasp"|"re"|"dfa", "source", "masks":
//	                    "non-strict"|"causal"} → the program of Thm 5.2
//	                    (only j<=i / i<=j masks, or only rightmost j<=i)
//	                    with its size, for a stutter-invariant star-free
//	                    language; otherwise 422 with classify's witness.
//
//	POST /api/simcheck  {"program","word"} → {"same","differences":
//	                    [{"line","msg"}...]}: everything brasp reads
//	                    differently from the B-RASP web simulator (lines
//	                    it drops, the output vector, undeclared characters,
//	                    every vector that differs on the word).
//
// With "undeclared": true, /api/run reads characters the program does not
// declare as all-zero symbols, as the web simulator does
// (brasp.ParseWordUndeclared); by default such a word is an error that
// mentions the option.
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
//
// Endpoints are cheap (run, simcheck, examples, features: answered as the
// user types) or expensive (compile, model, decompile, ltl, dfa,
// automaton). Each class has its own request size limit (MaxCheapBody,
// MaxBody), time limit (CheapTimeout, Timeout) and pool of slots
// (CheapConcurrency, Concurrency), so cheap requests never queue behind
// expensive ones. Each computation runs under a *budget.Budget built from
// a context cancelled at the request's deadline, when its answer is sent
// or when the client goes away, with the settings Config.Limits; the
// constructions that take the budget stop at its next look at the context
// and free their slot. Every construction an expensive endpoint runs takes
// it: compilation (at each truth table and before the model is built),
// decompilation and its exact check, the exact semantics, classification
// (image orbit, stable semigroup) and Krohn–Rhodes (holonomy, cascade and
// the listing of its global states). Their memory limits measured in bytes
// (subset-bytes, orbit-bytes, monoid-bytes, cascade-bytes) are cut to
// Config.MaxClassifyBytes. The budget sees the deadline by reading the clock
// (clockContext), which also works in WebAssembly, where no timer can fire
// while a computation holds the only thread. A panic in a computation is
// answered with 500 and the server keeps running. Every answer, errors
// included, is JSON.
//
// # The page
//
// The program, the word, the options and the panels in use live in the
// URL's fragment (#p=...&w=..., then mh=1 for multi-head, ln=1 for layer
// norm, u=1 for undeclared characters, c=1 once the compile panel is in
// use, o=ltl,dfa,decompile,auto for the other panels with their inputs
// li=, ak=, ai=, sm=1), so a link reproduces a session, on the server and
// on the static site alike. "Paste from the simulator" loads a program and
// runs /api/simcheck on it.
package playground
