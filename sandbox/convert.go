package sandbox

import (
	"encoding/json"
	"fmt"

	"github.com/interopio/code-mode/sandbox/internal/ffi"
)

// A program's result is JSON. Values JSON cannot hold convert by these
// rules, and each one is reported (Result.Warnings) with its path, so the
// model learns that what it returned is not what arrives:
//
//	Map             an object when every key is a string, else [key, value] entries
//	Set             an array
//	Error           {name, message}
//	BigInt          its decimal string
//	NaN, ±Infinity  "NaN", "Infinity", "-Infinity"
//	function        omitted from an object, null in an array, no result at the top
//	symbol          its description string, "Symbol(x)"
//	Promise         null (it was not awaited)
//	RegExp          its source string, "/a+/g"
//	typed array     an array of its numbers
//	ArrayBuffer     an array of its bytes
//	DataView        an array of the bytes it views
//	WeakMap/WeakSet {} (they cannot be listed)
//	WeakRef         null (its target is not data)
//	undefined       null in an array (reported); an absent property or no
//	                result at the top (JSON's own rule, not reported)
//	Date            its ISO string (toJSON, JSON's own rule, not reported)
//
// Nothing of this is compiled per run: an object result or tool input is
// stringified by detectJS (compiled on first use), which only notices such
// values (a flag), and convertJS is compiled when one is seen; a primitive
// goes through the prelude's own stringify.

// convertJS evaluates to a function of a value and the name of its root in
// the warnings' paths ("result", "input") that returns [json or undefined,
// warnings as JSON].
const convertJS = `(() => {
const S = JSON.stringify, gp = Object.getPrototypeOf, OP = Object.prototype, isArr = Array.isArray;
const M = Map, St = Set, E = Error, RX = RegExp, P = Promise, AB = ArrayBuffer, ent = Object.fromEntries, from = Array.from;
const U8 = Uint8Array, DV = DataView, WM = WeakMap, WS = WeakSet, WR = typeof WeakRef === "function" ? WeakRef : undefined;
const bytes = (b, o, n) => n ? from(new U8(b, o, n)) : [];
const ident = /^[A-Za-z_$][\w$]*$/;
return (root, name) => {
  const paths = new M(), warn = [];
  let more = 0;
  const note = (p, what) => { if (warn.length < 20) warn.push(p + ": " + what); else more++; };
  function rep(k, v) {
    const hp = paths.get(this), inArr = isArr(this);
    const p = hp === undefined ? name : inArr ? hp + "[" + k + "]" : hp + (ident.test(k) ? "." + k : "[" + S(k) + "]");
    let out = v;
    switch (typeof v) {
    case "bigint": out = v.toString(); note(p, "a BigInt, converted to a string"); break;
    case "number": if (v - v !== 0) { out = String(v); note(p, out + ", converted to the string " + S(out)); } break;
    case "undefined": if (inArr) { out = null; note(p, "undefined, converted to null"); } break;
    case "function":
      out = inArr ? null : undefined;
      note(p, "a function, which is not data: " + (inArr ? "converted to null" : hp === undefined ? "no result" : "omitted"));
      break;
    case "symbol": out = String(v); note(p, "a symbol, converted to the string " + S(out)); break;
    case "object": {
      if (v === null || isArr(v)) break;
      const pr = gp(v);
      if (pr === OP || pr === null) break;
      if (v instanceof M) {
        let keys = true;
        for (const key of v.keys()) if (typeof key !== "string") { keys = false; break; }
        out = keys ? ent(v) : from(v);
        note(p, keys ? "a Map, converted to an object" : "a Map with non-string keys, converted to an array of [key, value] entries");
      } else if (v instanceof St) { out = from(v); note(p, "a Set, converted to an array"); }
      else if (v instanceof E) { out = { name: String(v.name), message: String(v.message) }; note(p, "an Error, converted to {name, message}"); }
      else if (v instanceof P) { out = null; note(p, "a Promise, converted to null (await it)"); }
      else if (v instanceof RX) { out = String(v); note(p, "a RegExp, converted to the string " + S(out)); }
      else if (AB.isView(v) && typeof v.length === "number") { out = from(v, (x) => typeof x === "bigint" ? x.toString() : x); note(p, "a typed array, converted to an array"); }
      else if (v instanceof AB) { out = bytes(v, 0, v.byteLength); note(p, "an ArrayBuffer, converted to an array of its bytes"); }
      else if (v instanceof DV) { out = bytes(v.buffer, v.byteOffset, v.byteLength); note(p, "a DataView, converted to an array of its bytes"); }
      else if (v instanceof WM || v instanceof WS) { out = {}; note(p, (v instanceof WM ? "a WeakMap" : "a WeakSet") + ", which cannot be listed: converted to {}"); }
      else if (WR && v instanceof WR) { out = null; note(p, "a WeakRef, which is not data: converted to null"); }
    }
    }
    if (out !== null && typeof out === "object") paths.set(out, p);
    return out;
  }
  const json = S(root, rep);
  if (more) warn.push("… and " + more + " more values converted");
  return [json, S(warn)];
};
})()`

