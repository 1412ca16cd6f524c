package playground

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// statusRecorder keeps the status a handler answers.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

// TestStaticSiteLoad loads the static site in headless Chromium, served by
// a plain file server, and checks that the page asks it only for files the
// site has (no /api/features probe, no /favicon.ico: the page knows it is
// the static build and carries its icon) and that nothing fails: no request
// answered 4xx or 5xx or failing in the browser, no error in the console.
func TestStaticSiteLoad(t *testing.T) {
	chromium(t)
	dir, _ := builtSite(t)
	var mu sync.Mutex
	var served []string // "path status"
	files := http.FileServer(http.Dir(dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		files.ServeHTTP(rec, r)
		mu.Lock()
		served = append(served, fmt.Sprintf("%s %d", r.URL.Path, rec.status))
		mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	ctx := browser(t, 300*time.Second)
	var problems []string
	note := func(format string, args ...any) {
		mu.Lock()
		problems = append(problems, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	if err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *network.EventResponseReceived:
			if e.Response.Status >= 400 {
				note("response %d for %s", e.Response.Status, e.Response.URL)
			}
		case *network.EventLoadingFailed:
			note("request failed: %s (%s)", e.ErrorText, e.Type)
		case *runtime.EventExceptionThrown:
			note("exception: %s", e.ExceptionDetails.Text)
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning {
				note("console.%s", e.Type)
			}
		case *log.EventEntryAdded:
			if e.Entry.Level == log.EntryLevelError || e.Entry.Level == log.EntryLevelWarning {
				note("console (%s): %s", e.Entry.Source, e.Entry.Text)
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	do(t, ctx, chromedp.Navigate(srv.URL+"/"))
	settle(t, ctx, `document.body.dataset.ready === "1" && document.body.dataset.firstResult !== undefined`)
	var runtimeKind string
	js(t, ctx, `document.body.dataset.runtime`, &runtimeKind)
	if runtimeKind != "wasm" {
		t.Errorf("the page runs on %q, want the WebAssembly build", runtimeKind)
	}
	var icon string
	js(t, ctx, `document.querySelector('link[rel="icon"]').href.slice(0, 19)`, &icon)
	if icon != "data:image/svg+xml," {
		t.Errorf("the page's icon is %q, want an inline SVG", icon)
	}
	time.Sleep(time.Second) // a late request (the icon is asked for after load)
	mu.Lock()
	defer mu.Unlock()
	for _, s := range served {
		path, status, _ := strings.Cut(s, " ")
		if status != "200" && status != "304" || strings.HasPrefix(path, "/api/") || path == "/favicon.ico" {
			problems = append(problems, "served "+s)
		}
	}
	if len(problems) > 0 {
		t.Errorf("loading the static page:\n%s", strings.Join(problems, "\n"))
	}
	t.Logf("requests served: %s", strings.Join(served, ", "))
}
