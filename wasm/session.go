//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"sync/atomic"

	codemode "github.com/interopio/code-mode"
	"github.com/interopio/code-mode/jsbridge"
	"github.com/interopio/code-mode/sandbox"
)

func (f *factory) createSession(opts Value) any {
	var tools []codemode.Tool
	if !opts.IsUndefined() && !opts.IsNull() {
		if jsbridge.TypeOf(opts) != jsbridge.TypeObject {
			return typeErrorf("createSession(options): expected an object, got %s", describe(opts))
		}
		if err := checkKeys(opts, "createSession(options)", sessionKeys, sessionHints); err != nil {
			return err
		}
		if list := get(opts, "tools"); !list.IsUndefined() {
			var err error
			if tools, err = f.toolList(list, "options.tools"); err != nil {
				return err
			}
		}
	}
	s, err := f.cm.NewSession(tools...)
	if err != nil {
		return toolTypeError(err, "options.tools")
	}
	// The session is one function, op(kind, ...), which the loader makes
	// into the session's object (web/src/go-session.mjs): every JavaScript
	// value Go makes costs a finalizer (syscall/js), and the Go runtime's
	// list of them grows with every live value, so that a session built here
	// as an object with a function per method and per LLM tool (six values
	// and their properties) cost ~1 ms, most of it adding finalizers. It is
	// released by the session's dispose, or the factory's. The loader's
	// wrapper refuses calls on a disposed session, so none reaches a
	// released one.
	sf := &jsbridge.Funcs{}
	llm := s.LLMTools()
	op := sf.Func(func(_ Value, args []Value) any {
		switch arg(args, 0).Int() {
		case sessionInstruction:
			return s.SystemInstruction()
		case sessionLLMTools:
			return llmTools(s)
		case sessionExecute:
			return executeLLMTool(llm, arg(args, 1).Int(), args[min(2, len(args)):])
		case sessionDispose:
			s.Close()
			f.forget(sf)
		case sessionAddTools:
			tools, err := f.toolList(arg(args, 1), "options.tools")
			if err == nil {
				err = s.AddTools(tools...)
			}
			if err != nil {
				return toolTypeError(err, "options.tools")
			}
		}
		return jsbridge.Undefined()
	})
	f.mu.Lock()
	f.sessions[sf] = struct{}{}
	f.mu.Unlock()
	return op
}

// The kinds of a session's op (web/src/go-session.mjs).
const (
	sessionInstruction = 0
	sessionLLMTools    = 1
	sessionExecute     = 2
	sessionDispose     = 3
	sessionAddTools    = 4
)

// executeLLMTool runs the session's LLM tool i with args (argsJSON, token,
// signal, onConsole, given, done, onRefused): the loader's runInCore
// (web/src/runs.mjs) makes the promise, and the answer is one call of
// done, (true, result JSON) or (false, error).
func executeLLMTool(llm []codemode.LLMTool, i int, args []Value) any {
	if i < 0 || i >= len(llm) {
		return typeErrorf("no LLM tool %d", i)
	}
	exec := llm[i].Execute
	done := arg(args, 5)
	goAsync(func() {
		out, err := runRecovered(func() (json.RawMessage, error) {
			return runLLMTool(exec, arg(args, 0), arg(args, 1), arg(args, 2), arg(args, 3), arg(args, 4), arg(args, 6))
		})
		if err != nil {
			_, _ = jsbridge.Call(done, false, jsbridge.ErrorValue(err))
			return
		}
		_, _ = jsbridge.Call(done, true, string(out))
	})
	return jsbridge.Undefined()
}

// forget releases a disposed session's funcs and drops it from the factory.
func (f *factory) forget(sf *jsbridge.Funcs) {
	f.mu.Lock()
	delete(f.sessions, sf)
	f.mu.Unlock()
	sf.Release()
}

// llmTools builds [searchTools, executeCode] for an LLM SDK, with fresh
// descriptions (tools may have been registered since), without their
// execute: the loader's (go-session.mjs) calls the session's op.
func llmTools(s *codemode.Session) Value {
	var list []any
	for _, t := range s.LLMTools() {
		obj := jsbridge.NewObject()
		obj.Set("name", t.Name)
		obj.Set("description", t.Description)
		schema, _ := jsbridge.FromJSON(t.InputSchema)
		obj.Set("inputSchema", schema)
		list = append(list, obj)
	}
	return jsbridge.NewArray(list...)
}

