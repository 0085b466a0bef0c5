// Package wasmhost is the small WebAssembly host interface that the sandbox's
// QuickJS FFI is written against.
//
// Two backends implement it: wazero for native Go (sandbox/internal/wazerohost)
// and the JavaScript host's own WebAssembly API under GOOS=js (package
// jsbridge). The interface carries only what the QuickJS asset needs: compile
// once, instantiate with Go-implemented imports and a host-created memory whose
// maximum we choose, call exports with uint64 arguments, and read and write
// linear memory.
//
// Values cross as uint64: i32 zero-extended, i64 as is, f64 as
// math.Float64bits. The caller always states a function's type, because the
// JavaScript host cannot reflect it.
package wasmhost

import (
	"errors"
	"sync"
	"time"
)

// ValueType is a WebAssembly value type, encoded as in the binary format.
type ValueType byte

// The value types the QuickJS asset uses.
const (
	I32 ValueType = 0x7f
	I64 ValueType = 0x7e
	F32 ValueType = 0x7d
	F64 ValueType = 0x7c
)

// FuncType is a function signature.
type FuncType struct {
	Params  []ValueType // in order
	Results []ValueType // none or one
}

// HostFunc implements one imported function. Call receives the parameters
// and returns the single result (0 where the type has none). Call may
// re-enter the instance (call its exports) on the same goroutine. An i32
// parameter is the low half of its uint64: wazero leaves the high half as
// it finds it, so Call reads it as uint32(args[i]) (int32 for a signed one).
type HostFunc struct {
	Type FuncType                   // as the module imports it
	Call func(args []uint64) uint64 // see HostFunc
	// Poll, when set, marks an interrupt poll: the import returns 1 once
	// Poll is stopped or past its deadline, and 0 otherwise. A backend for
	// which calling Go is expensive (JavaScript) may answer from Poll
	// alone, without calling Call.
	//
	// A call whose first argument is an i32 0 is a loop check (the counter
	// that wasmbin.InstrumentLoops adds to every loop of the asset's C
	// code), not QuickJS's own poll: it returns 1 only past Poll's hard
	// limit (Poll.PastHard).
	Poll *Poll
}

// Poll is the state of an interrupt poll. The owner sets it; backends that
// answer the poll themselves watch it.
type Poll struct {
	mu       sync.Mutex
	state    PollState
	watchers []func(PollState)
}

// PollState is what a poll answers from. Times are Unix milliseconds; 0
// means none.
type PollState struct {
	DeadlineMs float64 // the run's deadline: a poll after it answers 1
	Stopped    bool    // the run was stopped: every poll answers 1
	// HardMs is when a loop check stops the engine (with a trap): a
	// program held in C code that never reaches QuickJS's own poll.
	HardMs float64
	// Owner is the run the poll is for, as its host numbers runs
	// (sandbox.WithPollOwner; 0: none). A backend that answers the poll
	// itself may hand it to its clock, whose host can then tell which run
	// holds the thread (a worker's page, that cannot otherwise). Negative:
	// the run -Owner is compiling its code, which ends by itself; after
	// the interpreter's first poll, the code's first step, it is -Owner
	// (Poll.Interpreted).
	Owner float64
}

// Set changes the deadline (zero time: none), the stop flag and the hard
// limit of the loop checks (zero time: none).
func (p *Poll) Set(deadline time.Time, stopped bool, hard time.Time) {
	s := PollState{Stopped: stopped}
	if !deadline.IsZero() {
		s.DeadlineMs = float64(deadline.UnixMilli())
	}
	if !hard.IsZero() {
		s.HardMs = float64(hard.UnixMilli())
	}
	p.mu.Lock()
	s.Owner = p.state.Owner
	p.set(s)
}

// SetOwner names the run the poll is for from now on (PollState.Owner).
func (p *Poll) SetOwner(owner float64) {
	p.mu.Lock()
	s := p.state
	s.Owner = owner
	p.set(s)
}

// Interpreted is the interpreter's poll (not a loop check's): a compiling
// owner (negative) is the run's from now on. A backend that answers the
// poll itself does the same.
//
//go:noinline
func (p *Poll) Interpreted() {
	p.mu.Lock()
	if s := p.state; s.Owner < 0 {
		s.Owner = -s.Owner
		p.set(s)
		return
	}
	p.mu.Unlock()
}