// detectJS evaluates to a function of the prelude's intrinsics (taken
// before the program ran, so it cannot have replaced them) that returns
// the flagging stringify: the JSON of a value, or 0 when the value holds
// something JSON cannot (then convertJS runs). It is compiled when a result
// or a tool input is an object: a run that returns a number pays nothing.
const detectJS = `(I) => {
const [S, gp, OP, isArr] = I;
let bad = 0;
const rep = function (k, v) {
switch (typeof v) {
case "object": if (v !== null && !isArr(v) && (k = gp(v)) !== OP && k !== null) bad = 1; return v;
case "number": if (v - v !== 0) bad = 1;
case "string": case "boolean": return v;
case "bigint": bad = 1; return v.toString();
case "undefined": if (isArr(this)) bad = 1; return v;
}
bad = 1; return v;
};
return (v) => { bad = 0; const s = S(v, rep); return bad ? 0 : s; };
}`

// compile evaluates src to a value. It goes through the context's own
// eval, taken before the program ran (a call, not the FFI's Eval), when
// the run has one: this may run inside a host call, where a nested QTS_Eval
// crashed the native host. A run without host functions compiles only at
// the top, where the FFI's Eval is fine.
func (r *run) compile(src, name string) (fn, exc ffi.Value) {
	if exc := r.loadHelpers(); exc != 0 {
		return 0, exc
	}
	return r.compileWith(src, name)
}

// compileWith is compile without building the helpers first (loadHelpers
// itself compiles with it).
func (r *run) compileWith(src, name string) (fn, exc ffi.Value) {
	q, ctx := r.q, r.ctx
	if r.eval != 0 {
		s := q.NewString(ctx, src)
		defer q.FreeValue(ctx, s)
		return q.Call(ctx, r.eval.Const(), q.Undefined.Const(), s.Const())
	}
	return q.Eval(ctx, src, name, ffi.EvalGlobal)
}

// checked stringifies an object with detectJS's stringify (compiled on
// first use): its JSON, or the number 0 when it must be converted.
func (r *run) checked(v ffi.ValueConst) (s, exc ffi.Value) {
	q, ctx := r.q, r.ctx
	if r.detect == 0 {
		factory, exc := r.compile(detectJS, "<detect>")
		if exc != 0 {
			return 0, exc
		}
		defer q.FreeValue(ctx, factory)
		one := q.NewNumber(ctx, 1)
		intrinsics, exc := q.Call(ctx, r.stringify.Const(), q.Undefined.Const(), q.Undefined.Const(), one.Const())
		q.FreeValue(ctx, one)
		if exc != 0 {
			return 0, exc
		}
		defer q.FreeValue(ctx, intrinsics)
		fn, exc := q.Call(ctx, factory.Const(), q.Undefined.Const(), intrinsics.Const())
		if exc != 0 {
			return 0, exc
		}
		r.detect = fn
	}
	return q.Call(ctx, r.detect.Const(), q.Undefined.Const(), v)
}

// convert runs convertJS on v, compiling it on first use in this run; name
// is the root of the warnings' paths.
func (r *run) convert(v ffi.ValueConst, name string) (value json.RawMessage, warnings []string, exc ffi.Value) {
	q, ctx := r.q, r.ctx
	if r.converter == 0 {
		fn, exc := r.compile(convertJS, "<convert>")
		if exc != 0 {
			return nil, nil, exc
		}
		r.converter = fn
	}
	nameV := q.NewString(ctx, name)
	defer q.FreeValue(ctx, nameV)
	pair, exc := q.Call(ctx, r.converter.Const(), q.Undefined.Const(), v, nameV.Const())
	if exc != 0 {
		return nil, nil, exc
	}
	defer q.FreeValue(ctx, pair)
	js, w := q.GetIndex(ctx, pair.Const(), 0), q.GetIndex(ctx, pair.Const(), 1)
	defer q.FreeValue(ctx, js)
	defer q.FreeValue(ctx, w)
	if q.IsString(js.Const()) {
		value = json.RawMessage(q.GetString(ctx, js.Const()))
		if !json.Valid(value) {
			// convertJS is compiled after the program ran, so a program
			// that replaced JSON.stringify would write this text: it must
			// not reach the host as JSON.
			e := q.NewError(ctx)
			msg := q.NewString(ctx, "the value cannot be converted: JSON.stringify was replaced by the program")
			q.SetProp(ctx, e.Const(), "message", msg.Const())
			q.FreeValue(ctx, msg)
			return nil, nil, e
		}
	}
	if err := json.Unmarshal([]byte(q.GetString(ctx, w.Const())), &warnings); err != nil {
		warnings = []string{fmt.Sprintf("%s: the conversion report is unreadable: %v", name, err)}
	}
	return value, warnings, 0
}
