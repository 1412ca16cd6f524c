//go:build js && wasm

// Command wasm is the playground's API compiled to WebAssembly, for the
// static site `brasp site` writes: the page's Web Worker loads it, and it
// answers the requests the page would send to `brasp serve`, with the same
// code, limits and budgets (playground.API). It defines one JavaScript
// function,
//
//	braspCall(method, path, body, callback)
//
// which answers asynchronously with callback(status, contentType,
// filename, bytes), and calls braspReady() once it is defined.
package main

import (
	"context"
	"syscall/js"

	"github.com/brasp-dev/brasp/playground"
)

func main() {
	// One computation at a time per class: the worker has one thread, and
	// the page runs cheap and expensive requests in workers of their own.
	api := playground.NewAPI(playground.Config{Concurrency: 1, CheapConcurrency: 1})
	js.Global().Set("braspCall", js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) != 4 {
			return nil
		}
		method, path, body, callback := args[0].String(), args[1].String(), args[2].String(), args[3]
		// A callback must not block the event loop: answer from a goroutine.
		go func() {
			r := api.Call(context.Background(), method, path, []byte(body))
			data := js.Global().Get("Uint8Array").New(len(r.Body))
			js.CopyBytesToJS(data, r.Body)
			callback.Invoke(r.Status, r.ContentType, r.Filename, data)
		}()
		return nil
	}))
	if ready := js.Global().Get("braspReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}
