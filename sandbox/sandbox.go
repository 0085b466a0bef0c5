// Package sandbox runs one JavaScript program in QuickJS with hard limits and
// async host functions. It knows nothing of LLMs or tools.
//
// An Engine compiles the QuickJS asset once and leases a WebAssembly instance
// to each run for the run's whole life, so runs never share a heap: a run's
// data cannot leak into another, a trap kills only its own instance, and the
// memory cap of an instance is the run's hard ceiling. Idle instances are
// kept for reuse; every run gets a fresh QuickJS runtime and context: an
// instance makes them once and records its memory then (an image), and each
// run ends by writing that image back, so the next one starts from the same
// state, with nothing of the last. A program can neither detach nor
// resize a buffer (ArrayBuffer's transfer and resize throw): QuickJS's
// typed arrays read and write past a buffer changed under them
// (withheld.go). Array.prototype's toReversed, toSorted, toSpliced and with
// are the sandbox's own: QuickJS's let the garbage collector read their
// result's elements before they were written. FinalizationRegistry is
// withheld: its callbacks run from the collector, where QuickJS's
// use-after-free bugs were.
//
// Rules: this package never imports syscall/js; under GOOS=js the caller
// passes the host's WebAssembly backend (package jsbridge) in Config.
package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/interopio/code-mode/sandbox/internal/ffi"
	"github.com/interopio/code-mode/sandbox/wasmhost"
)

// Defaults.
const (
	DefaultTimeout     = 30 * time.Second
	DefaultMemoryLimit = 128 << 20
	defaultMaxIdle     = 2
	defaultMaxInstance = 16
	// maxStackSize is QuickJS's stack limit, in the asset's C stack (5 MB
	// of linear memory). Each QuickJS frame also takes native stack in the
	// host's WebAssembly engine, and that stack's overflow is V8's
	// uncatchable RangeError, which discards the instance. The smallest host
	// is a Chromium dedicated Worker (the page's default): about half the
	// page thread's stack, not settable by the page. In a fresh one (wasm
	// code not yet tiered up, the largest frames) the worst recursions
	// measured (valueOf, generators, getters) overflowed it at the
	// equivalent of 128 to 160 KiB of this limit, so 256 KiB lost the
	// catchable "stack overflow" there. 64 KiB keeps QuickJS's limit under
	// half of that in every host (about 370 plain frames, 290 getter
	// levels), leaving margin for Safari, not tested (Firefox 140's Worker
	// and page held 192 KiB).
	maxStackSize = 64 << 10
)

// Config configures an Engine. The zero value is usable natively.
type Config struct {
	// Backend runs WebAssembly. Nil selects wazero natively; under GOOS=js
	// it is required (jsbridge provides it).
	Backend wasmhost.Backend
	// MemoryLimit is the QuickJS heap limit of a run in bytes: 0 is the
	// default, 128 MiB; at most MaxMemoryLimit (1016 MiB; more, or a
	// negative limit, is an error wrapping ErrInvalidConfig). QuickJS
	// counts each allocation at the size the allocator gives it, so the
	// limit bounds what a run's program holds. An instance's linear memory
	// is capped at 16 MiB (the C stack, QuickJS's own data) plus twice
	// this (room for the heap's free chunks: an array grown by realloc to
	// 19 MB left the heap 40 MB long), so a run can never take more than
	// that from its host.
	MemoryLimit int64
	// MaxIdleInstances is how many idle instances are kept for reuse:
	// 0 or less is the default, 2; at most MaxInstances.
	MaxIdleInstances int
	// MaxInstances bounds the instances alive at once, and so the runs in
	// flight and the memory they hold (each instance starts at 16 MiB);
	// further runs wait for a free instance. 0 or less is the default, 16.
	MaxInstances int
}

