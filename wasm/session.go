//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"sync"
	"syscall/js"

	codemode "github.com/interopio/code-mode"
	"github.com/interopio/code-mode/jsbridge"
)

func (f *factory) createSession(opts js.Value) any {
	var tools []codemode.Tool
	if !opts.IsUndefined() && !opts.IsNull() {
		if opts.Type() != js.TypeObject {
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
		return asTypeError(err)
	}
	// Every js.Func of the session (its methods and the LLM tools' execute
	// functions, made once however often getLlmTools is called) is
	// released by its dispose, or the factory's. The loader's wrapper
	// refuses calls on a disposed session, so none reaches a released Func.
	sf := &sessionFuncs{}
	llm := s.LLMTools()
	execs := make([]js.Func, len(llm))
	for i, t := range llm {
		exec := t.Execute
		execs[i] = sf.add(jsbridge.Func(func(_ js.Value, args []js.Value) any {
			return jsbridge.NewPromise(func() (js.Value, error) { return runLLMTool(exec, arg(args, 0), arg(args, 1)) })
		}))
	}
	obj := newObject()
	method := func(name string, fn func() any) {
		obj.Set(name, sf.add(jsbridge.Func(func(js.Value, []js.Value) any { return fn() })).Value)
	}
	method("getSystemInstruction", func() any { return s.SystemInstruction() })
	method("getLlmTools", func() any { return llmTools(s, execs) })
	method("dispose", func() any {
		s.Close()
		f.forget(sf)
		return js.Undefined()
	})
	f.mu.Lock()
	f.sessions[sf] = struct{}{}
	f.mu.Unlock()
	return obj
}

// sessionFuncs are the js.Funcs of one session.
type sessionFuncs struct {
	once  sync.Once
	funcs []js.Func
}

func (sf *sessionFuncs) add(jf js.Func) js.Func {
	sf.funcs = append(sf.funcs, jf)
	return jf
}

// release frees the session's funcs once. A Func may be releasing itself
// (dispose), which syscall/js allows: the call in progress completes.
func (sf *sessionFuncs) release() {
	sf.once.Do(func() {
		for _, jf := range sf.funcs {
			jf.Release()
		}
	})
}

// forget releases a disposed session's funcs and drops it from the factory.
func (f *factory) forget(sf *sessionFuncs) {
	f.mu.Lock()
	delete(f.sessions, sf)
	f.mu.Unlock()
	sf.release()
}

// llmTools builds [searchTools, executeCode] for an LLM SDK, with fresh
// descriptions (tools may have been registered since).
func llmTools(s *codemode.Session, execs []js.Func) js.Value {
	list := js.Global().Get("Array").New()
	for i, t := range s.LLMTools() {
		obj := newObject()
		obj.Set("name", t.Name)
		obj.Set("description", t.Description)
		schema, _ := jsbridge.FromJSON(t.InputSchema)
		obj.Set("inputSchema", schema)
		obj.Set("execute", execs[i].Value)
		list.Call("push", obj)
	}
	return list
}

// runLLMTool runs one LLM tool call with its own signal and context.
// Aborting the signal rejects with the signal's reason and cancels the run
// (and so every tool call in flight).
func runLLMTool(exec func(context.Context, json.RawMessage, any) (json.RawMessage, error), args, opts js.Value) (js.Value, error) {
	raw, err := jsbridge.ToJSON(args)
	if err != nil {
		// Arguments JSON cannot hold (a cycle, a BigInt): the tool answers
		// with its INVALID_INPUT result, as for any other bad arguments.
		raw = json.RawMessage("{")
	}
	var signal, callContext js.Value = js.Undefined(), js.Undefined()
	if opts.Type() == js.TypeObject {
		signal = get(opts, "signal")
		if signal.IsUndefined() {
			signal = get(opts, "abortSignal")
		}
		callContext = get(opts, "context")
		if callContext.IsUndefined() {
			callContext = get(opts, "experimental_context")
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if signal.Type() == js.TypeObject {
		if get(signal, "aborted").Truthy() {
			return js.Undefined(), &jsbridge.Error{Value: get(signal, "reason")}
		}
		onAbort := js.FuncOf(func(js.Value, []js.Value) any { cancel(); return nil })
		defer onAbort.Release()
		signal.Call("addEventListener", "abort", onAbort)
		defer signal.Call("removeEventListener", "abort", onAbort)
	}
	var cc any
	if !callContext.IsUndefined() {
		cc = callContext
	}
	out, err := exec(ctx, raw, cc)
	if err != nil {
		if ctx.Err() != nil && signal.Type() == js.TypeObject && get(signal, "aborted").Truthy() {
			return js.Undefined(), &jsbridge.Error{Value: get(signal, "reason")}
		}
		return js.Undefined(), err
	}
	return jsbridge.FromJSON(out)
}
