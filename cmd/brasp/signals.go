package main

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// signalDelay is how long a command runs before SIGINT and SIGTERM are
// caught. Catching them costs a thread blocked for the signals (about
// 0.35 ms of process CPU, a seventh of a small conversion), which commands
// that finish in milliseconds need not pay: the brasp program (main) waits
// 20 ms, long before any construction could be worth stopping gracefully,
// and a signal before then ends the process as the default action does
// (exit status 130 in a shell, as after "brasp: interrupted"). Main called
// in-process (tests) catches them at once.
var signalDelay time.Duration

// catchSignals returns a context that the first SIGINT or SIGTERM after
// delay cancels; after that first signal the default action is restored,
// so a second one kills the process. stop releases the signals.
func catchSignals(delay time.Duration) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var (
		mu      sync.Mutex
		stopped bool
		ch      chan os.Signal
		timer   *time.Timer
	)
	catch := func() {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return
		}
		ch = make(chan os.Signal, 1)
		signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
		go func(ch chan os.Signal) {
			if _, ok := <-ch; ok {
				signal.Stop(ch)
				cancel()
			}
		}(ch)
	}
	if delay <= 0 {
		catch()
	} else {
		timer = time.AfterFunc(delay, catch)
	}
	stop := func() {
		mu.Lock()
		defer mu.Unlock()
		stopped = true
		if timer != nil {
			timer.Stop()
		}
		if ch != nil {
			signal.Stop(ch)
			close(ch)
			ch = nil
		}
		cancel()
	}
	return ctx, stop
}
