package sandbox

import (
	"strings"
	"testing"
)

// TestBound: the host's own cut of an error's strings leaves what
// describeError cut (its marker included) as it is, and cuts what a
// program that replaced describeError's globals wrote whole.
func TestBound(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		n        int
		want     string
	}{
		{"short", "abc", 3, "abc"},
		{"cut by describeError", strings.Repeat("a", 128) + "… [49999872 more characters]", 128, strings.Repeat("a", 128) + "… [49999872 more characters]"},
		{"within the marker's room", strings.Repeat("a", 168), 128, strings.Repeat("a", 168)},
		{"whole", strings.Repeat("<", 1000), 128, strings.Repeat("<", 128) + "… [872 more characters]"},
		{"runes, not bytes", strings.Repeat("é", 200), 100, strings.Repeat("é", 100) + "… [100 more characters]"},
	} {
		if got := bound(tc.in, tc.n); got != tc.want {
			t.Errorf("%s: bound(%d) = %q, want %q", tc.name, tc.n, got, tc.want)
		}
	}
}

// TestHostStackOverflow: the host's stack overflow is the program's deep
// nesting in every engine's words, not a crash of the sandbox (Firefox's
// was, at ~300 nested brackets of source). The texts are the traps'
// (jsbridge's "wasm trap: " + the host's error).
func TestHostStackOverflow(t *testing.T) {
	for _, tc := range []struct {
		msg  string
		want bool
	}{
		{"QuickJS trapped: wasm trap: RangeError: Maximum call stack size exceeded", true},  // V8
		{"QuickJS trapped: wasm trap: RangeError: Maximum call stack size exceeded.", true}, // JavaScriptCore
		{"QuickJS trapped: wasm trap: InternalError: too much recursion", true},             // SpiderMonkey
		{"QuickJS trapped: wasm error: stack overflow", true},
		{"QuickJS trapped: wasm trap: RuntimeError: unreachable", false},
		{"QuickJS trapped: wasm trap: RuntimeError: memory access out of bounds", false},
	} {
		if got := hostStackOverflow(tc.msg); got != tc.want {
			t.Errorf("hostStackOverflow(%q) = %v, want %v", tc.msg, got, tc.want)
		}
	}
}
