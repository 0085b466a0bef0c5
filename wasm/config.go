//go:build js && wasm

package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"syscall/js"
	"time"

	codemode "github.com/interopio/code-mode"
	"github.com/interopio/code-mode/internal/keys"
	"github.com/interopio/code-mode/jsbridge"
)

// typeError is a configuration or argument error; it reaches JavaScript as
// a TypeError whose message names the field.
type typeError struct{ msg string }

func (e *typeError) Error() string     { return e.msg }
func (e *typeError) ErrorName() string { return "TypeError" }

func typeErrorf(format string, a ...any) error { return &typeError{fmt.Sprintf(format, a...)} }

// describe names a JS value's type for error messages.
func describe(v js.Value) string {
	switch v.Type() {
	case js.TypeNull:
		return "null"
	case js.TypeString:
		return fmt.Sprintf("the string %q", v.String())
	case js.TypeNumber:
		return fmt.Sprintf("the number %v", v.Float())
	case js.TypeObject:
		if js.Global().Get("Array").Call("isArray", v).Bool() {
			return "an array"
		}
		return "an object"
	}
	return v.Type().String()
}

// optFunc reads an optional function field.
func optFunc(obj js.Value, field, path string) (js.Value, error) {
	v := get(obj, field)
	if v.IsUndefined() || v.Type() == js.TypeFunction {
		return v, nil
	}
	return v, typeErrorf("%s: expected a function, got %s", path, describe(v))
}

// optPositive reads an optional positive number field. Only the type is
// checked here; the bounds are codemode's (see jsConfigError).
func optPositive(obj js.Value, field, path string, integer bool) (float64, error) {
	v := get(obj, field)
	if v.IsUndefined() {
		return 0, nil
	}
	f := v.Float
	if v.Type() != js.TypeNumber || math.IsNaN(f()) || math.IsInf(f(), 0) || f() <= 0 || (integer && (f() != math.Trunc(f()) || f() > 1<<53)) {
		kind := "a positive number"
		if integer {
			kind = "a positive integer"
		}
		return 0, typeErrorf("%s: expected %s, got %s", path, kind, describe(v))
	}
	return f(), nil
}

// The keys each page-supplied options object may have. Anything else is a
// TypeError: a misspelt or misplaced policy (a top-level onToolCall) that
// were silently ignored would leave every tool unguarded.
var (
	configKeys = []string{"wasmLocation", "timeout", "memoryLimit", "maxToolCalls", "maxResultChars",
		"toolFilter", "interceptors", "overwriteSystemInstruction", "tools",
		// Read by the loader (the worker engine and live events).
		"worker", "onEvent"}
	configHints = map[string]string{
		"onToolCall": `it belongs in interceptors: { interceptors: { onToolCall } }`,
		"timeoutMs":  `did you mean "timeout"? It is in milliseconds`,
	}
	interceptorKeys = []string{"onToolCall"}
	sessionKeys     = []string{"tools"}
	sessionHints    = map[string]string{
		"toolFilter":   "toolFilter is a factory option: IoCodeModeFactory({ toolFilter })",
		"interceptors": "interceptors are a factory option: IoCodeModeFactory({ interceptors })",
		"onToolCall":   "onToolCall is a factory option: IoCodeModeFactory({ interceptors: { onToolCall } })",
	}
	toolKeys = []string{"name", "description", "inputSchema", "outputSchema", "annotations", "execute"}
)

// checkKeys rejects own enumerable keys of obj that are not in valid.
func checkKeys(obj js.Value, path string, valid []string, hints map[string]string) error {
	list, err := call(js.Global().Get("Object").Get("keys"), obj)
	if err != nil {
		return typeErrorf("%s: cannot list its keys: %v", path, plain(err))
	}
	names := make([]string, list.Length())
	for i := range names {
		names[i] = list.Index(i).String()
	}
	if err := keys.UnknownHint(path, names, valid, hints); err != nil {
		return &typeError{err.Error()}
	}
	return nil
}

