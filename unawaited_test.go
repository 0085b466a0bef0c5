package codemode

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
)

// TestUnawaitedAsyncCallWarning: a statement that calls an async function
// the program declares and drops its promise gets a warning naming its line
// (its rejection is lost, and the program may end first); the run still goes
// as written. A call whose promise is awaited, voided, caught or kept, or a
// function that is not async, gets none.
func TestUnawaitedAsyncCallWarning(t *testing.T) {
	warning := func(line int, name string) string { return fmt.Sprintf(unawaitedWarning, line, name, name) }
	cm := newTestCodeMode(t, Config{})
	s := mustSession(t, cm)
	for _, tc := range []struct {
		name, code, result string
		warns              []string
	}{
		{"its error is lost, but warned of", "async function save() { await null; throw new Error('lost') }\nsave();\nreturn 2", "2", []string{warning(2, "save")}},
		{"inside a function of a script", "const seen = []\nconst log = async (x) => { await null; seen.push(x) }\nfunction go() {\n  log(1)\n}\ngo()\nseen", "[1]", []string{warning(4, "log")}},
		{"at most three, then the program's own", "async function a() {}\na()\na()\na()\na()\nconsole.warn('mine')\nreturn 1", "1",
			[]string{warning(2, "a"), warning(3, "a"), warning(4, "a"), "mine"}},
		{"awaited", "async function save() { return 3 }\nawait save();\nreturn 3", "3", nil},
		{"voided", "async function save() {}\nvoid save();\nreturn 4", "4", nil},
		{"caught", "async function save() { throw new Error('x') }\nsave().catch(() => {});\nreturn 5", "5", nil},
		{"kept", "async function save() { return 6 }\nconst p = save();\nreturn await p", "6", nil},
		{"not async", "let n = 0\nfunction save() { n = 7 }\nsave();\nreturn n", "7", nil},
		{"main called last by a script, which the host awaits", "async function main() { return 8 }\nmain();", "8", nil},
	} {
		checkWarnings(t, s, tc.name, tc.code, tc.result, tc.warns)
	}
}

// TestUnawaitedToolCallHint: a TypeError that ends the run while tool calls
// are in flight says that a call gives a Promise and how to await it, with
// the tool's path as the code writes it; QuickJS's own words ("not a
// function", "value is not iterable") did not. An error with every call
// done, or of another kind, keeps its words. The tools here wait for the
// run's end, so a call is in flight whatever the machine's speed.
func TestUnawaitedToolCallHint(t *testing.T) {
	wait := func(ctx context.Context, _ json.RawMessage, _ Call) (json.RawMessage, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	cm := newTestCodeMode(t, Config{Tools: []Tool{
		{Name: "orders.list", Execute: wait},
		{Name: "customers.list", Execute: wait},
		{Name: "odd-desk.list", Execute: wait},
	}})
	s := mustSession(t, cm)
	hint := func(which, path string) string {
		return " (" + which + " had not returned when this error ended the run: a tool call gives a Promise, not its result; " +
			"if the code used it as the result, await it: const r = await " + path + "(...), or await Promise.all([...]))"
	}
	for _, tc := range []struct {
		name, code, want string
	}{
		{"a method of the promise", "const orders = tools.orders.list({});\nreturn orders.map((o) => o.id)",
			"not a function: orders.map is not a function" + hint("tool orders.list", "tools.orders.list")},
		{"a property of its undefined property", "const o = tool_call('orders.list', {});\nreturn o.items.length",
			"cannot read property 'length' of undefined: o.items is undefined" + hint("tool orders.list", "tools.orders.list")},
		{"Promise.all destructured", "const [a, b] = Promise.all([tools.orders.list({}), tools.customers.list({}), tools.orders.list({})]);\nreturn a.length + b.length",
			"value is not iterable" + hint("tools orders.list, customers.list", "tools.orders.list")},
		{"a name that is not an identifier", "for (const o of tools['odd-desk'].list({})) {}",
			"value is not iterable" + hint("tool odd-desk.list", `tools["odd-desk"].list`)},
		{"iterated with for await", "const ids = []\nfor await (const o of tools.orders.list({})) ids.push(o.id)\nreturn ids",
			"not a function: tools.orders.list(...) is not async iterable, or tools.orders.list is not a function; for await iterates an async iterable or an array, and a tool call gives a Promise of its result: for (const x of await tools.orders.list(...))" + hint("tool orders.list", "tools.orders.list")},
		{"every call done", "const o = await tools.orders.get({});\nreturn o.missing.map((x) => x)",
			// No word of a Promise; what o holds (resulthint.go).
			"cannot read property 'map' of undefined: o.missing is undefined; o holds what tools.orders.get gives, { context: null; input: Record<string, unknown> }, which has no missing"},
		{"not a TypeError", "tools.orders.list({});\nthrow new RangeError('mine')", "mine"},
	} {
		res := exec(t, s, tc.code, nil)
		if res.OK || res.Error.Message != tc.want {
			t.Errorf("%s: ok=%v %+v, want the message %q (calls %+v)", tc.name, res.OK, res.Error, tc.want, res.ToolCalls)
		}
	}
}
