//go:build js

package codemode

import "io"

// defaultRandom is Config.Random's default: none under GOOS=js, where
// crypto/rand would link Go's FIPS 140 stack into the core (+41 KB
// brotli, measured) to read what the host's crypto.getRandomValues gives
// (jsbridge.WebCrypto, which the JavaScript binding sets).
var defaultRandom io.Reader