// jsConfigFields names codemode's Config fields as the page wrote them.
var jsConfigFields = map[string]string{
	"Timeout":        "config.timeout",
	"MemoryLimitMB":  "config.memoryLimit",
	"MaxToolCalls":   "config.maxToolCalls",
	"MaxResultChars": "config.maxResultChars",
}

// jsConfigError reports codemode's verdict on a limit under the page's
// field name, as a TypeError.
func jsConfigError(err error) error {
	var ce *codemode.ConfigError
	if errors.As(err, &ce) {
		field := jsConfigFields[ce.Field]
		if field == "" {
			field = "config." + ce.Field
		}
		return typeErrorf("%s: %s", field, ce.Problem)
	}
	return asTypeError(err)
}

// parseConfig checks an IoCodeMode.Config and turns it into a
// codemode.Config. Errors name the JavaScript field.
func parseConfig(c js.Value, f *factory) (codemode.Config, error) {
	var cfg codemode.Config
	if c.Type() != js.TypeObject {
		return cfg, typeErrorf("config: expected an object, got %s", describe(c))
	}
	if err := checkKeys(c, "config", configKeys, configHints); err != nil {
		return cfg, err
	}
	if loc := get(c, "wasmLocation"); loc.Type() != js.TypeString || loc.String() == "" {
		return cfg, typeErrorf("config.wasmLocation: expected a non-empty string (URL or path of emscripten-module.wasm), got %s", describe(loc))
	}
	timeout, err := optPositive(c, "timeout", "config.timeout", false)
	if err != nil {
		return cfg, err
	}
	// Beyond int64 nanoseconds is far over codemode's bound, which reports it.
	cfg.Timeout = time.Duration(min(timeout*float64(time.Millisecond), math.MaxInt64))
	mem, err := optPositive(c, "memoryLimit", "config.memoryLimit", true)
	if err != nil {
		return cfg, err
	}
	cfg.MemoryLimitMB = int(mem)
	calls, err := optPositive(c, "maxToolCalls", "config.maxToolCalls", true)
	if err != nil {
		return cfg, err
	}
	cfg.MaxToolCalls = int(calls)
	chars, err := optPositive(c, "maxResultChars", "config.maxResultChars", true)
	if err != nil {
		return cfg, err
	}
	cfg.MaxResultChars = int(chars)
	if w := get(c, "worker"); !w.IsUndefined() && w.Type() != js.TypeBoolean {
		return cfg, typeErrorf("config.worker: expected a boolean, got %s", describe(w))
	}
	if _, err := optFunc(c, "onEvent", "config.onEvent"); err != nil {
		return cfg, err
	}

	overwrite, err := optFunc(c, "overwriteSystemInstruction", "config.overwriteSystemInstruction")
	if err != nil {
		return cfg, err
	}
	if !overwrite.IsUndefined() {
		cfg.OverwriteSystemInstruction = func(cur string) string {
			v, err := call(overwrite, cur)
			if err != nil || v.Type() != js.TypeString {
				return cur // a broken hook must not leave the model without instructions
			}
			return v.String()
		}
	}
	filter, err := optFunc(c, "toolFilter", "config.toolFilter")
	if err != nil {
		return cfg, err
	}
	if !filter.IsUndefined() {
		cfg.ToolFilter = func(t codemode.ToolInfo) bool {
			v, err := call(filter, t.Source)
			return err == nil && v.Truthy() // a filter that throws hides the tool
		}
	}
	if ic := get(c, "interceptors"); !ic.IsUndefined() {
		if ic.Type() != js.TypeObject {
			return cfg, typeErrorf("config.interceptors: expected an object, got %s", describe(ic))
		}
		if err := checkKeys(ic, "config.interceptors", interceptorKeys, nil); err != nil {
			return cfg, err
		}
		on, err := optFunc(ic, "onToolCall", "config.interceptors.onToolCall")
		if err != nil {
			return cfg, err
		}
		if !on.IsUndefined() {
			cfg.OnToolCall = func(ctx context.Context, tc codemode.ToolCall) (codemode.Decision, error) {
				return intercept(ctx, on, tc)
			}
		}
	}
	if tools := get(c, "tools"); !tools.IsUndefined() {
		defs, err := f.toolList(tools, "config.tools")
		if err != nil {
			return cfg, err
		}
		cfg.Tools = defs
	}
	return cfg, nil
}

