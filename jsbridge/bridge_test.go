//go:build js && wasm

package jsbridge

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"syscall/js"
	"testing"
	"time"
)

// callJS calls f from JavaScript with this and args (through
// Function.prototype.call, as a page would) and returns its result or the
// exception it threw.
func callJS(f js.Value, this js.Value, args ...any) (res js.Value, thrown *Error) {
	thrown = catch(func() {
		res = funcCall(global.Get("Function").Get("prototype").Get("call"), f, append([]any{this}, args...)...)
	})
	return res, thrown
}

// timerPromise returns a JavaScript promise that settles after ms through
// setTimeout: resolved with v, or rejected with v when reject is set.
func timerPromise(ms int, v any, reject bool) js.Value {
	var executor js.Func
	executor = js.FuncOf(func(_ js.Value, args []js.Value) any {
		settle := args[0]
		if reject {
			settle = args[1]
		}
		global.Call("setTimeout", settle, ms, v)
		return nil
	})
	defer executor.Release()
	return promiseCtor.New(executor)
}

type namedErr struct{}

func (namedErr) Error() string     { return "it timed out" }
func (namedErr) ErrorName() string { return "TimeoutError" }

func TestFunc(t *testing.T) {
	var sawThis js.Value
	var sawArgs []js.Value
	var nested js.Func
	f := Func(func(this js.Value, args []js.Value) any {
		sawThis, sawArgs = this, args
		switch args[0].String() {
		case "sum":
			return args[1].Int() + args[2].Int()
		case "error":
			return errors.New("plain failure")
		case "named":
			return fmt.Errorf("wrapped: %w", namedErr{})
		case "jserror":
			return &Error{Name: "TypeError", Message: "kept", Value: NewError("TypeError", "kept")}
		case "panic":
			panic("something broke")
		case "jspanic":
			jsonObj.Call("parse", "{") // panics with js.Error (SyntaxError)
		case "badresult":
			return struct{}{} // js.ValueOf panics
		case "nested":
			// A nested call of the same function throws; this one returns.
			_, thrown := callJS(nested.Value, js.Undefined(), "panic")
			return "nested threw " + thrown.Message
		}
		return nil
	})
	nested = f
	defer f.Release()

	if typ := f.Value.Type(); typ != js.TypeFunction {
		t.Fatalf("typeof = %v", typ)
	}
	this := objectCtor.New()
	res, thrown := callJS(f.Value, this, "sum", 2, 3)
	if thrown != nil || res.Int() != 5 || !sawThis.Equal(this) || len(sawArgs) != 3 {
		t.Fatalf("sum: %v, %v (this ok: %v, %d args)", res, thrown, sawThis.Equal(this), len(sawArgs))
	}
	for _, tc := range []struct {
		op, name, message string
	}{
		{"error", "Error", "plain failure"},
		{"named", "TimeoutError", "wrapped: it timed out"},
		{"jserror", "TypeError", "kept"},
		{"panic", "Error", "internal error: something broke"},
		{"jspanic", "SyntaxError", "JSON"},
		{"badresult", "Error", "internal error: ValueOf: invalid value"},
	} {
		_, thrown := callJS(f.Value, js.Undefined(), tc.op)
		if thrown == nil {
			t.Errorf("%s: nothing thrown", tc.op)
			continue
		}
		if thrown.Name != tc.name || !strings.Contains(thrown.Message, tc.message) {
			t.Errorf("%s: threw %v (name %q), want %s mentioning %q", tc.op, thrown, thrown.Name, tc.name, tc.message)
		}
		if !thrown.Value.InstanceOf(errorCtor) {
			t.Errorf("%s: thrown value is not an Error", tc.op)
		}
		// The function works normally afterwards.
		if res, thrown := callJS(f.Value, js.Undefined(), "sum", 1, 1); thrown != nil || res.Int() != 2 {
			t.Fatalf("after %s: %v, %v", tc.op, res, thrown)
		}
	}
	if res, thrown := callJS(f.Value, js.Undefined(), "nested"); thrown != nil || !strings.Contains(res.String(), "internal error: something broke") {
		t.Errorf("nested: %v, %v", res, thrown)
	}

	// Released: the call returns undefined (and syscall/js logs it).
	f.Release()
	if res, thrown := callJS(f.Value, js.Undefined(), "sum", 1, 1); thrown == nil && !res.IsUndefined() {
		t.Errorf("after Release: %v", res)
	}
}

