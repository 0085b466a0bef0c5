//go:build js && wasm

// Command wasm is the Go core of the JavaScript bundle: it exposes
// IoCodeModeFactory's engine side to the loader (web/src/), gluing
// package codemode to JavaScript through package jsbridge. It does not
// import syscall/js: every read of a page object, every function handed to
// JavaScript and every promise goes through jsbridge's helpers.
//
// The loader runs this program with a private global object (a shadow of
// globalThis) on which it has set __ioCodeModeReady; the program hands it
// the core object and then waits forever, serving calls.
package main

import (
	"github.com/interopio/code-mode/jsbridge"
)

// Value is a JavaScript value (this package does not import syscall/js:
// jsbridge is its only way to JavaScript).
type Value = jsbridge.Value

func main() {
	var core jsbridge.Funcs // lives as long as the program
	api := jsbridge.NewObject()
	core.Method(api, "newFactory", func(args []Value) any {
		return jsbridge.NewPromise(func() (Value, error) {
			return newFactory(arg(args, 0), arg(args, 1))
		})
	})
	ready, err := jsbridge.Get(jsbridge.Global(), "__ioCodeModeReady")
	if err != nil || jsbridge.TypeOf(ready) != jsbridge.TypeFunction {
		panic("code-mode.wasm must be started by the Code Mode loader (index.mjs)")
	}
	if _, err := jsbridge.Call(ready, api); err != nil {
		panic(err)
	}
	select {}
}

func arg(args []Value, i int) Value { return jsbridge.Arg(args, i) }
