package playground

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/internal/defaults"
)

// Default limits of an API; see Config.
const (
	DefaultMaxBody        = 1 << 20
	DefaultMaxCheapBody   = 256 << 10
	DefaultTimeout        = 10 * time.Second
	DefaultCheapTimeout   = 2 * time.Second
	DefaultMaxWord        = 2000
	DefaultMaxPatternWord = 128
	DefaultMaxAttendWord  = 1000
	DefaultMaxCells       = 1 << 21
	// DefaultMaxCompileVectors bounds the programs the playground compiles:
	// a compiled model's parameters grow with the cube of the program.
	DefaultMaxCompileVectors = 32
	// DefaultMaxClassifyBytes bounds the memory of classifying a minimal
	// DFA and of its Krohn–Rhodes cascade.
	DefaultMaxClassifyBytes = 256 << 20
	// DefaultMaxMemory cuts the memory backstop (budget.Memory) of every
	// request: a computation that makes the server's live heap larger is
	// refused, naming the limit memory, whatever its other limits count.
	DefaultMaxMemory = 2 << 30
	// attendBudget and patternBudget bound the display-only work of
	// reporting attended positions (attention ops × n²) and the exact
	// attention pattern (heads × n² × width).
	attendBudget  = 1 << 25
	patternBudget = 1 << 25
)

// HTTP status codes of the answers (the API does not depend on net/http,
// so that the WebAssembly build stays small).
const (
	statusOK                  = 200
	statusBadRequest          = 400
	statusForbidden           = 403
	statusNotFound            = 404
	statusMethodNotAllowed    = 405
	statusRequestTooLarge     = 413
	statusUnprocessableEntity = 422
	statusInternalError       = 500
	statusUnavailable         = 503
)

// Config holds the limits of the playground. A zero field means its default.
type Config struct {
	// MaxBody is the largest request body an expensive endpoint (compile,
	// model, decompile, ltl, dfa, automaton) accepts, in bytes; larger
	// requests get 413 (DefaultMaxBody).
	MaxBody int64
	// MaxCheapBody is the largest body of a cheap endpoint (run, simcheck):
	// the smaller of MaxBody and DefaultMaxCheapBody by default.
	MaxCheapBody int64
	// Timeout bounds the computation of one request to an expensive
	// endpoint; past it the request gets 503 with a message naming the limit
	// (DefaultTimeout), and its budget is stopped.
	Timeout time.Duration
	// CheapTimeout bounds a cheap request (DefaultCheapTimeout, or Timeout
	// when that is smaller).
	CheapTimeout time.Duration
	// MaxWord is the longest word /api/run and /api/compile accept, in
	// symbols (DefaultMaxWord).
	MaxWord int
	// MaxPatternWord is the longest word for which /api/compile reports the
	// per-head attention pattern (DefaultMaxPatternWord).
	MaxPatternWord int
	// MaxAttendWord is the longest word for which /api/run reports which j
	// every attention operation attended to (DefaultMaxAttendWord).
	MaxAttendWord int
	// MaxCells is the largest table /api/run returns: vectors × word
	// length (DefaultMaxCells).
	MaxCells int
	// MaxCompileVectors is the largest program compile, model and
	// decompile accept, in vectors (DefaultMaxCompileVectors); the CLI
	// compiles larger ones.
	MaxCompileVectors int
	// MaxClassifyBytes bounds the memory of each construction on automata
	// (DefaultMaxClassifyBytes): the budget limits measured in bytes of
	// the subset construction, the image orbit, the monoids and the
	// Krohn–Rhodes cascade (ClassifyLimits) are cut to it unless Limits
	// sets them.
	MaxClassifyBytes int64
	// Concurrency bounds the number of expensive computations running at
	// once (GOMAXPROCS-1, at least 1, by default); further expensive
	// requests wait for a slot within their time limit. Cheap requests
	// have slots of their own (CheapConcurrency), so they never queue
	// behind expensive ones.
	Concurrency int
	// CheapConcurrency bounds the cheap computations running at once
	// (GOMAXPROCS by default).
	CheapConcurrency int
	// Limits are the budget settings of every computation (as --limit
	// NAME=N on the command line); nil for the playground's defaults.
	Limits budget.Settings
	// AllowAnyHost turns off the Host check, the server's protection
	// against DNS rebinding. By default a request that reached the server
	// on a loopback address (or through ServeHTTP without a connection) is
	// answered only if its Host header names a loopback host — localhost,
	// an address of 127.0.0.0/8 or [::1], with any port — and gets 403
	// otherwise: a page of another web site cannot then read the
	// playground through a name of its own that it makes resolve to
	// 127.0.0.1. A request that reached the server on another address
	// (brasp serve --addr with a non-loopback host, which exposes the
	// playground on purpose) is answered whatever its Host. Set
	// AllowAnyHost behind a reverse proxy on loopback that forwards
	// another Host, or to answer every Host on every interface when
	// listening on a non-loopback address such as 0.0.0.0 (where a
	// connection to 127.0.0.1 is otherwise still checked).
	AllowAnyHost bool

	// delay is added to every computation (tests of the time limit).
	delay time.Duration
}