func TestRecover(t *testing.T) {
	run := func(f func()) (err error) {
		defer Recover(&err)
		f()
		return nil
	}
	if err := run(func() {}); err != nil {
		t.Errorf("no panic: %v", err)
	}
	if err := run(func() { panic("x") }); err == nil || err.Error() != "internal error: x" {
		t.Errorf("string panic: %v", err)
	}
	if err := run(func() { panic(errBoom) }); !errors.Is(err, errBoom) || !strings.HasPrefix(err.Error(), "internal error: ") {
		t.Errorf("error panic: %v", err)
	}
	var je *Error
	if err := run(func() { jsonObj.Call("parse", "{") }); !errors.As(err, &je) || je.Name != "SyntaxError" {
		t.Errorf("js.Error panic: %v", err)
	}
}

func TestAwait(t *testing.T) {
	start := time.Now()
	v, err := Await(timerPromise(20, "done", false))
	if err != nil || v.String() != "done" {
		t.Fatalf("Await = %v, %v", v, err)
	}
	if d := time.Since(start); d < 15*time.Millisecond {
		t.Errorf("resolved after %v, before the timer", d)
	}

	for _, tc := range []struct {
		name          string
		reason        js.Value
		wantName, msg string
	}{
		{"TypeError", NewError("TypeError", "bad thing"), "TypeError", "bad thing"},
		{"custom name", NewError("AbortError", "stopped"), "AbortError", "stopped"},
		{"string", js.ValueOf("just text"), "", "just text"},
		{"undefined", js.Undefined(), "", "undefined"},
		{"object", objectCtor.New(), "", "[object Object]"},
	} {
		_, err := Await(timerPromise(1, tc.reason, true))
		var je *Error
		if !errors.As(err, &je) || je.Name != tc.wantName || je.Message != tc.msg {
			t.Errorf("%s: err = %#v", tc.name, err)
		}
	}
	if err := (&Error{Name: "TypeError", Message: "m"}); err.Error() != "TypeError: m" {
		t.Errorf("Error() = %q", err.Error())
	}
	// Made in Go from a value alone (an AbortSignal's reason, say).
	if err := (&Error{Value: NewError("AbortError", "stop")}); err.Error() != "AbortError: stop" || err.ErrorName() != "AbortError" {
		t.Errorf("value-only Error: %q, %q", err.Error(), err.ErrorName())
	}

	// Non-thenables are returned as they are.
	obj := objectCtor.New()
	obj.Set("then", 3)
	for _, v := range []js.Value{js.ValueOf(42), js.ValueOf("s"), js.Null(), js.Undefined(), obj} {
		got, err := Await(v)
		if err != nil || !got.Equal(v) {
			t.Errorf("Await(%v) = %v, %v", v, got, err)
		}
	}

	// A thenable that is not a Promise.
	thenable := objectCtor.New()
	then := js.FuncOf(func(_ js.Value, args []js.Value) any {
		args[0].Invoke("from thenable")
		return nil
	})
	defer then.Release()
	thenable.Set("then", then)
	if v, err := Await(thenable); err != nil || v.String() != "from thenable" {
		t.Errorf("thenable: %v, %v", v, err)
	}

	// An object whose then getter throws: a rejection, not a crash.
	getter := objectCtor.New()
	getter.Set("get", global.Get("Function").Get("prototype").Get("call")) // called with this = descriptor: throws
	objectCtor.Call("defineProperty", obj, "then", getter)
	if _, err := Await(obj); err == nil {
		t.Error("throwing then getter: no error")
	}
}

