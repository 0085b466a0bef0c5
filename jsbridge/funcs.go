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
	funcs map[uint64]js.Func
	next  uint64
}

// Func makes a function with Func (panics and errors become JavaScript
// exceptions), keeps it for Release and returns its JavaScript value.
func (fs *Funcs) Func(fn func(this Value, args []Value) any) Value {
	f, _ := fs.add(fn)
	return f.Value
}

// Once makes a function like Func that releases itself after its first
// call and leaves fs: what fn holds (an unregister function holds the
// tools it removes, their definitions and execute functions) is then freed
// at once, not at the owner's dispose. Without it, a factory that
// registers and removes tools for hours kept every registration's
// function, about 2.7 KB each. A later call does nothing (syscall/js logs
// it); the loader's wrapper calls it at most once.
func (fs *Funcs) Once(fn func(this Value, args []Value) any) Value {
	var key uint64
	var self js.Func
	self, key = fs.add(func(this Value, args []Value) any {
		fs.mu.Lock()
		delete(fs.funcs, key)
		fs.mu.Unlock()
		defer self.Release()
		return fn(this, args)
	})
	return self.Value
}

func (fs *Funcs) add(fn func(this Value, args []Value) any) (js.Func, uint64) {
	f := Func(fn)
	fs.mu.Lock()
	if fs.funcs == nil {
		fs.funcs = map[uint64]js.Func{}
	}
	fs.next++
	key := fs.next
	fs.funcs[key] = f
	fs.mu.Unlock()
	return f, key
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
