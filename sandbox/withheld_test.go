//go:build !js

package sandbox_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox"
)

// TestNoBufferChangesUnderTypedArrays: the pinned QuickJS keeps a typed
// array's pointer or length across JavaScript it runs in the middle of a
// builtin (the new.target's prototype getter of a constructor, a valueOf),
// so a buffer detached or resized there gave the program a view past it:
// one over the instance's whole memory from address 0, C stack and other
// runs' leftovers included. The program can neither detach nor resize a
// buffer, so every such view stays inside its buffer; each attempt throws
// a TypeError naming what to do instead. The second run of each is the
// image's (precompile), which must withhold them too.
func TestNoBufferChangesUnderTypedArrays(t *testing.T) {
	e := mustEngine(t, sandbox.Config{MaxInstances: 1, MaxIdleInstances: 1})
	// view builds a Uint8Array over ab whose constructor's prototype lookup
	// runs change(ab); it returns the view's length and the sum of its
	// bytes, or the error change threw.
	const view = `const view = (ab, change) => {
		const nt = function () {}.bind();
		Object.defineProperty(nt, "prototype", { get() { change(ab); return Uint8Array.prototype; } });
		try {
			const u = Reflect.construct(Uint8Array, [ab, 0, ab.byteLength], nt);
			let sum = 0;
			for (let i = 0; i < u.length; i++) sum += u[i];
			return [u.length, ab.byteLength, sum];
		} catch (e) { return e.name + ": " + e.message }
	};
	`
	for _, tc := range []struct{ name, code, want string }{
		{"transfer in a constructor", view + `return view(new ArrayBuffer(4096), (ab) => ab.transfer())`,
			"TypeError: ArrayBuffer.prototype.transfer is not available here: buffer.slice() copies a buffer"},
		{"transferToFixedLength in a constructor", view + `return view(new ArrayBuffer(4096), (ab) => ab.transferToFixedLength())`,
			"TypeError: ArrayBuffer.prototype.transferToFixedLength is not available here: buffer.slice() copies a buffer"},
		{"resize in a constructor", view + `return view(new ArrayBuffer(4096, { maxByteLength: 4096 }), (ab) => ab.resize(0))`,
			"TypeError: ArrayBuffer.prototype.resize is not available here: make a new ArrayBuffer of the size needed and copy the bytes into it"},
		{"resize in with's valueOf", `const ab = new ArrayBuffer(4096, { maxByteLength: 4096 });
			const ta = new Int32Array(ab).fill(7);
			try { const r = ta.with(0, { valueOf() { ab.resize(16); return 1 } }); return [r.length, r[1000]] } catch (e) { return e.name + ": " + e.message }`,
			"TypeError: ArrayBuffer.prototype.resize is not available here: make a new ArrayBuffer of the size needed and copy the bytes into it"},
		{"grow of a SharedArrayBuffer", `try { new SharedArrayBuffer(8, { maxByteLength: 16 }).grow(16) } catch (e) { return e.name + ": " + e.message }`,
			"TypeError: SharedArrayBuffer.prototype.grow is not available here: make a new SharedArrayBuffer of the size needed and copy the bytes into it"},
		{"the withheld functions cannot be found again", `const p = ArrayBuffer.prototype, names = ["resize", "transfer", "transferToFixedLength"];
			return [names.map((n) => p[n].name === n && !/native code/.test(String(p[n]))), Object.getOwnPropertyNames(p).filter((n) => !names.includes(n) && typeof Object.getOwnPropertyDescriptor(p, n).value === "function").sort().join()]`,
			`[[true,true,true],"constructor,slice"]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for run := 1; run <= 2; run++ {
				res, err := e.Run(context.Background(), sandbox.Program{Code: tc.code})
				if err != nil || res.Error != nil {
					t.Fatalf("run %d: %v %+v", run, err, res.Error)
				}
				got := strings.Trim(string(res.Value), `"`)
				if got != tc.want {
					t.Fatalf("run %d: got %s, want %s", run, res.Value, tc.want)
				}
			}
		})
	}
}

// TestWithholdingOutlastsTheClock: an instance's first run withholds them
// in its new context on the run's one-time clock; a clock already run out
// (a short timeout on a loaded machine) interrupted that, and the run
// failed with MEMORY_LIMIT where it times out.
func TestWithholdingOutlastsTheClock(t *testing.T) {
	for _, timeout := range []time.Duration{time.Nanosecond, time.Microsecond} {
		e := mustEngine(t, sandbox.Config{})
		res, err := e.Run(context.Background(), sandbox.Program{Code: "return 1", Timeout: timeout})
		if err != nil {
			t.Fatal(err)
		}
		if got := errorCode(res); got != sandbox.CodeTimeout {
			t.Errorf("timeout %v: %q %+v, want TIMEOUT", timeout, got, res.Error)
		}
	}
}