// call invokes a JS function, turning a throw into an error.
func call(fn js.Value, args ...any) (v js.Value, err error) {
	defer jsbridge.Recover(&err)
	return fn.Invoke(args...), nil
}

// intercept asks onToolCall about one call. Anything but a well-formed
// decision denies the call (fail closed).
func intercept(ctx context.Context, on js.Value, tc codemode.ToolCall) (codemode.Decision, error) {
	input, err := jsbridge.FromJSON(tc.Input)
	if err != nil {
		return codemode.Decision{}, err
	}
	arg := js.Global().Get("Object").New()
	arg.Set("tool", tc.Tool.Source)
	arg.Set("input", input)
	arg.Set("callContext", jsValue(tc.CallContext))
	ret, err := call(on, arg)
	if err != nil {
		return codemode.Decision{}, fmt.Errorf("onToolCall threw: %w", plain(err))
	}
	d, err := awaitCtx(ctx, ret)
	if err != nil {
		return codemode.Decision{}, fmt.Errorf("onToolCall rejected: %w", plain(err))
	}
	if d.Type() != js.TypeObject || get(d, "allowed").Type() != js.TypeBoolean {
		return codemode.Decision{}, fmt.Errorf("onToolCall returned %s; expected {allowed: true, input?} or {allowed: false, reason}", describe(d))
	}
	if !get(d, "allowed").Bool() {
		reason := "denied by onToolCall"
		if r := get(d, "reason"); r.Type() == js.TypeString && r.String() != "" {
			reason = r.String()
		}
		return codemode.Decision{Allowed: false, Reason: reason}, nil
	}
	dec := codemode.Decision{Allowed: true}
	if in := get(d, "input"); !in.IsUndefined() {
		raw, err := jsbridge.ToJSON(in)
		if err != nil {
			return codemode.Decision{}, fmt.Errorf("onToolCall returned an input that is not JSON: %w", plain(err))
		}
		dec.Input = raw
	}
	return dec, nil
}

// awaitCtx awaits a value or promise. It waits on the calling goroutine
// (the sandbox runs every host call on its own): a promise that never
// settles keeps that goroutine, but not the run, which ends at its deadline
// and aborts the tool's signal; ctx only cuts short what has not started.
func awaitCtx(ctx context.Context, p js.Value) (js.Value, error) {
	if !isThenable(p) {
		return p, nil // a sync tool or interceptor: no promise to wait for
	}
	if err := ctx.Err(); err != nil {
		return js.Undefined(), err
	}
	return jsbridge.Await(p)
}

// isThenable reports whether v has a then method, reading it safely.
func isThenable(v js.Value) bool {
	t := v.Type()
	if t != js.TypeObject && t != js.TypeFunction {
		return false
	}
	then, err := jsbridge.Get(v, "then")
	return err != nil || then.Type() == js.TypeFunction // a throwing getter: let Await report it
}

// plainError keeps a JavaScript error's message alone, as the model should
// see it (not "Error: message").
type plainError struct{ msg string }

func (e *plainError) Error() string { return e.msg }

func plain(err error) error {
	var je *jsbridge.Error
	if errors.As(err, &je) {
		return &plainError{je.Message}
	}
	return err
}

// jsValue returns the JS value stored in an opaque context, or undefined.
func jsValue(v any) js.Value {
	if jv, ok := v.(js.Value); ok {
		return jv
	}
	return js.Undefined()
}

// get reads a field of a page-supplied object. A throwing getter or proxy
// panics with an error naming the field, which the entry point's recover
// turns into a rejection.
func get(v js.Value, key string) js.Value {
	val, err := jsbridge.Get(v, key)
	if err != nil {
		panic(typeErrorf("reading %q threw: %v", key, plain(err)))
	}
	return val
}
