package ffi

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"unsafe"
)

var errOutOfMemory = errors.New("malloc failed: out of memory")

// Eval flags of JS_Eval (quickjs.h).
const (
	EvalGlobal = 0
	// EvalAsync evaluates a global script as if it were an async function
	// body: top-level await works and the result is a promise of
	// {value: completion value}.
	EvalAsync = 1 << 7
)

// Promise states of JS_PromiseState.
const (
	PromisePending   = 0
	PromiseFulfilled = 1
	PromiseRejected  = 2
)

// Value tags of the pinned QuickJS (quickjs.h, NaN-boxed on wasm32: the
// high word of a JSValue). Reading a tag is one memory read, where Typeof
// costs an allocation and three crossings. TestTags checks them against the
// asset.
const (
	tagString     = -7
	tagStringRope = -6
	tagObject     = -1
	tagInt        = 0
	tagBool       = 1
	tagNull       = 2
	tagUndefined  = 3
	// An exception that no one threw: JS_GetException's value when a
	// built-in returned failure without setting one.
	tagUninitialized = 4
	tagFloat64       = 8 // and every larger (or more negative than -9) high word
)

func (q *Instance) tag(v ValueConst) int32 {
	hi, _ := q.mem.ReadUint32(uint32(v) + 4)
	return int32(hi)
}

// IsObject reports whether the value at v is an object (functions included).
func (q *Instance) IsObject(v ValueConst) bool { return q.tag(v) == tagObject }

// IsUninitialized reports whether the value at v is QuickJS's internal
// "uninitialized" marker, which no program can make: it is the exception of
// a built-in that failed without throwing (see sandbox's toError).
func (q *Instance) IsUninitialized(v ValueConst) bool { return q.tag(v) == tagUninitialized }

// IsString reports whether the value at v is a string.
func (q *Instance) IsString(v ValueConst) bool {
	t := q.tag(v)
	return t == tagString || t == tagStringRope
}

// Int returns the value at v when it is an integer-tagged number (QuickJS
// keeps small integers as int32): one memory read, no crossing into QuickJS.
func (q *Instance) Int(v ValueConst) (int32, bool) {
	if q.tag(v) != tagInt {
		return 0, false
	}
	lo, _ := q.mem.ReadUint32(uint32(v))
	return int32(lo), true
}

// Narrow returns the characters of the string at v when QuickJS holds them
// one byte each (Latin-1) and there are at most max, read from memory: no crossing into QuickJS, where
// GetString makes, reads and frees a UTF-8 copy. A rope or a string of
// 16-bit characters gives false. The layout is the pinned asset's JSString
// (quickjs.c: a 32-bit reference count, then len:31 and is_wide_char:1, the
// hash word, hash_next, then the bytes and a NUL), checked by TestNarrow;
// the NUL past the end is checked on every read.
func (q *Instance) Narrow(v ValueConst, max uint32) ([]byte, bool) {
	if q.tag(v) != tagString {
		return nil, false
	}
	p, ok1 := q.mem.ReadUint32(uint32(v))
	w, ok2 := q.mem.ReadUint32(p + 4)
	if !ok1 || !ok2 || w>>31 != 0 {
		return nil, false
	}
	n := w &^ (1 << 31)
	if n > max {
		return nil, false
	}
	b, ok := q.mem.Read(p+jsStringHeader, n+1)
	if !ok || b[n] != 0 {
		return nil, false
	}
	return b[:n], true
}

// jsStringHeader is the size of a JSString's header on wasm32.
const jsStringHeader = 16

// IsPlainPrimitive reports whether the value at v is a number, a string, a
// boolean, null or undefined (not a BigInt, a symbol or an object).
func (q *Instance) IsPlainPrimitive(v ValueConst) bool {
	t := q.tag(v)
	return isNumberTag(t) || t == tagString || t == tagStringRope || t == tagBool || t == tagNull || t == tagUndefined
}

// IsNumber reports whether the value at v is a number.
func (q *Instance) IsNumber(v ValueConst) bool {
	return isNumberTag(q.tag(v))
}

