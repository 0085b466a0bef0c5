//go:build !js

package codemode

import "crypto/rand"

// defaultRandom is Config.Random's default (see random_js.go).
var defaultRandom = rand.Reader
