//go:build js && wasm

package jsbridge

import (
	"bytes"
	"strings"
	"syscall/js"
	"testing"
)

// TestWebCrypto: the host's crypto.getRandomValues fills the whole
// buffer, past its 65,536-byte limit per call, and two reads differ.
func TestWebCrypto(t *testing.T) {
	if n, err := (WebCrypto{}).Read(nil); n != 0 || err != nil {
		t.Fatalf("Read(nil) = %d, %v", n, err)
	}
	for _, n := range []int{1 << 4, maxRandomRead, 3*maxRandomRead + 100} {
		a, b := make([]byte, n), make([]byte, n)
		if got, err := (WebCrypto{}).Read(a); got != n || err != nil {
			t.Fatalf("Read(%d bytes) = %d, %v", n, got, err)
		}
		if got, err := (WebCrypto{}).Read(b); got != n || err != nil {
			t.Fatalf("Read(%d bytes) = %d, %v", n, got, err)
		}
		if bytes.Equal(a, b) {
			t.Errorf("Read(%d bytes): two reads gave the same bytes", n)
		}
		// Each call's share, the last one's too, is written: 16 zero bytes
		// in a row from a strong source do not happen.
		zero := make([]byte, 16)
		for off := 0; off < n; off += maxRandomRead {
			if end := min(off+maxRandomRead, n); bytes.Equal(a[end-16:end], zero) {
				t.Errorf("Read(%d bytes): bytes %d..%d are zero", n, end-16, end)
			}
		}
	}
}

// TestWebCryptoMissingOrThrowing: a host without getRandomValues, or one
// whose getRandomValues throws, gives an error, never a panic nor zeros
// reported as random; the function is called on its crypto object
// (browsers throw "Illegal invocation" otherwise).
func TestWebCryptoMissingOrThrowing(t *testing.T) {
	eval := js.Global().Get("eval")
	fake := eval.Invoke(`(() => {
		const c = { getRandomValues(a) { if (this !== c) throw new TypeError("Illegal invocation"); a.fill(7); return a; } };
		return c;
	})()`)
	for _, tc := range []struct {
		name   string
		c, fn  js.Value
		errHas string
	}{
		{"no crypto", js.Undefined(), js.Undefined(), "no crypto.getRandomValues"},
		{"crypto without getRandomValues", js.Global().Get("Object").New(), js.Undefined(), "no crypto.getRandomValues"},
		{"getRandomValues not a function", fake, js.ValueOf(1), "no crypto.getRandomValues"},
		{"getRandomValues throws", fake, eval.Invoke(`(function () { throw new Error("entropy gone"); })`), "entropy gone"},
		{"called on its object", fake, fake.Get("getRandomValues"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			buf := make([]byte, maxRandomRead+1)
			err := fillRandom(tc.c, tc.fn, buf)
			if tc.errHas == "" {
				if err != nil || buf[0] != 7 || buf[maxRandomRead] != 7 {
					t.Fatalf("fillRandom = %v, bytes %d and %d", err, buf[0], buf[maxRandomRead])
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.errHas) {
				t.Fatalf("fillRandom = %v, want an error with %q", err, tc.errHas)
			}
		})
	}
}
