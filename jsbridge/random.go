//go:build js && wasm

package jsbridge

import (
	"errors"
	"syscall/js"
)

// The host's Web Crypto, looked up when the Go program starts as the
// built-ins of globals.go are. wasm_exec.js refuses to start without
// globalThis.crypto, but a polyfill or a page may leave it without
// getRandomValues: WebCrypto then answers errNoRandom.
var (
	webCrypto, _       = safeGet(global, "crypto")
	getRandomValues, _ = safeGet(webCrypto, "getRandomValues")
)

// maxRandomRead is what one crypto.getRandomValues call may fill (larger
// arrays throw QuotaExceededError).
const maxRandomRead = 65536

var errNoRandom = errors.New("no random source: the host has no crypto.getRandomValues (Web Crypto, which pages, workers and Node 19 or later have)")

// WebCrypto reads cryptographically strong random bytes from the host's
// crypto.getRandomValues (codemode's Config.Random under GOOS=js). That is
// the source crypto/rand reads there too; going to it directly keeps Go's
// FIPS 140 crypto stack, which crypto/rand links, out of the program. Read
// fills p whole or returns an error (never a panic) when the host has no
// such function or it throws.
type WebCrypto struct{}

// Read fills p from crypto.getRandomValues: len(p) and nil, or 0 and an
// error saying why the host gave no bytes.
func (WebCrypto) Read(p []byte) (int, error) {
	if err := fillRandom(webCrypto, getRandomValues, p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// fillRandom calls fn with this c on a fresh Uint8Array per 65,536 bytes
// and copies what it wrote into buf.
func fillRandom(c, fn js.Value, buf []byte) (err error) {
	if fn.Type() != js.TypeFunction {
		return errNoRandom
	}
	defer Recover(&err)
	for len(buf) > 0 {
		n := min(len(buf), maxRandomRead)
		a := uint8Array.New(n)
		reflectApply.Invoke(fn, c, arrayOf(a))
		js.CopyBytesToGo(buf[:n], a)
		buf = buf[n:]
	}
	return nil
}