// isNumberTag says whether a value's tag is a number's: an int, or a
// float64, whose high word is the tag.
func isNumberTag(t int32) bool { return t == tagInt || t >= tagFloat64 || t < -9 }

// Malloc allocates n bytes of linear memory, panicking with *Trap on failure
// (the caller asked for memory the sandbox cannot give: treat as a trap).
func (q *Instance) Malloc(n uint32) uint32 {
	p := q.call0(q.malloc, n)
	if p == 0 {
		panic(&Trap{errOutOfMemory})
	}
	return p
}

// Free frees what Malloc returned.
func (q *Instance) Free(p uint32) { q.callVoid(q.free, p) }

// cstring copies s plus a NUL into fresh memory.
func (q *Instance) cstring(s string) uint32 {
	p := q.Malloc(uint32(len(s)) + 1)
	b := make([]byte, len(s)+1)
	copy(b, s)
	q.mem.Write(p, b)
	return p
}

// internedCString returns a NUL-terminated copy of a short, recurring
// string (file names, property and function names) that lives as long as
// the instance: crossings into wasm are what a run's setup costs, and this
// saves a malloc, a write and a free per use.
func (q *Instance) internedCString(s string) uint32 {
	if p, ok := q.interned[s]; ok {
		return p
	}
	if len(s) > 64 || len(q.interned) >= 256 {
		return 0
	}
	if q.interned == nil {
		q.interned = map[string]uint32{}
	}
	p := q.cstring(s)
	q.interned[s] = p
	return p
}

// withCString calls f with s as a C string, interned when it qualifies.
func (q *Instance) withCString(s string, f func(p uint32)) {
	if p := q.internedCString(s); p != 0 {
		f(p)
		return
	}
	p := q.cstring(s)
	f(p)
	q.Free(p)
}

// codeBufferSize is the size of the reusable buffer for Eval's code.
const codeBufferSize = 8 << 10

// codeBuffer returns the reusable code buffer if n bytes and a NUL fit, or 0.
func (q *Instance) codeBuffer(n int) uint32 {
	if n+1 > codeBufferSize {
		return 0
	}
	if q.code == 0 {
		q.code = q.Malloc(codeBufferSize)
	}
	return q.code
}

// CString reads a NUL-terminated string at p.
func (q *Instance) CString(p uint32) string {
	if p == 0 {
		return ""
	}
	var out []byte
	// Most strings are short, and reads of up to 64 bytes are the cheap
	// kind on the JavaScript backend.
	for chunk := uint32(64); ; chunk *= 8 {
		size := q.mem.Size()
		if p >= size {
			return string(out)
		}
		n := min(chunk, size-p)
		b, _ := q.mem.Read(p, n)
		if i := bytes.IndexByte(b, 0); i >= 0 {
			return string(append(out, b[:i]...))
		}
		out = append(out, b...)
		p += n
	}
}

// NewRuntime creates a JSRuntime.
func (q *Instance) NewRuntime() Runtime { return Runtime(q.call0(q.newRuntime)) }

// FreeRuntime frees a JSRuntime; QuickJS asserts if objects leaked.
func (q *Instance) FreeRuntime(rt Runtime) { q.callVoid(q.freeRuntime, uint32(rt)) }

// NewContext creates a context with all intrinsics.
func (q *Instance) NewContext(rt Runtime) Context {
	return Context(q.call0(q.newContext, uint32(rt), 0))
}

// FreeContext frees a context.
func (q *Instance) FreeContext(ctx Context) { q.callVoid(q.freeContext, uint32(ctx)) }

// SetMemoryLimit sets the QuickJS heap limit in bytes.
func (q *Instance) SetMemoryLimit(rt Runtime, limit uint32) {
	q.callVoid(q.setMemoryLimit, uint32(rt), limit)
}

// SetMaxStackSize sets the QuickJS stack limit in bytes.
func (q *Instance) SetMaxStackSize(rt Runtime, size uint32) {
	q.callVoid(q.setMaxStackSize, uint32(rt), size)
}

