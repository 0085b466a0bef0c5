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
//	ArrayBuffer     an array of its bytes (a SharedArrayBuffer too)
//	DataView        an array of the bytes it views
//	WeakMap/WeakSet {} (they cannot be listed)
//	WeakRef         null (its target is not data)
//	iterator        null, not consumed (map.values(), a generator: what it
//	                would yield may run the program's code after its end)
//	async iterator  null, not consumed (an async generator), likewise
//	undefined       null in an array (reported); left out of an object
//	                (JSON's own rule: reported in a result, once, with how
//	                many more; not in a tool's input, whose optional fields
//	                are so); no result at the top (not reported)
//	Date            its ISO string (toJSON, JSON's own rule, not reported);
//	                an Invalid Date null (toJSON's too, reported among
//	                the first 64 nulls)
//
// The value is read once: a getter, a toJSON or a Proxy trap of the result
// (or of a tool's input) runs once, however the value converts, because
// what it does (a tool call, a counter) is the program's doing and must
// happen as often as the program wrote it. So one stringify both notices
// and converts (detectJS); its replacer keeps the stack of objects being
// written, which gives a converted value's path. Nothing of the rules is
// compiled per run: detectJS is compiled when a result or a tool input is
// an object, and the rules (convertJS) only when a value needs them; a
// primitive goes through the prelude's own stringify.

// maxArrayLen is the longest array a result or a tool input converts.
// Converting a sparse array (a.length = 1e9) went element by element
// until the run's timeout, holding the thread (a page's, in-thread): a
// sparse array of 10 million took 31 s natively, one of a million some
// 3 s. A longer array's JSON (two bytes an element at least) is 2 MB, a
// hundred times the default maxResultChars. detectJS sends a longer array
// (and every typed array, ArrayBuffer and DataView) to convertJS's fix,
// which throws a RangeError naming its path when it is longer.
const maxArrayLen = "1000000"

// maxDepth is how many holders deep detectJS's stringify writes a value
// (the result's or a tool input's): the prelude's JSON.stringify refuses
// the same (prelude/api.js), and the host's parse of a tool's result
// (codemode's maxParseDepth).
const maxDepth = "1000"

// shownArrayLen is how many elements of a long array a log line, or the
// run's error, shows before "… N more items": a line keeps 4,000
// characters, two an element at least. convertJS (a log line's typed
// arrays) and describeError read it; prelude/show.js holds the same
// number for the console's own arrays, and web/src/tojson.mjs
// (SHOWN_ARRAY_LEN, for what a page tool threw) too: testdata/arraycap.json
// holds it for both.
const shownArrayLen = "2000"

// MaxArrayLen is the longest array a program's result or a tool input
// converts (a longer one fails with ArrayTooLong's words): maxArrayLen as
// a number, for a host's own checks of values bound for a program or a
// tool (an interceptor's replacement input); testdata/arraycap.json holds
// both, and the page's copy (web/src/tojson.mjs), to the same limit and
// words.
const MaxArrayLen = 1000000

// ArrayTooLong is what an array of n elements, more than MaxArrayLen,
// says after its path: the words convertJS's fix throws.
func ArrayTooLong(n int) string {
	return fmt.Sprintf("an array of %d elements, more than the %d a result or tool input can hold; return or pass a part of it (a.slice(0, n))", n, MaxArrayLen)
}

// moreJS is trunc.More in the sandbox's JavaScript: (n, one, many) =>
// "1 more item", "2 more items". convertJS and describeError are built
// with it; prelude/show.js, a file of its own, writes the same words.
const moreJS = `(n, one, many) => n + " more " + (n === 1 ? one : many)`

