package codemode

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestToolsRunCostIndependentOfCatalog: what a run hands tools.js to build
// `tools` from is its top level (the namespaces), not every tool: a run
// that names `tools` built a function and two keys per tool in QuickJS
// (3,000 tools: 30-40 ms), now one getter per namespace, and a namespace's
// tools on its first read.
func TestToolsRunCostIndependentOfCatalog(t *testing.T) {
	r := &runState{code: `return await tools.ns7.tool_7({})`}
	for i := range 3000 {
		r.visible = append(r.visible, &toolEntry{info: ToolInfo{Name: fmt.Sprintf("ns%d.tool_%d", i%50, i)}})
	}
	slices.SortFunc(r.visible, func(a, b *toolEntry) int { return strings.Compare(a.info.Name, b.info.Name) })
	top, err := r.source([]json.RawMessage{json.RawMessage(`"toolnames"`)})
	if err != nil {
		t.Fatal(err)
	}
	// 50 namespaces: ["ns0",0,...] is ~450 bytes; the names were ~88 KB.
	if len(top) > 1000 {
		t.Errorf("the top level of 3,000 tools in 50 namespaces is %d bytes, want at most 1,000: %.200s", len(top), top)
	}
	ns, err := r.source([]json.RawMessage{json.RawMessage(`"toolnames"`), json.RawMessage(`"ns7"`)})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(ns, `"ns7.tool_`); n != 60 {
		t.Errorf("namespace ns7 holds %d tools, want 60: %.200s", n, ns)
	}
}

