//go:build js

package sandbox

import "github.com/interopio/code-mode/sandbox/wasmhost"

// Under GOOS=js the host's WebAssembly comes from jsbridge, which this
// package must not import: the caller passes it in Config.Backend.
func defaultBackend() wasmhost.Backend { return nil }
