package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/brasp-dev/brasp/playground"
)

const serveUsage = "serve [--addr HOST:PORT] [--timeout D] [--max-body N] [--limit NAME=N]..."

func serveCmd(e *env, args []string) error {
	fs := newFlags(e, "serve", serveUsage)
	addr := fs.String("addr", "127.0.0.1:8080", "listen on `HOST:PORT` (loopback by default; another host exposes the playground to the network)")
	timeout := fs.Duration("timeout", playground.DefaultTimeout, "time limit per request")
	maxBody := fs.Int64("max-body", playground.DefaultMaxBody, "largest request body in bytes")
	lim := addLimitFlag(fs)
	pos, err := parseFlags(e, fs, serveUsage, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return &exitError{code: 2, msg: fmt.Sprintf("serve: unexpected argument %q (usage: brasp %s)", pos[0], serveUsage)}
	}
	if lim.legacy != 0 {
		return &exitError{code: 2, msg: "serve: --limit takes NAME=N here (see brasp help limits)"}
	}
	if *timeout <= 0 || *maxBody <= 0 {
		return &exitError{code: 2, msg: "serve: --timeout and --max-body must be positive"}
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
	srv := &http.Server{
		Handler:           playground.New(playground.Config{Timeout: *timeout, MaxBody: *maxBody, AllowAnyHost: exposed, Limits: lim.settings}),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		WriteTimeout:      *timeout + time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
	fmt.Fprintf(e.stdout, "brasp playground on http://%s/ (Ctrl-C stops it)\n", ln.Addr())
	if exposed {
		fmt.Fprintf(e.stderr, "brasp: warning: listening on %s, which is reachable from other machines\n", ln.Addr())
	}
	go func() {
		<-e.ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %v", err)
	}
	return nil
}
