//go:build !js

package sandbox

// maxHostDepth bounds host calls made while converting another host call's
// arguments (see callFunction). On wazero, a host function that runs inside
// another one's argument conversion and calls back into wasm crashes the
// process (Go code ends up on wazero's stack: "split stack overflow"), so
// natively such calls are refused outright.
const maxHostDepth = 1