// runLLMTool runs one LLM tool call with its own signal and context.
// Aborting the signal rejects with the signal's reason and cancels the run
// (and so every tool call in flight). text is the arguments as JSON text
// (the loader stringifies them: "{" when they have no JSON form), token the
// run's context, onConsole the console observer or undefined, onRefused
// the refused calls' observer (refusedJSON's text of each) or undefined.
//
// given is the options object as the caller wrote it (the loader passes the
// normalized parts apart): an unknown key there is a TypeError, so that a
// misspelt signal cannot leave a run unstoppable.
func runLLMTool(exec func(context.Context, json.RawMessage, any) (json.RawMessage, error), text, runContext, signal, onConsole, given, onRefused Value) (json.RawMessage, error) {
	if jsbridge.TypeOf(given) == jsbridge.TypeObject {
		if err := checkKeys(given, "execute(args, options)", runOptionKeys, runOptionHints); err != nil {
			return nil, err
		}
	}
	var raw json.RawMessage
	if jsbridge.TypeOf(text) == jsbridge.TypeString {
		raw = json.RawMessage(text.String())
	}
	// The run's context ends with the signal's reason as its cause, which
	// every tool call's own signal then aborts with.
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	if jsbridge.TypeOf(signal) == jsbridge.TypeObject {
		if get(signal, "aborted").Truthy() {
			return nil, &jsbridge.Error{Value: get(signal, "reason")}
		}
		stop, err := jsbridge.OnAbort(signal, func() { cancel(&jsbridge.Error{Name: "AbortError", Message: "aborted", Value: get(signal, "reason")}) })
		if err != nil {
			return nil, err
		}
		defer stop()
	}
	var cc any
	if !runContext.IsUndefined() {
		cc = runContext
	}
	// The page's run id (the loaders pass it as the token), for the
	// worker's signs of life (sandbox.WithPollOwner).
	if jsbridge.TypeOf(runContext) == jsbridge.TypeNumber {
		ctx = sandbox.WithPollOwner(ctx, runContext.Float())
	}
	// The loader's console observer (onEvent's console lines as they are
	// logged), only for runs that have an onEvent: others pay nothing.
	if jsbridge.TypeOf(onConsole) == jsbridge.TypeFunction {
		ctx = codemode.WithConsole(ctx, func(e codemode.LogEntry) { _, _ = jsbridge.Call(onConsole, e.Level, e.Message) })
	}
	// Likewise the calls the run ends before their tool starts (onEvent's
	// tool-call, and tool-result for an input its schema refused).
	if jsbridge.TypeOf(onRefused) == jsbridge.TypeFunction {
		ctx = codemode.WithRefusedCalls(ctx, func(c codemode.RefusedCall) { _, _ = jsbridge.Call(onRefused, refusedJSON(c)) })
	}
	out, err := exec(ctx, raw, cc)
	if err != nil {
		if ctx.Err() != nil && jsbridge.TypeOf(signal) == jsbridge.TypeObject && get(signal, "aborted").Truthy() {
			return nil, &jsbridge.Error{Value: get(signal, "reason")}
		}
		return nil, err
	}
	return out, nil
}

func runRecovered(fn func() (json.RawMessage, error)) (out json.RawMessage, err error) {
	defer jsbridge.Recover(&err)
	return fn()
}

// goAsync runs fn on a goroutine that outlives it: the next call reuses an
// idle one, whose stack has already grown to what a run needs (a new
// goroutine per run grew and copied its stack every time). Calls that
// overlap (a run waiting for its tools) get goroutines of their own; at
// most maxIdleRunners wait for work.
func goAsync(fn func()) {
	select {
	case runnerWork <- fn:
	default:
		go runner(fn)
	}
}

const maxIdleRunners = 4

var (
	runnerWork  = make(chan func())
	idleRunners atomic.Int32
)

func runner(fn func()) {
	for {
		fn()
		fn = nil // nothing of a finished run stays reachable
		if idleRunners.Add(1) > maxIdleRunners {
			idleRunners.Add(-1)
			return
		}
		fn = <-runnerWork
		idleRunners.Add(-1)
	}
}

// refusedJSON is a refused call as the loader's onRefused reads it
// (web/src/runs.mjs refusedCall): one string crossing, which the page
// parses into objects of its own.
func refusedJSON(c codemode.RefusedCall) string {
	type wire struct {
		Name       string          `json:"name"`
		Allowed    bool            `json:"allowed"`
		Reason     string          `json:"reason"`
		Error      string          `json:"error,omitempty"`
		DurationMs float64         `json:"durationMs"`
		Input      json.RawMessage `json:"input,omitempty"`
	}
	w := wire{Name: c.Record.Name, Allowed: c.Record.Allowed, Reason: c.Record.Reason, Error: c.Error, DurationMs: c.Record.DurationMs, Input: c.Input}
	b, err := json.Marshal(w)
	if err != nil {
		// An input that is not JSON (the program's always is): none.
		w.Input = nil
		b, _ = json.Marshal(w)
	}
	return string(b)
}
