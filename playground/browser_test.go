package playground

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/internal/testkit"
	"github.com/brasp-dev/brasp/transformer/compile"
	"github.com/chromedp/chromedp"
)

// chromium returns the path of the Chromium binary, skipping the test when
// there is none unless CI is set.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("Chromium is not installed, and CI is set: the browser tests must run (.ci/run installs chromium)")
	}
	t.Skip("Chromium is not installed (set CI to make this a failure)")
	return ""
}

// browser starts headless Chromium on a fresh profile and returns a
// context for chromedp actions, bounded by timeout.
func browser(t *testing.T, timeout time.Duration) context.Context {
	t.Helper()
	// chromedp's defaults are Puppeteer's: among them disable-dev-shm-usage,
	// without which Chromium hangs once it fills a container's small
	// /dev/shm (64 MB under Docker, where CI runs), and no throttling of
	// background timers, which the page's debounced requests rely on.
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1400, 1000),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	tctx, cancelT := context.WithTimeout(ctx, timeout)
	t.Cleanup(func() { cancelT(); cancelC(); cancelA() })
	return tctx
}

// js evaluates a JavaScript expression and decodes its value into out.
func js[T any](t *testing.T, ctx context.Context, expr string, out *T) {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	*out = v
}

// do runs actions that return nothing.
func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// settle waits until the page has no request in flight and cond holds.
// A step that takes long is logged, and a step that never settles fails
// with a snapshot of the page's status fields, so that a failure on a
// loaded CI machine says what the page was showing.
//
// It evaluates the condition from Go every 10 ms rather than with
// chromedp.Poll: Poll first waits for chromedp's copy of the document
// root, without its own timeout, and was seen to wait there until the
// test's deadline (4 of 17 runs on a loaded machine, at the same step)
// while the page was idle and the condition held.
func settle(t *testing.T, ctx context.Context, cond string) {
	t.Helper()
	expr := fmt.Sprintf(`!!(document.body && document.body.dataset.pending === "0" && (%s))`, cond)
	start := time.Now()
	deadline := start.Add(60 * time.Second)
	errs := 0
	var last error
	for {
		ectx, cancel := context.WithTimeout(ctx, 10*time.Second)
		ok, err := chromedp.Run(ectx, chromedp.Evaluate[bool](expr))
		cancel()
		if err == nil && ok {
			if d := time.Since(start); d > 2*time.Second {
				t.Logf("slow step (%v, %d failed evaluations): %s", d, errs, cond)
			}
			return
		}
		// An evaluation fails while a navigation replaces the page.
		if err != nil {
			errs++
			last = err
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			t.Fatalf("waiting for %s: not true after %v (%d failed evaluations, the last: %v)\npage: %s", cond, time.Since(start), errs, last, pageSnapshot(ctx))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// pageSnapshot returns the page's status fields as JSON, read with a fresh
// deadline so that it works after the test's own context has expired.
func pageSnapshot(ctx context.Context) string {
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	v, err := chromedp.Run(sctx, chromedp.Evaluate[string](`JSON.stringify((() => {
	  const t = id => { const e = document.getElementById(id); return e ? e.textContent.slice(0, 200) : null; };
	  return {pending: document.body.dataset.pending, badge: t("badge"), badgeWord: (document.getElementById("badge") || {dataset: {}}).dataset.word,
	    status: t("status"), wordError: t("word-error"), compileState: (document.getElementById("compile-result") || {dataset: {}}).dataset.state,
	    compileError: t("compile-error"), layers: t("c-layers"), ltlOut: t("ltl-out"), ltlError: t("ltl-error"), href: location.href.slice(0, 200)};
	})())`))
	if err != nil {
		return "(unreadable: " + err.Error() + ")"
	}
	return v
}

// gridState is what the page shows after a run.
type gridState struct {
	Badge string            `json:"badge"`
	Class string            `json:"class"`
	Word  string            `json:"word"`
	Rows  map[string]string `json:"rows"`
	Out   string            `json:"out"`
}

const readGrid = `(() => {
  const rows = {};
  document.querySelectorAll("#grid tbody tr[data-name]").forEach(tr => {
    rows[tr.dataset.name] = [...tr.querySelectorAll("td")].map(td => td.textContent).join("");
  });
  const out = document.querySelector("#grid tr.outrow");
  const b = document.getElementById("badge");
  return {badge: b.textContent, class: b.className, word: b.dataset.word, rows,
          out: out ? [...out.querySelectorAll("td")].map(td => td.textContent).join("") : ""};
})()`

// typeWord clears the word box and types w key by key, then waits for the
// page to show the result for w.
func typeWord(t *testing.T, ctx context.Context, w string) gridState {
	t.Helper()
	var ok bool
	js(t, ctx, `(() => { const e = document.getElementById("word"); e.value = ""; e.focus(); return true; })()`, &ok)
	do(t, ctx, chromedp.SendKeys("#word", w))
	settle(t, ctx, fmt.Sprintf(`document.getElementById("badge").dataset.word === %q`, w))
	var g gridState
	js(t, ctx, readGrid, &g)
	return g
}

// setProgram replaces the editor's text as if typed and waits for the run.
func setProgram(t *testing.T, ctx context.Context, src string) {
	t.Helper()
	var ok bool
	js(t, ctx, fmt.Sprintf(`(() => { const p = document.getElementById("program"); p.value = %q;
	  window.testWant = p.value; p.dispatchEvent(new Event("input")); return true; })()`, src), &ok)
	settle(t, ctx, `document.getElementById("badge").dataset.program === window.testWant`)
}

func TestBrowser(t *testing.T) {
	chromium(t)
	t.Parallel()
	start := time.Now()
	srv := httptest.NewServer(New(Config{MaxBody: 64 << 10}))
	defer srv.Close()
	ctx := browser(t, 240*time.Second)
	do(t, ctx, chromedp.Navigate(srv.URL+"/"))
	t.Logf("browser started and page loaded in %v", time.Since(start))
	settle(t, ctx, `document.body.dataset.ready === "1" && document.getElementById("badge").dataset.word !== undefined`)

	// Every preset: load it, type a word, read the badge and the grid,
	// compile, compare the verdicts.
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
			g := typeWord(t, ctx, word)
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
					t.Errorf("%s on %q: grid row %s = %q, want %q", ex.Name, word, v.Name, g.Rows[v.Name], want)
				}
			}
			if len(g.Rows) != len(p.Vectors) {
				t.Errorf("%s: %d grid rows, want %d", ex.Name, len(g.Rows), len(p.Vectors))
			}
			if p.IsTransducer() {
				out, _ := tr.Transduce()
				want := p.Output.Symbols.FormatWord(out)
				if g.Badge != want || !strings.Contains(g.Class, "output") || g.Out != strings.ReplaceAll(want, " ", "") {
					t.Errorf("%s on %q: badge %q (%s), output row %q, want %q", ex.Name, word, g.Badge, g.Class, g.Out, want)
				}
			} else {
				want := map[bool]string{true: "accept", false: "reject"}[tr.Accept()]
				if g.Badge != want || !strings.Contains(g.Class, want) {
					t.Errorf("%s on %q: badge %q, want %q", ex.Name, word, g.Badge, want)
				}
			}
		}
		// Compile and compare the two verdicts.
		js(t, ctx, `(() => { delete document.getElementById("compile-result").dataset.state;
		  document.getElementById("compile-btn").click(); return true; })()`, &ok)
		settle(t, ctx, `document.getElementById("compile-result").dataset.state !== undefined`)
		var c struct {
			State, Program, Model, Agree, Error, Layers string
			Heads                                       int
		}
		js(t, ctx, `(() => { const t = id => { const e = document.getElementById(id); return e ? e.textContent : ""; };
		  return {State: document.getElementById("compile-result").dataset.state, Program: t("program-verdict"),
		    Model: t("model-verdict"), Agree: t("agree"), Error: t("compile-error"), Layers: t("c-layers"),
		    Heads: document.querySelectorAll("#heads .head table.pattern").length}; })()`, &c)
		if p.IsTransducer() {
			if c.State != "error" || !strings.Contains(c.Error, "transducer") {
				t.Errorf("%s: compiling a transducer: %+v", ex.Name, c)
			}
			continue
		}
		w, _ := p.Alphabet.ParseWord(ex.Word[:len(ex.Word)/2+1])
		want := map[bool]string{true: "accept", false: "reject"}[p.Accepts(w)]
		if c.State != "ok" || c.Program != want || c.Model != want || !strings.Contains(c.Agree, "agree") || c.Layers == "" || c.Heads == 0 {
			t.Errorf("%s: compile panel %+v, want both verdicts %q", ex.Name, c, want)
		}
	}
	t.Logf("presets done in %v", time.Since(start))

	// The paper's example: Figure 2, a click on an attention cell, the
	// multi-head compilation, the LTL formula, the URL.
	var ok bool
	js(t, ctx, `(() => { const s = document.getElementById("preset"); s.value = "dyck1_depth2.brasp";
	  s.dispatchEvent(new Event("change")); return true; })()`, &ok)
	g := typeWord(t, ctx, "llrrllrlrr")
	for name, want := range figure2 {
		if g.Rows[name] != want {
			t.Errorf("Figure 2: %s = %s, want %s", name, g.Rows[name], want)
		}
	}
	// B_l(i) := rightmost [j<i, !I(j)] Q_l(j) at i = 8 reads j = 5.
	var att struct{ Attended, Cols string }
	js(t, ctx, `(() => { document.querySelector('#grid tr[data-name="B_l"] td[data-col="7"]').click();
	  const info = document.getElementById("info");
	  return {Attended: info.dataset.attended, Cols: [...document.querySelectorAll("#grid thead th.attended")].map(e => e.dataset.col).join(",")}; })()`, &att)
	if att.Attended != "5" || att.Cols != "4" {
		t.Errorf("B_l at i=8: attended %q, highlighted columns %q; want j = 5", att.Attended, att.Cols)
	}
	js(t, ctx, `(() => { document.getElementById("opt-multihead").click(); return true; })()`, &ok)
	settle(t, ctx, `document.getElementById("c-layers") && document.getElementById("c-layers").textContent === "3"`)
	js(t, ctx, `(() => { document.getElementById("ltl-btn").click(); return true; })()`, &ok)
	settle(t, ctx, `document.getElementById("ltl-out").textContent.startsWith("alphabet l r")`)
	// LTL → program, loaded into the editor: φ2 of §3.3, Σ*#b*#.
	js(t, ctx, `(() => { document.getElementById("ltl-to-prog").click(); return true; })()`, &ok)
	settle(t, ctx, `!document.getElementById("ltl-load").disabled`)
	js(t, ctx, `(() => { document.getElementById("ltl-load").click(); return true; })()`, &ok)
	settle(t, ctx, `document.getElementById("badge").dataset.program === document.getElementById("program").value`)
	var phi2 []string
	for _, w := range []string{`a # b b #`, `a # a #`} {
		g := typeWord(t, ctx, w)
		phi2 = append(phi2, g.Badge)
	}
	if phi2[0] != "accept" || phi2[1] != "reject" {
		t.Errorf("the program of φ2 gives %v on a#bb# and a#a#, want accept, reject", phi2)
	}
	js(t, ctx, `(() => { const s = document.getElementById("preset"); s.value = "dyck1_depth2.brasp";
	  s.dispatchEvent(new Event("change")); return true; })()`, &ok)
	typeWord(t, ctx, "llrrllrlrr")
	js(t, ctx, `(() => { document.querySelector('#grid tr[data-name="B_l"] td[data-col="7"]').click();
	  document.getElementById("ltl-btn").click(); return true; })()`, &ok)
	settle(t, ctx, `document.getElementById("ltl-out").textContent.startsWith("alphabet l r") && document.getElementById("c-layers").textContent === "3"`)
	var decomp bool
	js(t, ctx, `!document.getElementById("decompile-box").hidden`, &decomp)
	if decomp {
		js(t, ctx, `(() => { document.getElementById("decompile-btn").click(); return true; })()`, &ok)
		settle(t, ctx, `document.getElementById("decompile-out").textContent !== "" || document.getElementById("decompile-error").textContent !== ""`)
		var eq string
		js(t, ctx, `document.getElementById("decompile-meta").dataset.equivalent`, &eq)
		if eq != "true" {
			t.Errorf("decompiled Dyck model: equivalent = %q", eq)
		}
	}
	var dfa bool
	js(t, ctx, `!document.getElementById("panel-dfa").hidden`, &dfa)
	if dfa {
		js(t, ctx, `(() => { document.getElementById("dfa-btn").click(); return true; })()`, &ok)
		settle(t, ctx, `document.querySelector("#dfa-svg svg") !== null || document.getElementById("dfa-error").textContent !== ""`)
		var d struct {
			States int
			Class  string
		}
		js(t, ctx, `({States: document.querySelectorAll("#dfa-svg g.state").length, Class: document.getElementById("dfa-class").textContent})`, &d)
		if d.States < 3 || !strings.Contains(d.Class, "star-free: yes") {
			t.Errorf("DFA panel: %d states drawn, classification %q", d.States, d.Class)
		}
	}
	var auto bool
	js(t, ctx, `!document.getElementById("automaton-box").hidden`, &auto)
	if auto {
		// A regular expression for L_{1,2} → classification → Krohn–Rhodes
		// program → the editor.
		js(t, ctx, `(() => { document.getElementById("auto-btn").click(); return true; })()`, &ok)
		settle(t, ctx, `!document.getElementById("auto-load").disabled || document.getElementById("auto-errors").textContent !== ""`)
		var class string
		js(t, ctx, `document.getElementById("auto-class").textContent`, &class)
		if !strings.Contains(class, "star-free: yes") {
			t.Errorf("automaton panel: %q", class)
		}
		// L_{1,2} is not stutter-invariant: no Thm 5.2 program offered.
		// (a+b+)+ is: its causal program, with only rightmost [j<=i, ...].
		js(t, ctx, `document.querySelector("#auto-class .nonstrict") === null`, &ok)
		if !ok {
			t.Errorf("automaton panel: a non-strict program offered for L_{1,2}")
		}
		js(t, ctx, `(() => { document.getElementById("auto-in").value = "alphabet a b\n(a+b+)+\n"; document.getElementById("auto-btn").click(); return true; })()`, &ok)
		settle(t, ctx, `document.querySelector("#auto-class .nonstrict") !== null`)
		js(t, ctx, `(() => { document.querySelectorAll("#auto-class .nonstrict button")[1].click(); return true; })()`, &ok)
		settle(t, ctx, `document.querySelector("#auto-class .nonstrict pre").textContent !== "" || document.querySelector("#auto-class .nonstrict .error-line").textContent !== ""`)
		var causal string
		js(t, ctx, `document.querySelector("#auto-class .nonstrict pre").textContent`, &causal)
		if !strings.Contains(causal, "rightmost [j<=i,") || strings.Contains(causal, "leftmost") || strings.Contains(causal, "j<i") {
			t.Errorf("the causal program of (a+b+)+: %q", causal)
		}
		js(t, ctx, `(() => { document.getElementById("auto-in").value = "alphabet l r\n(l (lr)* r)*\n"; return true; })()`, &ok)
	}
	screenshot(t, ctx)

	// A link reproduces the session.
	var href string
	js(t, ctx, `location.href`, &href)
	u, err := url.Parse(href)
	if err != nil || !strings.Contains(u.Fragment, "w=llrrllrlrr") {
		t.Fatalf("the URL %q does not hold the word", href)
	}
	// Multi-head was clicked on a compiled session, layer norm was not.
	if q, err := url.ParseQuery(u.Fragment); err != nil || q.Get("mh") != "1" || q.Get("c") != "1" || q.Has("ln") {
		t.Errorf("the URL %q does not hold the compile options (mh=1, c=1, no ln)", href)
	}
	custom := "Q_a(i)\nQ_b(i)\nP(i) := rightmost [j<i, 1] Q_a(j) : 0\nY(i) := P(i) & Q_b(i)\n"
	link := srv.URL + "/#p=" + url.QueryEscape(custom) + "&w=" + url.QueryEscape("aab")
	link = strings.ReplaceAll(link, "+", "%20")
	do(t, ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(link))
	settle(t, ctx, `document.body.dataset.ready === "1" && document.getElementById("badge").dataset.word === "aab"`)
	var prog string
	js(t, ctx, `document.getElementById("program").value`, &prog)
	js(t, ctx, readGrid, &g)
	if prog != custom || g.Badge != "accept" || g.Rows["Y"] != "001" {
		t.Errorf("the link gave program %q, badge %q, Y %q", prog, g.Badge, g.Rows["Y"])
	}
	checkCompileLink(t, ctx, srv.URL, custom, false, false)
	// A link with the compile options restores the checkboxes and the
	// compile panel, for each combination.
	for _, opts := range [][2]bool{{true, true}, {true, false}, {false, true}} {
		checkCompileLink(t, ctx, srv.URL, custom, opts[0], opts[1])
	}

	// The Krohn–Rhodes program of the expression, loaded into the editor.
	if auto {
		js(t, ctx, `(() => { document.getElementById("auto-btn").click(); return true; })()`, &ok)
		settle(t, ctx, `!document.getElementById("auto-load").disabled`)
		js(t, ctx, `(() => { document.getElementById("auto-load").click(); return true; })()`, &ok)
		settle(t, ctx, `document.getElementById("badge").dataset.program === document.getElementById("program").value`)
		for w, want := range map[string]string{"llrrlr": "accept", "lllrrr": "reject"} {
			if g := typeWord(t, ctx, w); g.Badge != want {
				t.Errorf("the Krohn–Rhodes program of L_{1,2} on %s: %q, want %q", w, g.Badge, want)
			}
		}
	}

	// Bad input through the page: invalid syntax, a huge program, malformed
	// JSON; each gives a clear error and the page keeps working.
	setProgram(t, ctx, "Q_a(i)\nQ_b(i)\nY(i) := rightmost [j<i, 1] Q_c(j) : 0\n")
	var errs struct {
		Badge, First, Gutter, Mark string
		Stale                      bool
	}
	js(t, ctx, `({Badge: document.getElementById("badge").textContent,
	  First: (document.querySelector("#errors li") || {}).textContent || "",
	  Stale: document.getElementById("grid").classList.contains("stale"),
	  Gutter: [...document.querySelectorAll("#gutter .err")].map(e => e.textContent).join(","),
	  Mark: (document.querySelector("#backdrop mark") || {}).textContent || ""})`, &errs)
	if errs.Badge != "error" || !strings.HasPrefix(errs.First, "3:28: ") || !strings.Contains(errs.First, "Q_c") || errs.Gutter != "3" || errs.Mark != "Q_c" || !errs.Stale {
		t.Errorf("invalid syntax: %+v", errs)
	}
	huge := strings.Repeat("# padding\n", 8000) + custom
	setProgram(t, ctx, huge)
	js(t, ctx, `({Badge: document.getElementById("badge").textContent,
	  First: (document.querySelector("#errors li") || {}).textContent || "", Gutter: "", Mark: ""})`, &errs)
	if errs.Badge != "error" || !strings.Contains(errs.First, "request too large") || !strings.Contains(errs.First, "65536 bytes") {
		t.Errorf("huge program: %+v", errs)
	}
	var status struct {
		Status int
		Error  string
	}
	js(t, ctx, `fetch("/api/run", {method: "POST", body: '{"program": '}).then(async r => ({Status: r.status, Error: (await r.json()).error}))`, &status)
	if status.Status != 400 || !strings.HasPrefix(status.Error, "malformed JSON request") {
		t.Errorf("malformed JSON from the page: %+v", status)
	}
	setProgram(t, ctx, custom)
	g = typeWord(t, ctx, "ab")
	if g.Badge != "accept" {
		t.Errorf("after the bad input the page shows %q for ab", g.Badge)
	}
	var errCount int
	js(t, ctx, `document.querySelectorAll("#errors li").length`, &errCount)
	if errCount != 0 {
		t.Errorf("%d errors still shown", errCount)
	}
	t.Logf("browser test took %v", time.Since(start))
}

