//go:build !js

package ffi

import "github.com/interopio/code-mode/sandbox/wasmhost"

// interpreted is the interpreter's poll answered in Go (wazero): a
// compiling owner is the run's from now on (wasmhost.Poll.Interpreted).
func interpreted(p *wasmhost.Poll) { p.Interpreted() }
