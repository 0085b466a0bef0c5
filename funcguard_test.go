package codemode

import (
	"context"
	"strings"
	"testing"
)

// TestEvalNesting: text given to a function constructor is held to the
// program's nesting limit: past it, a SyntaxError the program catches,
// naming what refused it (natively QuickJS threw its own "stack overflow"
// here; under GOOS=js the host's stack overflowed and the run ended).
// Within it, the constructors behave as the intrinsics do, and eval is the
// intrinsic: a direct eval sees the caller's scope.
func TestEvalNesting(t *testing.T) {
	cm := newTestCodeMode(t, Config{})
	s := mustSession(t, cm)
	const deep = `"[".repeat(1e5)`
	const msg = `code nested too deeply: 100000 levels at line 1; the limit is 100 (brackets, template substitutions, arrow functions returning arrow functions and runs of new count); split it into functions, or build deep data in a loop`
	catch := func(build string) string {
		return "try { " + build + "; return 'built' } catch (e) { return e.name + ': ' + e.message }"
	}
	for _, tc := range []struct{ name, code, want string }{
		{"new Function", catch("new Function('return ' + " + deep + ")"), `"SyntaxError: Function: code nested too deeply: 100000 levels at line 1;`},
		{"Function's parameters", catch("Function('a = ' + " + deep + ", 'return a')"), `"SyntaxError: Function: code nested too deeply: 100000 levels at line 1;`},
		{"AsyncFunction", catch("(async () => {}).constructor(" + deep + ")"), `"SyntaxError: AsyncFunction: ` + msg + `"`},
		{"AsyncGeneratorFunction", catch("(async function* () {}).constructor(" + deep + ")"), `"SyntaxError: AsyncGeneratorFunction: ` + msg + `"`},
		{"the program goes on", "let r; try { new Function(" + deep + ") } catch (e) { r = 'caught' } return [r, new Function('return 1 + 1')()]", `["caught",2]`},
		{"at the limit", `return new Function("return " + "[".repeat(99) + "]".repeat(99))().length`, `1`},
		{"a body longer than a program may be", catch("new Function('let a = 0;' + 'a+=1;'.repeat(2e6))"), `"SyntaxError: Function: the code is 10000010 characters, more than the 1048576 (1 MiB) a program may have"`},
		{"parameters as long", catch("Function('a = ' + '1+'.repeat(6e5) + '1', 'return a')"), `"SyntaxError: Function: the code is 1200006 characters, more than the 1048576 (1 MiB)`},
		{"a body of 1 MiB", `return new Function("return 1 //" + "x".repeat(1048576 - 11))()`, `1`},
		{"Function with parameters", `return new Function("a", "b", "return a + b")(1, 2)`, `3`},
		{"called without new", `return Function("return this")() === globalThis`, `true`},
		{"identity", `return [(() => {}) instanceof Function, (function () {}).constructor === Function, Object.getPrototypeOf(Function) === Function.prototype, (async () => {}).constructor.name, Function.name, Function.length, eval.name, eval.length]`,
			`[true,true,true,"AsyncFunction","Function",1,"eval",1]`},
		{"a subclass", `class F extends Function {}; const f = new F("return 7"); return [f(), f instanceof F]`, `[7,true]`},
		{"arguments made strings once", `let n = 0; const body = { toString() { n++; return "return 5" } }; return [new Function(body)(), n]`, `[5,1]`},
		{"eval of a non-string", `return eval(42)`, `42`},
		// __cm_syntax sorts among the built-ins' host functions (more[i]).
		{"beside timers, crypto and performance", "await new Promise((r) => setTimeout(r, 1)); let m; try { new Function(" + deep + ") } catch (e) { m = e.message.slice(0, 40) } return [crypto.randomUUID().length, typeof performance.now(), m]",
			`[36,"number","Function: code nested too deeply: 100000"]`},
		{"a direct eval sees the caller's scope", `const x = 5; function f() { const b = 2; return eval("b * x") } globalThis.y = 6; return [eval("x + 1"), f(), eval("y"), (0, eval)("typeof x")]`, `[6,10,6,"undefined"]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := s.ExecuteCode(context.Background(), ExecuteCodeInput{Code: tc.code}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Error != nil || !strings.HasPrefix(string(res.Result), tc.want) {
				t.Errorf("got %s %+v, want %s", res.Result, res.Error, tc.want)
			}
		})
	}
}

// TestEvalGuardOnlyWhenNamed: the guard is in the prelude of code that
// names Function or constructor, and of no other (eval is the intrinsic).
func TestEvalGuardOnlyWhenNamed(t *testing.T) {
	for _, tc := range []struct {
		code string
		want bool
	}{
		{"return 1", false},
		{"return tools.orders.search({})", false},
		{"return eval('1')", false},
		{"return new Function('return 1')()", true},
		{"return (() => {}).constructor", true},
	} {
		prelude, needs := preludeFor(tc.code, false)
		if got := strings.Contains(prelude, "AsyncGeneratorFunction"); got != tc.want || needs.syntax != tc.want {
			t.Errorf("%q: guard %v, host function %v, want %v", tc.code, got, needs.syntax, tc.want)
		}
	}
}