// checkCompileLink opens a link to program on the word aab with the
// given compile options (and, when one is set, c=1: the compile panel in
// use) and checks that the page restores the checkboxes and shows the
// model those options compile.
func checkCompileLink(t *testing.T, ctx context.Context, base, program string, multihead, layernorm bool) {
	t.Helper()
	frag := "p=" + strings.ReplaceAll(url.QueryEscape(program), "+", "%20") + "&w=aab"
	compiled := multihead || layernorm
	if multihead {
		frag += "&mh=1"
	}
	if layernorm {
		frag += "&ln=1"
	}
	if compiled {
		frag += "&c=1"
	}
	do(t, ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(base+"/#"+frag))
	cond := `document.body.dataset.ready === "1" && document.getElementById("badge").dataset.word === "aab"`
	if compiled {
		cond += ` && document.getElementById("compile-result").dataset.state !== undefined`
	}
	settle(t, ctx, cond)
	var got struct {
		MultiHead, LayerNorm bool
		State, Width, Heads  string
		Hash                 string
	}
	js(t, ctx, `(() => { const t = id => { const e = document.getElementById(id); return e ? e.textContent : ""; };
	  return {MultiHead: document.getElementById("opt-multihead").checked, LayerNorm: document.getElementById("opt-layernorm").checked,
	    State: document.getElementById("compile-result").dataset.state || "", Width: t("c-width"), Heads: t("c-heads"),
	    Hash: location.hash}; })()`, &got)
	name := fmt.Sprintf("link with multihead=%v layernorm=%v", multihead, layernorm)
	if got.MultiHead != multihead || got.LayerNorm != layernorm {
		t.Errorf("%s: checkboxes multi-head %v, layer norm %v", name, got.MultiHead, got.LayerNorm)
	}
	// The page keeps the session in the fragment: the same fields.
	want, _ := url.ParseQuery(frag)
	if q, err := url.ParseQuery(strings.TrimPrefix(got.Hash, "#")); err != nil || fmt.Sprint(q) != fmt.Sprint(want) {
		t.Errorf("%s: the page rewrote the fragment to %q", name, got.Hash)
	}
	if !compiled {
		if got.State != "" {
			t.Errorf("%s: the compile panel shows %q without c=1", name, got.State)
		}
		return
	}
	p, err := brasp.Parse("link", []byte(program))
	if err != nil {
		t.Fatal(err)
	}
	m, err := compile.Compile(nil, p, compile.Options{MultiHead: multihead, LayerNorm: layernorm})
	if err != nil {
		t.Fatal(err)
	}
	if got.State != "ok" || got.Width != fmt.Sprint(m.Width) || got.Heads != fmt.Sprint(m.NumHeads()) {
		t.Errorf("%s: compile panel %q, width %s, heads %s; want the model of width %d with %d heads", name, got.State, got.Width, got.Heads, m.Width, m.NumHeads())
	}
}

// screenshot saves a full-page screenshot under os.TempDir(), logs its
// path, and with -update copies it to testdata/screenshot.png.
func screenshot(t *testing.T, ctx context.Context) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp(os.TempDir(), "brasp-playground-")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "screenshot.png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
	if *testkit.Update {
		if err := os.WriteFile(filepath.Join("testdata", "screenshot.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