// EnableInterruptHandler makes QuickJS poll Callbacks.ShouldInterrupt.
func (q *Instance) EnableInterruptHandler(rt Runtime) { q.callVoid(q.enableInterrupt, uint32(rt)) }

// PollSoon makes ctx's next interrupt poll call the handler: QuickJS asks
// it once in 10,000 polls (its countdown, ctx->interrupt_counter, set to 1
// here). The interpreter polls as it enters a function, so the code
// evaluated next asks it at its first step, before anything it calls.
func (q *Instance) PollSoon(ctx Context) { q.mem.WriteUint32(uint32(ctx)+ctxInterruptCounter, 1) }

// Eval evaluates code. It returns an owned value and, if evaluation threw,
// the owned exception (the value is then freed already).
func (q *Instance) Eval(ctx Context, code, filename string, flags uint32) (val, exc Value) {
	// Small programs reuse one buffer instead of a malloc and a free,
	// unless this Eval runs inside another's (code compiled by a host
	// call, such as the argument converter): the outer one may still read
	// its source.
	q.evalDepth++
	defer func() { q.evalDepth-- }()
	c := uint32(0)
	if q.evalDepth == 1 {
		c = q.codeBuffer(len(code))
	}
	if c == 0 {
		c = q.cstring(code)
		defer q.Free(c)
	} else {
		q.mem.Write(c, append([]byte(code), 0))
	}
	q.withCString(filename, func(f uint32) { val = Value(q.call0(q.eval, uint32(ctx), c, uint32(len(code)), f, 0, flags)) })
	return q.checkException(ctx, val)
}

func (q *Instance) checkException(ctx Context, val Value) (Value, Value) {
	if exc := Value(q.call0(q.resolveException, uint32(ctx), uint32(val))); exc != 0 {
		q.FreeValue(ctx, val)
		return 0, exc
	}
	return val, 0
}

// FreeValue frees an owned JSValue*.
func (q *Instance) FreeValue(ctx Context, v Value) {
	if v != 0 && v != q.Undefined && v != q.Null && v != q.True && v != q.False {
		q.callVoid(q.freeValue, uint32(ctx), uint32(v))
	}
}

// NewError returns a new owned Error object.
func (q *Instance) NewError(ctx Context) Value { return Value(q.call0(q.newError, uint32(ctx))) }

// NewString creates a string value from s (which must not contain NUL).
func (q *Instance) NewString(ctx Context, s string) Value {
	return q.NewStringBytes(ctx, unsafe.Slice(unsafe.StringData(s), len(s)))
}

// NewStringBytes creates a string value from the text b (which must not
// contain NUL), which it only reads: a tool's result of 100 MB was copied
// twice in Go on its way into QuickJS (a string of it, then the C string's
// bytes), and the Go core's memory, which never shrinks, grew by both.
// A short string goes through a reusable buffer (QuickJS copies it, and
// calls no host function meanwhile), which saves a malloc and a free.
func (q *Instance) NewStringBytes(ctx Context, b []byte) (v Value) {
	if len(b) < stringBufferSize {
		if q.strBuf == 0 {
			q.strBuf = q.Malloc(stringBufferSize)
		}
		c := make([]byte, len(b)+1)
		copy(c, b)
		q.mem.Write(q.strBuf, c)
		return Value(q.call0(q.newString, uint32(ctx), q.strBuf))
	}
	p := q.Malloc(uint32(len(b)) + 1)
	q.mem.Write(p, b)
	q.mem.Write(p+uint32(len(b)), []byte{0})
	v = Value(q.call0(q.newString, uint32(ctx), p))
	q.Free(p)
	return v
}

// stringBufferSize is the size of NewString's reusable buffer.
const stringBufferSize = 4 << 10

// newKey creates a string value for a property or function name.
func (q *Instance) newKey(ctx Context, s string) (v Value) {
	q.withCString(s, func(p uint32) { v = Value(q.call0(q.newString, uint32(ctx), p)) })
	return v
}