// convertJS evaluates to a factory of the prelude's stringify and isArray;
// each call of what it makes gives, for one conversion, [fix, end]: fix
// converts value v that holder h has at key k (st/ks/n: detectJS's stack;
// n is 0 at the root) and notes the change, end gives the notes as JSON.
const convertJS = `(S, isArr) => {
const M = Map, St = Set, E = Error, RX = RegExp, P = Promise, AB = ArrayBuffer, ent = Object.fromEntries, from = Array.from;
const SAB = typeof SharedArrayBuffer === "function" ? SharedArrayBuffer : undefined;
const U8 = Uint8Array, DV = DataView, WM = WeakMap, WS = WeakSet, WR = typeof WeakRef === "function" ? WeakRef : undefined;
const It = typeof Iterator === "function" ? Iterator : undefined, Dt = typeof Date === "function" ? Date : undefined;
const AIt = function () {};
AIt.prototype = Object.getPrototypeOf(Object.getPrototypeOf(async function* () {}.prototype));
const Str = String, Num = Number, Bool = Boolean, gp = Object.getPrototypeOf, own = Object.getOwnPropertyDescriptor, names = Object.getOwnPropertyNames;
const bytes = (b, o, n) => n ? from(new U8(b, o, n)) : [];
const logCap = ` + shownArrayLen + `, nMore = ` + moreJS + `;
// An array, or what becomes one (a typed array, an ArrayBuffer's or a
// DataView's bytes), longer than the limit throws with its path: a
// Uint8Array of 5e6 converted in 7 s, an ArrayBuffer of 5e7 in 44 s.
const long = (p, n) => { if (n > ` + maxArrayLen + `) throw new RangeError(p + ": an array of " + n + " elements, more than the ` + maxArrayLen + ` a result or tool input can hold; return or pass a part of it (a.slice(0, n))"); };
const ident = /^[A-Za-z_$][\w$]*$/;
const seg = (h, k) => isArr(h) ? "[" + k + "]" : ident.test(k) ? "." + k : "[" + S(k) + "]";
// What an object JSON read as {} says (web/src/tojson.mjs opaqueWhat):
// its class's name, read from its prototype's own properties, and the
// getters the class defines there (up to 5), which hold what a model's
// class meant to give (get total() { return this.#total }): the model
// read {} and a warning that did not say where the data was. No getter
// runs: their descriptors are read. (An index loop: the program may have
// replaced the Array iterator.)
// [what, its getters' words] of an object whose prototype is pr; [what]
// when its class has no getter. spread goes before them in the fix.
const classOf = (pr, spread) => {
  let name = "", list = "", obj = "";
  try {
    const c = own(pr, "constructor"), d = c && typeof c.value === "function" ? own(c.value, "name") : undefined;
    if (d && typeof d.value === "string" && ident.test(d.value)) name = d.value;
    const ks = name ? names(pr) : [];
    for (let i = 0, n = 0; i < ks.length && n < 5; i++) {
      const k = ks[i], g = own(pr, k);
      if (g && typeof g.get === "function" && ident.test(k)) {
        list += (n ? ", " : "") + k;
        obj += (n++ ? ", " : "") + k + ": x." + k;
      }
    }
  } catch (e) { list = ""; }
  const what = name ? (/^[AEIOU]([a-z]|$)/.test(name) ? "an " : "a ") + name + " object" : "an object";
  return list ? [what, "its getters (" + list + ") are its class's, which JSON does not read: return { " + spread + obj + " }"] : [what];
};
const opaqueWhat = (v) => {
  let c = ["an object"];
  try { c = classOf(gp(v), ""); } catch (e) {}
  return c[0] + ", converted to {}: JSON reads only an object's own properties, and it has none" + (c[1] ? "; " + c[1] : "");
};
return () => {
  const warn = [];
  let more = 0, ud = 0, udAt = -1;
  // Objects of a class no rule converts, kept as they are: reported in
  // end when JSON read no property of theirs (rep deletes those it reads
  // from), so that finding out runs no getter or trap JSON would not.
  const op = new M();
  const note = (p, what) => { if (warn.length < 20) warn.push(p + ": " + what); else more++; };
  const fix = (v, h, k, st, ks, n, name) => {
    // An undefined property after the first is counted, no path made:
    // a result of 100,000 rows each missing a field took twice as long.
    if (v === undefined && !(n > 0 && isArr(h)) && ud++) return v;
    let p = name;
    if (n) { for (let i = 1; i < n; i++) p += seg(st[i - 1], ks[i]); p += seg(h, k); }
    const inArr = n > 0 && isArr(h);
    let out = v;
    switch (typeof v) {
    case "bigint": out = v.toString(); note(p, "a BigInt, converted to a string"); break;
    case "number": out = String(v); note(p, out + ", converted to the string " + S(out)); break;
    case "undefined":
      // An object's property: JSON leaves it out, and a result that lost
      // it looked the same as one whose data had nothing there (a misspelt
      // field, o.createdAt for created_at). Said once, with how many more.
      if (!inArr) { if (warn.length < 20) { udAt = warn.length; note(p, "undefined, so JSON leaves it out"); } break; }
      out = null; note(p, "undefined, converted to null"); break;
    case "function":
      out = inArr ? null : undefined;
      note(p, "a function, which is not data: " + (inArr ? "converted to null" : n ? "omitted" : name !== "result" ? "no result" :
        "no result (the program's value is a function; to run it, call it: end the program with return f(...), or send its body as the program)"));
      break;
    case "symbol": out = String(v); note(p, "a symbol, converted to the string " + S(out)); break;
    case "object":
      // A log line (prelude/show.js) shows the first logCap elements of
      // what becomes an array, and how many more: converting a typed array
      // of a million took most of a second per line, of which a line keeps
      // 4,000 characters.
      if (name === "log" && (AB.isView(v) && typeof v.length === "number" || v instanceof AB || SAB && v instanceof SAB || v instanceof DV)) {
        const whole = typeof v.length === "number" ? v.length : v.byteLength;
        if (whole > logCap) {
          out = v instanceof DV ? bytes(v.buffer, v.byteOffset, logCap) : AB.isView(v) ? from(v.subarray(0, logCap), (x) => typeof x === "bigint" ? x.toString() : x) : bytes(v, 0, logCap);
          out[logCap] = "… " + nMore(whole - logCap, "item", "items");
          break;
        }
      }
      if (isArr(v)) long(p, v.length);
      if (v instanceof M) {
        let keys = true;
        for (const key of v.keys()) if (typeof key !== "string") { keys = false; break; }
        out = keys ? ent(v) : from(v);
        note(p, keys ? "a Map, converted to an object" : "a Map with non-string keys, converted to an array of [key, value] entries");
      } else if (v instanceof St) { out = from(v); note(p, "a Set, converted to an array"); }
      else if (Dt && v instanceof Dt && +v !== +v) { out = null; note(p, "an Invalid Date, converted to null (new Date(x) of a value that is no date: undefined, or text it cannot read)"); }
      else if (v instanceof E) { out = { name: String(v.name), message: String(v.message) }; note(p, "an Error, converted to {name, message}"); }
      else if (v instanceof P) { out = null; note(p, "a Promise, converted to null (await it" + (inArr ? "; for an array of them, await Promise.all(arr)" : "") + ")"); }
      else if (v instanceof RX) { out = String(v); note(p, "a RegExp, converted to the string " + S(out)); }
      else if (AB.isView(v) && typeof v.length === "number") { long(p, v.length); out = from(v, (x) => typeof x === "bigint" ? x.toString() : x); note(p, "a typed array, converted to an array"); }
      else if (v instanceof AB || SAB && v instanceof SAB) { long(p, v.byteLength); out = bytes(v, 0, v.byteLength); note(p, (v instanceof AB ? "an ArrayBuffer" : "a SharedArrayBuffer") + ", converted to an array of its bytes"); }
      else if (v instanceof DV) { long(p, v.byteLength); out = bytes(v.buffer, v.byteOffset, v.byteLength); note(p, "a DataView, converted to an array of its bytes"); }
      else if (v instanceof WM || v instanceof WS) { out = {}; note(p, (v instanceof WM ? "a WeakMap" : "a WeakSet") + ", which cannot be listed: converted to {}"); }
      else if (WR && v instanceof WR) { out = null; note(p, "a WeakRef, which is not data: converted to null"); }
      else if (It && v instanceof It) { out = null; note(p, "an iterator, which is not data: converted to null (to return its values, spread it: [...it] or Array.from(it))"); }
      else if (v instanceof AIt) { out = null; note(p, "an async iterator, which is not data: converted to null (to return its values, collect them: for await (const x of it) list.push(x))"); }
      else if (!(v instanceof Str || v instanceof Num || v instanceof Bool)) op.set(v, p);
    }
    return out;
  };
  const end = () => {
    if (ud > 1 && udAt >= 0) warn[udAt] += " (" + nMore(ud - 1, "property is", "properties are") + " undefined too)";
    for (const e of op) note(e[1], opaqueWhat(e[0])); if (more) warn.push("… and " + nMore(more, "value", "values") + " converted"); return S(warn); };
  // JSON reads a property of v, one of op: it has own data, and loses
  // only its class's getters (get total() beside this.rows), said once per
  // class, of the first 20 (cl: their prototypes).
  const cl = [];
  const read = (v) => {
    const p = op.get(v);
    op.delete(v);
    try {
      const pr = gp(v);
      for (let i = 0; i < cl.length; i++) if (cl[i] === pr) return;
      if (cl.length < 20) {
        cl[cl.length] = pr;
        const c = classOf(pr, "...x, ");
        if (c[1]) note(p, c[0] + ": " + c[1]);
      }
    } catch (e) {}
  };
  return [fix, end, op, read];
};
}`

