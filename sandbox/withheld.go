package sandbox

import "github.com/interopio/code-mode/sandbox/internal/ffi"

// withheldJS takes from the program every way to detach or resize a
// buffer, and replaces the four Array methods whose native code is unsafe
// (see copiesJS below). The pinned QuickJS keeps a typed array's pointer or length
// across the JavaScript it calls in the middle of a builtin (the
// new.target's prototype getter of a constructor, a valueOf, a sort
// comparator, a species constructor), and a buffer detached or shrunk
// there left a view past it: one over the instance's whole memory from
// address 0 (its C stack, which images do not restore, and what earlier
// runs left past the heap's break). Each method is replaced by one that
// throws, saying what to do instead; nothing keeps the native one.
const withheldJS = `(() => {
	const withhold = (proto, name, instead) => {
		const what = proto === ArrayBuffer.prototype ? "ArrayBuffer" : "SharedArrayBuffer";
		const stub = { [name]() { throw new TypeError(what + ".prototype." + name + " is not available here: " + instead); } }[name];
		Object.defineProperty(proto, name, { value: stub, writable: true, configurable: true });
	};
	const copy = "buffer.slice() copies a buffer";
	withhold(ArrayBuffer.prototype, "transfer", copy);
	withhold(ArrayBuffer.prototype, "transferToFixedLength", copy);
	withhold(ArrayBuffer.prototype, "resize", "make a new ArrayBuffer of the size needed and copy the bytes into it");
	withhold(SharedArrayBuffer.prototype, "grow", "make a new SharedArrayBuffer of the size needed and copy the bytes into it");
` + copiesJS + `
})()`

// copiesJS replaces Array.prototype's toReversed, toSorted, toSpliced and
// with. The pinned QuickJS makes their result with room for every element
// and counts them all before reading one (js_allocate_fast_array; fixed
// upstream after the pin, bellard/quickjs#471): when reading one runs the
// program's code (a getter, a Proxy's trap) and that code makes the
// garbage collector run, the collector takes the elements not yet read for
// values, whatever an earlier allocation left in their bytes (words the
// program wrote into a buffer it freed), and follows them as pointers
// into the instance's memory. These do the same reads in the same order
// (the specification's Get, where QuickJS also asks has first) into an
// array that holds only what was read; sort is QuickJS's own, which
// copies the elements out before it calls the comparator. The functions
// and Reflect.apply are taken now, so that nothing the program changes
// later reaches them.
const copiesJS = `
	(() => {
		"use strict";
		const sort = Array.prototype.sort, apply = Reflect.apply, toObject = Object, trunc = Math.trunc, max = Math.max, min = Math.min;
		const object = (v) => {
			if (v === undefined || v === null) throw new TypeError("cannot convert to object");
			return toObject(v);
		};
		const integer = (v) => {
			const n = +v;
			return n !== n ? 0 : trunc(n) + 0;
		};
		const lengthOf = (o) => min(max(integer(o.length), 0), 2 ** 53 - 1);
		// QuickJS's own limit for these (js_allocate_fast_array): a longer
		// array-like fails at once, not after reading 2^31 elements.
		const make = (len) => {
			if (len > 0x7fffffff) throw new RangeError("invalid array length");
			return [];
		};
		const copies = {
			toReversed() {
				const o = object(this), len = lengthOf(o), a = make(len);
				for (let k = 0; k < len; k++) a[k] = o[len - 1 - k];
				return a;
			},
			toSorted(comparefn) {
				if (comparefn !== undefined && typeof comparefn !== "function") throw new TypeError("not a function");
				const o = object(this), len = lengthOf(o), a = make(len);
				for (let k = 0; k < len; k++) a[k] = o[k];
				apply(sort, a, [comparefn]);
				return a;
			},
			toSpliced(start, skipCount, ...items) {
				const o = object(this), len = lengthOf(o), argc = arguments.length;
				let from = 0, skip = 0;
				if (argc > 0) {
					from = integer(start);
					from = from < 0 ? max(len + from, 0) : min(from, len);
					skip = argc > 1 ? min(max(integer(skipCount), 0), len - from) : len - from;
				}
				const newLen = len + items.length - skip;
				if (newLen > 2 ** 53 - 1) throw new TypeError("invalid array length");
				const a = make(newLen);
				let n = 0;
				for (let k = 0; k < from; k++) a[n++] = o[k];
				for (let j = 0; j < items.length; j++) a[n++] = items[j];
				for (let k = from + skip; k < len; k++) a[n++] = o[k];
				return a;
			},
			with(index, value) {
				const o = object(this), len = lengthOf(o);
				let at = integer(index);
				if (at < 0) at += len;
				if (at < 0 || at >= len) throw new RangeError("invalid array index: " + at);
				const a = make(len);
				for (let k = 0; k < len; k++) a[k] = k === at ? value : o[k];
				return a;
			},
		};
		for (const name of ["toReversed", "toSorted", "toSpliced", "with"]) {
			Object.defineProperty(Array.prototype, name, { value: copies[name], writable: true, configurable: true });
		}
	})();`

// withhold runs withheldJS in a new context, before anything else runs in
// it (an image is taken from such a context, so its runs start without
// them too), and before the runtime's interrupt handler is on. A context
// where it failed (no memory left) is not used.
func withhold(q *ffi.Instance, ctx ffi.Context) bool {
	v, exc := q.Eval(ctx, withheldJS, "<sandbox>", ffi.EvalGlobal)
	q.FreeValue(ctx, v)
	if exc != 0 {
		q.FreeValue(ctx, exc)
		return false
	}
	return true
}