// Errors.
var (
	// ErrClosed is returned by Run after Close.
	ErrClosed = errors.New("sandbox: engine is closed")
	// ErrRunEnded is the cause of a host call's context when its run ended
	// (result or error) before the call finished.
	ErrRunEnded = errors.New("sandbox: the run ended")
	// ErrTimeout is that cause when the run hit its timeout.
	ErrTimeout = errors.New("sandbox: the run timed out")
	// ErrAsset is wrapped by errors for a file that is not the expected
	// QuickJS asset (not WebAssembly, truncated, another build).
	ErrAsset = errors.New("sandbox: bad QuickJS asset")
	// ErrInvalidConfig is wrapped by NewEngine's and NewEngineFromModule's
	// errors for a Config that cannot work; the message names the field.
	ErrInvalidConfig = errors.New("sandbox: invalid config")
	// ErrInvalidProgram is wrapped by Run's errors for a Program that
	// cannot run, a mistake of the caller's rather than of the program's
	// code: a Func with not exactly one of Async, Sync, Bytes and Source
	// set, Hidden without a Prelude, or a Prelude that throws. The message
	// names the field.
	ErrInvalidProgram = errors.New("sandbox: invalid program")
	// ErrNoInstance is wrapped, with the backend's cause, by Run's error
	// when the run's WebAssembly instance cannot be made (the host has no
	// memory left for it, say): nothing of the program ran.
	ErrNoInstance = errors.New("sandbox: cannot make an instance")
)

// Run's error on an Engine that NewEngine did not make (it has no asset
// to run, and waited for an instance for ever) is made where it happens,
// not at package init: formatting it there brought fmt's printer into
// every page's start-up (codemode's TestCoreInitFormatsNothing).

// Engine runs programs, made by NewEngine or NewEngineFromModule. It is
// safe for concurrent use.
type Engine struct {
	asset    *ffi.Asset
	limit    int64
	maxPages uint32
	maxIdle  int
	slots    chan struct{} // one token per live instance
	freed    chan struct{} // wakes a run waiting for an instance
	closing  chan struct{} // closed by Close: ends every wait

	mu     sync.Mutex
	idle   []*instance
	closed bool

	waiting atomic.Int32 // runs in lease waiting for an instance (Stats)

	// noImages, set by tests, gives instances no image, as for an asset
	// without the layout images need.
	noImages bool

	workers workers // run the async host functions
}

// NewEngine compiles and checks the QuickJS asset (the bytes of
// emscripten-module.wasm), adding the loop checks (InstrumentAsset) if it
// has none. Bytes that are not that asset give an error wrapping ErrAsset;
// a Config.MemoryLimit past MaxMemoryLimit (or negative), or no
// Config.Backend under GOOS=js, an error wrapping ErrInvalidConfig that
// names the field.
func NewEngine(wasm []byte, cfg Config) (*Engine, error) {
	if cfg.Backend == nil {
		cfg.Backend = defaultBackend()
		if cfg.Backend == nil {
			return nil, fmt.Errorf("%w: Config.Backend is required on this platform (jsbridge provides it under GOOS=js)", ErrInvalidConfig)
		}
	}
	if err := checkLimit(cfg.MemoryLimit); err != nil {
		return nil, err
	}
	counted, countErr := ffi.InstrumentLoops(wasm)
	if countErr == nil {
		wasm = counted
	}
	mod, err := cfg.Backend.Compile(wasm)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrAsset, describeBadAsset(wasm, err))
	}
	e, err := NewEngineFromModule(mod, cfg)
	if err == nil && !e.asset.LoopChecks {
		// The check accepted an asset the rewriter could not read.
		e.Close()
		return nil, fmt.Errorf("%w: cannot add the loop checks that stop a program held in a C built-in: %v", ErrAsset, countErr)
	}
	return e, err
}

// InstrumentAsset returns the QuickJS asset with the loop checks: every loop
// of its C code but the interpreter's dispatch loop (which polls, and would
// pay most: bench fib25) counts its iterations and, now and then, asks whether the
// run is past its deadline, so that a program held in a C built-in that
// never polls (Array.prototype.indexOf.call({ length: 1e15 }, 1)) is
// stopped with TIMEOUT, or by its cancel. NewEngine adds them itself; the
// npm package's build adds them to dist/emscripten-module.wasm, which the
// page compiles without Go. An asset that has them already is an error.
func InstrumentAsset(wasm []byte) ([]byte, error) { return ffi.InstrumentLoops(wasm) }

