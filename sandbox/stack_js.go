//go:build js

package sandbox

// maxHostDepth bounds host calls made while converting another host call's
// arguments (see callFunction): deep nesting would overflow the host
// engine's native stack inside the host and take the page down.
const maxHostDepth = 8
