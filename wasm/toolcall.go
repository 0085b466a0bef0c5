//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	codemode "github.com/interopio/code-mode"
	"github.com/interopio/code-mode/jsbridge"
)

// A page tool's call goes to the loader's caller (web/src/call.mjs) in one
// call, and comes back in one reply: the caller parses the input, runs the
// input schema's own validation, calls execute with {context, signal} and
// converts the result to JSON, all on the page. The loader (core.mjs)
// always provides the caller; there is no second path from Go.

// How a page call ended: REPLY in web/src/call.mjs.
const (
	replyOK = iota
	replyThrew
	replyValidationThrew
	replyRejected
	replyNotData
	replyNotConvertible
	replyBadInput
)

// pageCalls holds the loader's caller, made once per program.
var pageCalls struct {
	once        sync.Once
	ok          bool
	call, abort Value
}

// pageCaller returns the loader's caller: call(id, execs, validates, i,
// name, inputText, context) and abort(id, reason).
func pageCaller() (call, abort Value, ok bool) {
	p := &pageCalls
	p.once.Do(func() {
		mk, err := jsbridge.Get(jsbridge.Global(), "__ioCodeModeCall")
		if err != nil || jsbridge.TypeOf(mk) != jsbridge.TypeFunction {
			return
		}
		res, err := jsbridge.Call(mk, jsbridge.ReplyFunc())
		if err != nil || jsbridge.TypeOf(res) != jsbridge.TypeObject {
			return
		}
		call, err1 := jsbridge.Get(res, "call")
		abort, err2 := jsbridge.Get(res, "abort")
		if err1 != nil || err2 != nil || jsbridge.TypeOf(call) != jsbridge.TypeFunction || jsbridge.TypeOf(abort) != jsbridge.TypeFunction {
			return
		}
		p.call, p.abort, p.ok = call, abort, true
	})
	return p.call, p.abort, p.ok
}

// setPageCalls makes t call a page tool: execs[i](input, {context, signal}), after
// the input schema's own validation validates[i], if it is a function.
// Both arrays are the loader's converter's (or made at registration), read
// when the tool is called: execute as it was when registered. It sets the
// tool's Start, which starts a call and hands its answer to done from the
// reply (a run without an interceptor needs no goroutine per call), and
// its Execute, which waits for the same.
func setPageCalls(t *codemode.Tool, execs, validates Value, i int) {
	name := t.Name
	// The name as a JavaScript string, made on the tool's first call (not
	// at registration: a catalog of 1,000 tools would make 1,000) and
	// reused: each call's conversion was a new string and its finalizer.
	var jsName struct {
		once sync.Once
		v    Value
	}
	start := func(ctx context.Context, input json.RawMessage, c codemode.Call, done func(json.RawMessage, error)) {
		call, abort, ok := pageCaller()
		if !ok {
			done(nil, fmt.Errorf("%s: the page's tool caller is missing: load Code Mode's core through its loader (web/src/core.mjs)", name))
			return
		}
		if ctx.Err() != nil {
			done(nil, context.Cause(ctx))
			return
		}
		jsName.once.Do(func() { jsName.v = jsbridge.ValueOf(name) })
		var stop func() bool
		r := jsbridge.OnReply(func(vals []Value) {
			stop()
			done(pageAnswer(name, vals, c))
		})
		// The run ended first: the tool's signal aborts, and its answer,
		// when it comes, finds nobody (Forget says which came first).
		stop = context.AfterFunc(ctx, func() {
			if r.Forget() {
				jsbridge.Call(abort, r.ID(), abortReason(ctx))
				done(nil, context.Cause(ctx))
			}
		})
		if _, err := jsbridge.Call(call, r.ID(), execs, validates, i, jsName.v, string(input), jsValue(c.Context)); err != nil {
			if stop(); r.Forget() {
				done(nil, plain(err))
			}
		}
	}
	t.Start = start
	t.Execute = func(ctx context.Context, input json.RawMessage, c codemode.Call) (json.RawMessage, error) {
		type answer struct {
			out json.RawMessage
			err error
		}
		ch := make(chan answer, 1)
		start(ctx, input, c, func(out json.RawMessage, err error) { ch <- answer{out, err} })
		a := <-ch
		return a.out, a.err
	}
}

// pageAnswer reads a page call's reply: [kind, payload, warnings].
func pageAnswer(name string, vals []Value, c codemode.Call) (json.RawMessage, error) {
	kind, payload := -1, jsbridge.Arg(vals, 1)
	if k := jsbridge.Arg(vals, 0); jsbridge.TypeOf(k) == jsbridge.TypeNumber {
		kind = k.Int()
	}
	switch kind {
	case replyOK:
		if w := jsbridge.Arg(vals, 2); jsbridge.TypeOf(w) == jsbridge.TypeString && c.Warn != nil {
			var warnings []string // made by tojson.mjs: strings
			json.Unmarshal([]byte(w.String()), &warnings)
			for _, w := range warnings {
				c.Warn(w)
			}
		}
		if jsbridge.TypeOf(payload) == jsbridge.TypeString {
			return json.RawMessage(payload.String()), nil
		}
		return nil, nil
	case replyThrew:
		return nil, plain(jsbridge.ErrorFromJS(payload))
	case replyValidationThrew:
		return nil, fmt.Errorf("%s: the input schema's validation failed: %v", name, plain(jsbridge.ErrorFromJS(payload)))
	case replyRejected:
		return nil, fmt.Errorf("%s: input rejected by its schema: %s", name, payload.String())
	case replyNotData:
		return nil, fmt.Errorf("the tool returned a %s, which is not JSON data", payload.String())
	case replyNotConvertible:
		return nil, fmt.Errorf("the tool returned a value that is not JSON data: %v", plain(jsbridge.ErrorFromJS(payload)))
	case replyBadInput:
		return nil, fmt.Errorf("invalid JSON: %w", jsbridge.ErrorFromJS(payload))
	}
	return nil, fmt.Errorf("%s: the page's tool call answered %s", name, jsbridge.Describe(jsbridge.Arg(vals, 0)))
}