// NewEngineFromModule checks an already compiled module (as the JS host
// compiles it with streaming) and builds an engine on it. The engine owns
// mod; on an error mod is closed. A module that is not the QuickJS asset
// gives an error wrapping ErrAsset; a bad Config.MemoryLimit, one wrapping
// ErrInvalidConfig, as NewEngine.
func NewEngineFromModule(mod wasmhost.Module, cfg Config) (*Engine, error) {
	if err := checkLimit(cfg.MemoryLimit); err != nil {
		mod.Close()
		return nil, err
	}
	asset, err := ffi.Check(mod)
	if err != nil {
		mod.Close()
		return nil, fmt.Errorf("%w: %v", ErrAsset, err)
	}
	e := &Engine{asset: asset, limit: cfg.MemoryLimit, maxIdle: cfg.MaxIdleInstances}
	if e.limit == 0 {
		e.limit = DefaultMemoryLimit
	}
	if e.maxIdle <= 0 {
		e.maxIdle = defaultMaxIdle
	}
	n := cfg.MaxInstances
	if n <= 0 {
		n = defaultMaxInstance
	}
	e.maxIdle = min(e.maxIdle, n)
	e.slots = make(chan struct{}, n)
	e.freed = make(chan struct{}, 1)
	e.closing = make(chan struct{})
	e.maxPages = uint32(min((16<<20+2*e.limit)/wasmhost.PageSize, 65535))
	return e, nil
}

// MaxMemoryLimit is the largest MemoryLimit: the asset declares its
// imported memory with a maximum of 2 GiB, and an instance's memory is
// capped at 16 MiB plus twice the limit, so 1016 MiB is the most that the
// host's WebAssembly can link (more fails every run with a LinkError).
const MaxMemoryLimit = (2<<30 - 16<<20) / 2

func checkLimit(l int64) error {
	if l < 0 || l > MaxMemoryLimit {
		return fmt.Errorf("%w: Config.MemoryLimit: must be between 1 byte and %d MiB (the QuickJS asset's memory holds at most 2 GiB, and an instance gets 16 MiB plus twice the limit), got %d", ErrInvalidConfig, MaxMemoryLimit>>20, l)
	}
	return nil
}

func describeBadAsset(wasm []byte, err error) string {
	switch {
	case len(wasm) == 0:
		return "the file is empty"
	case len(wasm) < 8 || string(wasm[:4]) != "\x00asm":
		return "the file is not WebAssembly (no \\0asm header)"
	}
	return "the file does not compile (truncated or corrupt?): " + err.Error()
}

// Close frees the idle instances; runs in flight finish first on their own
// instances, which are then freed. Run fails with ErrClosed afterwards,
// and a Run waiting for an instance returns ErrClosed at once. Closing
// again, or closing an Engine that NewEngine did not make (nil, zero),
// does nothing. It does not wait for the runs in flight, and its error is
// always nil.
func (e *Engine) Close() error {
	if e == nil || e.asset == nil {
		return nil
	}
	e.mu.Lock()
	idle, was := e.idle, e.closed
	e.idle, e.closed = nil, true
	e.mu.Unlock()
	if was {
		return nil
	}
	close(e.closing)
	e.workers.close()
	for _, i := range idle {
		i.q.Close()
		<-e.slots
	}
	return nil
}

// lease returns an idle instance, or a new one when fewer than
// MaxInstances are alive, waiting for one otherwise.
func (e *Engine) lease(ctx context.Context) (*instance, error) {
	for {
		e.mu.Lock()
		if e.closed {
			e.mu.Unlock()
			return nil, ErrClosed
		}
		if i := e.popIdle(); i != nil {
			more := len(e.idle) > 0
			e.mu.Unlock()
			if more {
				e.signalFreed() // another waiter may take the next one
			}
			return i, nil
		}
		e.mu.Unlock()
		select {
		case e.slots <- struct{}{}:
			return e.newInstance()
		default:
		}
		e.waiting.Add(1)
		select {
		case e.slots <- struct{}{}:
			e.waiting.Add(-1)
			return e.newInstance()
		case <-e.freed:
			// An instance went idle or away: look again.
			e.waiting.Add(-1)
		case <-e.closing:
			e.waiting.Add(-1)
			return nil, ErrClosed
		case <-ctx.Done():
			e.stopWaiting()
			return nil, context.Cause(ctx)
		}
	}
}