// ConvertJS is the JavaScript source of the rules by which a value JSON
// cannot hold converts (Map, Set, BigInt, ...: the table at the top of
// convert.go, and web/USAGE.md's "What comes back"): a function
// expression that takes a stringify
// and an isArray and makes, for each conversion, [fix, end] (fix converts
// one value and notes the change, end gives the notes as JSON). It is for
// a host that shows values by the same rules rather than returning them:
// codemode's console lines (prelude/api.js shown), which ignore the notes.
const ConvertJS = convertJS

// detectJS evaluates to a function of the prelude's intrinsics (taken
// before the program ran, so it cannot have replaced them: the context's
// own JSON.stringify, taken before a Hidden prelude could replace it,
// then eval and RangeError) and convertJS (compiled, or its source), which
// gives the stringify of results and inputs: (value, root name) -> the
// JSON (a string, or undefined for no value) when nothing needed
// converting, else [JSON, notes as JSON], or [error, why] when the value
// could not be written for its shape (toJSON's Unwritable).
// Plain objects, arrays and JSON's primitives take the replacer's fast
// path; anything else is handed to convertJS's fix, compiled on its first
// need in the run. Its second argument is true for a tool's input (paths
// start at "input", else at "result"). A getter of a tool's input may
// make another host call, which stringifies its own input meanwhile: the
// state of the outer call is kept aside, and the stack too when it holds
// anything. It is compiled on a run's first call, after the program ran:
// nothing here iterates an array (a program that replaced the Array
// iterator made every call fail with "not a function").
const detectJS = `(I, src) => {
const S = I[0], gp = I[1], OP = I[2], isArr = I[3], ev = I[4], RE = I[5];
// Read after the program, as convertJS reads its own: used in a try, for a
// note only.
let own, D, dn;
try { own = Object.getOwnPropertyDescriptor; D = Date; } catch (e) {}
let conv, st = [], ks = [], was = [], n = 0, fx, name, thrown, last, at;
const rep = function (k, v) {
  if (fx && fx[2].size && fx[2].has(this)) fx[3](this);
  // The holders JSON is writing, innermost last: this one and its
  // ancestors. Past ` + maxDepth + ` of them the host engine's native stack
  // overflows before QuickJS's own check (V8's, some 5,000 levels in), and
  // the run ends uncatchably: refused here, in this one replacer a value
  // (a second one, the depth check of the prelude's JSON.stringify, made a
  // tool call of 50,000 rows cost three times QuickJS's own stringify).
  while (n && st[n - 1] !== this) n--;
  if (n > ` + maxDepth + `) throw thrown = new RE("JSON.stringify: the value nests more than 1,000 levels deep");
  switch (typeof v) {
  case "object": {
    // An Invalid Date's toJSON gives null, which said nothing: its holder's
    // descriptor (no getter runs) hands the Date to the converter's note.
    // Of the first 64 nulls only: a read each made a result of 400,000
    // nulls take half again as long.
    if (v === null) { if (dn++ < 64) try { const d = own(this, k).value; if (d instanceof D) v = d; } catch (e) {} if (v === null) return v; break; }
    let p;
    if (isArr(v) ? v.length <= ` + maxArrayLen + ` : (p = gp(v)) === OP || p === null) {
      st[n] = last = v; at = n; was[n] = undefined; ks[n++] = k;
      return v;
    }
    break;
  }
  case "number": if (v - v === 0) return v; break;
  case "string": case "boolean": return v;
  // A result's property that is undefined is noted (fix); a tool's
  // input leaves out its optional fields so, and means to.
  case "undefined": if (!isArr(this) && (name === "input" || !n)) return v; break;
  }
  // A converted value is a new object each time JSON meets it, so JSON
  // cannot see a cycle through one (a Map or Set that holds itself): it
  // nested it 1,000 levels deep, and said so. Met again inside itself, it
  // is handed back as the object it became, which JSON is writing: JSON
  // finds the cycle as it finds a plain object's.
  if (typeof v === "object") for (let i = 0; i < n; i++) if (was[i] === v) { at = n; return last = st[i]; }
  if (!fx) fx = (conv || (conv = (typeof src === "function" ? src : ev(src))(S, isArr)))();
  const out = fx[0](v, this, k, st, ks, n, name);
  if (out !== null && typeof out === "object") { st[n] = last = out; at = n; was[n] = v; ks[n++] = k; }
  return out;
};
// A stringify that failed for the value's shape gives [error, why]: 1
// when it nests too deeply (the replacer's own error), 2 when an object
// in it holds itself: JSON threw at once on the last object handed back,
// one of the holders it was inside (a getter or a toJSON that throws runs
// before its value is handed back). Any other error, a getter's own
// stringify's among them, is thrown as it is.
return (root, input) => {
  const st0 = st, ks0 = ks, was0 = was, n0 = n, fx0 = fx, name0 = name, thrown0 = thrown, last0 = last, at0 = at;
  if (n) { st = []; ks = []; was = []; }
  n = dn = 0; fx = undefined; name = input ? "input" : "result"; thrown = last = undefined;
  try {
    const s = S(root, rep);
    return fx ? [s, fx[1]()] : s;
  } catch (e) {
    let why = e === thrown ? 1 : 0;
    for (let i = 0; !why && last && i < at; i++) if (st[i] === last) why = 2;
    if (why) return [e, why];
    throw e;
  } finally { st = st0; ks = ks0; was = was0; n = n0; fx = fx0; name = name0; thrown = thrown0; last = last0; at = at0; }
};
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
	if fn, ok := r.precompiled(src); ok {
		return fn, 0
	}
	q, ctx := r.q, r.ctx
	if r.eval != 0 {
		s := q.NewString(ctx, src)
		defer q.FreeValue(ctx, s)
		return q.Call(ctx, r.eval.Const(), q.Undefined.Const(), s.Const())
	}
	return q.Eval(ctx, src, name, ffi.EvalGlobal)
}

// convertSourceHook, set by tests, hears whether a run's stringify got
// convertJS compiled from the image (true) or as its source (false).
var convertSourceHook func(precompiled bool)

// Unwritable is why a value could not be written as JSON for its shape,
// not for what its code did (a getter that threw).
type Unwritable int

const (
	// TooDeep: it nests more than 1,000 levels deep (a RangeError).
	TooDeep Unwritable = 1
	// Circular: an object in it holds itself (a TypeError).
	Circular Unwritable = 2
)

// toJSON writes v as JSON with detectJS's stringify (made on first use),
// converting by the rules above: value is nil when v has no JSON (a
// function, undefined); name is the root of the warnings' paths ("result",
// "input"). A stringify that threw gives exc, and why when the value's
// shape was the cause.
func (r *run) toJSON(v ffi.ValueConst, name string) (value json.RawMessage, warnings []string, exc ffi.Value, why Unwritable) {
	q, ctx := r.q, r.ctx
	if r.detect == 0 {
		factory, exc := r.compile(detectJS, "<detect>")
		if exc != 0 {
			return nil, nil, exc, 0
		}
		defer q.FreeValue(ctx, factory)
		one := q.NewNumber(ctx, 1)
		intrinsics, exc := q.Call(ctx, r.stringify.Const(), q.Undefined.Const(), q.Undefined.Const(), one.Const())
		q.FreeValue(ctx, one)
		if exc != 0 {
			return nil, nil, exc, 0
		}
		defer q.FreeValue(ctx, intrinsics)
		// convertJS compiled, when the image holds it (a caller's
		// Program.Sources): else its source, which detectJS compiles on
		// its first need. Writing the source (~6 KB) into QuickJS's memory
		// as a string, in every run that converts an object, was ~12% of
		// the profiled CPU of a run that makes one tool call.
		src, ok := r.precompiled(convertJS)
		if convertSourceHook != nil {
			convertSourceHook(ok)
		}
		if !ok {
			src = q.NewString(ctx, convertJS)
		}
		defer q.FreeValue(ctx, src)
		fn, exc := q.Call(ctx, factory.Const(), q.Undefined.Const(), intrinsics.Const(), src.Const())
		if exc != 0 {
			return nil, nil, exc, 0
		}
		r.detect = fn
	}
	input := q.False
	if name == "input" {
		input = q.True
	}
	out, exc := q.Call(ctx, r.detect.Const(), q.Undefined.Const(), v, input.Const())
	if exc != 0 {
		return nil, nil, exc, 0
	}
	defer q.FreeValue(ctx, out)
	js, w := out, ffi.Value(0)
	if !q.IsString(out.Const()) {
		if !q.IsObject(out.Const()) {
			return nil, nil, 0, 0
		}
		js, w = q.GetIndex(ctx, out.Const(), 0), q.GetIndex(ctx, out.Const(), 1)
		if n, ok := q.Int(w.Const()); ok {
			q.FreeValue(ctx, w)
			return nil, nil, js, Unwritable(n)
		}
		defer q.FreeValue(ctx, js)
		defer q.FreeValue(ctx, w)
	}
	if q.IsString(js.Const()) {
		value = q.GetBytes(ctx, js.Const())
		// Without host functions or prelude the stringify was taken after
		// the program ran (engineStringify): a program that replaced
		// JSON.stringify would write this text, which must not reach the
		// host as JSON.
		if r.lateStringify && !json.Valid(value) {
			e := q.NewError(ctx)
			msg := q.NewString(ctx, "the value cannot be converted: JSON.stringify was replaced by the program")
			q.SetProp(ctx, e.Const(), "message", msg.Const())
			q.FreeValue(ctx, msg)
			return nil, nil, e, 0
		}
	}
	if w == 0 {
		return value, nil, 0, 0
	}
	if err := json.Unmarshal(q.GetBytes(ctx, w.Const()), &warnings); err != nil {
		warnings = []string{fmt.Sprintf("%s: the conversion report is unreadable: %v", name, err)}
	}
	return value, warnings, 0, 0
}
