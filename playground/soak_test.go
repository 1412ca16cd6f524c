package playground

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brasp-dev/brasp/examples"
)

// hostileRequests are expensive requests a careless or hostile user sends:
// each is refused at a named limit or stopped at its deadline.
func hostileRequests() []struct{ path, body string } {
	// chain(n): n chained attention operations.
	chain := func(n int) string {
		var b strings.Builder
		b.WriteString("Q_a(i)\nQ_b(i)\nA0(i) := rightmost [j<i, Q_a(j)] Q_b(j) : 0\n")
		for k := 1; k < n; k++ {
			fmt.Fprintf(&b, "A%d(i) := rightmost [j<i, A%d(j) | Q_a(j)] !A%d(j) & Q_b(i) : A%d(i)\n", k, k-1, k-1, k-1)
		}
		return b.String()
	}
	js := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	return []struct{ path, body string }{
		{"/api/dfa", js(DFARequest{Program: kth(12)})},                       // classification over its memory budget
		{"/api/dfa", js(DFARequest{Program: kth(22)})},                       // exact semantics over its state limit
		{"/api/decompile", js(DecompileRequest{Program: kth(14)})},           // decompiler stopped at the deadline
		{"/api/compile", js(CompileRequest{Program: chain(100)})},            // refused: too many vectors to compile
		{"/api/compile", js(CompileRequest{Program: chain(30), Word: "ab"})}, // a large model, compiled
		{"/api/ltl", js(LTLRequest{Program: kth(400)})},
		// Constructions on automata that ran away before they took the
		// budget: classification of a 2^17-state DFA, the Krohn–Rhodes
		// cascades of saturating counters (their global states).
		{"/api/dfa", js(DFARequest{Program: kth(16)})},
		{"/api/automaton", js(AutomatonRequest{Kind: "dfa", Source: counterSource(20)})},
		{"/api/automaton", js(AutomatonRequest{Kind: "dfa", Source: counterSource(41)})},
		{"/api/compile", js(CompileRequest{Program: wideProgram(19), Word: "ab"})}, // a 2^19-row truth table
	}
}

// kth is a program for "the k-th symbol before the last is a", whose
// minimal DFA has 2^(k+1) states.
func kth(k int) string {
	var b strings.Builder
	b.WriteString("Q_a(i)\nQ_b(i)\nP1(i) := rightmost [j<i, 1] Q_a(j) : 0\n")
	for m := 2; m <= k; m++ {
		fmt.Fprintf(&b, "P%d(i) := rightmost [j<i, 1] P%d(j) : 0\n", m, m-1)
	}
	return b.String()
}

// soak runs cheap requests (runs of the presets, as the page sends while
// typing) from two clients and hostile requests from two others against a
// loopback server for d, and returns the cheap requests' latencies and the
// largest heap seen.
func soak(t testing.TB, srv *httptest.Server, d time.Duration) (cheap []time.Duration, failures []string, peakHeap uint64) {
	exs := Examples()
	var mu sync.Mutex
	stop := make(chan struct{})
	var wg sync.WaitGroup
	post := func(path, body string) (int, []byte, time.Duration) {
		start := time.Now()
		r, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			return 0, []byte(err.Error()), time.Since(start)
		}
		defer r.Body.Close()
		var buf bytes.Buffer
		buf.ReadFrom(r.Body)
		return r.StatusCode, buf.Bytes(), time.Since(start)
	}
	for c := 0; c < 2; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for k := c; ; k++ {
				select {
				case <-stop:
					return
				default:
				}
				ex := exs[k%len(exs)]
				body, _ := json.Marshal(RunRequest{Program: ex.Source, Word: ex.Word[:1+k%len(ex.Word)]})
				code, data, lat := post("/api/run", string(body))
				mu.Lock()
				cheap = append(cheap, lat)
				if code != 200 {
					failures = append(failures, fmt.Sprintf("run %s: %d %s", ex.Name, code, data))
				}
				mu.Unlock()
			}
		}(c)
	}
	hostile := hostileRequests()
	var hostileCount atomic.Int64
	for c := 0; c < 2; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for k := c; ; k++ {
				select {
				case <-stop:
					return
				default:
				}
				h := hostile[k%len(hostile)]
				code, data, _ := post(h.path, h.body)
				hostileCount.Add(1)
				var e struct{ Error string }
				if code != 200 && (json.Unmarshal(data, &e) != nil || e.Error == "") {
					mu.Lock()
					failures = append(failures, fmt.Sprintf("hostile %s: %d without a JSON error: %q", h.path, code, data))
					mu.Unlock()
				}
			}
		}(c)
	}
	done := time.After(d)
	for sampling := true; sampling; {
		select {
		case <-done:
			sampling = false
		case <-time.After(20 * time.Millisecond):
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peakHeap = max(peakHeap, ms.HeapInuse)
		}
	}
	close(stop)
	wg.Wait()
	t.Logf("soak: %d cheap and %d hostile requests in %v", len(cheap), hostileCount.Load(), d)
	return cheap, failures, peakHeap
}

