package sandboxtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox"
)

// Backend describes the backend under test.
type Backend struct {
	// NewEngine builds an engine on this backend from the asset bytes.
	NewEngine func(wasm []byte, cfg sandbox.Config) (*sandbox.Engine, error)
	// Preemptive says whether a goroutine can run while QuickJS is busy in a
	// CPU loop (true natively; false under GOOS=js, where Go is single
	// threaded and only the deadline can stop a loop).
	Preemptive bool
	// LeakRuns is how many runs the leak test makes (10,000 natively).
	LeakRuns int
}

// Run runs the conformance suite.
func Run(t *testing.T, b Backend) {
	asset := Asset(t)
	engine := func(t *testing.T, cfg sandbox.Config) *sandbox.Engine {
		t.Helper()
		e, err := b.NewEngine(asset, cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		return e
	}
	e := engine(t, sandbox.Config{})
	t.Run("CodeForms", func(t *testing.T) { testCodeForms(t, e) })
	t.Run("PlainPrograms", func(t *testing.T) { testPlainPrograms(t, e) })
	t.Run("Errors", func(t *testing.T) { testErrors(t, e) })
	t.Run("UnknownPositions", func(t *testing.T) { testUnknownPositions(t, e) })
	t.Run("HostFuncs", func(t *testing.T) { testHostFuncs(t, e) })
	t.Run("Timeout", func(t *testing.T) { testTimeout(t, e) })
	t.Run("Memory", func(t *testing.T) { testMemory(t, engine(t, sandbox.Config{MemoryLimit: 16 << 20})) })
	t.Run("Cancel", func(t *testing.T) { testCancel(t, e, b.Preemptive) })
	t.Run("Isolation", func(t *testing.T) { testIsolation(t, e) })
	t.Run("Trap", func(t *testing.T) { testTrap(t, e) })
	t.Run("Recursion", func(t *testing.T) { testRecursion(t, e) })
	t.Run("Leaks", func(t *testing.T) { testLeaks(t, engine(t, sandbox.Config{}), b.LeakRuns) })
	t.Run("Asset", func(t *testing.T) { testAsset(t, b, asset) })
}

func run(t *testing.T, e *sandbox.Engine, p sandbox.Program) *sandbox.Result {
	t.Helper()
	if p.Timeout == 0 {
		p.Timeout = 5 * time.Second
	}
	res, err := e.Run(context.Background(), p)
	if err != nil {
		t.Fatalf("Run(%q): %v", p.Code, err)
	}
	return res
}

func echoFuncs() map[string]sandbox.Func {
	return map[string]sandbox.Func{
		"echo": {Async: func(_ context.Context, a []json.RawMessage) (json.RawMessage, error) {
			if len(a) == 0 {
				return nil, nil
			}
			return a[0], nil
		}},
		"fail": {Async: func(_ context.Context, a []json.RawMessage) (json.RawMessage, error) {
			return nil, &sandbox.JSError{Name: "ToolError", Message: "it failed: " + string(a[0])}
		}},
		"args": {Sync: func(a []json.RawMessage) (json.RawMessage, error) {
			out := make([]string, len(a))
			for i, v := range a {
				out[i] = string(v)
			}
			return json.Marshal(out)
		}},
	}
}

func testCodeForms(t *testing.T, e *sandbox.Engine) {
	for _, tc := range []struct{ code, want string }{
		{"1+1", "2"},
		{"return 1+1", "2"},
		{"const x = await echo(20); x + 1", "21"},
		{"return await echo({a: [1, 'b']})", `{"a":[1,"b"]}`},
		{"let s = 0; for (const i of [1,2,3]) s += i; s", "6"},
		{"if (true) { 5 } else { 6 }", "5"},
		{"[1,2,3].map(x => { return x * 2 })", "[2,4,6]"}, // nested return, not a body
		{"function f() { return 3 }\nreturn f() * 2", "6"},
		{"var v = 1; v", "1"},
		{"", ""},
		{"return", ""},
		{"return undefined", ""},
		{"return null", "null"},
		{"return () => 1", ""},
		{"return {f() {}, a: 1, u: undefined}", `{"a":1}`},
		{"return [undefined, () => 1]", "[null,null]"},
		{"return new Date(Date.UTC(2020, 0, 2))", `"2020-01-02T00:00:00.000Z"`},
		{"return -0", "0"},
		{"return NaN", `"NaN"`}, // converted and reported: convert.go
		{"return 1e300", "1e+300"},
		{"return 2**53 + 2", "9007199254740994"},
		{"return 10n ** 25n", `"10000000000000000000000000"`},
		{"return '\\ud800x'", `"\ud800x"`},
		{"return 'é😀'", `"é😀"`},
		{"return new Map([[1, 2]])", "[[1,2]]"},
		{"return await Promise.resolve(7)", "7"},
		// A last expression statement that is a Promise is awaited, as
		// `return` would; one inside the value is not (null, reported).
		{"Promise.resolve(7)", "7"},
		{"const f = async () => 8;\nf()", "8"},
		{"echo(9)", "9"},
		{"echo(1).then((x) => echo(x + 9))", "10"},
		{"class P extends Promise {}\nP.resolve(11)", "11"},
		{"({p: Promise.resolve(1)})", `{"p":null}`},
		{"[echo(1)]", "[null]"},
		// A thenable that is not a Promise is a value like any other.
		{"({then(resolve) { resolve(1) }, a: 2})", `{"a":2}`},
		// The result and a host call's input are read once, converted or
		// not: a getter runs as often as the program wrote it.
		{"let n = 0;\n({get a() { return ++n }, s: new Set([1])})", `{"a":1,"s":[1]}`},
		{"let n = 0;\nconst r = args({get a() { return ++n }, s: new Set([1])}, {get b() { return ++n }});\n[r, n]", `[["{\"a\":1,\"s\":[1]}","{\"b\":2}"],2]`},
	} {
		res := run(t, e, sandbox.Program{Code: tc.code, Funcs: echoFuncs()})
		if res.Error != nil {
			t.Errorf("%q: error %v", tc.code, res.Error)
			continue
		}
		if string(res.Value) != tc.want {
			t.Errorf("%q = %s, want %s", tc.code, res.Value, tc.want)
		}
	}
}

// testPlainPrograms covers runs without host functions or prelude, which
// use the context's own JSON.stringify.
func testPlainPrograms(t *testing.T, e *sandbox.Engine) {
	for _, tc := range []struct{ code, want, errCode string }{
		{"return 10n ** 3n", `"1000"`, ""},
		{"return {a: [1n, 2]}", `{"a":["1",2]}`, ""},
		{"const a = {}; a.a = a; return a", "", string(sandbox.CodeNotSerializable)},
		{"return {toJSON() { throw new Error('no') }}", "", string(sandbox.CodeNotSerializable)},
		{"return new Date(0)", `"1970-01-01T00:00:00.000Z"`, ""},
		// A converted value met twice, not inside itself, is no cycle.
		{"const m = new Map([['a', 1]]); return [m, { x: m }, [m, [m]]]", `[{"a":1},{"x":{"a":1}},[{"a":1},[{"a":1}]]]`, ""},
		{"return [{ a: [undefined, new Set([undefined])] }]", `[{"a":[null,[null]]}]`, ""},
	} {
		res := run(t, e, sandbox.Program{Code: tc.code})
		if tc.errCode != "" {
			if res.Error == nil || string(res.Error.Code) != tc.errCode {
				t.Errorf("%q: got %s %v, want %s", tc.code, res.Value, res.Error, tc.errCode)
			}
			continue
		}
		if res.Error != nil || string(res.Value) != tc.want {
			t.Errorf("%q = %s %v, want %s", tc.code, res.Value, res.Error, tc.want)
		}
	}
}

func testErrors(t *testing.T, e *sandbox.Engine) {
	for _, tc := range []struct {
		code             string
		wantCode         sandbox.ErrorCode
		name, msg        string
		line, col        int
		stackHasNoPrefix bool
	}{
		{"1 +", sandbox.CodeSyntax, "SyntaxError", "unexpected", 1, 4, false},
		{"let a = 1;\nlet a = 2;", sandbox.CodeSyntax, "SyntaxError", "redefinition", 2, 7, false},
		{"\n\nnull.x", sandbox.CodeRuntime, "TypeError", "cannot read property 'x' of null", 3, 5, false},
		{"return null.x", sandbox.CodeRuntime, "TypeError", "of null", 1, 12, true},
		{"throw new RangeError('bad')", sandbox.CodeRuntime, "RangeError", "bad", 1, 21, false},
		{"return 1;\nthrow new Error('late')", sandbox.CodeRuntime, "", "", 0, 0, false}, // unreachable: returns 1
		{"const x = 1;\nreturn (() => { throw new Error('inner') })()", sandbox.CodeRuntime, "Error", "inner", 2, 32, true},
		{"await Promise.reject(new TypeError('rej'))", sandbox.CodeRuntime, "TypeError", "rej", 1, 35, false},
		{"const a = 1;\nPromise.reject(new TypeError('last'))", sandbox.CodeRuntime, "TypeError", "last", 2, 29, false},
		{"async function f() {\n  null.x\n}\nf()", sandbox.CodeRuntime, "TypeError", "of null", 2, 7, false},
		{"fail('last')", sandbox.CodeRuntime, "ToolError", `it failed: "last"`, 0, 0, false},
		{"new Promise(() => {})", sandbox.CodeRuntime, "Error", "can never settle", 0, 0, false},
		{"throw 'plain'", sandbox.CodeRuntime, "Error", "a non-Error value was thrown: plain", 0, 0, false},
		{"throw {code: 7}", sandbox.CodeRuntime, "Error", `{"code":7}`, 0, 0, false},
		// A sparse array's JSON and String walk every index: these took
		// the run to its timeout.
		{"const a = []; a.length = 1e9; a[1] = 7; throw a", sandbox.CodeRuntime, "Error", "a non-Error value was thrown: [null,7,null,null,", 0, 0, false},
		{"const a = []; a.length = 1e9; throw new Error('x', { cause: { a } })", sandbox.CodeRuntime, "Error", `x; cause: {"a":[null,null,`, 0, 0, false},
		{"const a = []; a.length = 1e9; const e = new TypeError('y'); e.name = a; throw e", sandbox.CodeRuntime, "[an array of 1000000000 elements]", "y", 0, 0, false},
		// What can be read of an exception is kept, whatever else throws.
		{"throw new Proxy({}, { get() { throw new Error('trap') } })", sandbox.CodeRuntime, "Error", "a non-Error value was thrown: an object that cannot be read or converted to text (reading it threw: trap)", 0, 0, false},
		{"throw new Proxy(function () {}, { get() { throw 'trap' } })", sandbox.CodeRuntime, "Error", "a function that cannot be read or converted to text (reading it threw: trap)", 0, 0, false},
		{"const e = new TypeError('kept');\nObject.defineProperty(e, 'name', { get() { throw 1 } });\nthrow e", sandbox.CodeRuntime, "TypeError", "kept", 1, 24, false},
		{"const e = new RangeError('r');\nObject.defineProperty(e, 'message', { get() { throw new Error('nope') } });\nthrow e", sandbox.CodeRuntime, "RangeError", "(its message cannot be read: reading it threw: nope)", 1, 25, false},
		{"throw new Proxy(new RangeError('r'), { get() { throw 0 } })", sandbox.CodeRuntime, "Error", "(its message cannot be read: reading it threw: 0)", 0, 0, false},
		{"throw new Proxy({}, { getPrototypeOf() { throw 1 } })", sandbox.CodeRuntime, "Error", "a non-Error value was thrown: {}", 0, 0, false},
		{"Object.prototype.toJSON = () => 1e9;\nthrow new SyntaxError('polluted')", sandbox.CodeRuntime, "SyntaxError", "polluted", 2, 22, false},
		// What the program replaced does not describe its error: each of
		// these was "Error: unknown error" (or a message that could not
		// be read), without its line.
		{"JSON.stringify = () => { throw new Error('js') };\nthrow new Error('replaced')", sandbox.CodeRuntime, "Error", "replaced", 2, 16, false},
		{"Object.defineProperty(Array.prototype, '0', { get() { return 'evil' } });\nthrow new Error('getter')", sandbox.CodeRuntime, "Error", "getter", 2, 16, false},
		{"globalThis.String = () => { throw new Error('s') };\nthrow new TypeError('no String')", sandbox.CodeRuntime, "TypeError", "no String", 2, 20, false},
		// An Error the program replaced (instanceof read the program's):
		// "a non-Error value was thrown: {}".
		{"globalThis.Error = function () {};\nthrow new TypeError('no Error')", sandbox.CodeRuntime, "TypeError", "no Error", 2, 20, false},
		{"Error = 5;\nthrow new RangeError('Error is 5')", sandbox.CodeRuntime, "RangeError", "Error is 5", 2, 21, false},
		{"await fail('x')", sandbox.CodeRuntime, "ToolError", `it failed: "x"`, 0, 0, false},
		{"let a = {}; a.self = a; return a", sandbox.CodeNotSerializable, "TypeError", "circular", 0, 0, false},
		// Through values that convert (a new object each time JSON meets
		// them): these said "nests more than 1,000 levels deep".
		{"const m = new Map(); m.set('self', m); return m", sandbox.CodeNotSerializable, "TypeError", "circular reference", 0, 0, false},
		{"const s = new Set(); s.add({ list: [s] }); return { s }", sandbox.CodeNotSerializable, "TypeError", "circular reference", 0, 0, false},
		{"return {toJSON() { throw new Error('no') }}", sandbox.CodeNotSerializable, "Error", "no", 0, 0, false},
		{"function f() { return f() + 1 }\nf()", sandbox.CodeRuntime, "RangeError", "stack overflow", 1, 24, false},
		// The wrapper of code with return stays invisible: an error at the
		// code's end points there, and code cannot close the wrapper.
		{"const a = 1;\nreturn (a +", sandbox.CodeSyntax, "SyntaxError", "unexpected end of input", 2, 12, false},
		{"return [1, 2", sandbox.CodeSyntax, "SyntaxError", "unexpected end of input", 1, 13, false},
		// A block left open ends inside the code, where QuickJS names the
		// end as a token: "unexpected token in expression: ''".
		{"function f() {\n  return 1;", sandbox.CodeSyntax, "SyntaxError", "unexpected end of input", 2, 12, false},
		{"if (x) {", sandbox.CodeSyntax, "SyntaxError", "unexpected end of input", 1, 9, false},
		{"return 1\n})(); (async () => {", sandbox.CodeSyntax, "SyntaxError", "'}': it closes nothing", 2, 1, false},
		{"return 1 }", sandbox.CodeSyntax, "SyntaxError", "'}': it closes nothing", 1, 10, false},
		{"const s = `${1}` + '}' + /}/.source // }\nreturn s.length - 2", sandbox.CodeRuntime, "", "", 0, 0, false}, // brackets in strings, templates, regexes and comments do not count
	} {
		res := run(t, e, sandbox.Program{Code: tc.code, Funcs: echoFuncs()})
		if tc.name == "" {
			if res.Error != nil || string(res.Value) != "1" {
				t.Errorf("%q: got %s %v, want 1", tc.code, res.Value, res.Error)
			}
			continue
		}
		got := res.Error
		if got == nil {
			t.Errorf("%q: no error, value %s", tc.code, res.Value)
			continue
		}
		if got.Code != tc.wantCode || got.Name != tc.name || !strings.Contains(got.Message, tc.msg) {
			t.Errorf("%q: got %s %s %q, want %s %s ~%q", tc.code, got.Code, got.Name, got.Message, tc.wantCode, tc.name, tc.msg)
		}
		if tc.line != 0 && (got.Line != tc.line || got.Column != tc.col) {
			t.Errorf("%q: at %d:%d, want %d:%d (stack %q)", tc.code, got.Line, got.Column, tc.line, tc.col, got.Stack)
		}
		if strings.Contains(got.Stack, "<sandbox>") || strings.Count(got.Stack, "\n") > 11 {
			t.Errorf("%q: stack not cleaned: %q", tc.code, got.Stack)
		}
	}
}

// testUnknownPositions: an error QuickJS gives no position of its own (a
// destructuring of a value that is not iterable, or of null) carries the
// start of the function it is in. For code with a return, that function is
// the wrapper, which starts in its prefix, and a script (no return) has a
// space before it: such an error has no position, never a column before
// the code (1:-12) or the first line for the fifth (1:1).
func testUnknownPositions(t *testing.T, e *sandbox.Engine) {
	for _, tc := range []struct {
		code      string
		msg       string
		line, col int
	}{
		{"const [a] = 5;\nreturn a", "not iterable", 0, 0},
		{"const x = 1;\n\n\nconst [a] = 5;\nreturn a", "not iterable", 0, 0},
		{"const {a} = null;\nreturn a", "cannot convert to object", 0, 0},
		{"const [a, b] = Promise.resolve([1, 2]);\nreturn a + b", "not iterable", 0, 0},
		{"return [...5]", "not iterable", 0, 0},
		// A script (no return) too: its start was 1:1, whatever the line.
		{"const x = 1;\nconst [a] = 5;\na", "not iterable", 0, 0},
		{"   let {a} = null", "cannot convert to object", 0, 0},
		{"[...5]", "not iterable", 1, 1}, // the array literal's own position
		{"null.x", "of null", 1, 5},
		{"x", "not defined", 1, 1},
		{"\n  null.x", "of null", 2, 7},
		{"for (const x of 5) {}\nreturn 1", "not iterable", 0, 0},
		// Positions QuickJS does give are kept, on the first line too.
		{"return null.x", "of null", 1, 12},
		{"const o = null;\nreturn o.x", "of null", 2, 9},
	} {
		res := run(t, e, sandbox.Program{Code: tc.code})
		got := res.Error
		if got == nil || !strings.Contains(got.Message, tc.msg) {
			t.Errorf("%q: got %v, want an error ~%q", tc.code, got, tc.msg)
			continue
		}
		if got.Line != tc.line || got.Column != tc.col {
			t.Errorf("%q: at %d:%d, want %d:%d (stack %q)", tc.code, got.Line, got.Column, tc.line, tc.col, got.Stack)
		}
		if strings.Contains(got.Stack, ":-") || strings.Contains(got.Stack, ":0") {
			t.Errorf("%q: stack %q holds a position outside the code", tc.code, got.Stack)
		}
	}
}

func testIsolation(t *testing.T, e *sandbox.Engine) {
	run(t, e, sandbox.Program{Code: "globalThis.secret = 42; Object.prototype.polluted = 1; Array.prototype.map = null; JSON.stringify = () => '\"hacked\"'"})
	res := run(t, e, sandbox.Program{Code: "return [typeof secret, ({}).polluted === undefined, typeof [].map, JSON.stringify(1)]"})
	if want := `["undefined",true,"function","1"]`; string(res.Value) != want {
		t.Errorf("state leaked between runs: %s %v", res.Value, res.Error)
	}
	// Host objects of any kind are absent.
	res = run(t, e, sandbox.Program{Code: "return [typeof process, typeof require, typeof fetch, typeof setTimeout, typeof window, typeof document, typeof std, typeof os, typeof WebAssembly]"})
	if want := `["undefined","undefined","undefined","undefined","undefined","undefined","undefined","undefined","undefined"]`; string(res.Value) != want {
		t.Errorf("host objects visible: %s %v", res.Value, res.Error)
	}
	// Overlapping runs each see their own data.
	var wg sync.WaitGroup
	errs := make(chan string, 20)
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			funcs := map[string]sandbox.Func{"mine": {Async: func(ctx context.Context, _ []json.RawMessage) (json.RawMessage, error) {
				time.Sleep(time.Duration(i%5) * time.Millisecond)
				return json.Marshal(i)
			}}}
			code := fmt.Sprintf("globalThis.v = %d; const got = await mine(); await mine(); return [v, got]", i)
			res, err := e.Run(context.Background(), sandbox.Program{Code: code, Funcs: funcs, Timeout: 10 * time.Second})
			if want := fmt.Sprintf("[%d,%d]", i, i); err != nil || res.Error != nil || string(res.Value) != want {
				errs <- fmt.Sprintf("run %d: %v %v %s", i, err, res.Error, res.Value)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func testTrap(t *testing.T, e *sandbox.Engine) {
	funcs := map[string]sandbox.Func{"boom": {Sync: func([]json.RawMessage) (json.RawMessage, error) { panic("host bug") }}}
	res := run(t, e, sandbox.Program{Code: "boom()", Funcs: funcs})
	if res.Error == nil || res.Error.Code != sandbox.CodeRuntime || !strings.Contains(res.Error.Message, "crashed") {
		t.Fatalf("got %s %v", res.Value, res.Error)
	}
	if res := run(t, e, sandbox.Program{Code: "return 'next'"}); string(res.Value) != `"next"` {
		t.Fatalf("after a trap: %s %v", res.Value, res.Error)
	}
}

func testLeaks(t *testing.T, e *sandbox.Engine, runs int) {
	funcs := echoFuncs()
	programs := []sandbox.Program{
		{Code: "return (await Promise.all([echo(1), echo({a: 'x'.repeat(100)})])).length", Funcs: funcs},
		{Code: "try { await fail(1) } catch (e) { return e.message }", Funcs: funcs},
		{Code: "null.x", Funcs: funcs},
		{Code: "syntax error here", Funcs: funcs},
		{Code: "fail('unawaited'); return 1", Funcs: funcs},
		{Code: "const o = {}; o.o = o; return o", Funcs: funcs},
		{Code: "const a = []; for (let i = 0; i < 1000; i++) a.push({i}); return a.length", Funcs: funcs},
	}
	timeoutEvery := 500
	var mem0 uint64
	for i := 0; i < runs; i++ {
		p := programs[i%len(programs)]
		if i%timeoutEvery == timeoutEvery-1 {
			p = sandbox.Program{Code: "while (true) {}", Timeout: 5 * time.Millisecond}
		}
		if p.Timeout == 0 {
			p.Timeout = 5 * time.Second
		}
		if _, err := e.Run(context.Background(), p); err != nil {
			t.Fatal(err)
		}
		if i == 99 {
			mem0 = e.Stats().IdleMemoryBytes
		}
	}
	s := e.Stats()
	if s.Idle != 1 || s.IdleMemoryBytes != mem0 {
		t.Errorf("after %d runs: %d idle instances with %d bytes, was 1 with %d after 100 runs", runs, s.Idle, s.IdleMemoryBytes, mem0)
	}
}

func testAsset(t *testing.T, b Backend, asset []byte) {
	other := []byte{0, 'a', 's', 'm', 1, 0, 0, 0} // a valid, empty module
	for _, tc := range []struct {
		name string
		wasm []byte
		want string
	}{
		{"empty", nil, "empty"},
		{"text", []byte("<html>404 Not Found</html>"), "not WebAssembly"},
		{"truncated", asset[:len(asset)/2], "truncated"},
		{"another module", other, "not the QuickJS asset"},
	} {
		_, err := b.NewEngine(tc.wasm, sandbox.Config{})
		if !errors.Is(err, sandbox.ErrAsset) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want ErrAsset mentioning %q", tc.name, err, tc.want)
		}
	}
	for _, limit := range []int64{-1, sandbox.MaxMemoryLimit + 1} {
		if _, err := b.NewEngine(asset, sandbox.Config{MemoryLimit: limit}); !errors.Is(err, sandbox.ErrInvalidConfig) || !strings.Contains(err.Error(), "Config.MemoryLimit: must be") {
			t.Errorf("MemoryLimit %d: err = %v, want ErrInvalidConfig naming Config.MemoryLimit", limit, err)
		}
	}
}
