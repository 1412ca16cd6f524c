package playground

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/examples"
	"github.com/brasp-dev/brasp/internal/testkit"
	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/compile"
	"github.com/chromedp/chromedp"
)

var (
	siteOnce sync.Once
	siteDir  string
	siteInfo *Site
	siteErr  error
)

// builtSite builds the static site once per test binary, from this
// module's source, with the go command (as brasp site does).
func builtSite(t *testing.T) (string, *Site) {
	t.Helper()
	siteOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		start := time.Now()
		siteInfo, siteErr = BuildSite(ctx, "..")
		if siteErr != nil {
			return
		}
		siteDir, siteErr = os.MkdirTemp("", "brasp-site-test-")
		if siteErr == nil {
			siteErr = siteInfo.Write(siteDir)
		}
		t.Logf("built the site in %v", time.Since(start))
	})
	if siteErr != nil {
		t.Fatal(siteErr)
	}
	return siteDir, siteInfo
}

func TestMain(m *testing.M) {
	code := m.Run()
	if siteDir != "" {
		os.RemoveAll(siteDir)
	}
	os.Exit(code)
}

// staticServer serves dir as a plain static file server on loopback:
// every request to /api/ fails (404), and is counted.
func staticServer(t *testing.T, dir string) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var apiRequests atomic.Int64
	files := http.FileServer(http.Dir(dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/api/") {
			apiRequests.Add(1)
			http.NotFound(w, r)
			return
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &apiRequests
}

func TestSiteFiles(t *testing.T) {
	dir, site := builtSite(t)
	for _, name := range []string{"index.html", "app.js", "style.css", "worker.js", "wasm_exec.js", "brasp.wasm"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("the site has no %s: %v", name, err)
		}
	}
	if !bytes.HasPrefix(site.Wasm, []byte("\x00asm")) {
		t.Errorf("brasp.wasm is not a WebAssembly module")
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(site.Wasm)
	zw.Close()
	t.Logf("brasp.wasm: %d bytes, %d gzipped", len(site.Wasm), gz.Len())
}

// TestStaticSite drives the static site in headless Chromium, served by a
// plain file server with no API: every answer comes from the WebAssembly
// build in the page's workers.
func TestStaticSite(t *testing.T) {
	chromium(t)
	dir, _ := builtSite(t)
	srv, apiRequests := staticServer(t, dir)
	ctx := browser(t, 300*time.Second)
	start := time.Now()
	do(t, ctx, chromedp.Navigate(srv.URL+"/"))
	settle(t, ctx, `document.body.dataset.ready === "1" && document.body.dataset.firstResult !== undefined`)
	var first struct{ Runtime, FirstResult string }
	js(t, ctx, `({Runtime: document.body.dataset.runtime, FirstResult: document.body.dataset.firstResult})`, &first)
	if first.Runtime != "wasm" {
		t.Fatalf("the page runs on %q, want the WebAssembly build", first.Runtime)
	}
	t.Logf("time to first result: %s ms after the script started (%v after navigation began)", first.FirstResult, time.Since(start))

	// Every preset: its grid and badge on two words, typed.
	for _, ex := range Examples() {
		p, err := brasp.Parse(ex.Name, []byte(ex.Source))
		if err != nil {
			t.Fatal(err)
		}
		var ok bool
		js(t, ctx, fmt.Sprintf(`(() => { const s = document.getElementById("preset"); s.value = %q;
		  s.dispatchEvent(new Event("change")); return s.value === %q; })()`, ex.Name, ex.Name), &ok)
		if !ok {
			t.Fatalf("%s: not in the preset menu", ex.Name)
		}
		settle(t, ctx, fmt.Sprintf(`document.getElementById("badge").dataset.program === %q`, ex.Source))
		for _, word := range []string{ex.Word, ex.Word[:len(ex.Word)/2+1]} {
			checkGrid(t, p, ex.Name, word, typeWord(t, ctx, word))
		}
	}

	// Figure 2, compile (multi-head) and both downloads, decompile, LTL,
	// DFA and classification, the automaton panel.
	dyck := examples.Dyck
	var ok bool
	js(t, ctx, fmt.Sprintf(`(() => { const s = document.getElementById("preset"); s.value = %q;
	  s.dispatchEvent(new Event("change")); return true; })()`, dyck), &ok)
	g := typeWord(t, ctx, "llrrllrlrr")
	for name, want := range figure2 {
		if g.Rows[name] != want {
			t.Errorf("Figure 2: %s = %s, want %s", name, g.Rows[name], want)
		}
	}
	js(t, ctx, `(() => { document.getElementById("opt-multihead").click(); document.getElementById("compile-btn").click(); return true; })()`, &ok)
	settle(t, ctx, `document.getElementById("c-layers") && document.getElementById("c-layers").textContent === "3" && document.getElementById("agree") !== null`)
	var agree string
	js(t, ctx, `document.getElementById("agree").textContent`, &agree)
	if !strings.Contains(agree, "agree") || strings.Contains(agree, "DISAGREE") {
		t.Errorf("compile panel: %q", agree)
	}
	src, _ := examples.Source(dyck)
	prog, _ := brasp.Parse(dyck, src)
	model, err := compile.Compile(nil, prog, compile.Options{MultiHead: true})
	if err != nil {
		t.Fatal(err)
	}
	js(t, ctx, `(() => { delete document.body.dataset.download; document.getElementById("dl-json").click(); return true; })()`, &ok)
	settle(t, ctx, `document.body.dataset.download !== undefined`)
	var dl string
	js(t, ctx, `document.body.dataset.download`, &dl)
	if want := fmt.Sprintf("model.json %d", len(transformer.EncodeJSON(model))); dl != want {
		t.Errorf("download: %q, want %q", dl, want)
	}
	st, err := transformer.EncodeSafetensors(model)
	if err != nil {
		t.Fatal(err)
	}
	js(t, ctx, `(() => { delete document.body.dataset.download; document.getElementById("dl-safetensors").click(); return true; })()`, &ok)
	settle(t, ctx, `document.body.dataset.download !== undefined`)
	js(t, ctx, `document.body.dataset.download`, &dl)
	if want := fmt.Sprintf("model.safetensors %d", len(st)); dl != want {
		t.Errorf("download: %q, want %q", dl, want)
	}
	js(t, ctx, `(() => { document.getElementById("decompile-btn").click(); return true; })()`, &ok)
	settle(t, ctx, `document.getElementById("decompile-meta").dataset.equivalent !== undefined || document.getElementById("decompile-error").textContent !== ""`)
	var eq string
	js(t, ctx, `document.getElementById("decompile-meta").dataset.equivalent + " " + document.getElementById("decompile-error").textContent`, &eq)
	if eq != "true " {
		t.Errorf("decompiled Dyck model: %q", eq)
	}
	js(t, ctx, `(() => { document.getElementById("ltl-btn").click(); document.getElementById("dfa-btn").click(); document.getElementById("auto-btn").click(); return true; })()`, &ok)
	settle(t, ctx, `document.getElementById("ltl-out").textContent.startsWith("alphabet l r") && document.querySelector("#dfa-svg svg") !== null && !document.getElementById("auto-load").disabled`)
	var panels struct {
		States      int
		Class, Auto string
	}
	js(t, ctx, `({States: document.querySelectorAll("#dfa-svg g.state").length, Class: document.getElementById("dfa-class").textContent, Auto: document.getElementById("auto-class").textContent})`, &panels)
	if panels.States < 3 || !strings.Contains(panels.Class, "star-free: yes") || !strings.Contains(panels.Auto, "star-free: yes") {
		t.Errorf("DFA panels: %+v", panels)
	}
	siteScreenshot(t, ctx)

	// The link holds the program, the word and the open panels; opened on
	// a fresh page it restores them.
	var href string
	js(t, ctx, `location.href`, &href)
	u, err := url.Parse(href)
	if err != nil {
		t.Fatal(err)
	}
	q, _ := url.ParseQuery(u.Fragment)
	if q.Get("w") != "llrrllrlrr" || q.Get("c") != "1" || q.Get("mh") != "1" || q.Get("o") != "ltl,dfa,decompile,auto" {
		t.Errorf("the link %q does not hold the session", u.Fragment)
	}
	do(t, ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(href))
	settle(t, ctx, `document.body.dataset.ready === "1" && document.getElementById("badge").dataset.word === "llrrllrlrr" && document.getElementById("c-layers") !== null && document.getElementById("ltl-out").textContent !== "" && document.querySelector("#dfa-svg svg") !== null && document.getElementById("decompile-meta").dataset.equivalent !== undefined && document.getElementById("auto-class").textContent !== ""`)
	js(t, ctx, readGrid, &g)
	if g.Badge != "accept" || g.Rows["Y"] != figure2["Y"] {
		t.Errorf("the link restored badge %q, Y = %q", g.Badge, g.Rows["Y"])
	}

	// Pasting from the simulator: the last-line rule, undeclared
	// characters, and the check naming what brasp reads differently.
	js(t, ctx, `(() => { document.getElementById("paste-sim").click();
	  document.getElementById("paste-in").value = "Q_a(i)\nX(i) := Q_a(i)\nQ_b(i)";
	  document.getElementById("paste-load").click(); return true; })()`, &ok)
	settle(t, ctx, `document.getElementById("simcheck").dataset.same !== undefined`)
	g = typeWord(t, ctx, "ab")
	if g.Badge != "accept" {
		t.Errorf("the simulator's last-line example on ab: %q, want accept", g.Badge)
	}
	g = typeWord(t, ctx, "abx")
	if g.Badge != "error" {
		t.Errorf("an undeclared character with the option off: %q, want error", g.Badge)
	}
	js(t, ctx, `(() => { document.getElementById("opt-undeclared").click(); return true; })()`, &ok)
	settle(t, ctx, `document.getElementById("badge").textContent === "reject"`)
	js(t, ctx, `(() => { document.getElementById("simcheck-btn").click(); delete document.getElementById("simcheck").dataset.same; return true; })()`, &ok)
	settle(t, ctx, `document.getElementById("simcheck").dataset.same === "false"`)
	var check string
	js(t, ctx, `document.getElementById("simcheck").textContent`, &check)
	if !strings.Contains(check, `'x'`) || !strings.Contains(check, "all-zero") {
		t.Errorf("simulator check on abx: %q", check)
	}
	if n := apiRequests.Load(); n > 0 {
		t.Errorf("the page sent %d requests to /api/ of a static server; the static build knows it has none", n)
	}
	t.Logf("static site test took %v", time.Since(start))
}

// checkGrid compares the page's grid and badge for word with the program's
// own run.
func checkGrid(t *testing.T, p *brasp.Program, name, word string, g gridState) {
	t.Helper()
	w, err := p.Alphabet.ParseWord(word)
	if err != nil {
		t.Fatal(err)
	}
	tr := p.Run(w)
	for k, v := range p.Vectors {
		want := ""
		for i := range w {
			want += map[bool]string{true: "1", false: "0"}[tr.Value(k, i)]
		}
		if g.Rows[v.Name] != want {
			t.Errorf("%s on %q: grid row %s = %q, want %q", name, word, v.Name, g.Rows[v.Name], want)
		}
	}
	if p.IsTransducer() {
		out, _ := tr.Transduce()
		if want := p.Output.Symbols.FormatWord(out); g.Badge != want {
			t.Errorf("%s on %q: badge %q, want %q", name, word, g.Badge, want)
		}
	} else if want := map[bool]string{true: "accept", false: "reject"}[tr.Accept()]; g.Badge != want {
		t.Errorf("%s on %q: badge %q, want %q", name, word, g.Badge, want)
	}
}

// siteScreenshot saves a screenshot of the static site as a test artefact.
func siteScreenshot(t *testing.T, ctx context.Context) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(os.TempDir(), "brasp-static-site.png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
	if *testkit.Update {
		if err := os.WriteFile(filepath.Join("testdata", "static-site.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// apiCase is one request of the comparison between the static page and
// the server.
type apiCase struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	Body   any    `json:"body,omitempty"`
}

// TestStaticMatchesServer sends the same requests to the WebAssembly build
// (through the static page's own request function) and to the server, and
// compares the answers: status, content type, and the bodies (as JSON
// values, or byte for byte for downloads).
func TestStaticMatchesServer(t *testing.T) {
	chromium(t)
	dir, _ := builtSite(t)
	srv, _ := staticServer(t, dir)
	ctx := browser(t, 300*time.Second)
	do(t, ctx, chromedp.Navigate(srv.URL+"/"))
	settle(t, ctx, `document.body.dataset.ready === "1" && document.body.dataset.firstResult !== undefined`)

	var cases []apiCase
	add := func(method, path string, body any) { cases = append(cases, apiCase{method, path, body}) }
	add("GET", "/api/examples", nil)
	for _, ex := range Examples() {
		add("POST", "/api/run", RunRequest{Program: ex.Source, Word: ex.Word})
		add("POST", "/api/compile", CompileRequest{Program: ex.Source, Word: ex.Word})
		add("POST", "/api/dfa", DFARequest{Program: ex.Source})
		add("POST", "/api/ltl", LTLRequest{Program: ex.Source})
		add("POST", "/api/simcheck", SimCheckRequest{Program: ex.Source, Word: ex.Word})
	}
	dyck := exampleSource(t, examples.Dyck)
	add("POST", "/api/compile", CompileRequest{Program: dyck, Word: "llrr", MultiHead: true, LayerNorm: true})
	add("POST", "/api/model", CompileRequest{Program: dyck, Format: "safetensors"})
	add("POST", "/api/model", CompileRequest{Program: dyck, MultiHead: true})
	add("POST", "/api/decompile", DecompileRequest{Program: dyck})
	add("POST", "/api/decompile", DecompileRequest{Program: dyck, MultiHead: true, Smaller: true})
	add("POST", "/api/ltl", LTLRequest{LTL: "alphabet a b \"#\"\n\"#\" & (b since \"#\")\n"})
	add("POST", "/api/automaton", AutomatonRequest{Kind: "re", Source: "alphabet l r\n(l (lr)* r)*\n"})
	add("POST", "/api/automaton", AutomatonRequest{Kind: "re", Source: "alphabet a\n(aa)*\n"})
	add("POST", "/api/nonstrict", NonStrictRequest{Kind: "re", Source: "alphabet a b\n(a+b+)+\n", Masks: "causal"})
	add("POST", "/api/nonstrict", NonStrictRequest{Kind: "re", Source: "alphabet a b\n(ab)+\n", Masks: "non-strict"})
	add("POST", "/api/run", RunRequest{Program: "Q_a(i)\nX(i) := Q_a(i)\nQ_b(i)\n", Word: "abx", Undeclared: true})
	add("POST", "/api/simcheck", SimCheckRequest{Program: "# c\nQ_a(i)\nX(i) := Q_a(i)\nQ_b(i)\noutput X\n", Word: "ab x"})
	// Errors: syntax, words, limits, malformed JSON, unknown paths, methods.
	add("POST", "/api/run", RunRequest{Program: "Q_a(i)\nP(i) := Q_b(i)\n", Word: "a"})
	add("POST", "/api/run", RunRequest{Program: dyck, Word: "llx"})
	add("POST", "/api/run", RunRequest{Program: dyck, Word: strings.Repeat("l", 3000)})
	add("POST", "/api/run", `{"program": 1}`)
	add("POST", "/api/nope", RunRequest{})
	add("GET", "/api/run", nil)
	add("POST", "/api/features", nil)
	add("POST", "/api/compile", CompileRequest{Program: exampleSource(t, "induction_heads.brasp")})

	server := New(Config{})
	data, _ := json.Marshal(cases)
	var got []struct {
		Status      int
		ContentType string
		Filename    string
		Body        []byte
	}
	js(t, ctx, `(async () => {
	  const b64 = (u8) => { let s = ""; for (let i = 0; i < u8.length; i += 0x8000) s += String.fromCharCode.apply(null, u8.subarray(i, i + 0x8000)); return btoa(s); };
	  const out = [];
	  for (const c of `+string(data)+`) {
	    const body = c.body === undefined ? "" : typeof c.body === "string" ? c.body : JSON.stringify(c.body);
	    const r = await worker(c.path).call(c.method, c.path, body);
	    out.push({Status: r.status, ContentType: r.contentType, Filename: r.filename, Body: b64(r.bytes)});
	  }
	  return out;
	})()`, &got)
	if len(got) != len(cases) {
		t.Fatalf("%d answers for %d requests", len(got), len(cases))
	}
	for k, c := range cases {
		var body any = c.Body
		if s, ok := c.Body.(string); ok {
			body = s
		}
		code, want, ctype, disp := serverCall(t, server, c.Method, c.Path, body)
		name := fmt.Sprintf("%s %s #%d", c.Method, c.Path, k)
		if got[k].Status != code || got[k].ContentType != ctype {
			t.Errorf("%s: static page %d %q, server %d %q", name, got[k].Status, got[k].ContentType, code, ctype)
		}
		if disp != "" && !strings.Contains(disp, got[k].Filename) {
			t.Errorf("%s: static page file %q, server %q", name, got[k].Filename, disp)
		}
		if !strings.HasPrefix(ctype, "application/json") || c.Path == "/api/model" {
			if !bytes.Equal(got[k].Body, want) {
				t.Errorf("%s: the static page's %d bytes differ from the server's %d", name, len(got[k].Body), len(want))
			}
			continue
		}
		var a, b any
		if err := json.Unmarshal(got[k].Body, &a); err != nil {
			t.Fatalf("%s: static page: %v", name, err)
		}
		if err := json.Unmarshal(want, &b); err != nil {
			t.Fatalf("%s: server: %v", name, err)
		}
		// The runtime is the one field that tells them apart.
		if c.Path == "/api/features" {
			continue
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: answers differ:\nstatic %s\nserver %s", name, trim(got[k].Body), trim(want))
		}
	}
	t.Logf("%d requests answered the same by the static page and the server", len(cases))
}

func trim(b []byte) string {
	if len(b) > 400 {
		return string(b[:400]) + "…"
	}
	return string(b)
}

// serverCall sends one request to the server's handler.
func serverCall(t *testing.T, h http.Handler, method, path string, body any) (int, []byte, string, string) {
	t.Helper()
	var r *http.Request
	switch b := body.(type) {
	case nil:
		r = httptest.NewRequest(method, path, nil)
	case string:
		r = httptest.NewRequest(method, path, strings.NewReader(b))
	default:
		data, _ := json.Marshal(b)
		r = httptest.NewRequest(method, path, bytes.NewReader(data))
	}
	r.Host = "localhost"
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return rec.Code, rec.Body.Bytes(), rec.Header().Get("Content-Type"), rec.Header().Get("Content-Disposition")
}

// TestStaticSiteHostile sends the WebAssembly build a computation that
// outlives its time limit: it is answered with 503 within the limit and its
// grace period (by the build's own budget, or by the page terminating the
// worker when the construction does not look at its budget), the cheap
// worker keeps answering while it runs, and a worker that does not answer
// in time is terminated and replaced.
func TestStaticSiteHostile(t *testing.T) {
	chromium(t)
	dir, _ := builtSite(t)
	srv, _ := staticServer(t, dir)
	ctx := browser(t, 300*time.Second)
	do(t, ctx, chromedp.Navigate(srv.URL+"/"))
	settle(t, ctx, `document.body.dataset.ready === "1" && document.body.dataset.firstResult !== undefined`)
	// Decompiling this model (layer norm, a 2^20-row output table) takes
	// about 4 s natively before the decompiler's class limit refuses it, and
	// several times that in WebAssembly: the build's own budget stops it, at
	// its time limit or at that named limit, whichever comes first.
	data, _ := json.Marshal(DecompileRequest{Program: wideProgram(20), LayerNorm: true})
	hostile := string(data)
	var ok bool
	js(t, ctx, fmt.Sprintf(`(() => { const t0 = performance.now();
	  window.hostile = worker("/api/decompile").call("POST", "/api/decompile", %q).then(r =>
	    ({Status: r.status, Error: JSON.parse(new TextDecoder().decode(r.bytes)).error || "", Ms: performance.now() - t0}));
	  return true; })()`, hostile), &ok)
	// The page answers as you type while the expensive worker computes.
	start := time.Now()
	g := typeWord(t, ctx, "llrr")
	if g.Badge != "accept" {
		t.Errorf("while the hostile request runs, llrr gives %q", g.Badge)
	}
	t.Logf("a cheap request while the hostile one runs: answered in %v", time.Since(start))
	var res struct {
		Status int
		Error  string
		Ms     float64
	}
	js(t, ctx, `window.hostile`, &res)
	var restarts string
	js(t, ctx, `document.body.dataset.restarts || "0"`, &restarts)
	stopped := res.Status == 503 && strings.Contains(res.Error, "time limit exceeded") ||
		res.Status == 422 && strings.Contains(res.Error, "exceeds the limit")
	if !stopped || restarts != "0" || res.Ms > 14000 {
		t.Errorf("hostile decompile in the WebAssembly build: %d %q after %.0f ms (worker restarts %s; want the build's budget to stop it)", res.Status, res.Error, res.Ms, restarts)
	}
	t.Logf("the hostile request was answered after %.0f ms: %s (worker restarts: %s)", res.Ms, res.Error, restarts)

	// A computation that outlives the page's limit: the worker is
	// terminated, the request answered, and a new worker takes over.
	js(t, ctx, fmt.Sprintf(`(() => { LIMIT_MS.expensive = 300; LIMIT_MS.grace = 200; const t0 = performance.now();
	  window.hostile = worker("/api/decompile").call("POST", "/api/decompile", %q).then(r =>
	    ({Status: r.status, Error: JSON.parse(new TextDecoder().decode(r.bytes)).error || "", Ms: performance.now() - t0}));
	  return true; })()`, hostile), &ok)
	js(t, ctx, `window.hostile`, &res)
	before := restarts
	js(t, ctx, `document.body.dataset.restarts || "0"`, &restarts)
	if res.Status != 503 || !strings.Contains(res.Error, "stopped its worker") || restarts == before || res.Ms > 5000 {
		t.Errorf("past the page's limit: %d %q after %.0f ms, restarts %q", res.Status, res.Error, res.Ms, restarts)
	}
	js(t, ctx, `(() => { LIMIT_MS.expensive = 10000; LIMIT_MS.grace = 3000; delete document.getElementById("compile-result").dataset.state;
	  document.getElementById("compile-btn").click(); return true; })()`, &ok)
	settle(t, ctx, `document.getElementById("compile-result").dataset.state !== undefined`)
	var agree string
	js(t, ctx, `(document.getElementById("agree") || {}).textContent || document.getElementById("compile-error").textContent`, &agree)
	if !strings.Contains(agree, "agree") || strings.Contains(agree, "DISAGREE") {
		t.Errorf("compiling after the restart: %q", agree)
	}
}
