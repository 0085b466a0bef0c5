package sandbox

// The program's value, once it settled, as the run's JSON result: the
// cheapest stringify that can write it, and the converter (convert.go) for
// what JSON cannot hold as it is.

import (
	"encoding/json"

	"github.com/interopio/code-mode/sandbox/internal/ffi"
)

// result converts the program's value to JSON (see convert.go).
func (r *run) result(v ffi.ValueConst) *Result {
	q, ctx := r.q, r.ctx
	r.converting, r.finished = true, true
	if r.native && q.IsObject(v) {
		// The native JSON.stringify cannot tell of what it drops or
		// changes (an object may hold a Map, BigInt throws): the engine's
		// own stringify can. An object is not written twice (its getters
		// would run twice).
		if exc := r.engineStringify(); exc != 0 {
			return r.notSerializable(exc)
		}
	}
	if r.native {
		s, exc := q.Call(ctx, r.stringify.Const(), q.Undefined.Const(), v)
		if exc == 0 {
			var text []byte
			isStr := q.IsString(s.Const())
			if isStr {
				text = q.GetBytes(ctx, s.Const())
			}
			q.FreeValue(ctx, s)
			switch {
			case !isStr:
				return &Result{} // undefined (or a symbol): no value
			case string(text) != "null" || !q.IsNumber(v):
				return &Result{Value: text}
			}
			// NaN or ±Infinity, which JSON.stringify writes as null.
		} else {
			q.FreeValue(ctx, exc) // a BigInt
		}
		if exc := r.engineStringify(); exc != 0 {
			return r.notSerializable(exc)
		}
		return r.result(v)
	}
	if q.IsObject(v) {
		value, warnings, exc, _ := r.toJSON(v, "result")
		if exc != 0 {
			return r.notSerializable(exc)
		}
		return &Result{Value: value, Warnings: warnings}
	}
	var s, exc ffi.Value
	if r.helpers != 0 && !r.loaded && q.IsPlainPrimitive(v) {
		// A number, string, boolean, null or undefined needs no helper:
		// the captured JSON.stringify writes it.
		stringify := q.GetIndex(ctx, r.helpers.Const(), capturedStringify)
		s, exc = q.Call(ctx, stringify.Const(), q.Undefined.Const(), v)
		q.FreeValue(ctx, stringify)
	} else if exc = r.loadHelpers(); exc == 0 {
		s, exc = q.Call(ctx, r.stringify.Const(), q.Undefined.Const(), v)
	}
	if exc != 0 {
		return r.notSerializable(exc)
	}
	defer q.FreeValue(ctx, s)
	if q.IsString(s.Const()) {
		// The text's one copy in Go is the result's (a string result can
		// be as large as the memory limit).
		text := q.GetBytes(ctx, s.Const())
		// Primitives JSON cannot hold: NaN and ±Infinity (written as
		// null) and BigInt (written as a string); they are converted and
		// reported below.
		// (The text is tested first: each Is* is a memory read, a
		// crossing under GOOS=js.)
		nonFinite := string(text) == "null" && q.IsNumber(v)
		bigint := len(text) > 0 && text[0] == '"' && !q.IsNumber(v) && !q.IsString(v)
		if !nonFinite && !bigint && (!r.lateStringify || json.Valid(text)) {
			return &Result{Value: text}
		}
	} else if !q.IsNumber(s.Const()) {
		return &Result{} // undefined: no value
	}
	// A primitive has no getter: writing it again costs nothing the
	// program can see.
	value, warnings, exc, _ := r.toJSON(v, "result")
	if exc != 0 {
		return r.notSerializable(exc)
	}
	return &Result{Value: value, Warnings: warnings}
}

// notSerializable is the result of a program whose value the conversion
// threw on (exc, owned), unless the throw was the run being stopped.
func (r *run) notSerializable(exc ffi.Value) *Result {
	q, ctx := r.q, r.ctx
	e := r.toError(exc.Const())
	q.FreeValue(ctx, exc)
	// An interrupt (the timeout) during conversion is the run's end, not a
	// value JSON cannot hold.
	if res := r.stopped(); res != nil {
		return res
	}
	code := CodeNotSerializable
	if c := r.limitCode(e); c != "" {
		code = c
	}
	return &Result{Error: &Error{Code: code, Name: e.Name,
		Message: "the result cannot be converted to JSON: " + e.Message}}
}