// EffectiveLimits are the budget settings every computation of a playground
// with configuration cfg runs under: cfg.Limits over the playground's
// defaults.
func EffectiveLimits(cfg Config) budget.Settings { return cfg.withDefaults().Limits }

func (cfg Config) withDefaults() Config {
	defaults.Positive(&cfg.MaxBody, DefaultMaxBody)
	defaults.Positive(&cfg.MaxCheapBody, min(cfg.MaxBody, DefaultMaxCheapBody))
	defaults.Positive(&cfg.Timeout, DefaultTimeout)
	defaults.Positive(&cfg.CheapTimeout, min(cfg.Timeout, DefaultCheapTimeout))
	defaults.Positive(&cfg.MaxWord, DefaultMaxWord)
	defaults.Positive(&cfg.MaxPatternWord, DefaultMaxPatternWord)
	defaults.Positive(&cfg.MaxAttendWord, DefaultMaxAttendWord)
	defaults.Positive(&cfg.MaxCells, DefaultMaxCells)
	defaults.Positive(&cfg.MaxCompileVectors, DefaultMaxCompileVectors)
	defaults.Positive(&cfg.MaxClassifyBytes, DefaultMaxClassifyBytes)
	limits := budget.Settings{}
	for _, l := range ClassifyLimits {
		limits[l.Name] = min(l.Default, cfg.MaxClassifyBytes)
	}
	limits[budget.Memory.Name] = min(budget.Memory.Default, DefaultMaxMemory)
	for name, v := range cfg.Limits {
		limits[name] = v
	}
	cfg.Limits = limits
	defaults.Positive(&cfg.Concurrency, max(1, runtime.GOMAXPROCS(0)-1))
	defaults.Positive(&cfg.CheapConcurrency, runtime.GOMAXPROCS(0))
	return cfg
}

// API answers the playground's requests: the JSON endpoints under /api/,
// independent of how requests arrive (the HTTP server of `brasp serve`, or
// the WebAssembly build running in the page's Web Worker).
type API struct {
	cfg       Config
	endpoints map[string]*endpoint
	cheap     chan struct{} // slots of cheap computations
	expensive chan struct{} // slots of expensive computations
}

// Reply is the answer to one request.
type Reply struct {
	Status int
	// ContentType is application/json except for downloads.
	ContentType string
	// Filename is set for downloads (Content-Disposition: attachment).
	Filename string
	Body     []byte
}

// endpoint is one API path with its limits.
type endpoint struct {
	method string
	// cheap endpoints answer as the user types (run, the simulator check):
	// they have their own slots and a shorter time limit.
	cheap bool
	// compute answers a decoded request under b; it returns a value to
	// encode as JSON, or a *Reply for a download.
	compute func(a *API, b *budget.Budget, body []byte) (any, *apiError)
}

// NewAPI returns the playground's API with the given limits.
func NewAPI(cfg Config) *API {
	cfg = cfg.withDefaults()
	a := &API{
		cfg:       cfg,
		cheap:     make(chan struct{}, cfg.CheapConcurrency),
		expensive: make(chan struct{}, cfg.Concurrency),
	}
	a.endpoints = map[string]*endpoint{
		"/api/examples":  {method: "GET", cheap: true, compute: func(*API, *budget.Budget, []byte) (any, *apiError) { return Examples(), nil }},
		"/api/features":  {method: "GET", cheap: true, compute: func(*API, *budget.Budget, []byte) (any, *apiError) { return currentFeatures(), nil }},
		"/api/run":       {method: "POST", cheap: true, compute: post((*API).run)},
		"/api/simcheck":  {method: "POST", cheap: true, compute: post((*API).simcheck)},
		"/api/compile":   {method: "POST", compute: post((*API).compile)},
		"/api/model":     {method: "POST", compute: post((*API).model)},
		"/api/ltl":       {method: "POST", compute: post((*API).ltl)},
		"/api/dfa":       {method: "POST", compute: post((*API).dfa)},
		"/api/decompile": {method: "POST", compute: post((*API).decompile)},
		"/api/automaton": {method: "POST", compute: post((*API).automaton)},
		"/api/nonstrict": {method: "POST", compute: post((*API).nonStrict)},
	}
	return a
}