func percentile(ds []time.Duration, p float64) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

// TestSoak checks that, while hostile requests run, cheap requests are
// answered (never queued behind the expensive ones), every answer is JSON,
// the heap stays within a budget, and the server answers normally after.
// The latencies are logged; BenchmarkSoak reports them.
func TestSoak(t *testing.T) {
	// The default limits: an ordinary compilation on a busy test machine
	// may take longer than a shorter limit without anything being wrong.
	s := New(Config{})
	srv := httptest.NewServer(s)
	defer srv.Close()
	cheap, failures, peak := soak(t, srv, 5*time.Second)
	for _, f := range failures[:min(len(failures), 10)] {
		t.Error(f)
	}
	if len(cheap) < 20 {
		t.Fatalf("only %d cheap requests were answered in 5 s", len(cheap))
	}
	p50, p99 := percentile(cheap, 0.5), percentile(cheap, 0.99)
	t.Logf("cheap requests while hostile ones run: p50 %v, p99 %v, max %v; peak heap %d MiB", p50, p99, slices.Max(cheap), peak>>20)
	// Cheap requests have their own slots: none waits for an expensive
	// computation (2 s) to finish.
	if max := slices.Max(cheap); max > 1500*time.Millisecond {
		t.Errorf("a cheap request took %v: it waited behind expensive ones", max)
	}
	const heapBudget = 1 << 30
	if peak > heapBudget {
		t.Errorf("peak heap %d MiB, over the budget of %d MiB", peak>>20, heapBudget>>20)
	}
	// The server answers normally right after.
	var res RunResponse
	call(t, s, "/api/run", RunRequest{Program: exampleSource(t, examples.Dyck), Word: "llrr"}, &res)
	var c CompileResponse
	call(t, s, "/api/compile", CompileRequest{Program: exampleSource(t, examples.Dyck), Word: "llrr"}, &c)
	if res.Accept == nil || !*res.Accept || c.Agree == nil || !*c.Agree {
		t.Errorf("after the soak: run %v, compile %v", res.Accept, c.Agree)
	}
}

// BenchmarkSoak reports the cheap requests' latency percentiles while
// hostile requests run (one soak of 10 s per iteration).
func BenchmarkSoak(b *testing.B) {
	srv := httptest.NewServer(New(Config{Timeout: 2 * time.Second}))
	defer srv.Close()
	for range b.N {
		cheap, failures, peak := soak(b, srv, 10*time.Second)
		if len(failures) > 0 {
			b.Fatal(failures[0])
		}
		b.ReportMetric(float64(percentile(cheap, 0.5).Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(percentile(cheap, 0.99).Microseconds())/1000, "p99-ms")
		b.ReportMetric(float64(len(cheap)), "cheap-requests")
		b.ReportMetric(float64(peak>>20), "peak-heap-MiB")
	}
}