// GetString converts v to a string (JS ToString) and returns it.
func (q *Instance) GetString(ctx Context, v ValueConst) string { return string(q.GetBytes(ctx, v)) }

// GetBytes is GetString's UTF-8, in a slice of its own: a tool input of
// millions of characters is one copy in Go's memory, which never shrinks,
// where a scan for the NUL read it in growing chunks and copied it twice.
// The C string is a JSString's characters (JS_FreeCString frees it as
// one), whose header holds their count: TestGetBytes checks it.
func (q *Instance) GetBytes(ctx Context, v ValueConst) []byte {
	p := q.call0(q.getString, uint32(ctx), uint32(v))
	if p == 0 {
		return nil
	}
	defer q.callVoid(q.freeCString, uint32(ctx), p)
	if w, ok := q.mem.ReadUint32(p - jsStringHeader + 4); ok && w>>31 == 0 {
		if b, ok := q.mem.Read(p, w+1); ok && b[w] == 0 {
			return b[:w]
		}
	}
	return []byte(q.CString(p))
}

// NewArrayBuffer returns an owned ArrayBuffer holding a copy of b, or the
// owned exception. QTS_NewArrayBuffer adopts the memory it is given
// (QuickJS frees it with the ArrayBuffer), so the bytes cross once, in one
// write; on failure it adopted nothing, and the memory is freed here.
func (q *Instance) NewArrayBuffer(ctx Context, b []byte) (val, exc Value) {
	p := q.Malloc(uint32(max(len(b), 1)))
	q.mem.Write(p, b)
	val, exc = q.checkException(ctx, Value(q.call0(q.rare(&q.newArrayBuffer, "QTS_NewArrayBuffer"), uint32(ctx), p, uint32(len(b)))))
	if exc != 0 {
		q.Free(p)
	}
	return val, exc
}

// DupValue returns a new owned reference to the value at v.
func (q *Instance) DupValue(ctx Context, v ValueConst) Value {
	return Value(q.call0(q.rare(&q.dupValue, "QTS_DupValuePointer"), uint32(ctx), uint32(v)))
}

// Same reports whether a === b.
func (q *Instance) Same(ctx Context, a, b ValueConst) bool {
	return q.call0(q.rare(&q.isEqual, "QTS_IsEqual"), uint32(ctx), uint32(a), uint32(b), 0) == 1
}

// NewNumber creates a number value.
func (q *Instance) NewNumber(ctx Context, f float64) Value {
	a := q.args[:2]
	a[0], a[1] = uint64(ctx), math.Float64bits(f)
	return Value(q.do(q.newFloat64, a...))
}

// GetProp returns the owned value of obj[name].
func (q *Instance) GetProp(ctx Context, obj ValueConst, name string) Value {
	k := q.newKey(ctx, name)
	v := Value(q.call0(q.getProp, uint32(ctx), uint32(obj), uint32(k)))
	q.FreeValue(ctx, k)
	return v
}

// GetIndex returns the owned value of obj[i].
func (q *Instance) GetIndex(ctx Context, obj ValueConst, i uint32) Value {
	return Value(q.call0(q.getPropNumber, uint32(ctx), uint32(obj), i))
}

// SetProp sets obj[name] = v (v is borrowed: SetProp takes its own reference).
func (q *Instance) SetProp(ctx Context, obj ValueConst, name string, v ValueConst) {
	k := q.newKey(ctx, name)
	q.callVoid(q.setProp, uint32(ctx), uint32(obj), uint32(k), uint32(v))
	q.FreeValue(ctx, k)
}

// Global returns the owned global object.
func (q *Instance) Global(ctx Context) Value { return Value(q.call0(q.getGlobal, uint32(ctx))) }