// TestToolsObject: what a program can observe of `tools`, whose namespaces
// are built on their first read and whose full-name keys read through them
// (prelude/tools.js).
func TestToolsObject(t *testing.T) {
	_, s := newHostile(t, Config{Timeout: 30 * time.Second}, echoTool("orders.get", nil), echoTool("orders.search", nil), echoTool("payments.refund", nil), echoTool("ping", nil))
	for _, tc := range []struct{ name, code, want string }{
		{"a namespace is a getter that builds it once", `const d = Object.getOwnPropertyDescriptor(tools, "orders"); return [typeof d.get, d.set, d.enumerable, d.configurable, "value" in d, tools.orders === tools.orders, d.get() === tools.orders, d.get.call({}) === tools.orders, Object.keys(tools.orders)]`,
			`["function",null,true,false,false,true,true,true,["get","search"]]`},
		{"frozen throughout", `return [Object.isFrozen(tools), Object.isFrozen(tools.orders), Object.isFrozen(tools.orders.search), Object.isFrozen(tools.ping), Reflect.set(tools, "x", 1), Reflect.set(tools.orders, "search", 1), Reflect.defineProperty(tools, "orders", { value: 1 }), Reflect.deleteProperty(tools, "orders"), Reflect.defineProperty(tools, "orders.x", { value: 1 }), typeof tools["orders.x"], Reflect.set(tools.orders.get, "x", 1)]`,
			`[true,true,true,true,false,false,false,false,false,"undefined",false]`},
		{"a full name reads through its namespaces", `return [tools["orders.get"] === tools.orders.get, "orders.get" in tools, "payments.refund" in tools, "orders.nope" in tools, typeof tools["orders.nope"], "orders" in tools, "ping" in tools, Object.getOwnPropertyDescriptor(tools, "orders.get"), Object.keys(tools), (await tools["payments.refund"]({ a: 1 })).a]`,
			`[true,true,true,false,"undefined",true,true,null,["orders","payments","ping"],1]`},
		{"a run that reads no namespace lists them", `return [Object.keys(tools), JSON.stringify(tools)]`, `[["orders","payments","ping"],"{\"orders\":{},\"payments\":{}}"]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := exec(t, s, tc.code, nil)
			if !res.OK || string(res.Result) != tc.want {
				t.Errorf("got %s %+v, want %s", res.Result, res.Error, tc.want)
			}
		})
	}
}

// TestToolsAfterBuiltinsChanged: `tools` is built on its first read, after
// the program ran: what the program did to the built-ins before must not
// change it. tools.js (and api.js, defining the global) read descriptors
// with Object.prototype behind them, iterated arrays, split names with
// String.prototype's split and used the global Object. The result is a
// string: a program that broke Array iteration cannot return an array.
func TestToolsAfterBuiltinsChanged(t *testing.T) {
	_, s := newHostile(t, Config{Timeout: 30 * time.Second}, echoTool("orders.get", nil), echoTool("orders.search", nil), echoTool("ping", nil))
	const probe = `; return [typeof tools.orders.get, typeof tools["orders.search"], K(tools), F(tools.orders)].join(" ")`
	for _, tc := range []struct{ name, code string }{
		{"Object.prototype.get", `Object.prototype.get = function () { return 1 }`},
		{"Object.prototype.set", `Object.prototype.set = function () {}`},
		{"Object.prototype.value", `Object.defineProperty(Object.prototype, "value", { get() { return 1 } })`},
		{"Array iterator", `Array.prototype[Symbol.iterator] = function* () {}`},
		{"String.prototype.split", `String.prototype.split = () => []`},
		{"String.prototype.includes", `String.prototype.includes = () => true`},
		{"Object replaced", `globalThis.Object = 5`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := exec(t, s, `const K = Object.keys, F = Object.isFrozen; `+tc.code+probe, nil)
			if want := `"function function orders,ping true"`; !res.OK || string(res.Result) != want {
				t.Errorf("got %s %+v, want %s", res.Result, res.Error, want)
			}
		})
	}
}

// TestToolOpsScanTheProgramOnce: a namespace built as the program reads it
// costs the same whatever the program's length; each one scanned the whole
// program for the paths it calls (a program reading 1,000 namespaces
// scanned itself 1,000 times).
func TestToolOpsScanTheProgramOnce(t *testing.T) {
	var long strings.Builder
	long.WriteString(`return await tools.ns7.tool_7({}); `)
	for i := range 40 {
		fmt.Fprintf(&long, "tools.zz%d.x(); ", i)
	}
	var short, many runState
	short.code, many.code = `return await tools.ns7.tool_7({})`, long.String()
	for _, r := range []*runState{&short, &many} {
		for i := range 300 {
			r.visible = append(r.visible, &toolEntry{info: ToolInfo{Name: fmt.Sprintf("ns%d.tool_%d", i%50, i)}})
		}
		slices.SortFunc(r.visible, func(a, b *toolEntry) int { return strings.Compare(a.info.Name, b.info.Name) })
		r.toolOps("")
	}
	if a, b := short.toolOps("ns7"), many.toolOps("ns7"); a != b {
		t.Fatalf("ns7 differs with the longer program:\n%s\n%s", a, b)
	}
	s := testing.AllocsPerRun(20, func() { short.toolOps("ns7") })
	m := testing.AllocsPerRun(20, func() { many.toolOps("ns7") })
	if m != s {
		t.Errorf("building ns7 made %v allocations with a program calling 40 unknown paths, %v with a one-call program: want the same", m, s)
	}
}

// TestCallsAfterArrayIteratorReplaced: the sandbox's conversion of tool
// inputs and results is compiled on a run's first need, after the program
// ran; it destructured an array, so a program that replaced the Array
// iterator had every call fail with "tool_call is not a function" (false:
// the model goes looking for another), and a result of a class no rule
// converts lost its warning the same way.
func TestCallsAfterArrayIteratorReplaced(t *testing.T) {
	_, s := newHostile(t, Config{Timeout: 30 * time.Second}, echoTool("orders.get", nil))
	const broken = `Array.prototype[Symbol.iterator] = function* () {}; `
	for _, tc := range []struct{ name, code, want, warning string }{
		{"tool_call", `return (await tool_call("orders.get", { a: 1 })).a`, `1`, ""},
		{"tools", `return (await tools.orders.get({ a: 2 })).a`, `2`, ""},
		{"an object of a class", `class Point { get x() { return 3 } }; return { p: new Point() }`, `{"p":{}}`, "a Point object, converted to {}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := exec(t, s, broken+tc.code, nil)
			if !res.OK || string(res.Result) != tc.want {
				t.Errorf("got %s %+v, want %s", res.Result, res.Error, tc.want)
			}
			if tc.warning != "" && !slices.ContainsFunc(res.Logs, func(l LogEntry) bool { return strings.Contains(l.Message, tc.warning) }) {
				t.Errorf("no warning naming %q: %+v", tc.warning, res.Logs)
			}
		})
	}
}

// TestToolCallReadAsInvoke: tools.orders.get.call({ id }), a model reading
// call as invoke, gave the object as `this` and no input: the tool ran with
// none, which a tool whose fields only narrow what it acts on reads as
// everything. It is a TypeError naming the fix now, and the tool does not
// run; every other way of calling a tool gives it the same input as
// before: as itself, detached, by call(null, x), apply, Reflect.apply,
// bind, as map's callback, by its full name, at the top level, as a tool
// that is also a namespace, with no input at all.
func TestToolCallReadAsInvoke(t *testing.T) {
	var mu sync.Mutex
	var got []string
	rec := func(name string) Tool {
		return Tool{Name: name, Execute: func(_ context.Context, in json.RawMessage, _ Call) (json.RawMessage, error) {
			mu.Lock()
			got = append(got, name+" "+string(in))
			mu.Unlock()
			return json.RawMessage(`1`), nil
		}}
	}
	_, s := newHostile(t, Config{Timeout: 30 * time.Second}, rec("orders.get"), rec("orders.list"), rec("ping"), rec("acct"), rec("acct.get"))
	for _, tc := range []struct{ name, code, want, ran string }{
		{"call read as invoke", `try { await tools.orders.get.call({ id: 1 }) } catch (e) { return [e.name, e.message] }`,
			`["TypeError","tools.orders.get.call(x) passes x as this, not as the input: call tools.orders.get(x)"]`, ""},
		{"call read as invoke, a top-level tool", `try { await tools.ping.call({ id: 1 }) } catch (e) { return e.message }`,
			`"tools.ping.call(x) passes x as this, not as the input: call tools.ping(x)"`, ""},
		{"call read as invoke, a tool that is also a namespace", `try { await tools.acct.call({ id: 1 }) } catch (e) { return e.message }`,
			`"tools.acct.call(x) passes x as this, not as the input: call tools.acct(x)"`, ""},
		{"as itself", `return await tools.orders.get({ id: 1 })`, `1`, `orders.get {"id":1}`},
		{"detached", `const f = tools.orders.get; return await f({ id: 2 })`, `1`, `orders.get {"id":2}`},
		{"call(null, x), call(namespace, x), call(obj, x)", `return [await tools.orders.get.call(null, { id: 3 }), await tools.orders.get.call(tools.orders, { id: 4 }), await tools.orders.get.call({ id: 0 }, { id: 5 })]`, `[1,1,1]`,
			`orders.get {"id":3}|orders.get {"id":4}|orders.get {"id":5}`},
		{"apply, Reflect.apply, bind", `return [await tools.orders.get.apply(null, [{ id: 6 }]), await Reflect.apply(tools.orders.get, undefined, [{ id: 7 }]), await tools.orders.get.bind(null, { id: 8 })()]`, `[1,1,1]`,
			`orders.get {"id":6}|orders.get {"id":7}|orders.get {"id":8}`},
		{"map's callback", `return await Promise.all([{ id: 9 }].map(tools.orders.get))`, `[1]`, `orders.get {"id":9}`},
		{"by its full name", `return [await tools["orders.get"]({ id: 10 }), await tools["orders.list"]()]`, `[1,1]`, `orders.get {"id":10}|orders.list {}`},
		{"no input: as a method, detached, at the top level, by full name's namespace", `const l = tools.orders.list; return [await tools.orders.list(), await l(), await tools.ping(), await tools.acct(), await tools.acct.get()]`, `[1,1,1,1,1]`,
			`orders.list {}|orders.list {}|ping {}|acct {}|acct.get {}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mu.Lock()
			got = nil
			mu.Unlock()
			res := exec(t, s, tc.code, nil)
			if !res.OK || string(res.Result) != tc.want {
				t.Errorf("got %s %+v, want %s", res.Result, res.Error, tc.want)
			}
			mu.Lock()
			defer mu.Unlock()
			if ran := strings.Join(got, "|"); ran != tc.ran {
				t.Errorf("the tools ran with %q, want %q", ran, tc.ran)
			}
		})
	}
}
