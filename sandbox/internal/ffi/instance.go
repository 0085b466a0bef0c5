package ffi

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/interopio/code-mode/sandbox/wasmhost"
)

// Callbacks are the calls QuickJS makes into its host. They run on the
// goroutine that called into the instance and may call back into it.
type Callbacks interface {
	// CallFunction runs host function refID, called from JS with this and
	// argc values at argv (a JSValueConst array: read them with Arg). It
	// returns an owned value (or 0 for undefined); to throw, return
	// Throw(ctx, err).
	CallFunction(ctx Context, this ValueConst, argc, argv, refID uint32) Value
	// ShouldInterrupt is polled by QuickJS while it runs code.
	ShouldInterrupt(rt Runtime) bool
	// FreeHostRef says that QuickJS released the function with refID.
	FreeHostRef(rt Runtime, refID uint32)
}

// Trap is the panic value of a wrapper whose call trapped.
type Trap struct{ Err error }

func (t *Trap) Error() string { return "QuickJS trapped: " + t.Err.Error() }
func (t *Trap) Unwrap() error { return t.Err }

// Instance is one instantiated asset. It is not safe for concurrent use.
type Instance struct {
	inst wasmhost.Instance
	mem  wasmhost.Memory
	cb   Callbacks

	// Poll is the interrupt poll's state; the owner sets its deadline.
	Poll wasmhost.Poll
	// HeapGrowFailed is set when memory growth hit the cap, or QuickJS's
	// limit refused a small block (resizeHeap(0)): the next out-of-memory
	// error is the limit's.
	HeapGrowFailed bool
	// HeapFull, when set, is called when the cap refused an allocation
	// that lacked at most heapFullSlack, or QuickJS's limit a block of at
	// most that much: the heap is full, not merely too
	// small for one large block, and QuickJS, which then cannot allocate
	// even the error it throws, throws null.
	HeapFull func()
	// LocalOffset, when set, gives the seconds east of UTC of the local
	// time zone at an instant (unix seconds): QuickJS's Date asks it
	// (localtime) for every local-time method. nil is UTC.
	LocalOffset func(unixSec int64) int
	// Output collects what C wrote to stdout/stderr (asserts, aborts), bounded.
	Output []byte
	dead   bool
	// layoutOK says the memory is laid out as layout.go says, so that
	// the instance can have images.
	layoutOK bool

	scratch   uint32            // 64 bytes for out-parameters, see scratch* offsets
	interned  map[string]uint32 // see internedCString
	code      uint32            // see codeBuffer
	strBuf    uint32            // see NewString
	evalDepth int               // Evals in progress, see Eval
	trapErr   error             // the first trap, once dead
	// args is every export call's argument buffer: a local array handed
	// to wasmhost.Func.Call (an interface) went to the heap, one
	// allocation per call and some 25 per tool call. Reusing it for
	// nested calls is sound because Call reads its arguments before the
	// function runs (wasmhost.Func).
	args [9]uint64

	malloc, free                                              wasmhost.Func
	newRuntime, freeRuntime, newContext, freeContext          wasmhost.Func
	setMemoryLimit, setMaxStackSize, enableInterrupt          wasmhost.Func
	eval, resolveException, freeValue, freeCString            wasmhost.Func
	newString, getString, getProp, setProp, call, newFunction wasmhost.Func
	newPromiseCapability, promiseState, promiseResult         wasmhost.Func
	executePendingJob, isJobPending, getGlobal, argv, throw   wasmhost.Func
	newFloat64, getPropNumber, newError                       wasmhost.Func
	// Bound on first use (see rare).
	newArrayBuffer, dupValue, isEqual        wasmhost.Func
	getUndefined, getNull, getTrue, getFalse wasmhost.Func

	// Static constants, read once. FreeValue ignores them, so they may
	// stand wherever an owned value is expected.
	Undefined, Null, True, False Value
}

const (
	scratchCtxOut  = 0  // JSContext* of ExecutePendingJob
	scratchResolve = 8  // JSValue*[2] of NewPromiseCapability
	scratchArgv    = 16 // JSValueConst*[≤ 12] of Call
	scratchSize    = 64
	maxScratchArgs = (scratchSize - scratchArgv) / 4
)

