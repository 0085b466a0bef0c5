//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"unsafe"

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
	replyBadInput
	replyChecked
)

// pageCalls holds the loader's caller, made once per program.
var pageCalls struct {
	once                 sync.Once
	ok                   bool
	call, abort, dropped Value
}

// pageCaller returns the loader's caller: call(id, execs, validates, i,
// name, inputText, context, check, memoryLimitMB) and abort(id, reason);
// and dropped(err) (droppedOnPage).
func pageCaller() (call, abort Value, ok bool) {
	p := &pageCalls
	p.once.Do(func() {
		mk, err := jsbridge.Get(jsbridge.Global(), "__ioCodeModeCall")
		if err != nil || jsbridge.TypeOf(mk) != jsbridge.TypeFunction {
			return
		}
		res, err := jsbridge.Call(mk, jsbridge.ReplyFunc(), jsbridge.ProgressFunc())
		if err != nil || jsbridge.TypeOf(res) != jsbridge.TypeObject {
			return
		}
		call, err1 := jsbridge.Get(res, "call")
		abort, err2 := jsbridge.Get(res, "abort")
		dropped, err3 := jsbridge.Get(res, "dropped")
		if err1 != nil || err2 != nil || err3 != nil || jsbridge.TypeOf(call) != jsbridge.TypeFunction || jsbridge.TypeOf(abort) != jsbridge.TypeFunction || jsbridge.TypeOf(dropped) != jsbridge.TypeFunction {
			return
		}
		p.call, p.abort, p.dropped, p.ok = call, abort, dropped, true
	})
	return p.call, p.abort, p.ok
}

// pageChecks holds, by reply id, the CheckResult of the page calls in
// flight whose tool has an outputSchema. The page checks such a result
// (call.mjs settle, through check) before it reports the call's outcome
// (onEvent's tool-result), and answers "checked": the result the check
// took is the call's, and crosses into Go once.
var pageChecks struct {
	mu    sync.Mutex
	m     map[int]*pageCheck
	once  sync.Once
	fn    Value
	funcs jsbridge.Funcs
}

type pageCheck struct {
	check  func(json.RawMessage) error
	passed bool
	out    json.RawMessage // the result that passed check (empty: none)
}

// checkFunc is the page's check(id, jsonText): "" when the result passed
// (it is kept for the reply) or when the call is gone, else the message
// the call fails with.
func checkFunc() Value {
	p := &pageChecks
	p.once.Do(func() {
		p.fn = p.funcs.Func(func(_ Value, args []Value) any {
			id, text := jsbridge.Arg(args, 0), jsbridge.Arg(args, 1)
			if jsbridge.TypeOf(id) != jsbridge.TypeNumber || jsbridge.TypeOf(text) != jsbridge.TypeString {
				return "the page's result check was called wrongly"
			}
			p.mu.Lock()
			pc := p.m[id.Int()]
			p.mu.Unlock()
			if pc == nil {
				return ""
			}
			out := json.RawMessage(jsbridge.StringBytes(text))
			if err := pc.check(out); err != nil {
				return err.Error()
			}
			pc.passed, pc.out = true, out
			return ""
		})
	})
	return p.fn
}

