package ffi

import "github.com/interopio/code-mode/internal/wasmbin"

// QuickJS polls its interrupt handler from the interpreter only: a C
// built-in that loops over a huge array-like (Array.prototype.indexOf.call
// ({ length: 1e15 }, 1)), a sparse array's join, a Proxy's ownKeys answer
// checked pairwise for duplicates, never calls it, and would hold the
// engine's thread for ever. InstrumentLoops makes every loop of the asset
// but the interpreter's dispatch loop (which polls) count down, and every loopCheckEvery iterations ask the interrupt import
// with loopCheckArg (a runtime pointer is never 0): past the run's hard
// limit (wasmhost.Poll.PastHard) the answer is 1 and the check traps. The
// owner discards a trapped instance and reports the run by its interrupt
// reason.
const (
	loopCheckArg = 0
	// loopCheckEvery keeps the slow path (a host call: Go under wazero, a
	// WebAssembly poll that reads Date.now under GOOS=js) rare: at a few
	// nanoseconds an iteration, a check is a fraction of a millisecond
	// apart.
	loopCheckEvery = 1 << 16
)

// InstrumentLoops adds the loop checks to the bytes of the asset, and makes
// QuickJS count its allocations' real sizes (countRealSizes, memcount.go),
// set its GC threshold from its limit (gcThresholdPatch, gcthreshold.go)
// and collect at its interrupt poll too (gcPollPatch).
// An asset that has them (dist/emscripten-module.wasm has them from the
// build) gives an error wrapping wasmbin.ErrInstrumented.
func InstrumentLoops(wasm []byte) ([]byte, error) {
	counted, err := wasmbin.InstrumentLoops(wasm, wasmbin.LoopCheck{
		Module: pinned.ImportModule, Name: pinned.Imports["should_interrupt"].Name,
		Arg: loopCheckArg, Every: loopCheckEvery,
	})
	if err != nil {
		return nil, err
	}
	return wasmbin.PatchBodies(counted, append(countRealSizes(), gcThresholdPatch(), gcPollPatch()))
}