// NewInstance instantiates the asset with a memory capped at maxPages and
// runs its constructors.
func (a *Asset) NewInstance(maxPages uint32, cb Callbacks) (q *Instance, err error) {
	if maxPages < pinned.MemoryMinPages {
		return nil, fmt.Errorf("memory cap of %d pages is below the asset's minimum of %d", maxPages, pinned.MemoryMinPages)
	}
	q = &Instance{cb: cb}
	funcs := map[string]wasmhost.HostFunc{}
	for role, imp := range pinned.Imports {
		f := q.importFunc(role)
		if f == nil {
			return nil, fmt.Errorf("no host implementation for import %s (%s)", imp.Name, role)
		}
		hf := wasmhost.HostFunc{Type: funcType(imp.Sig), Call: f}
		if role == "should_interrupt" {
			hf.Poll = &q.Poll
		}
		funcs[imp.Name] = hf
	}
	inst, err := a.mod.Instantiate(wasmhost.Imports{
		Module: pinned.ImportModule,
		Funcs:  funcs,
		Memory: wasmhost.MemorySpec{Name: pinned.MemoryImport, MinPages: pinned.MemoryMinPages, MaxPages: maxPages},
	})
	if err != nil {
		return nil, err
	}
	q.inst, q.mem = inst, inst.Memory()
	defer func() {
		if r := recover(); r != nil {
			inst.Close()
			q, err = nil, fmt.Errorf("instantiate QuickJS: %v", r)
		}
	}()
	if err := q.bind(); err != nil {
		inst.Close()
		return nil, err
	}
	q.callVoid(q.mustFunc("__wasm_call_ctors"))
	q.layoutOK = q.checkLayout()
	q.Undefined, q.Null = Value(q.call0(q.getUndefined)), Value(q.call0(q.getNull))
	q.True, q.False = Value(q.call0(q.getTrue)), Value(q.call0(q.getFalse))
	q.scratch = q.Malloc(scratchSize)
	if got := q.call0(q.argv, 0x1000, 1); got != 0x1000+jsValueSize {
		inst.Close()
		return nil, fmt.Errorf("%w: JSValue is %d bytes, expected %d", ErrUnsupportedAsset, got-0x1000, jsValueSize)
	}
	return q, nil
}

func (q *Instance) mustFunc(name string) wasmhost.Func {
	f, err := q.lookup(name)
	if err != nil {
		panic(err)
	}
	return f
}

func (q *Instance) lookup(name string) (wasmhost.Func, error) {
	a, ok := pinned.Exports[name]
	if !ok {
		return nil, fmt.Errorf("export %s is not in the name table", name)
	}
	return q.inst.Func(a.Name, funcType(a.Sig))
}

// bind resolves every export the wrappers use, once per instance.
func (q *Instance) bind() error {
	for _, b := range []struct {
		f    *wasmhost.Func
		name string
	}{
		{&q.malloc, "malloc"}, {&q.free, "free"},
		{&q.newRuntime, "QTS_NewRuntime"}, {&q.freeRuntime, "QTS_FreeRuntime"},
		{&q.newContext, "QTS_NewContext"}, {&q.freeContext, "QTS_FreeContext"},
		{&q.setMemoryLimit, "QTS_RuntimeSetMemoryLimit"}, {&q.setMaxStackSize, "QTS_RuntimeSetMaxStackSize"},
		{&q.enableInterrupt, "QTS_RuntimeEnableInterruptHandler"},
		{&q.eval, "QTS_Eval"}, {&q.resolveException, "QTS_ResolveException"},
		{&q.freeValue, "QTS_FreeValuePointer"}, {&q.freeCString, "QTS_FreeCString"},
		{&q.newString, "QTS_NewString"}, {&q.getString, "QTS_GetString"},
		{&q.getProp, "QTS_GetProp"}, {&q.setProp, "QTS_SetProp"}, {&q.getPropNumber, "QTS_GetPropNumber"},
		{&q.call, "QTS_Call"}, {&q.newFunction, "QTS_NewFunction"},
		{&q.newPromiseCapability, "QTS_NewPromiseCapability"}, {&q.promiseState, "QTS_PromiseState"}, {&q.promiseResult, "QTS_PromiseResult"},
		{&q.executePendingJob, "QTS_ExecutePendingJob"}, {&q.isJobPending, "QTS_IsJobPending"},
		{&q.getGlobal, "QTS_GetGlobalObject"}, {&q.argv, "QTS_ArgvGetJSValueConstPointer"}, {&q.throw, "QTS_Throw"},
		{&q.newFloat64, "QTS_NewFloat64"},
		{&q.getUndefined, "QTS_GetUndefined"}, {&q.getNull, "QTS_GetNull"}, {&q.getTrue, "QTS_GetTrue"}, {&q.getFalse, "QTS_GetFalse"}, {&q.newError, "QTS_NewError"},
	} {
		f, err := q.lookup(b.name)
		if err != nil {
			return err
		}
		*b.f = f
	}
	return nil
}