// popIdle takes the last idle instance, or nil; e.mu is held.
func (e *Engine) popIdle() *instance {
	n := len(e.idle)
	if n == 0 {
		return nil
	}
	i := e.idle[n-1]
	// The slice's array kept the instance past its release, and under
	// GOOS=js its memory, until the next one went idle.
	e.idle[n-1] = nil
	e.idle = e.idle[:n-1]
	return i
}

// leaseIdle is lease for Prepare, which never waits: an idle instance, a
// new one when none is alive, or nil when every instance alive is running
// (a run made one, and is on it).
func (e *Engine) leaseIdle() (*instance, error) {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil, ErrClosed
	}
	i := e.popIdle()
	e.mu.Unlock()
	if i != nil || len(e.slots) > 0 {
		return i, nil
	}
	select {
	case e.slots <- struct{}{}:
		return e.newInstance()
	default:
		return nil, nil
	}
}

// newInstance makes an instance for the slot just taken, unless the engine
// was closed meanwhile (a run that waited took the slot a run in flight
// freed as Close let it end).
func (e *Engine) newInstance() (*instance, error) {
	e.mu.Lock()
	closed := e.closed
	e.mu.Unlock()
	if closed {
		<-e.slots
		return nil, ErrClosed
	}
	i := &instance{noImage: e.noImages, waiting: e.waiting.Load, slots: cap(e.slots)}
	q, err := e.asset.NewInstance(e.maxPages, i)
	if err != nil {
		<-e.slots
		return nil, fmt.Errorf("%w: %w", ErrNoInstance, err)
	}
	i.q = q
	if !i.noImage {
		i.blank = q.TakeImage(0, 0)
	}
	return i, nil
}

// signalFreed records that an instance went idle or away; one waiting run
// wakes (the buffer of one keeps the news for a run about to wait).
func (e *Engine) signalFreed() {
	select {
	case e.freed <- struct{}{}:
	default:
	}
}

// keepMemoryBytes is the most linear memory an idle instance may keep.
// Runs that work on a lot of data grow an instance; keeping it saves the
// next such run the growth (and its page faults).
const keepMemoryBytes = 128 << 20

// release keeps a healthy instance for reuse. One that hit the memory limit,
// or holds more than keepMemoryBytes, is freed, so the host gets that memory
// back. Past MaxIdleInstances it is kept only for a run that waits for one:
// freed, it left its slot to that run, which made a new instance in its
// place (on the calling thread, where the runs of a batch end before any
// waiting run resumes, 2,000 runs started at once made a new QuickJS
// instance for 88% of them).
func (e *Engine) release(i *instance) {
	i.run = nil
	e.mu.Lock()
	room := len(e.idle) < e.maxIdle || int64(len(e.idle)) < int64(e.waiting.Load())
	big := i.hitLimit || i.q.MemorySize() > keepMemoryBytes
	keep := !e.closed && !i.q.Dead() && !big && room
	if keep {
		e.idle = append(e.idle, i)
	}
	e.mu.Unlock()
	if !keep {
		i.q.Close()
		<-e.slots
	}
	e.signalFreed()
	if !keep && big {
		// Under GOOS=js the instance's memory is the host's, and Go's
		// references to it (syscall/js values) are released by
		// finalizers: until a collection came, each replaced instance
		// kept its whole memory (the limit, or more than
		// keepMemoryBytes). On a goroutine of its own: the run still
		// holds the instance until Run returns (under GOOS=js the
		// goroutine runs once this one waits). Natively the instance's
		// memory is a Go slice, garbage from here, which the collector's
		// pacing left for later: 12 runs that each outgrew a 512 MiB-limit
		// instance (40 strings of 5 MiB) peaked at 573 MB of heap in use
		// without this collection, 424 MB with it, and left 573 MB in use
		// after the last run (4 MB with it), until some later collection.
		go runtime.GC()
	}
}

