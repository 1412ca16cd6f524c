package main

import (
	"maps"
	"slices"
	"strconv"
	"time"
)

const serveUsage = "serve [--addr HOST:PORT] [--timeout D] [--max-body N] [--limit NAME=N]..."

// The playground's defaults (playground.DefaultTimeout and DefaultMaxBody;
// a test checks they agree).
const (
	serveDefaultTimeout = 10 * time.Second
	serveDefaultMaxBody = 1 << 20
)

// serveCmd checks the flags of serve and runs the playground server in
// brasp-playground (playground.go).
func serveCmd(e *env, args []string) error {
	fs := newFlags(e, "serve", serveUsage)
	addr := fs.String("addr", "127.0.0.1:8080", "listen on `HOST:PORT` (loopback by default; another host exposes the playground to the network)")
	timeout := fs.Duration("timeout", serveDefaultTimeout, "time limit per request")
	maxBody := fs.Int64("max-body", serveDefaultMaxBody, "largest request body in bytes")
	lim := addLimitFlag(fs)
	pos, err := parseFlags(e, fs, serveUsage, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageError(serveUsage, "unexpected argument %q", pos[0])
	}
	if lim.legacy != 0 {
		return &exitError{code: 2, msg: "serve: --limit takes NAME=N here (see brasp help limits)"}
	}
	if *timeout <= 0 || *maxBody <= 0 {
		return &exitError{code: 2, msg: "serve: --timeout and --max-body must be positive"}
	}
	pargs := []string{"serve", "--addr", *addr, "--timeout", timeout.String(), "--max-body", strconv.FormatInt(*maxBody, 10)}
	for _, name := range slices.Sorted(maps.Keys(lim.settings)) {
		pargs = append(pargs, "--limit", name+"="+strconv.FormatInt(lim.settings[name], 10))
	}
	return runPlayground(e, pargs)
}