// rare returns *f, binding it to export name on first use: most runs never
// call these, and every binding is a lookup at each instance's start.
func (q *Instance) rare(f *wasmhost.Func, name string) wasmhost.Func {
	if *f == nil {
		*f = q.mustFunc(name)
	}
	return *f
}

// Dead reports whether the instance trapped.
func (q *Instance) Dead() bool { return q.dead }

// Close releases the instance.
func (q *Instance) Close() error {
	q.dead = true
	return q.inst.Close()
}

// MemorySize is the current size of linear memory in bytes.
func (q *Instance) MemorySize() uint32 { return q.mem.Size() }

func (q *Instance) do(f wasmhost.Func, args ...uint64) uint64 {
	if q.dead {
		// Say what the first trap was: it may have been caught on the
		// way out (by a host import's wrapper) and this is its echo.
		if q.trapErr != nil {
			panic(&Trap{fmt.Errorf("instance already trapped: %w", q.trapErr)})
		}
		panic(&Trap{errors.New("instance already trapped")})
	}
	r, err := f.Call(args...)
	if err != nil {
		q.dead = true
		if len(q.Output) > 0 {
			err = fmt.Errorf("%w (QuickJS said: %s)", err, q.Output)
		}
		q.trapErr = err
		panic(&Trap{err})
	}
	return r
}

func (q *Instance) call0(f wasmhost.Func, args ...uint32) uint32 {
	a := q.args[:len(args)]
	for i, v := range args {
		a[i] = uint64(v)
	}
	return uint32(q.do(f, a...))
}

func (q *Instance) callVoid(f wasmhost.Func, args ...uint32) { q.call0(f, args...) }

// importFunc returns the Go implementation of an import role.
func (q *Instance) importFunc(role string) func([]uint64) uint64 {
	switch role {
	case "call_function":
		return func(a []uint64) uint64 {
			return uint64(q.cb.CallFunction(Context(a[0]), ValueConst(a[1]), uint32(a[2]), uint32(a[3]), uint32(a[4])))
		}
	case "should_interrupt":
		return func(a []uint64) uint64 {
			// An i32 arrives with whatever the upper half held.
			if uint32(a[0]) == loopCheckArg {
				if q.Poll.PastHard() {
					return 1
				}
				return 0
			}
			interpreted(&q.Poll)
			if q.cb.ShouldInterrupt(Runtime(a[0])) {
				return 1
			}
			return 0
		}
	case "free_host_ref":
		return func(a []uint64) uint64 { q.cb.FreeHostRef(Runtime(a[0]), uint32(a[1])); return 0 }
	case "resize_heap":
		return func(a []uint64) uint64 { return q.resizeHeap(uint32(a[0])) }
	case "fd_write":
		return q.fdWrite
	case "date_now":
		return func([]uint64) uint64 { return math.Float64bits(float64(time.Now().UnixMilli())) }
	case "localtime":
		return q.localtime
	case "tzset", "setitimer", "keepalive_clear":
		return func([]uint64) uint64 { return 0 } // UTC, no timers, nothing to keep alive
	case "environ_sizes_get":
		return func(a []uint64) uint64 {
			q.mem.WriteUint32(uint32(a[0]), 0)
			q.mem.WriteUint32(uint32(a[1]), 0)
			return 0
		}
	case "environ_get":
		return func([]uint64) uint64 { return 0 }
	case "errno_52":
		return func([]uint64) uint64 { return 52 } // ENOSYS
	case "errno_70":
		return func([]uint64) uint64 { return 70 } // ESPIPE
	case "load_module_source", "normalize_module":
		return func([]uint64) uint64 { return 0 } // the loader is never enabled
	case "assert_fail":
		return func(a []uint64) uint64 {
			// An i32 argument is the low half of its uint64: wazero leaves
			// the high half as it finds it (a line read 140445430581236).
			panic(fmt.Sprintf("assertion failed: %s at %s:%d (%s)", q.CString(uint32(a[0])), q.CString(uint32(a[1])), int32(a[2]), q.CString(uint32(a[3]))))
		}
	case "abort":
		return func([]uint64) uint64 { panic("abort()") }
	case "proc_exit":
		return func(a []uint64) uint64 { panic(fmt.Sprintf("exit(%d)", int32(a[0]))) }
	}
	return nil
}