// stopWaiting is a waiting run giving up (its context ended). An instance
// kept idle past MaxIdleInstances for it (release) is freed now, unless
// another run still waits for one: kept, it stayed idle until the engine
// closed.
func (e *Engine) stopWaiting() {
	e.waiting.Add(-1)
	var extra []*instance
	e.mu.Lock()
	for n := len(e.idle); n > e.maxIdle && int64(n) > int64(e.waiting.Load()); n-- {
		extra = append(extra, e.idle[n-1])
		e.idle[n-1] = nil
		e.idle = e.idle[:n-1]
	}
	e.mu.Unlock()
	for _, i := range extra {
		i.q.Close()
		<-e.slots
	}
}

// MemoryLimit is the QuickJS heap limit of the engine's runs, in bytes:
// Config.MemoryLimit, or its default (0 for an Engine that NewEngine did
// not make).
func (e *Engine) MemoryLimit() int64 {
	if e == nil {
		return 0
	}
	return e.limit
}

// Stats describes an engine's instances.
type Stats struct {
	// Idle is the number of instances kept for reuse.
	Idle int
	// IdleMemoryBytes is the linear memory those instances hold.
	IdleMemoryBytes uint64
	// Waiting is the number of runs waiting for an instance, all
	// MaxInstances being in use.
	Waiting int
}

