// Package playgroundcmd is the program brasp-playground, which runs the
// playground for the commands brasp serve and brasp site.
//
// The playground links net/http and crypto/tls, and through package net
// the C library's name resolver, which makes a binary dynamically linked:
// linked into brasp, they cost every command (a run, a conversion) about
// 1.3 ms of process start-up, against 2 ms for everything else. So brasp
// parses and checks the flags of serve and site itself and hands the
// checked request to this program, found next to the brasp executable, on
// the PATH, or built on first use (cmd/brasp, playground.go). Its
// arguments are brasp's flags, spelled the same way:
//
//	brasp-playground serve [--addr HOST:PORT] [--timeout D] [--max-body N] [--limit NAME=N]...
//	brasp-playground site [--src DIR] DIR
//
// Errors are printed as brasp prints them ("brasp: serve: ...").
package playgroundcmd

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/playground"
)

// Main runs brasp-playground with the given arguments and returns its exit
// status: 0, 1 for a failure, 2 for bad arguments. The first SIGINT or
// SIGTERM stops the server (or the site's build).
func Main(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop()
	}()
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: brasp-playground serve|site [FLAGS] (run by brasp serve and brasp site)")
		return 2
	}
	var err error
	switch args[0] {
	case "serve":
		err = serve(ctx, args[1:], stdout, stderr)
	case "site":
		err = site(ctx, args[1:], stdout)
	default:
		err = &usageError{fmt.Sprintf("unknown command %q (want serve or site)", args[0])}
	}
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, "brasp: "+err.Error())
	var u *usageError
	if errors.As(err, &u) {
		return 2
	}
	return 1
}

// usageError is a bad argument (exit status 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// limits is the repeatable --limit NAME=N flag.
type limits budget.Settings

func (l limits) String() string { return "" }

func (l limits) Set(s string) error { return budget.Settings(l).Set(s) }

func serve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addr := fs.String("addr", "127.0.0.1:8080", "listen on HOST:PORT")
	timeout := fs.Duration("timeout", playground.DefaultTimeout, "time limit per request")
	maxBody := fs.Int64("max-body", playground.DefaultMaxBody, "largest request body in bytes")
	lim := limits{}
	fs.Var(lim, "limit", "raise a limit: NAME=N (repeatable)")
	if err := fs.Parse(args); err != nil {
		return &usageError{"serve: " + err.Error()}
	}
	if fs.NArg() != 0 {
		return &usageError{fmt.Sprintf("serve: unexpected argument %q", fs.Arg(0))}
	}
	if *timeout <= 0 || *maxBody <= 0 {
		return &usageError{"serve: --timeout and --max-body must be positive"}
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("serve: %v", err)
	}
	// Bound to loopback, the playground answers only Host headers naming
	// loopback (against DNS rebinding); bound elsewhere on purpose, any Host.
	exposed := false
	if host, _, err := net.SplitHostPort(ln.Addr().String()); err == nil {
		if ip := net.ParseIP(host); ip != nil && !ip.IsLoopback() {
			exposed = true
		}
	}
	cfg := playground.Config{Timeout: *timeout, MaxBody: *maxBody, AllowAnyHost: exposed, Limits: budget.Settings(lim)}
	budget.ApplyMemoryLimit(playground.EffectiveLimits(cfg))
	srv := &http.Server{
		Handler:           playground.New(cfg),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		WriteTimeout:      *timeout + time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
	fmt.Fprintf(stdout, "brasp playground on http://%s/ (Ctrl-C stops it)\n", ln.Addr())
	if exposed {
		fmt.Fprintf(stderr, "brasp: warning: listening on %s, which is reachable from other machines\n", ln.Addr())
	}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %v", err)
	}
	return nil
}

func site(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("site", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	src := fs.String("src", "", "build the WebAssembly module from the brasp checkout in DIR")
	if err := fs.Parse(args); err != nil {
		return &usageError{"site: " + err.Error()}
	}
	if fs.NArg() != 1 {
		return &usageError{"site: want one output directory"}
	}
	dir := *src
	if dir == "" {
		var err error
		if dir, err = playground.ModuleSource(ctx); err != nil {
			return fmt.Errorf("site: %v", err)
		}
	}
	s, err := playground.BuildSite(ctx, dir)
	if err != nil {
		return fmt.Errorf("site: %v", err)
	}
	if err := s.Write(fs.Arg(0)); err != nil {
		return fmt.Errorf("site: %v", err)
	}
	fmt.Fprintf(stdout, "wrote the playground to %s (brasp.wasm: %d bytes); serve it with any static file server, e.g. python3 -m http.server -d %s\n", fs.Arg(0), len(s.Wasm), fs.Arg(0))
	return nil
}
