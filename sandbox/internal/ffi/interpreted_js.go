//go:build js

package ffi

import "github.com/interopio/code-mode/sandbox/wasmhost"

// interpreted: under GOOS=js the poll answers itself (jsbridge/poll.go
// ownerFlip), and Go answers it only when the engine refused the poll's
// module; then a compiling owner stays so (the page takes the run's polls
// for another run's work, and stops it at its timeout's backstop).
func interpreted(*wasmhost.Poll) {}
