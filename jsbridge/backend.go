//go:build js && wasm

package jsbridge

import (
	"errors"
	"fmt"
	"syscall/js"

	"github.com/interopio/code-mode/sandbox/wasmhost"
)

// Backend returns the wasmhost backend that runs WebAssembly in the
// JavaScript host's own engine (the WebAssembly global).
//
// Its Compile uses the synchronous new WebAssembly.Module, which blocks the
// thread while the engine compiles and which some browsers refuse on the
// main thread for large modules. For the QuickJS asset, compile in
// JavaScript (WebAssembly.compileStreaming) and wrap the result with
// ModuleFromJS, or call CompileAsync from a goroutine.
func Backend() wasmhost.Backend { return backend{} }

type backend struct{}

var errNoWebAssembly = errors.New("this JavaScript host has no WebAssembly")

func (backend) Compile(wasm []byte) (wasmhost.Module, error) {
	if webAssembly.Type() != js.TypeObject {
		return nil, errNoWebAssembly
	}
	var mod js.Value
	if err := catch(func() { mod = webAssembly.Get("Module").New(bytesToJS(wasm)) }); err != nil {
		return nil, fmt.Errorf("compile: %w", err)
	}
	return &module{mod: mod}, nil
}

// CompileAsync compiles wasm with WebAssembly.compile, off the calling
// thread where the engine can. It blocks the calling goroutine until the
// engine is done, so, like Await, it must not run in a js.FuncOf callback.
func CompileAsync(wasm []byte) (wasmhost.Module, error) {
	if webAssembly.Type() != js.TypeObject {
		return nil, errNoWebAssembly
	}
	var p js.Value
	if err := catch(func() { p = webAssembly.Call("compile", bytesToJS(wasm)) }); err != nil {
		return nil, fmt.Errorf("compile: %w", err)
	}
	mod, err := Await(p)
	if err != nil {
		return nil, fmt.Errorf("compile: %w", err)
	}
	return &module{mod: mod}, nil
}

// ModuleFromJS wraps a WebAssembly.Module compiled by JavaScript, for
// example with WebAssembly.compileStreaming(fetch(url)). A value that is not
// a WebAssembly.Module makes Imports and Exports return nil and Instantiate
// fail.
func ModuleFromJS(m js.Value) wasmhost.Module { return &module{mod: m} }

func bytesToJS(b []byte) js.Value {
	u := uint8Array.New(len(b))
	js.CopyBytesToJS(u, b)
	return u
}

type module struct {
	mod    js.Value // WebAssembly.Module
	closed bool
}

var externKinds = map[string]wasmhost.ExternKind{
	"function": wasmhost.KindFunc,
	"table":    wasmhost.KindTable,
	"memory":   wasmhost.KindMemory,
	"global":   wasmhost.KindGlobal,
	"tag":      wasmhost.ExternKind(4), // exception handling's tags, kind 4 in the binary format
}

// describe lists WebAssembly.Module.imports or .exports. The JavaScript API
// cannot reflect function types, so Type is always nil.
func (m *module) describe(which string) []wasmhost.ExternDesc {
	var list js.Value
	if catch(func() { list = webAssembly.Get("Module").Call(which, m.mod) }) != nil {
		return nil
	}
	out := make([]wasmhost.ExternDesc, list.Length())
	for i := range out {
		d := list.Index(i)
		kind, ok := externKinds[d.Get("kind").String()]
		if !ok {
			kind = 0xff
		}
		out[i] = wasmhost.ExternDesc{Name: d.Get("name").String(), Kind: kind}
		if which == "imports" {
			out[i].Module = d.Get("module").String()
		}
	}
	return out
}

// Imports lists the module's imports, in order. Type is nil.
func (m *module) Imports() []wasmhost.ExternDesc { return m.describe("imports") }

// Exports lists the module's exports, in order. Type is nil.
func (m *module) Exports() []wasmhost.ExternDesc { return m.describe("exports") }

// Close forgets the module; the engine frees it once no instance uses it.
func (m *module) Close() error {
	m.closed = true
	return nil
}