// Call calls fn with this and args (all borrowed). It returns the owned
// result, or the owned exception.
func (q *Instance) Call(ctx Context, fn, this ValueConst, args ...ValueConst) (val, exc Value) {
	argv := uint32(0)
	if len(args) > maxScratchArgs {
		argv = q.Malloc(uint32(4 * len(args)))
		defer q.Free(argv)
	} else if len(args) > 0 {
		argv = q.scratch + scratchArgv
	}
	switch len(args) {
	case 0:
	case 1:
		q.mem.WriteUint32(argv, uint32(args[0]))
	default:
		// One write for the whole argv: each write is a crossing under
		// GOOS=js.
		b := make([]byte, 4*len(args))
		for i, a := range args {
			binary.LittleEndian.PutUint32(b[4*i:], uint32(a))
		}
		q.mem.Write(argv, b)
	}
	return q.checkException(ctx, Value(q.call0(q.call, uint32(ctx), uint32(fn), uint32(this), uint32(len(args)), argv)))
}

// NewFunction creates a function that calls Callbacks.CallFunction with refID.
func (q *Instance) NewFunction(ctx Context, name string, refID uint32) (v Value) {
	q.withCString(name, func(p uint32) { v = Value(q.call0(q.newFunction, uint32(ctx), p, 0, 0, refID)) })
	return v
}

// Arg returns the borrowed pointer to argv[i]. NewInstance checked that a
// JSValue is 8 bytes (NaN-boxed), so no call is needed.
func (q *Instance) Arg(argv, i uint32) ValueConst { return ValueConst(argv + jsValueSize*i) }

const jsValueSize = 8

// Throw throws err (borrowed) in ctx and returns the owned exception
// marker to return from a host function.
func (q *Instance) Throw(ctx Context, err ValueConst) Value {
	return Value(q.call0(q.throw, uint32(ctx), uint32(err)))
}

// NewPromise returns an owned promise and its owned resolve and reject
// functions.
func (q *Instance) NewPromise(ctx Context) (promise, resolve, reject Value) {
	out := q.scratch + scratchResolve
	promise = Value(q.call0(q.newPromiseCapability, uint32(ctx), out))
	res, _ := q.mem.ReadUint32(out)
	rej, _ := q.mem.ReadUint32(out + 4)
	return promise, Value(res), Value(rej)
}

// PromiseState returns one of the Promise* states, or -1 if p is not a promise.
func (q *Instance) PromiseState(ctx Context, p ValueConst) int32 {
	return int32(q.call0(q.promiseState, uint32(ctx), uint32(p)))
}

// PromiseResult returns the owned result or rejection reason of p.
func (q *Instance) PromiseResult(ctx Context, p ValueConst) Value {
	return Value(q.call0(q.promiseResult, uint32(ctx), uint32(p)))
}

// IsJobPending reports whether promise jobs are queued.
func (q *Instance) IsJobPending(rt Runtime) bool { return q.call0(q.isJobPending, uint32(rt)) != 0 }

// ExecutePendingJobs runs up to max jobs (-1: all). If a job threw, it
// returns the owned exception and the context it belongs to.
func (q *Instance) ExecutePendingJobs(rt Runtime, max int32) (exc Value, excCtx Context) {
	out := q.scratch + scratchCtxOut
	q.mem.WriteUint32(out, 0)
	v := Value(q.call0(q.executePendingJob, uint32(rt), uint32(max), out))
	c, _ := q.mem.ReadUint32(out)
	ctx := Context(c)
	if ctx == 0 {
		// No job ran: v boxes a number, which holds no reference, so
		// freeing the box is all (there is no context to free it through).
		q.Free(uint32(v))
		return 0, 0
	}
	if _, e := q.checkExceptionValue(ctx, v); e != 0 {
		return e, ctx
	}
	return 0, ctx
}

// checkExceptionValue tells an exception returned as a plain value
// (ExecutePendingJob returns JS_GetException's value, not JS_EXCEPTION)
// from the job count it returns on success.
func (q *Instance) checkExceptionValue(ctx Context, v Value) (Value, Value) {
	if q.IsNumber(v.Const()) {
		q.FreeValue(ctx, v)
		return 0, 0
	}
	return 0, v
}
