package tsstrip

import (
	"fmt"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// TestRewritten: TypeScript that cannot be erased (enum, namespace with
// values, parameter properties, using) becomes tsc's JavaScript, which
// each row's want holds (spaces collapsed), on the same lines: the line
// count is kept and the last line, after the rewritten code, is the
// model's as written. Every row was a SyntaxError before. What each does
// when run, beside what tsc's output does, is web/test/tsvalues.test.mjs's.
func TestRewritten(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"numeric enum", "enum C { A, B = 5, D }\nreturn C", []string{
			`var C; (function (C) { let _$v; C["A"] = _$v = 0; if (typeof _$v != "string") C[_$v] = "A"; C["B"] = _$v = 5; if`,
			`C["D"] = _$v = _$v + 1; if (typeof _$v != "string") C[_$v] = "D"; })(C || (C = {}));`}},
		{"string enum over lines", "enum S {\n  A = 'a',\n  'b-c' = \"B\",\n}\nreturn S", []string{
			"var S; (function (S) { let _$v;\n S[\"A\"] = _$v = 'a'; if",
			"\n S['b-c'] = _$v = \"B\"; if (typeof _$v != \"string\") S[_$v] = 'b-c';\n})(S || (S = {}));\n"}},
		{"members computed from others", "enum E { A = 1 << 2, B = A | 1, C = E.B * 2, D = f() as number }\nreturn E", []string{
			`E["B"] = _$v = E.A | 1;`, `E["C"] = _$v = E.B * 2;`, `E["D"] = _$v = f() ;`}},
		{"an enum whose } touches its last member", "enum E {A, B}\nreturn E", []string{
			`E["B"] = _$v = _$v + 1; if (typeof _$v != "string") E[_$v] = "B";})(E || (E = {}));`}},
		{"an enum whose } touches its last member's value", "enum E {A = 1}\nreturn E", []string{
			`E["A"] = _$v = 1; if (typeof _$v != "string") E[_$v] = "A";})(E || (E = {}));`}},
		{"const enum", "const enum K { A = 'a' }\nreturn K.A", []string{`var K; (function (K) { let _$v; K["A"] = _$v = 'a';`}},
		{"exported enum", "export enum K { A }\nreturn K.A", []string{`var K; (function (K) {`}},
		{"declare enum is erased", "declare enum D { A }\nreturn 1", []string{";"}},
		// It left `E { A }` behind, a syntax error, before.
		{"declare const enum is erased", "declare const enum E { A }\nreturn 1", []string{"; \nreturn 1"}},
		{"a namespace's declared const enum and its const enum", "namespace N { export declare const enum G { C } export const enum H { D } }\nreturn N", []string{
			"var N; (function (N) { ; let H; (function (H) { let _$v; H[\"D\"] = _$v = 0;", "})(H = N.H || (N.H = {})); })(N || (N = {}));"}},
		{"an enum in a block", "if (x) { enum E { A } }\nreturn 1", []string{`if (x) { let E; (function (E) {`}},
		{"an enum merged with an enum", "enum E { A }\nenum E { B = 2 }\nreturn E", []string{"\n;(function (E) { let _$v; E[\"B\"] = _$v = 2;"}},
		{"an enum merged with a namespace", "enum E { A }\nnamespace E { export function f() { return E.A } }\nreturn E.f()", []string{
			"\n;(function (E) { function f() { return E.A } E.f = f; })(E || (E = {}));"}},
		{"enum members named __proto__ and constructor", "enum P { __proto__ = 1, constructor }\nreturn P", []string{
			`P["__proto__"] = _$v = 1; if (typeof _$v != "string") P[_$v] = "__proto__"; P["constructor"] = _$v = _$v + 1;`}},
		{"namespace", "namespace N {\n  export const a: number = 1, b = 2;\n  const hidden = 3;\n  export function f(): number { return a + hidden }\n  export class K {}\n  export type T = 1;\n}\nreturn N", []string{
			"var N; (function (N) {\n const a = N.a = 1, b = N.b = 2;\n const hidden = 3;\n function f() { return a + hidden } N.f = f;\n class K {} N.K = K;\n ; \n})(N || (N = {}));"}},
		{"dotted namespace and nested exports", "namespace A.B { export namespace C { export const x = 1 } export enum E { X } }\nreturn A", []string{
			"var A; (function (A) { let B; (function (B) { let C; (function (C) { const x = C.x = 1 })(C = B.C || (B.C = {}));",
			"let E; (function (E) {", "})(E = B.E || (B.E = {})); })(B = A.B || (A.B = {})); })(A || (A = {}));"}},
		{"module with values", "module M { export const a = 1 }\nreturn M.a", []string{"var M; (function (M) { const a = M.a = 1 })(M || (M = {}));"}},
		{"namespace merged with a function", "function f() {}\nnamespace f { export const x = 1 }\nreturn f.x", []string{"\n;(function (f) {"}},
		{"parameter properties", "class P {\n  constructor(private x: number, public readonly y = 2) {}\n}\nreturn new P(1)", []string{
			"class P { x; y;\n constructor( x , y = 2) { this.x = x; this.y = y;}\n}"}},
		{"parameter properties after super", "class Q extends R {\n  constructor(protected x: number) {\n    super(x)\n    go()\n  }\n}\nreturn new Q(1)", []string{
			"class Q extends R { x;", "super(x); this.x = x;\n go()"}},
		{"a constructor named as a string", "class P { 'constructor'(public x) {} }\nreturn new P(1)", []string{"class P { x; 'constructor'( x) { this.x = x;}"}},
		{"using", "{\n  using a = f(), b: R = g();\n  go();\n}\nreturn 1", []string{
			"const a = f(); const _$u0m = a == null ? void 0 : a[Symbol.dispose]; if (a != null && typeof _$u0m != \"function\") throw new TypeError(\"using: a has no [Symbol.dispose]() method\"); let _$u0x; try { const b = g();",
			"go();\n} catch (_$e) { _$u1x = [_$e] } finally { try { _$u1m?.call(b) }",
			"if (_$u1x) throw _$u1x[0] }} catch (_$e) { _$u0x = [_$e] }"}},
		{"await using at the top level", "await using c = open()\nreturn c.read()", []string{
			"const c = open(); const _$u0m = c == null ? void 0 : c[Symbol.asyncDispose] ?? c[Symbol.dispose];",
			"return c.read()} catch (_$e) { _$u0x = [_$e] } finally { try { await _$u0m?.call(c) }"}},
		// The declaration's end touches the block's: its try opens before
		// the tails close it (the tail came first, a syntax error).
		{"using whose block ends right after it", "{using a = f()}\nusing b = g()\n// the end", []string{
			`{const a = f(); const _$u0m = a == null`, `let _$u0x; try {} catch (_$e) { _$u0x = [_$e] }`,
			"\nconst b = g(); const _$u1m = b == null", `let _$u1x; try {} catch (_$e) { _$u1x = [_$e] }`}},
		// The program's own _$ names: the rewrites' names start with
		// another prefix (scratch). Before, enum _$v did not compile
		// ("invalid redefinition of parameter name"), an outer _$v read in
		// a member's value was the rewrite's own (undefined), and a
		// program's _$u0 was declared again by using.
		{"an enum named _$v", "enum _$v { A, B = A + 1 }\nreturn _$v.B", []string{
			`var _$v; (function (_$v) { let _$$v; _$v["A"] = _$$v = 0;`, `_$v["B"] = _$$v = _$v.A + 1;`}},
		{"an outer _$v read by a member", "const _$v = 10\nenum E { A = _$v }\nreturn E.A", []string{
			`(function (E) { let _$$v; E["A"] = _$$v = _$v;`}},
		{"a program's _$u0 and _$e beside using", "const _$u0m = 1, _$e = 2\nfunction g() { using a = f() }\nreturn _$u0m", []string{
			"const _$$u0m = a == null", "} catch (_$$e) { _$$u0x = [_$$e] }"}},
		// A block on the line after a declaration without ';' was read as
		// an object literal: its using and enum stayed as written.
		{"using in a block after a line without ';'", "const x = 2\n{ using a = f() }\nreturn x", []string{
			"const x = 2\n{ const a = f(); const _$u0m = a == null"}},
		{"an enum in a block after a line without ';'", "let y = g()\n{ enum E { A } }\nreturn y", []string{
			"let y = g()\n{ let E; (function (E) { let _$v;"}},
		{"using and await using as names", "const using = 1, await_ = using\nreturn using", []string{"const using = 1, await_ = using"}},
	} {
		got, err := Strip(tc.in)
		if err != nil {
			t.Errorf("%s: %d:%d %s", tc.name, err.Line, err.Column, err.Message)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(collapse(got), w) {
				t.Errorf("%s: %q\nhas no %q", tc.name, collapse(got), w)
			}
		}
		in, out := strings.Split(tc.in, "\n"), strings.Split(got, "\n")
		if len(out) != len(in) || out[len(out)-1] != in[len(in)-1] && !strings.HasPrefix(out[len(out)-1], in[len(in)-1]) {
			t.Errorf("%s: lines moved: %q", tc.name, got)
		}
		if r := api.Transform("(async function () {\n"+got+"\n})", api.TransformOptions{Loader: api.LoaderJS}); len(r.Errors) > 0 {
			t.Errorf("%s: does not parse: %s\n%s", tc.name, r.Errors[0].Text, got)
		}
	}
}

// TestRewrittenAtScale: an enum of 10,000 members and namespaces nested
// deep are rewritten in time linear in their size, on their lines.
func TestRewrittenAtScale(t *testing.T) {
	var b strings.Builder
	b.WriteString("enum Big {\n")
	for i := range 10000 {
		fmt.Fprintf(&b, "  M%d,\n", i)
	}
	b.WriteString("}\nreturn Big.M9999")
	got, err := Strip(b.String())
	if err != nil || !strings.Contains(got, `Big["M9999"] = _$v = _$v + 1;`) || strings.Count(got, "\n") != strings.Count(b.String(), "\n") {
		t.Fatalf("10,000 members: %v %q", err, got[max(0, len(got)-200):])
	}
	var deep strings.Builder
	for i := range 60 {
		fmt.Fprintf(&deep, "namespace N%d { export ", i)
	}
	deep.WriteString("const x = 1" + strings.Repeat(" }", 60) + "\nreturn N0")
	if got, err = Strip(deep.String()); err != nil || strings.Count(got, "(function (N") != 60 || !strings.Contains(got, "const x = N59.x = 1 })(N59 = N58.N59 || (N58.N59 = {}));") {
		t.Fatalf("60 nested namespaces: %v %q", err, got)
	}
}
