package sandbox

import "github.com/interopio/code-mode/sandbox/internal/ffi"

// withheldJS takes from the program every way to detach or resize a
// buffer, and FinalizationRegistry (see below), and replaces the four
// Array methods and the Proxy constructor whose native code is unsafe (see
// copiesJS and proxyJS below). The pinned QuickJS keeps a typed array's
// pointer or length across the JavaScript it calls in the middle of a
// builtin (the new.target's prototype getter of a constructor, a valueOf,
// a sort comparator, a species constructor), and a buffer detached or shrunk
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
	// FinalizationRegistry is gone (typeof is "undefined"):
	// its callbacks run from the garbage collector, where the pinned
	// QuickJS's bugs are (bellard/quickjs#494, a callback enqueued when
	// memory ran out during a collection, then freed and used; quickjs-ng
	// #1318, #432, #367, all use after free), and a run of seconds, whose
	// memory is written back when it ends, has no use for a callback that
	// comes after an object is collected. WeakRef, WeakMap and WeakSet
	// stay: they run none of the program's code from the collector.
	delete globalThis.FinalizationRegistry;
` + copiesJS + proxyJS + `
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

// proxyJS makes every Proxy's ownKeys answer a real array of fewer than
// 2^29 keys. QuickJS sizes its table of the trap's keys as 8 bytes times
// their count in a size_t, 32 bits in WebAssembly (bellard/quickjs#535,
// open upstream): a count of 2^29 + 1 (an array-like's length, read
// again after the trap) made an 8-byte table that the program's keys
// were written past, and one of 2^29 failed an assertion. Proxy makes
// each proxy with a handler of its own (a shell) whose ownKeys calls the
// program's and copies what it returns into a new array, checking each key
// as QuickJS does and the count first. Its other traps forward: each looks
// up the program's trap when used, as QuickJS would, and calls it with the
// program's handler as this (a trap that counts in this.n, or compares
// this with its handler, sees its own), or does the default without one.
// The shell is the proxy's alone: no trap is handed it.
const proxyJS = `
	(() => {
		"use strict";
		const NativeProxy = Proxy, revocable = Proxy.revocable, create = Object.create, defineProperty = Object.defineProperty;
		const apply = Reflect.apply, ownKeys = Reflect.ownKeys, trunc = Math.trunc, min = Math.min;
		const keysFrom = (handler) => function ownKeys_(target) {
			const trap = handler.ownKeys;
			if (trap === undefined || trap === null) return ownKeys(target);
			if (typeof trap !== "function") throw new TypeError("proxy: the ownKeys trap is not a function");
			const list = apply(trap, handler, [target]);
			if ((typeof list !== "object" && typeof list !== "function") || list === null) throw new TypeError("proxy: ownKeys must return an object");
			const n = +list.length, len = n > 0 ? min(trunc(n), 2 ** 53 - 1) : 0;
			if (len >= 0x20000000) throw new RangeError("proxy: ownKeys returned " + len + " keys; at most 536870911 are possible");
			const keys = [];
			for (let i = 0; i < len; i++) {
				const k = list[i];
				if (typeof k !== "string" && typeof k !== "symbol") throw new TypeError("proxy: properties must be strings or symbols");
				keys[i] = k;
			}
			return keys;
		};
		// The program's handler of each shell, for the forwarding traps,
		// which QuickJS calls with the shell as this: a property of the
		// shell under a symbol only this code knows (the program never gets
		// the shell). Not a WeakMap: QuickJS keeps an entry whose value
		// reaches its key while the map lives, so a proxy whose handler
		// reaches it (a trap naming it) stayed for the whole run.
		const handlerKey = Symbol("handler");
		// Without the program's trap, the default is Reflect's, but for the
		// two that pass descriptors as objects: those QuickJS makes or reads
		// inherit Object.prototype, whose get or value the program may have
		// set by now (a descriptor then has both, and is refused), where a
		// proxy without the trap reads none. They go as copies of their own
		// fields, with no prototype.
		const setPrototypeOf = Object.setPrototypeOf, hasOwn = Object.hasOwn, descriptorOf = Reflect.getOwnPropertyDescriptor, define = Reflect.defineProperty;
		const fields = ["value", "writable", "get", "set", "enumerable", "configurable"];
		const bare = (desc) => {
			const copy = create(null);
			for (let i = 0; i < fields.length; i++) if (apply(hasOwn, undefined, [desc, fields[i]])) copy[fields[i]] = desc[fields[i]];
			return copy;
		};
		const defaults = create(null);
		defaults.getOwnPropertyDescriptor = (target, key) => {
			const desc = descriptorOf(target, key);
			if (desc !== undefined) setPrototypeOf(desc, null);
			return desc;
		};
		defaults.defineProperty = (target, key, desc) => define(target, key, bare(desc));
		const forward = create(null);
		for (const name of ["getPrototypeOf", "setPrototypeOf", "isExtensible", "preventExtensions", "getOwnPropertyDescriptor", "defineProperty", "has", "get", "set", "deleteProperty", "apply", "construct"]) {
			const byDefault = defaults[name] || Reflect[name];
			forward[name] = function (...args) {
				const handler = this[handlerKey];
				const trap = handler[name];
				if (trap === undefined || trap === null) return apply(byDefault, undefined, args);
				if (typeof trap !== "function") throw new TypeError("proxy: the " + name + " trap is not a function");
				return apply(trap, handler, args);
			};
		}
		// A handler that is not an object is passed on for QuickJS to refuse.
		const shell = (handler) => {
			if ((typeof handler !== "object" && typeof handler !== "function") || handler === null) return handler;
			const own = create(forward);
			defineProperty(own, handlerKey, { __proto__: null, value: handler });
			// A descriptor of no prototype: the program may have set
			// Object.prototype.get by now.
			defineProperty(own, "ownKeys", { __proto__: null, value: keysFrom(handler) });
			return own;
		};
		// Bound, as the native one: a constructor with no prototype property.
		const P = function Proxy(target, handler) {
			if (new.target === undefined) throw new TypeError("Proxy constructor must be called with new");
			return new NativeProxy(target, shell(handler));
		}.bind();
		defineProperty(P, "name", { value: "Proxy" });
		defineProperty(P, "revocable", { value: { revocable(target, handler) { return revocable(target, shell(handler)); } }.revocable, writable: true, configurable: true });
		defineProperty(globalThis, "Proxy", { value: P, writable: true, configurable: true });
	})();`