// MaxBody is the largest request body the endpoint at path accepts.
func (a *API) MaxBody(path string) int64 {
	if e, ok := a.endpoints[path]; ok && e.cheap {
		return a.cfg.MaxCheapBody
	}
	return a.cfg.MaxBody
}

// Call answers one request: method and path as in HTTP, body the request's
// JSON (nil for GET). The computation runs under a budget stopped at the
// endpoint's time limit or when ctx is done, in one of the endpoint class's
// slots, which it holds until it returns.
func (a *API) Call(ctx context.Context, method, path string, body []byte) *Reply {
	e, ok := a.endpoints[path]
	if !ok {
		return errorReply(&apiError{Status: statusNotFound, Message: fmt.Sprintf("no API endpoint %s %s (see /api/features and the package documentation)", method, path)})
	}
	if method != e.method {
		return errorReply(&apiError{Status: statusMethodNotAllowed, Message: fmt.Sprintf("method %s not allowed for %s: use %s", method, path, e.method)})
	}
	if max := a.MaxBody(path); int64(len(body)) > max {
		return errorReply(tooLarge(max))
	}
	v, ae := a.compute(ctx, e, body)
	if ae != nil {
		return errorReply(ae)
	}
	if r, ok := v.(*Reply); ok {
		return r
	}
	return jsonReply(statusOK, v)
}

func tooLarge(max int64) *apiError {
	return &apiError{Status: statusRequestTooLarge,
		Message: fmt.Sprintf("request too large: the limit is %d bytes (%s); shorten the program or the word", max, sizeString(max))}
}

// compute runs e on body in its own goroutine under a budget stopped at
// the endpoint's deadline, and answers when it returns or when the
// deadline passes, whichever comes first. A computation that takes its
// budget stops within microseconds of the deadline and frees its slot.
func (a *API) compute(parent context.Context, e *endpoint, body []byte) (any, *apiError) {
	timeout, slots := a.cfg.Timeout, a.expensive
	if e.cheap {
		timeout, slots = a.cfg.CheapTimeout, a.cheap
	}
	ctx, cancel := withDeadline(parent, time.Now().Add(timeout))
	// Answering stops the computation: a request abandoned at its deadline
	// (or by its client) stops at its budget's next look at the context.
	defer cancel()
	timeoutErr := &apiError{Status: statusUnavailable,
		Message: fmt.Sprintf("time limit exceeded: the request took longer than %v, the playground's limit per request; try a shorter word or a smaller program", timeout)}
	cancelled := func() *apiError {
		if parent.Err() != nil {
			return &apiError{Status: statusUnavailable, Message: "request cancelled"}
		}
		return timeoutErr
	}
	select {
	case slots <- struct{}{}:
	case <-ctx.Done():
		return nil, cancelled()
	}
	type result struct {
		v any
		e *apiError
	}
	done := make(chan result, 1)
	go func() {
		defer func() { <-slots }()
		defer func() {
			if p := recover(); p != nil {
				done <- result{e: &apiError{Status: statusInternalError, Message: fmt.Sprintf("internal error: %v (please report this with the input that caused it)", p)}}
			}
		}()
		if a.cfg.delay > 0 {
			select {
			case <-time.After(a.cfg.delay):
			case <-ctx.Done():
				done <- result{e: cancelled()}
				return
			}
		}
		v, ae := e.compute(a, budget.New(ctx, a.cfg.Limits), body)
		done <- result{v, ae}
	}()
	select {
	case res := <-done:
		if res.e != nil && res.e.stopped {
			return nil, cancelled()
		}
		return res.v, res.e
	case <-ctx.Done():
		select {
		case res := <-done: // finished as the deadline passed
			if res.e == nil || !res.e.stopped {
				return res.v, res.e
			}
		default:
		}
		return nil, cancelled()
	}
}

// post makes an endpoint's computation from a function of a decoded
// request: the body is decoded into a new Req first, strictly.
func post[Req any](f func(*API, *budget.Budget, *Req) (any, *apiError)) func(*API, *budget.Budget, []byte) (any, *apiError) {
	return func(a *API, b *budget.Budget, body []byte) (any, *apiError) {
		req := new(Req)
		if e := decode(body, req); e != nil {
			return nil, e
		}
		return f(a, b, req)
	}
}