// resizeHeap implements emscripten_resize_heap: grow toward the requested
// size, a little beyond to amortise, never past the cap. Failure makes malloc
// return NULL, which QuickJS reports as out of memory.
func (q *Instance) resizeHeap(requested uint32) uint64 {
	if requested == 0 {
		// Not sbrk's: QuickJS's limit refused a small block past its
		// reserve (refused, memcount.go), and the heap is as full as when
		// the cap refuses one: QuickJS throws null, drops a job, cannot
		// copy an error's text.
		q.HeapGrowFailed = true
		if q.HeapFull != nil {
			q.HeapFull()
		}
		return 0
	}
	cur := q.mem.Size()
	if requested <= cur {
		return 1
	}
	want := max(uint64(requested), min(uint64(cur)+uint64(cur)/5, uint64(requested)+96<<20))
	for _, size := range []uint64{want, uint64(requested)} {
		pages := (size + wasmhost.PageSize - 1) / wasmhost.PageSize
		if _, ok := q.mem.Grow(uint32(pages - uint64(cur)/wasmhost.PageSize)); ok {
			return 1
		}
	}
	q.HeapGrowFailed = true
	// What the allocation lacked past sbrk's break (the memory between the
	// break and the heap's size is sbrk's to hand out first).
	lacked := requested - cur
	if b, ok := q.mem.ReadUint32(layoutBrk); q.layoutOK && ok && b <= requested {
		lacked = requested - b
	}
	if q.HeapFull != nil && lacked <= heapFullSlack {
		q.HeapFull()
	}
	return 0
}

// heapFullSlack is the most an allocation may lack for its failure to mean
// a full heap. dlmalloc grows the heap only when no free chunk fits, by
// what the allocation lacks past the break, page-rounded: 4 KiB for an
// object, and then no room is left for QuickJS's error either. A larger
// block refused (strings of a megabyte, normalize's buffer) leaves that
// room: QuickJS throws its "out of memory", which the program may catch
// and go on with (drop what it held, say).
const heapFullSlack = 4096

const maxOutput = 4096

func (q *Instance) fdWrite(a []uint64) uint64 {
	iov, n, nwritten := uint32(a[1]), uint32(a[2]), uint32(a[3])
	total := uint32(0)
	for i := uint32(0); i < n; i++ {
		p, _ := q.mem.ReadUint32(iov + 8*i)
		l, _ := q.mem.ReadUint32(iov + 8*i + 4)
		if b, ok := q.mem.Read(p, l); ok && len(q.Output) < maxOutput {
			q.Output = append(q.Output, b[:min(len(b), maxOutput-len(q.Output))]...)
		}
		total += l
	}
	q.mem.WriteUint32(nwritten, total)
	return 0
}

// localtime fills a struct tm for the local time zone (LocalOffset, else
// UTC). QuickJS reads only tm_gmtoff, the offset; the fields are the
// shifted time's, tm_isdst 0 (nothing reads it).
func (q *Instance) localtime(a []uint64) uint64 {
	sec, off := int64(a[0]), 0
	if q.LocalOffset != nil {
		off = q.LocalOffset(sec)
	}
	t := time.Unix(sec+int64(off), 0).UTC()
	p := uint32(a[1])
	for i, v := range []int{t.Second(), t.Minute(), t.Hour(), t.Day(), int(t.Month()) - 1, t.Year() - 1900, int(t.Weekday()), t.YearDay() - 1, 0, off} {
		q.mem.WriteUint32(p+uint32(4*i), uint32(int32(v)))
	}
	return 0
}
