//go:build js && wasm

// Command wasm is the Go core of the JavaScript bundle: it exposes
// IoCodeModeFactory's engine side to the loader (web/index.mjs), gluing
// package codemode to JavaScript through package jsbridge.
//
// The loader runs this program with a private global object (a shadow of
// globalThis) on which it has set __ioCodeModeReady; the program hands it
// the core object and then waits forever, serving calls.
package main

import (
	"syscall/js"

	"github.com/interopio/code-mode/jsbridge"
)

func main() {
	newFactory := jsbridge.Func(func(_ js.Value, args []js.Value) any {
		return jsbridge.NewPromise(func() (js.Value, error) {
			return newFactory(arg(args, 0), arg(args, 1))
		})
	})
	core := js.Global().Get("Object").New()
	core.Set("newFactory", newFactory.Value)
	ready := js.Global().Get("__ioCodeModeReady")
	if ready.Type() != js.TypeFunction {
		panic("code-mode.wasm must be started by the Code Mode loader (index.mjs)")
	}
	ready.Invoke(core)
	select {}
}

func arg(args []js.Value, i int) js.Value {
	if i < len(args) {
		return args[i]
	}
	return js.Undefined()
}
