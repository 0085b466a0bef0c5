// Package leb encodes LEB128 integers, for the small WebAssembly modules the
// backends write by hand (trampolines, interrupt polls) and for rewriting
// the asset's sections.
package leb

// Unsigned and Signed are not inlined. Inlined, each call's loop became a
// loop of its caller (jsbridge's trampolineBody has a dozen), and under
// WebAssembly V8 charges a loop's every pass by the size of the Go
// function it is in (Go's wasm backend jumps back to the start of one
// function-wide loop): a caller run for a few dozen imports at start-up
// was sent to TurboFan in every cold start.

// Unsigned appends the unsigned LEB128 encoding of v to b.
//
//go:noinline
func Unsigned(b []byte, v uint64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v != 0 {
			b = append(b, c|0x80)
			continue
		}
		return append(b, c)
	}
}

// Signed appends the signed LEB128 encoding of v to b.
//
//go:noinline
func Signed(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
