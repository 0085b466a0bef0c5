package sandbox

import "github.com/interopio/code-mode/sandbox/internal/ffi"

// withheldJS takes from the program every way to detach or resize a
// buffer: the pinned QuickJS keeps a typed array's pointer or length
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
})()`

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