// takeCheck removes call id's entry from pageChecks and returns it.
func takeCheck(id int) *pageCheck {
	p := &pageChecks
	p.mu.Lock()
	defer p.mu.Unlock()
	pc := p.m[id]
	delete(p.m, id)
	return pc
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
		var r *jsbridge.Reply
		r = jsbridge.OnReply(func(vals []Value) {
			stop()
			done(pageAnswer(name, vals, c, takeCheck(r.ID())))
		})
		// The page reports a large result while it converts it and once it
		// has (call.mjs): progress(id, bytes, final).
		r.OnProgress(func(vals []Value) {
			if b := jsbridge.Arg(vals, 0); jsbridge.TypeOf(b) == jsbridge.TypeNumber && c.Answering != nil {
				c.Answering(b.Int(), jsbridge.Arg(vals, 1).Truthy())
			}
		})
		check := jsbridge.Undefined()
		if c.CheckResult != nil {
			p := &pageChecks
			p.mu.Lock()
			if p.m == nil {
				p.m = map[int]*pageCheck{}
			}
			p.m[r.ID()] = &pageCheck{check: c.CheckResult}
			p.mu.Unlock()
			check = checkFunc()
		}
		// The run ended first: the tool's signal aborts, and its answer,
		// when it comes, finds nobody (Forget says which came first).
		stop = onDone(ctx, func() {
			if r.Forget() {
				takeCheck(r.ID())
				jsbridge.Call(abort, r.ID(), abortReason(ctx))
				done(nil, context.Cause(ctx))
			}
		})
		// The input's bytes as a string, not a copy: the call makes a
		// JavaScript string of them before it returns, and string(input)
		// was one more copy of an input of millions of characters in Go's
		// memory, which never shrinks.
		text := *(*string)(unsafe.Pointer(&input))
		if _, err := jsbridge.Call(call, r.ID(), execs, validates, i, jsName.v, text, jsValue(c.Context), check, c.MemoryLimitMB); err != nil {
			if stop(); r.Forget() {
				takeCheck(r.ID())
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

// pageAnswer reads a page call's reply: [kind, payload, warnings]. pc is
// the call's entry in pageChecks, if its tool has an outputSchema.
func pageAnswer(name string, vals []Value, c codemode.Call, pc *pageCheck) (json.RawMessage, error) {
	kind, payload := -1, jsbridge.Arg(vals, 1)
	if k := jsbridge.Arg(vals, 0); jsbridge.TypeOf(k) == jsbridge.TypeNumber {
		kind = k.Int()
	}
	switch kind {
	case replyOK, replyChecked:
		if w := jsbridge.Arg(vals, 2); jsbridge.TypeOf(w) == jsbridge.TypeString && c.Warn != nil {
			var warnings []string // made by tojson.mjs: strings
			json.Unmarshal([]byte(w.String()), &warnings)
			for _, w := range warnings {
				c.Warn(w)
			}
		}
		if kind == replyChecked {
			if pc == nil || !pc.passed {
				return nil, fmt.Errorf("%s: the page answered with a result it did not check", name)
			}
			if len(pc.out) == 0 {
				return nil, nil
			}
			return pc.out, nil
		}
		if jsbridge.TypeOf(payload) == jsbridge.TypeString {
			return json.RawMessage(jsbridge.StringBytes(payload)), nil
		}
		return nil, nil
	case replyThrew:
		return nil, thrown(payload, vals)
	case replyValidationThrew:
		return nil, fmt.Errorf("%s: the input schema's validation failed: %w", name, thrown(payload, vals))
	case replyRejected:
		return nil, fmt.Errorf("%s: input rejected by its schema: %w", name, thrown(payload, vals))
	case replyBadInput:
		return nil, fmt.Errorf("invalid JSON: %w", jsbridge.ErrorFromJS(payload))
	}
	return nil, fmt.Errorf("%s: the page's tool call answered %s", name, jsbridge.Describe(jsbridge.Arg(vals, 0)))
}

// thrown is what a page tool or its input schema's validation threw, or
// the validation's message of a refusal. The page cut a long message
// (call.mjs cutThrown): the reply's third value is how many characters it
// dropped.
func thrown(payload Value, vals []Value) error {
	err := plain(jsbridge.ErrorFromJS(payload))
	if d := jsbridge.Arg(vals, 2); jsbridge.TypeOf(d) == jsbridge.TypeNumber {
		return &cutError{err.Error(), d.Int()}
	}
	return err
}

// pageCut is plain(err) for an error the page rejected with (onToolCall's),
// with the count of characters the page cut off its message, if it cut
// any (call.mjs cutBefore).
func pageCut(err error) error {
	msg := plain(err)
	var je *jsbridge.Error
	if errors.As(err, &je) {
		if d := droppedOnPage(je.Value); d > 0 {
			return &cutError{msg.Error(), d}
		}
	}
	return msg
}

// droppedOnPage is the count of characters the page cut off the message
// of v (an error) or off the reason of v (onToolCall's decision), 0 when
// it cut none (call.mjs cutBefore).
func droppedOnPage(v Value) int {
	if _, _, ok := pageCaller(); ok {
		if d, err := jsbridge.Call(pageCalls.dropped, v); err == nil && jsbridge.TypeOf(d) == jsbridge.TypeNumber {
			return d.Int()
		}
	}
	return 0
}

// cutError is a tool's error whose message the page cut, and the count of
// characters it dropped from its end (codemode's failure counts them).
type cutError struct {
	msg     string
	dropped int
}

func (e *cutError) Error() string     { return e.msg }
func (e *cutError) DroppedChars() int { return e.dropped }
