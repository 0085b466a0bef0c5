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
	"time"

	codemode "github.com/interopio/code-mode"
	"github.com/interopio/code-mode/internal/sharedthread"
	"github.com/interopio/code-mode/internal/tsstrip"
	"github.com/interopio/code-mode/jsbridge"
	"github.com/interopio/code-mode/sandbox"
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
	// The config's mistakes alone (checkedConfig), thrown; the loader asks
	// when the QuickJS asset could not be loaded.
	core.Method(api, "checkConfig", func(args []Value) any {
		cfg, err := checkedConfig(arg(args, 0), &factory{}, pageNumbers{})
		if err != nil {
			return err
		}
		// config.tools as newFactory registers them (names, schemas).
		if err := codemode.ValidateConfig(cfg); err != nil {
			return toolTypeError(err, "config.tools")
		}
		return jsbridge.Undefined()
	})
	shareThread()
	// A large program's preparation (tsstrip.Prepare: silent Go work, ~1 s
	// for ~900 KB on a loaded machine, once over 5 s) shows life after its
	// two longest passes: a worker's page, stopping a run, replaces a
	// worker silent for 5 s, taking it for one that a run holds.
	tsstrip.Beat = jsbridge.Beat
	// And a tool's input check, which asks sandbox.PastDeadline now and
	// then: named for its run, whose abort the page's flags then bring.
	sandbox.Beat = jsbridge.Beat
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

// shareThread tells the loader of this core's runs' holds of the thread
// (__ioCodeModeHeld: run, Unix ms from, to), and has their timeouts ask it
// how long the runs of the thread's other cores held it
// (__ioCodeModeOtherHolds: from, to; [ms, runs, across]): the page's in-thread
// factories share its thread.
func shareThread() {
	g := jsbridge.Global()
	tell, err := jsbridge.Get(g, "__ioCodeModeHeld")
	if err != nil || jsbridge.TypeOf(tell) != jsbridge.TypeFunction {
		return
	}
	others, err := jsbridge.Get(g, "__ioCodeModeOtherHolds")
	if err != nil || jsbridge.TypeOf(others) != jsbridge.TypeFunction {
		return
	}
	ms := func(t time.Time) float64 { return float64(t.UnixNano()) / 1e6 }
	sharedthread.Publish = func(run uint64, from, to time.Time) {
		_, _ = jsbridge.Call(tell, float64(run), ms(from), ms(to))
	}
	sharedthread.Others = func(from, to time.Time) (time.Duration, int, bool) {
		v, err := jsbridge.Call(others, ms(from), ms(to))
		if err != nil {
			return 0, 0, false
		}
		if e, err := jsbridge.Elements(v); err == nil && len(e) == 3 {
			return time.Duration(e[0].Float() * 1e6), e[1].Int(), e[2].Truthy()
		}
		return 0, 0, false
	}
}
