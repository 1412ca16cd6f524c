package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/brasp-dev/brasp/playground"
)

const siteUsage = "site [--src DIR] DIR"

func siteCmd(e *env, args []string) error {
	fs := newFlags(e, "site", siteUsage)
	src := fs.String("src", "", "build the WebAssembly module from the brasp checkout in `DIR` (default: the checkout around the working directory, or the module cache's copy of this version)")
	pos, err := parseFlags(e, fs, siteUsage, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return &exitError{code: 2, msg: fmt.Sprintf("site: want one output directory (usage: brasp %s)", siteUsage)}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	dir := *src
	if dir == "" {
		if dir, err = playground.ModuleSource(ctx); err != nil {
			return fmt.Errorf("site: %v", err)
		}
	}
	site, err := playground.BuildSite(ctx, dir)
	if err != nil {
		return fmt.Errorf("site: %v", err)
	}
	if err := site.Write(pos[0]); err != nil {
		return fmt.Errorf("site: %v", err)
	}
	fmt.Fprintf(e.stdout, "wrote the playground to %s (brasp.wasm: %d bytes); serve it with any static file server, e.g. python3 -m http.server -d %s\n", pos[0], len(site.Wasm), pos[0])
	return nil
}
