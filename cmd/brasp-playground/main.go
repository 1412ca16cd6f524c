// Command brasp-playground runs the playground for brasp serve and brasp
// site; brasp runs it (see package internal/playgroundcmd), and it may be
// run directly with the same flags:
//
//	brasp-playground serve [--addr HOST:PORT] [--timeout D] [--max-body N] [--limit NAME=N]...
//	brasp-playground site [--src DIR] DIR
package main

import (
	"os"

	"github.com/brasp-dev/brasp/internal/playgroundcmd"
)

func main() {
	os.Exit(playgroundcmd.Main(os.Args[1:], os.Stdout, os.Stderr))
}
