//go:build js && wasm

package main

import (
	"fmt"

	"github.com/interopio/code-mode/jsbridge"
	"github.com/interopio/code-mode/sandbox/wasmhost"
)

// newBackend is the host-WebAssembly backend the product uses under GOOS=js.
// Its Compile is the synchronous new WebAssembly.Module, so every cold
// sample compiles the asset afresh (each sample is also a fresh process).
func newBackend() wasmhost.Backend { return jsbridge.Backend() }

// readFileSync reads a file with Node's fs.readFileSync (wasm_exec_node.js
// makes fs a global), in one call, as quickjs-emscripten's glue does.
func readFileSync(path string) ([]byte, error) {
	fs, err := jsbridge.Get(jsbridge.Global(), "fs")
	if err != nil {
		return nil, fmt.Errorf("read %s: %v", path, err)
	}
	read, err := jsbridge.Get(fs, "readFileSync")
	if err != nil {
		return nil, fmt.Errorf("read %s: %v", path, err)
	}
	buf, err := jsbridge.Call(read, path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %v", path, err)
	}
	b, err := jsbridge.Bytes(buf)
	if err != nil {
		return nil, fmt.Errorf("read %s: %v", path, err)
	}
	return b, nil
}

// compileAsync compiles with WebAssembly.compile (jsbridge.CompileAsync).
func compileAsync(wasm []byte) (wasmhost.Module, error) { return jsbridge.CompileAsync(wasm) }