func TestNewPromise(t *testing.T) {
	p := NewPromise(func() (js.Value, error) {
		v, err := Await(timerPromise(5, 21, false)) // may block: it is a goroutine
		if err != nil {
			return js.Undefined(), err
		}
		return js.ValueOf(v.Int() * 2), nil
	})
	if !p.InstanceOf(promiseCtor) {
		t.Fatal("not a Promise")
	}
	if v, err := Await(p); err != nil || v.Int() != 42 {
		t.Errorf("resolved with %v, %v", v, err)
	}

	original := NewError("RangeError", "original")
	for _, tc := range []struct {
		name          string
		fn            func() (js.Value, error)
		wantName, msg string
		same          js.Value
	}{
		{"error", func() (js.Value, error) { return js.Undefined(), errors.New("failed") }, "Error", "failed", js.Undefined()},
		{"named", func() (js.Value, error) { return js.Undefined(), namedErr{} }, "TimeoutError", "it timed out", js.Undefined()},
		{"js error", func() (js.Value, error) { return js.Undefined(), ErrorFromJS(original) }, "RangeError", "original", original},
		{"panic", func() (js.Value, error) { panic("kaboom") }, "Error", "internal error: kaboom", js.Undefined()},
		{"nil deref", func() (js.Value, error) { var m map[string]*int; return js.ValueOf(*m["x"]), nil }, "Error", "internal error: runtime error: invalid memory address", js.Undefined()},
		{"js panic", func() (js.Value, error) { jsonObj.Call("parse", "{"); return js.Undefined(), nil }, "SyntaxError", "JSON", js.Undefined()},
	} {
		_, err := Await(NewPromise(tc.fn))
		var je *Error
		if !errors.As(err, &je) || je.Name != tc.wantName || !strings.Contains(je.Message, tc.msg) {
			t.Errorf("%s: rejected with %v", tc.name, err)
			continue
		}
		if !je.Value.InstanceOf(errorCtor) {
			t.Errorf("%s: rejection is not an Error", tc.name)
		}
		if !tc.same.IsUndefined() && !je.Value.Equal(tc.same) {
			t.Errorf("%s: rejection is not the original exception", tc.name)
		}
	}
}

// TestPromiseFromFunc is the shape of an async entry point: a Func that
// returns NewPromise, called from JavaScript.
func TestPromiseFromFunc(t *testing.T) {
	f := Func(func(_ js.Value, args []js.Value) any {
		n := args[0].Int()
		return NewPromise(func() (js.Value, error) {
			if _, err := Await(timerPromise(1, nil, false)); err != nil {
				return js.Undefined(), err
			}
			return js.ValueOf(n + 1), nil
		})
	})
	defer f.Release()
	p, thrown := callJS(f.Value, js.Undefined(), 41)
	if thrown != nil {
		t.Fatal(thrown)
	}
	if v, err := Await(p); err != nil || v.Int() != 42 {
		t.Errorf("%v, %v", v, err)
	}
}