// set stores s, unlocks p.mu (held by the caller) and tells the watchers.
func (p *Poll) set(s PollState) {
	p.state = s
	watchers := p.watchers
	p.mu.Unlock()
	for _, w := range watchers {
		w(s)
	}
}

// PastHard says whether a loop check should stop the engine now. The
// comparison is strict, on whole milliseconds, as the JavaScript backend's.
func (p *Poll) PastHard() bool {
	p.mu.Lock()
	h := p.state.HardMs
	p.mu.Unlock()
	return h > 0 && float64(time.Now().UnixMilli()) > h
}

// Watch calls f now and after every Set.
func (p *Poll) Watch(f func(PollState)) {
	p.mu.Lock()
	p.watchers = append(p.watchers, f)
	s := p.state
	p.mu.Unlock()
	f(s)
}

// MemorySpec describes the memory the host creates for an instance's memory
// import. MaxPages is a hard ceiling: growth beyond it fails.
type MemorySpec struct {
	Name     string // import name, in Imports.Module
	MinPages uint32 // pages of 64 KiB at instantiation
	MaxPages uint32 // pages of 64 KiB at most
}

// Imports is everything an instance imports. All imports of the QuickJS asset
// come from one module name.
type Imports struct {
	Module string              // the import module name
	Funcs  map[string]HostFunc // by import name
	Memory MemorySpec          // the imported memory, created by the host
}

// ExternKind is the kind of an import or export.
type ExternKind byte

// Extern kinds, encoded as in the binary format.
const (
	KindFunc   ExternKind = 0
	KindTable  ExternKind = 1
	KindMemory ExternKind = 2
	KindGlobal ExternKind = 3
)

// ExternDesc names one import or export. Type is set for functions where the
// backend can reflect it, and nil otherwise.
type ExternDesc struct {
	Module string     // empty for exports
	Name   string     // the import's or export's name
	Kind   ExternKind // function, table, memory or global
	Type   *FuncType  // functions only, where the backend can reflect it
}

// Backend compiles WebAssembly modules.
type Backend interface {
	// Compile validates and compiles a module. The result may be
	// instantiated many times and used from several goroutines.
	Compile(wasm []byte) (Module, error)
}

// Module is a compiled module.
type Module interface {
	// Imports lists what the module imports, in the module's order.
	Imports() []ExternDesc
	// Exports lists what the module exports, in the module's order.
	Exports() []ExternDesc
	// Instantiate creates an instance. It does not run any export.
	Instantiate(imports Imports) (Instance, error)
	// Close frees the compiled module.
	Close() error
}

// Instance is one instantiated module. It is not safe for concurrent use:
// its owner serialises every call.
type Instance interface {
	// Func returns the exported function name, declared with type t, or an
	// error if there is no such export.
	Func(name string, t FuncType) (Func, error)
	// Memory is the instance's linear memory (the imported one).
	Memory() Memory
	// Close frees the instance; it must not be used afterwards.
	Close() error
}

// Func is an exported function.
type Func interface {
	// Call runs the function. A trap (unreachable, out-of-bounds access, a
	// host import that panicked) returns an error wrapping ErrTrap; the
	// instance must not be used afterwards. Call reads args before the
	// function runs and keeps nothing of them: the caller may reuse the
	// slice for the calls the function's host imports make meanwhile.
	Call(args ...uint64) (uint64, error)
}

// Memory is an instance's linear memory. Offsets are bytes.
type Memory interface {
	// Size is the current size in bytes.
	Size() uint32
	// Grow adds delta pages of 64 KiB, returning the previous size in pages,
	// or false when the maximum would be exceeded.
	Grow(deltaPages uint32) (previousPages uint32, ok bool)
	// Read copies length bytes at offset. It returns false when the range is
	// out of bounds.
	Read(offset, length uint32) ([]byte, bool)
	// Write copies data to offset. It returns false when out of bounds.
	Write(offset uint32, data []byte) bool
	// ReadUint32 reads a little-endian uint32 at offset; false when out
	// of bounds.
	ReadUint32(offset uint32) (uint32, bool)
	// WriteUint32 writes v little-endian at offset; false when out of
	// bounds.
	WriteUint32(offset, v uint32) bool
	// Zero sets length bytes at offset to 0 (without copying a buffer of
	// zeros in: the host fills them); false when out of bounds.
	Zero(offset, length uint32) bool
}

// ErrTrap is wrapped by errors from a call that trapped.
var ErrTrap = errors.New("wasm trap")

// PageSize is the size of a WebAssembly page.
const PageSize = 65536
