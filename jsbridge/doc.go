// Package jsbridge is the only package of Code Mode that touches syscall/js.
// It builds only for GOOS=js GOARCH=wasm; this file exists so that tools run
// natively (go vet ./..., go list) see a package.
//
// It provides:
//
//   - Backend, CompileAsync and ModuleFromJS: an implementation of the
//     sandbox's wasmhost interface on the JavaScript host's own WebAssembly
//     API, so QuickJS runs in the browser's (or Node's) WebAssembly engine.
//     Interrupt polls (wasmhost.HostFunc.Poll) are answered by a tiny
//     generated WebAssembly module that calls Date.now, without calling Go
//     (poll.go). Exports and memory are reached through the Go program's
//     own imports of module "jsbridge" when the host provides them (the
//     loader and scripts/wasmexec do): a WebAssembly call with numbers
//     instead of syscall/js (direct.go). Every host that runs a Go program
//     linking this package must provide that module.
//   - Reply: JavaScript work that Go starts with one call and that answers
//     with one call of a long-lived function (reply.go).
//   - Await and NewPromise: promises in both directions. Await blocks a
//     goroutine until a JavaScript promise settles; NewPromise runs Go code
//     on a goroutine and settles a JavaScript promise with its result.
//   - Func and Recover: entry points that never let a Go panic end the Go
//     program. Func's JavaScript function throws a real JavaScript Error
//     when the Go function panics or returns an error.
//   - ToJSON, FromJSON, NewError and the Error type: value and error
//     conversion.
//   - What the layers above need to handle page-supplied values without
//     importing syscall/js themselves (values.go, funcs.go, abort.go):
//     the Value and Type aliases; Get, Call, Elements, Keys, IsArray,
//     IsWasmModule, Bytes and Describe, which read and call page objects
//     without letting a throwing getter, proxy trap or function unwind
//     through Go (js.Value's own Get, Call, Length, Index and InstanceOf
//     can end the program there); Funcs, the panic-safe functions of one
//     object released together by its dispose; and the adapters between
//     AbortSignal and context.Context (OnAbort, AwaitContext).
//
// # Throwing without eval
//
// A Go function wrapped by js.FuncOf can only return a value to its
// JavaScript caller; it cannot throw. Pages with a strict Content Security
// Policy forbid eval and new Function, so this package throws by composing
// standard built-ins (see throw.go): the function handed to JavaScript is a
// chain of Proxy objects (Reflect.get as an apply trap, Reflect.apply as a
// get trap) whose last step, after the Go callback has returned, is the
// engine's Proxy invariant check, which looks up a trap on a handler object
// that Go controls. Normally that trap is absent; to throw, Go installs
// AbortSignal.prototype.throwIfAborted bound to AbortSignal.abort(err),
// which throws err itself. Host imports use the same mechanism, so a Go
// panic in an import throws at the import's call site and the WebAssembly
// call traps; the chain costs about 80 ns of JavaScript on top of the
// ~6 µs of a syscall/js callback.
//
// # Rules for callers
//
// Await blocks and must run on a goroutine of its own, never inside a
// js.FuncOf callback (nor a host import, nor a Func): blocking there ends the
// Go program with "all goroutines are asleep". JavaScript BigInt values must
// not be handed to Go as js.Value (syscall/js can neither read nor release
// them); the WebAssembly backend converts i64 values to and from decimal
// strings on the JavaScript side for this reason.
package jsbridge
