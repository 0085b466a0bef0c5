package codemode

import (
	"testing"
	"time"
)

// TestCallsAfterDescriptorKeysSet: a tool call's promise is marked for the
// unobserved-rejection report by descriptors the sandbox makes once the
// program has run (sandbox/setup.go track). Made as object literals, they
// inherited what the program put on Object.prototype: after
// Object.prototype.get (or value, or a throwing getter of either) every
// tool call failed with "cannot have setter/getter and value or writable",
// though `tools` itself holds there (TestToolsAfterBuiltinsChanged).
func TestCallsAfterDescriptorKeysSet(t *testing.T) {
	_, s := newHostile(t, Config{Timeout: 30 * time.Second}, echoTool("orders.get", nil))
	for _, tc := range []struct{ name, code string }{
		{"Object.prototype.get", `Object.prototype.get = function () { return 1 }`},
		{"Object.prototype.set", `Object.prototype.set = function () {}`},
		{"Object.prototype.value", `Object.prototype.value = 1`},
		{"Object.prototype.writable", `Object.prototype.writable = false`},
		{"Object.prototype.configurable", `Object.prototype.configurable = false`},
		{"a throwing getter of get", `Object.defineProperty(Object.prototype, "get", { get() { throw new Error("read get") } })`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := exec(t, s, tc.code+`; const a = await tools.orders.get({ a: 1 }); const b = await tool_call("orders.get", { a: 2 }); return [a.a, b.a]`, nil)
			if want := `[1,2]`; !res.OK || string(res.Result) != want {
				t.Errorf("got %s %+v, want %s", res.Result, res.Error, want)
			}
		})
	}
}
