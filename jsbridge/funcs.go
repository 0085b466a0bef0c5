//go:build js && wasm

package jsbridge

import (
	"sync"
	"syscall/js"
)

// Funcs owns the functions made for one JavaScript-facing object (a
// factory, a session) so that its dispose releases them together. The zero
// value is ready to use; it is safe for concurrent use.
type Funcs struct {
	mu    sync.Mutex
	funcs []js.Func
}

// Func makes a function with Func (panics and errors become JavaScript
// exceptions), keeps it for Release and returns its JavaScript value.
func (fs *Funcs) Func(fn func(this Value, args []Value) any) Value {
	f := Func(fn)
	fs.mu.Lock()
	fs.funcs = append(fs.funcs, f)
	fs.mu.Unlock()
	return f.Value
}

// Method sets obj[name] to a function made by fs.Func that calls fn with
// the arguments alone.
func (fs *Funcs) Method(obj Value, name string, fn func(args []Value) any) {
	obj.Set(name, fs.Func(func(_ Value, args []Value) any { return fn(args) }))
}

// Release releases every function made so far; a second Release releases
// only those made since. A function may release itself (a dispose method):
// the call in progress completes, as syscall/js allows; later calls of a
// released function return undefined and log an error.
func (fs *Funcs) Release() {
	fs.mu.Lock()
	funcs := fs.funcs
	fs.funcs = nil
	fs.mu.Unlock()
	for _, f := range funcs {
		f.Release()
	}
}

// Arg returns args[i], or undefined past the end.
func Arg(args []Value, i int) Value { return arg(args, i) }