func TestToJSON(t *testing.T) {
	parse := func(s string) js.Value {
		v, err := FromJSON(json.RawMessage(s))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	withUndefined := parse(`{"a":1,"b":[1,2],"c":"é\ud800"}`)
	withUndefined.Set("u", js.Undefined())
	withUndefined.Set("f", global.Get("parseInt"))
	arrWithUndefined := arrayOf(1, js.Undefined(), "x")
	cycle := objectCtor.New()
	cycle.Set("self", cycle)
	throwingToJSON := objectCtor.New()
	throwingToJSON.Set("toJSON", global.Get("Function").Get("prototype").Get("call")) // throws: this is not a function

	for _, tc := range []struct {
		name    string
		v       js.Value
		want    string // "" for nil
		wantErr string
	}{
		{"number", js.ValueOf(1.5), "1.5", ""},
		{"string", js.ValueOf("a\"b"), `"a\"b"`, ""},
		{"null", js.Null(), "null", ""},
		{"object", withUndefined, `{"a":1,"b":[1,2],"c":"é\ud800"}`, ""},
		{"array", arrWithUndefined, `[1,null,"x"]`, ""},
		{"date", global.Get("Date").New(0), `"1970-01-01T00:00:00.000Z"`, ""},
		{"undefined", js.Undefined(), "", ""},
		{"function", global.Get("parseInt"), "", ""},
		{"bigint", global.Get("BigInt").Invoke(1), "", "BigInt"},
		{"cycle", cycle, "", "circular"},
		{"throwing toJSON", throwingToJSON, "", "TypeError"},
	} {
		raw, err := ToJSON(tc.v)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.HasPrefix(err.Error(), "value is not JSON-serialisable: ") {
				t.Errorf("%s: err = %v, want one mentioning %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := string(raw); got != tc.want && !(tc.want == "" && raw == nil) {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
		if raw != nil && !json.Valid(raw) {
			t.Errorf("%s: invalid JSON %s", tc.name, raw)
		}
	}
	// A BigInt nested in an object is an error too.
	o := objectCtor.New()
	o.Set("n", global.Get("BigInt").Invoke(2))
	if _, err := ToJSON(o); err == nil || !strings.Contains(err.Error(), "BigInt") {
		t.Errorf("nested BigInt: %v", err)
	}
}

func TestFromJSON(t *testing.T) {
	v, err := FromJSON(json.RawMessage(`{"a":[1,"two",null,true],"b":{"c":1e3}}`))
	if err != nil {
		t.Fatal(err)
	}
	if v.Get("a").Index(1).String() != "two" || v.Get("b").Get("c").Int() != 1000 || !v.Get("a").Index(2).IsNull() {
		t.Errorf("parsed wrongly: %v", v)
	}
	if v, err := FromJSON(nil); err != nil || !v.IsUndefined() {
		t.Errorf("empty: %v, %v", v, err)
	}
	_, err = FromJSON(json.RawMessage(`{"a":`))
	var je *Error
	if !errors.As(err, &je) || je.Name != "SyntaxError" || !strings.HasPrefix(err.Error(), "invalid JSON: SyntaxError") {
		t.Errorf("invalid: %v", err)
	}
	// Round trip.
	raw := json.RawMessage(`{"k":["v",1.25,false,{"n":null}]}`)
	v, _ = FromJSON(raw)
	if back, err := ToJSON(v); err != nil || string(back) != string(raw) {
		t.Errorf("round trip: %s, %v", back, err)
	}
}

func TestNewError(t *testing.T) {
	for _, tc := range []struct {
		name, ctor, wantName string
	}{
		{"Error", "Error", "Error"},
		{"TypeError", "TypeError", "TypeError"},
		{"RangeError", "RangeError", "RangeError"},
		{"TimeoutError", "Error", "TimeoutError"},
		{"", "Error", "Error"},
		{"Function", "Error", "Function"}, // never an arbitrary global
	} {
		e := NewError(tc.name, "msg")
		if !e.InstanceOf(global.Get(tc.ctor)) || e.Get("name").String() != tc.wantName || e.Get("message").String() != "msg" {
			t.Errorf("NewError(%q): %v (name %v)", tc.name, e, e.Get("name"))
		}
	}
	got := ErrorFromJS(NewError("TimeoutError", "late"))
	if got.Name != "TimeoutError" || got.Message != "late" || got.Error() != "TimeoutError: late" {
		t.Errorf("ErrorFromJS = %#v", got)
	}
	// A proxy whose every trap throws is described without crashing.
	handler := objectCtor.New()
	handler.Set("get", global.Get("Function").Get("prototype").Get("call"))
	hostile := proxyCtor.New(objectCtor.New(), handler)
	if e := ErrorFromJS(hostile); e.Message == "" {
		t.Errorf("hostile value: %#v", e)
	}
	if e := ErrorFromJS(global.Get("BigInt").Invoke(7)); e.Message != "7" {
		t.Errorf("BigInt value: %#v", e)
	}
	// An Error whose name or message is a BigInt (js.Value.Type panics on
	// it): the name is not a string, so the error keeps its message.
	bigName := NewError("Error", "m")
	bigName.Set("name", global.Get("BigInt").Invoke(7))
	if e := ErrorFromJS(bigName); e.Name != "" || e.Message != "m" {
		t.Errorf("BigInt name: %#v", e)
	}
}