// Stats reports on the idle instances and the runs waiting for one (none
// for a nil Engine).
func (e *Engine) Stats() Stats {
	if e == nil {
		return Stats{}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	s := Stats{Idle: len(e.idle), Waiting: int(e.waiting.Load())}
	for _, i := range e.idle {
		s.IdleMemoryBytes += uint64(i.q.MemorySize())
	}
	return s
}

// Program is one run's input.
type Program struct {
	// Code is the model's program: an async function body. Top-level await
	// and return work; without return, the value of the last expression
	// statement is the result.
	Code string
	// Prelude is trusted setup code evaluated as a global script before
	// Code, with the Funcs already defined.
	Prelude string
	// Funcs are global functions the code can call.
	Funcs map[string]Func
	// Sources are the sources a Func's Source may give that are the same
	// in every run (a function expression, say): each must evaluate to a
	// value and do nothing else. An instance with an image evaluates each
	// once, the first time a run names it, into its image (at most 16 of
	// them; others are evaluated in each run as any source), and a run
	// then takes the image's value instead of compiling the source: what
	// a run does to that value, as to anything, goes with the run.
	Sources []string
	// Hidden hands the Funcs to the Prelude instead of defining them as
	// globals: Prelude is then a function expression, called once before
	// Code with the Funcs as arguments, in the order of their names. The
	// program can reach them only through what the Prelude makes of them,
	// and the run sets and deletes no global for them.
	Hidden bool
	// NativeParse, with Hidden, is asked about each async host function's
	// JSON result before it is parsed: true has the context's own JSON.parse
	// read it, as it was before the Prelude ran; false leaves it to
	// JSON.parse as the Prelude left it (all results, when nil, and every
	// sync function's, parsed on the program's stack). A prelude
	// that guards JSON.parse (against nesting too deep for the host's
	// stack, say) lets the host check the results it produced, where the
	// check costs less than the guard's calls in QuickJS.
	NativeParse func(json.RawMessage) bool
	// Timeout bounds the whole run, awaits included (default 30s): 0 or
	// less is DefaultTimeout, no error, as with Config's counts. An
	// instance's one-time compile of its sources into its image is not
	// counted: it runs on a clock of its own before the run's starts.
	Timeout time.Duration
	// Started, if set, is called on Run's goroutine once the run has its
	// instance, before the program is compiled (while MaxInstances runs
	// are in flight, Run waits for one). A Run that returns without
	// calling it ran nothing of the program: no Func was called. An error
	// it returns ends the run there, nothing of the program run, and Run
	// returns that error: the caller's last word on a run that waited (its
	// owner may have been closed while it did, with the cancel of its ctx
	// still on its way).
	Started func() error
	// Waiting, if set, counts the runs waiting for an instance that the
	// program may be told of (its timeout's message names them, as the
	// likely reason it waited: runs it started itself through a tool,
	// waiting while it holds its instance). Without it, all of the
	// engine's: a host that runs programs of several parties counts its
	// party's own, so that no program learns how busy the others keep it.
	Waiting func() int32
	// LocalOffset gives the seconds east of UTC of the run's local time
	// zone at an instant (unix seconds): Date's local-time methods
	// (getHours, setHours, toString, parsing a date-time without an
	// offset) ask it at every call, so it should be fast (cache). nil is
	// UTC.
	LocalOffset func(unixSec int64) int
	// Body says the caller knows Code returns outside any function and
	// closes no bracket it did not open (tsstrip.Prepare checks both): it
	// is compiled as a function body at once, without first being tried
	// as a script, which for such code only fails at its return after
	// compiling everything before it.
	Body bool
}

// Func is a host function. Exactly one of Async, Sync, Bytes and Source is
// set.
//
// Arguments arrive as JSON (nil for undefined, functions and symbols);
// BigInt becomes a decimal string. A result of nil is undefined in JS. An
// error becomes a JS Error with its message (name from a *JSError); an error
// wrapping *Fatal ends the whole run with that code.
type Func struct {
	// Async runs on its own goroutine; in JS the call returns a promise.
	// ctx is cancelled when the run ends, with the caller's cause, or
	// ErrTimeout or ErrRunEnded (context.Cause).
	Async func(ctx context.Context, args []json.RawMessage) (json.RawMessage, error)
	// Start, beside Async, is tried first, on the run's own goroutine
	// while the program makes the call: it returns false, having done
	// nothing, to leave the call to Async; or true, having started it,
	// and then done is called exactly once, from any goroutine, with
	// Async's results (a call whose run ended meanwhile still calls done;
	// nothing waits for it then), maybe before Start returns. Start must
	// not block. A call that only waits for an answer (a page tool's)
	// needs no goroutine of its own this way.
	Start func(ctx context.Context, args []json.RawMessage, done func(json.RawMessage, error)) bool
	// Sync runs inline and must not block. An error wrapping *Fatal ends
	// the run too.
	Sync func(args []json.RawMessage) (json.RawMessage, error)
	// Unwritable, beside Sync, is called in its place for a call with an
	// object argument that cannot be written as JSON for its shape (why:
	// it nests more than 1,000 levels deep, or holds itself), given the
	// call's arguments (that one nil) and that one's index: the function
	// may answer such a call as it answers others (codemode records a
	// tool call's refusal). Without it the call throws the stringify's
	// RangeError or TypeError, as it throws what a getter threw.
	Unwritable func(args []json.RawMessage, i int, why Unwritable) (json.RawMessage, error)
	// Bytes runs inline like Sync, and its result reaches JS as a new
	// ArrayBuffer of those bytes, copied once into QuickJS's memory: as
	// JSON, 64 KiB of bytes were 250 KB of text that JSON.parse took
	// ~15 ms to read back (crypto.getRandomValues).
	Bytes func(args []json.RawMessage) ([]byte, error)
	// Source runs inline like Sync and gives JavaScript source, which the
	// sandbox evaluates as a global script (as an indirect eval, in the
	// run's context): the call returns the value it evaluates to. A source
	// among Program.Sources is not compiled again: every call in a run
	// returns the image's value.
	Source func(args []json.RawMessage) (string, error)
	// Label names a call in the run's warnings (a rejection nobody
	// awaited), so they speak of what the program called rather than of
	// a host function it never saw; nil uses the function's name.
	Label func(args []json.RawMessage) string
	// Detached calls may be left pending: one still pending when the
	// program finishes is dropped without the pending-calls warning (a
	// timer).
	Detached bool
	// Dropped, for a Detached function, is given the arguments of its
	// calls still pending when the program finished; what it returns, if
	// not empty, is a warning of the run.
	Dropped func(args [][]json.RawMessage) string
}

// JSError is an error thrown into JS with a given name: a host function
// that returns one (or an error wrapping one) gives the program an Error
// whose name is Name and message Message, where any other error is an
// Error named "Error" with the error's text.
type JSError struct{ Name, Message string }

// Error is "<Name>: <Message>".
func (e *JSError) Error() string { return e.Name + ": " + e.Message }

// Fatal is an error that ends the run with Code: a host function that
// returns one (or an error wrapping one) ends the whole run, which the
// program cannot catch, and Result.Error has that Code.
type Fatal struct {
	Code    ErrorCode
	Message string
}

// Error is "<Code>: <Message>".
func (e *Fatal) Error() string { return string(e.Code) + ": " + e.Message }

// ErrorCode classifies a failed run.
type ErrorCode string

// Error codes.
const (
	CodeSyntax          ErrorCode = "SYNTAX"
	CodeRuntime         ErrorCode = "RUNTIME"
	CodeTimeout         ErrorCode = "TIMEOUT"
	CodeMemoryLimit     ErrorCode = "MEMORY_LIMIT"
	CodeNotSerializable ErrorCode = "RESULT_NOT_SERIALIZABLE"
)

// Result is a run's outcome. Exactly one of Value (possibly nil for
// undefined) and Error is meaningful: Error is nil on success.
type Result struct {
	Value json.RawMessage // the program's return value as JSON; nil for undefined
	Error *Error          // why the run failed; nil when it returned
	// Warnings are problems that did not fail the run: rejected tool
	// promises nobody awaited, calls still pending at the end.
	Warnings []string
}

// Error is a failed run's error. Line and Column are 1-based positions in
// Program.Code, 0 when unknown.
type Error struct {
	Code    ErrorCode `json:"code"`            // how it failed
	Name    string    `json:"name"`            // the JavaScript error's name (TypeError, ...)
	Message string    `json:"message"`         // at most MaxMessageChars
	Stack   string    `json:"stack,omitempty"` // the JavaScript stack, if any
	Line    int       `json:"line,omitempty"`
	Column  int       `json:"column,omitempty"`
	// Call is the Label (or name) of the host call whose promise was
	// rejected with this very error, when the error has no position: the
	// program returned the call's promise instead of awaiting it, so no
	// frame of the program ran when it was thrown. The caller may know
	// where that call was made.
	Call string `json:"-"`
	// Awaiting says a TIMEOUT came while the program had nothing to run:
	// it awaited host calls (or timers), not its own code. The caller may
	// know which of its calls those were. Answer is then the Label (or
	// name) of the host call whose answer, of AnswerBytes bytes of JSON,
	// came in as the time ran out (the largest of those that came
	// together), if one did: the time may have gone into taking it in.
	Awaiting    bool   `json:"-"`
	Answer      string `json:"-"`
	AnswerBytes int    `json:"-"`
}

// Error is "<Code>: <Name>: <Message>".
func (e *Error) Error() string { return fmt.Sprintf("%s: %s: %s", e.Code, e.Name, e.Message) }

// Run runs p. Errors of the program come back in Result.Error; Run itself
// fails only when ctx is done (context.Cause(ctx), however early), the
// engine is closed (ErrClosed), an instance cannot be made (ErrNoInstance),
// p cannot run (ErrInvalidProgram), or p.Started fails (its error). On an Engine
// that NewEngine did not make (nil, zero) it fails with an error wrapping
// ErrClosed.
func (e *Engine) Run(ctx context.Context, p Program) (*Result, error) {
	if e == nil || e.asset == nil {
		return nil, fmt.Errorf("%w: a zero or nil Engine is not usable: make one with NewEngine", ErrClosed)
	}
	// The caller's cause, as a run stopped later returns it: ctx.Err()
	// said context.Canceled for an abort that came before the run began
	// (under load, while the caller's code was still being prepared).
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	i, err := e.lease(ctx)
	if err != nil {
		return nil, err
	}
	defer e.release(i)
	if p.Started != nil {
		if err := p.Started(); err != nil {
			return nil, err
		}
	}
	return i.execute(ctx, p, e.limit, &e.workers)
}
