package tsstrip

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf16"
)

// collapse folds runs of spaces, so cases are written without counting them.
func collapse(s string) string {
	for strings.Contains(s, "  ") {
		s = strings.ReplaceAll(s, "  ", " ")
	}
	return s
}

// lineWidths lists each line's width in UTF-16 units, as QuickJS counts
// columns: stripping must keep every one.
func lineWidths(s string) string {
	var w []int
	for _, l := range strings.Split(s, "\n") {
		w = append(w, len(utf16.Encode([]rune(l))))
	}
	return fmt.Sprint(w)
}

// Each case gives TypeScript and the JavaScript it must become: the same
// text with the types overwritten by spaces (';' where a statement was).
func TestStrip(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain JavaScript is unchanged", "const a = b < c && d > e ? f(x) : g;\nreturn a", "const a = b < c && d > e ? f(x) : g;\nreturn a"},
		{"variable annotation", "const x: number = 1", "const x         = 1"},
		{"destructuring annotation", "const { a, b }: Foo = o", "const { a, b }      = o"},
		{"several declarators", "let a: string, b: Array<number> = []", "let a        , b                = []"},
		{"definite assignment", "let x!: number;", "let x         ;"},
		{"annotation then a line starting with '['", "let x: number\n[1].forEach(f)", "let x       ;\n[1].forEach(f)"},
		{"as", "const o = JSON.parse(s) as Order[]", "const o = JSON.parse(s)           "},
		{"as const and a chain of as", "const a = [1] as const; const b = x as unknown as T", "const a = [1]         ; const b = x                 "},
		{"as then a line starting with '('", "const a = b as T\n(c)", "const a = b     ;\n(c)"},
		{"satisfies", "const c = { a: 1 } satisfies Record<string, number>", "const c = { a: 1 }                                 "},
		{"non-null", "const v = m.get(k)!.x + a!", "const v = m.get(k) .x + a "},
		{"not-equal is not non-null", "if (a !== b && c != d && !e) f()", "if (a !== b && c != d && !e) f()"},
		{"function parameters and return type", "function f(a: string, b?: number, ...r: T[]): Promise<void> {}", "function f(a        , b         , ...r     )                {}"},
		{"type parameters", "function id<T extends object = {}>(x: T): T { return x }", "function id                      (x   )    { return x }"},
		{"arrow with types", "const f = async (x: number, y = 2): Promise<number> => x + y", "const f = async (x        , y = 2)                  => x + y"},
		{"arrow with a return type over several lines", "const f = (\n  a: number,\n):\n  | string\n  | undefined => {\n  return a\n}", "const f = (\n  a        ,\n \n          \n             ) => {\n  return a\n}"},
		{"generic arrow", "const f = <T,>(x: T) => x", "const f =     (x   ) => x"},
		{"call type arguments", "const m = new Map<string, number[]>(); f<T>(x)", "const m = new Map                   (); f   (x)"},
		{"comparison is not type arguments", "if (a < b && c > (d)) {}", "if (a < b && c > (d)) {}"},
		{"for loop comparison", "for (let i: number = 0; i < n; i++) {}", "for (let i         = 0; i < n; i++) {}"},
		{"catch binding", "try {} catch (e: unknown) { (e as Error).message }", "try {} catch (e         ) { (e         ).message }"},
		{"callback parameters", "xs.map((x: Item, i: number): string => x.name)", "xs.map((x      , i        )         => x.name)"},
		{"ternary with arrow bodies", "const f = ok ? (x) => x : (y) => y", "const f = ok ? (x) => x : (y) => y"},
		{"ternary with typed arrows", "const f = ok ? (x: number): number => x : (y: number): number => y", "const f = ok ? (x        )         => x : (y        )         => y"},
		{"ternary whose else branch is an arrow", "const f = ok ? (b) : c => d", "const f = ok ? (b) : c => d"},
		{"as const satisfies", "const c = { a: 1 } as const satisfies { a: number }\n[c].length", "const c = { a: 1 }                                ;\n[c].length"},
		{"object method", "const o = { f(a: number): number { return a }, g: 1 }", "const o = { f(a        )         { return a }, g: 1 }"},
		{"object values with colons", "const o = { a: b ? c : d, e: (f) }", "const o = { a: b ? c : d, e: (f) }"},
		{"interface", "interface A extends B<C> { x: number; f(): void }\nreturn 1", ";                                                \nreturn 1"},
		{"type alias", "type S = 'a' | 'b';\ntype F<T> = (x: T) => void\nreturn 1", ";                  \n;                         \nreturn 1"},
		{"multi-line type alias", "type O = {\n  a: number\n}\nreturn 1", ";         \n           \n \nreturn 1"},
		{"declare", "declare const x: number;\ndeclare function f(a: string): void\nreturn 1", ";                       \n;                                  \nreturn 1"},
		// Not TypeScript: left for QuickJS to report, not erased as a declaration.
		{"declare whose type is not a type", "declare const x: ;\nreturn 1", "declare const x: ;\nreturn 1"},
		{"declare whose return type is not a type", "declare function f(): ;\nreturn 1", "declare function f(): ;\nreturn 1"},
		{"import type", "import type { A } from './a';\nreturn 1", ";                            \nreturn 1"},
		{"import of type specifiers only", "import { type A, type B as C } from './a';\nreturn 1", ";                                         \nreturn 1"},
		{"import of a type named as", "import { type as as T } from \"a\"\nreturn 1", ";                              \nreturn 1"},
		{"export of type specifiers only", "export { type A, type B } from './a'\nexport { type C };\nreturn 1", ";                                   \n;                 \nreturn 1"},
		// The sandbox's globals imported as a module's: nothing to import.
		{"import of tools", "import { tools } from \"tools\";\nreturn 1", ";                              \nreturn 1"},
		{"import of every global", "import { tools, tool_search, tool_call, } from './sandbox'\nreturn 1", ";                                                         \nreturn 1"},
		{"import of tools as a namespace", "import * as tools from \"@tools\"\nreturn 1", ";                               \nreturn 1"},
		{"default import of tools", "import tools from 'tools'\nreturn 1", ";                        \nreturn 1"},
		{"import of tools beside a type", "import { tools, type Tools } from \"tools\"\nreturn 1", ";                                         \nreturn 1"},
		// TypeScript's module marker, which a script with a top-level await
		// needs under tsc ("add an empty 'export {}'"): it exports nothing.
		{"an empty export", "export {};\nconst a = await f()\nreturn a\nexport {}", ";         \nconst a = await f()\nreturn a\n;        "},
		{"exported type-only namespace", "export namespace N { export type A = 1 }\nreturn 1", "       ;                                \nreturn 1"},
		{"nested type-only namespaces", "namespace N {\n  export namespace M { export interface I { a: 1 } }\n  export type T = M.I\n}\nreturn 1", ";          \n                                               \n                     \n \nreturn 1"},
		{"type-only namespace", "namespace N { export type A = 1 }\nreturn 1", ";                                \nreturn 1"},
		{"function overloads", "function f(a: string): string;\nfunction f(a: any) { return a }", ";                             \nfunction f(a     ) { return a }"},
		{"class", "class A<T> extends B<T> implements C, D<T> {\n  private readonly x: number = 1;\n  declare y: string;\n  z?: T;\n  [k: string]: any;\n  static s = 1\n  m<U>(u: U): U { return u }\n}",
			"class A    extends B                        {\n                   x         = 1;\n  ;                 \n  z    ;\n  ;                \n  static s = 1\n  m   (u   )    { return u }\n}"},
		{"abstract class", "abstract class A { abstract f(): void; g() {} }", "         class A { ;                    g() {} }"},
		{"conditional and mapped types", "type T<X> = X extends string ? { [K in keyof X]: X[K] } : never\nreturn 1", ";                                                              \nreturn 1"},
		{"type predicate", "function isS(x: unknown): x is string { return typeof x === 'string' }", "function isS(x         )              { return typeof x === 'string' }"},
		{"this parameter", "function f(this: Window, a: number) {}", "function f(              a        ) {}"},
		{"template literal with types inside", "const s = `${(x as any).y}`", "const s = `${(x       ).y}`"},
		{"type assertion", "const a = <any>b", "const a =      b"},
		{"a const assertion in angle brackets", "const a = <const>['x', 'y']; return <const>{ k: a }", "const a =        ['x', 'y']; return        { k: a }"},
		{"a const type parameter is not an assertion", "const f = <const T,>(x: T) => x", "const f =          (x   ) => x"},
		{"keyof typeof", "const k = key as keyof typeof obj", "const k = key                    "},
		{"regex and strings untouched", "const r = /a: b/; const s = 'x as y'", "const r = /a: b/; const s = 'x as y'"},
		{"property named like keywords", "const t = o.type; o.as = 1; const i = { interface: 1, type: 2 }", "const t = o.type; o.as = 1; const i = { interface: 1, type: 2 }"},
		{"comparison inside a conditional is not type arguments", "s<a?(a=s,o=f(t)):c>d&&(x)", "s<a?(a=s,o=f(t)):c>d&&(x)"},
		{"'!' after a loop head is negation", "for (const k of ks) !seen.has(k) && out.push(k)", "for (const k of ks) !seen.has(k) && out.push(k)"},
		{"keywords as object keys", "const o = { const: 'c', required: true, enum: [1], type: 2 }", "const o = { const: 'c', required: true, enum: [1], type: 2 }"},
		{"a method named catch", "return a ? p.catch((e) => 1) : r", "return a ? p.catch((e) => 1) : r"},
		{"a variable named type", "let type = 1\ntype = 2\nreturn type", "let type = 1\ntype = 2\nreturn type"},
		{"non-ASCII inside a blanked type", "const s: 'é😀' = 'é😀'", "const s         = 'é😀'"},
	} {
		got, err := Strip(tc.in)
		if err != nil {
			t.Errorf("%s: error %v", tc.name, err)
			continue
		}
		if collapse(got) != collapse(tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
		if a, b := lineWidths(got), lineWidths(tc.in); a != b {
			t.Errorf("%s: positions moved: line widths %s, want %s (%q)", tc.name, a, b, got)
		}
	}
}

func TestStripErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in, msg string
		line, col     int
	}{
		{"import of a type and a value", "import { type A, b } from 'b'\nreturn b", "import is not available", 1, 1},
		{"import of a value named type", "import { type } from 'b'\nreturn 1", "import is not available", 1, 1},
		{"import of type renamed", "import { type as T } from 'b'\nreturn 1", "import is not available", 1, 1},
		{"default import beside a type", "import a, { type B } from 'b'\nreturn a", "import is not available", 1, 1},
		{"export of a type and a value", "export { type A, b }", "export is not available", 1, 1},
		{"an empty export from a module", "export {} from './a'\nreturn 1", "export is not available", 1, 1},
		{"an empty import from a module", "import {} from './a'\nreturn 1", "import is not available", 1, 1},
		{"import of tools beside a value", "import { tools, sumBy } from 'lodash'\nreturn 1", "import is not available", 1, 1},
		{"import of tools renamed", "import { tools as t } from 'tools'\nreturn 1", "import is not available", 1, 1},
		{"default import of tools beside named ones", "import tools, { x } from 'tools'\nreturn 1", "import is not available", 1, 1},
		{"import of tools without a module", "import { tools }\nreturn 1", "import is not available", 1, 1},
		{"import of nothing", "import {} from 'tools'\nreturn 1", "import is not available", 1, 1},
		{"import of a value named as", "import { as } from 'tools'\nreturn 1", "import is not available", 1, 1},
		{"import of two globals without braces", "import tools, tool_call from 'tools'\nreturn 1", "import is not available", 1, 1},
		{"import of tools from no string", "import tools from tools\nreturn 1", "import is not available", 1, 1},
		{"export default of an object", "export default {\n  async run() { return 1 }\n}", "export default { ... } is not available: the code is the body of a function, not a module; send the body of the object's method as the program, and return the result", 1, 1},
		// TypeScript that is rewritten (values.go, using.go) where tsc
		// itself refuses it, or where QuickJS could not run it.
		{"a parameter property outside a constructor", "class A {\n  m(private x: number) {}\n}", "parameter property (private x) must be a name among a constructor's parameters", 2, 5},
		{"a parameter property of a pattern", "class A { constructor(readonly { a }: T) {} }", "parameter property (readonly {) must be a name", 1, 23},
		{"a parameter property of a function", "function f(public x) {}", "parameter property (public x) must be a name", 1, 12},
		{"a derived class's parameter properties without super at the top", "class A extends B {\n  constructor(private x: number) { if (x) super() }\n}", "must call super(...) at the top level of its body", 2, 34},
		{"a namespace's exported pattern", "namespace N { export const { a } = o }", "a namespace's export must declare plain names", 1, 28},
		{"a namespace's export default", "namespace N { export const a = 1; export default a }", "this export is not supported in a namespace", 1, 35},
		{"a namespace in one of its name", "namespace N {\n  export namespace N { export const a = 1 }\n}", "a namespace or enum named as the namespace it is in (N) is not supported", 2, 10},
		{"a module string with values", "module 'm' { export const a = 1 }", "module \"...\" with values is not supported", 1, 1},
		{"an enum member of a computed name", "enum E { [k] = 1 }", "an enum member's name must be a name or a string", 1, 10},
		{"an enum member of a number", "enum E { 1 = 1 }", "an enum member's name must be a name or a string", 1, 10},
		{"an enum of two members on one line without a comma", "enum E { A = 1\nB }", "expected ',' or '}' after an enum member", 2, 1},
		{"using of a pattern", "{ using a = f(), { b } = g() }", "using declares a name", 1, 18},
		{"using in a case", "switch (k) {\n  case 1:\n    using a = f(); break\n}", "using is not supported directly in a switch's case", 3, 5},
		{"using without a value", "using a: T;", "using needs a value", 1, 11},
		{"import", "import { a } from 'b'\nreturn a", "import is not available", 1, 1},
		// Python's import, a program's first line: the language named.
		{"a Python import", "import json\n\ndef main():\n    pass", "import json is Python, not JavaScript: executeCode runs JavaScript or TypeScript", 1, 1},
		{"a Python import of two modules", "import os, sys\nprint(1)", "import os is Python", 1, 1},
		{"a Python import renamed", "import numpy as np", "import numpy is Python", 1, 1},
		{"TypeScript's import = require", "import fs = require('fs')\nreturn 1", "import is not available", 1, 1},
		{"import of tools beside a value named type", "import { tools, type } from 'tools'\nreturn 1", "import is not available", 1, 1},
		{"dynamic import", "const m = await import('x')", "import() is not available", 1, 17},
		{"export", "export const a = 1", "export is not available", 1, 1},
		{"export default of an anonymous function before more code", "export default async function () { return 1 }\nconst b = 2", "export is not available", 1, 1},
		{"export default of an anonymous function after code", "const b = 2\nexport default async function () { return b }", "export is not available", 2, 1},
		{"export default of an anonymous function with parameters", "export default async function (input) { return 1 }", "export is not available", 1, 1},
		{"export default of an anonymous function after a type", "interface A { a: number }\nexport default function () { return 1 }", "export is not available", 2, 1},
		{"export default of a name", "async function main() { return 1 }\nexport default main", "export is not available", 2, 1},
		{"export default of a class", "export default class A {}", "export is not available", 1, 1},
	} {
		_, err := Strip(tc.in)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if !strings.Contains(err.Message, tc.msg) || err.Line != tc.line || err.Column != tc.col {
			t.Errorf("%s: got %d:%d %q, want %d:%d ~%q", tc.name, err.Line, err.Column, err.Message, tc.line, tc.col, tc.msg)
		}
	}
}

func TestCheckBody(t *testing.T) {
	for _, tc := range []struct {
		in        string
		line, col int
	}{
		{"return 1", 0, 0},
		{"return 1\n})(); (async () => {", 2, 1},
		{"const s = '}' + `${'}'}` + /}/.source; // }\nreturn s", 0, 0},
		{"if (a) { b() } }", 1, 16},
		{"f(a))", 1, 5},
		{"return 'é' ]", 1, 12},
		{"return (1 +", 0, 0}, // unclosed is the compiler's to report
	} {
		err := CheckBody(tc.in)
		line, col := 0, 0
		if err != nil {
			line, col = err.Line, err.Column
		}
		if line != tc.line || col != tc.col {
			t.Errorf("CheckBody(%q) at %d:%d, want %d:%d", tc.in, line, col, tc.line, tc.col)
		}
	}
}

func TestProgram(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"bare body", "const a = 1\nreturn a", "const a = 1\nreturn a"},
		{"fence with prose", "Here is the code:\n```ts\nconst a: number = 1\nreturn a\n```\nIt returns 1.", "\n\nconst a         = 1\nreturn a\n"},
		{"fence without language", "```\nreturn 1\n```", "\nreturn 1\n"},
		{"tilde fence", "~~~javascript\nreturn 1\n~~~", "\nreturn 1\n"},
		{"node fence (GitHub's alias of JavaScript)", "```node\nreturn 1\n```", "\nreturn 1\n"},
		{"mts fence", "Here:\n```mts\nconst a: number = 1\nreturn a\n```", "\n\nconst a         = 1\nreturn a\n"},
		{"cjs fence", "```cjs\nreturn 1\n```", "\nreturn 1\n"},
		// The closing fence at the end of the last line: as code, it
		// opened a template literal ("unexpected end of string").
		{"closing fence at the end of the last line", "```javascript\nconst a = 1\nreturn a;```\nDone.", "\nconst a = 1\nreturn a;\n"},
		{"closing tilde fence at the end of the last line", "~~~js\nreturn 1 ~~~", "\nreturn 1 \n"},
		{"a template literal's end before the last line's fence is code", "```js\nreturn `a```", "\nreturn `a```"},
		// A closing fence alone, its opening one left out: the program was
		// the empty block after it.
		{"a closing fence after code, no opening one", "const a = 1\nreturn a;\n```\n", "const a = 1\nreturn a;\n"},
		{"a closing tilde fence after code, no opening one", "return 1\n~~~", "return 1\n"},
		{"prose then a bare fence and a block is the block", "Here:\n```\nreturn 1\n```", "\n\nreturn 1\n"},
		{"a comment ending in a fence, in a block never closed, is code", "```js\n// wrap it in ```\nreturn 1", "\n// wrap it in ```\nreturn 1"},
		{"a string ending in a fence, in a block never closed, is code", "```js\nconst f = '```'\nreturn f", "\nconst f = '```'\nreturn f"},
		{"a template literal then the fence", "```js\nreturn ``;```", "\nreturn ``;\n"},
		// A script's first line may be a hashbang; the program is a
		// function's body, where QuickJS refuses one ("invalid first
		// character of private name").
		{"a hashbang line", "#!/usr/bin/env node\nreturn 1", "                   \nreturn 1"},
		{"a language with a file name after a colon", "```typescript:run.ts\nreturn 1\n```", "\nreturn 1\n"},
		{"a chat template's end of turn after the closing fence", "```js\nreturn 1\n```<|im_end|>", "\nreturn 1\n"},
		// Session 46: an end of sequence token at the program's end (a
		// SYNTAX error at its '<').
		{"</s> after the program", "return 1;</s>", "return 1;"},
		{"</s> on a line of its own", "return 1;\n</s>\n", "return 1;\n"},
		{"gpt-oss's <|return|> after the program", "return 1;<|return|>\n", "return 1;"},
		{"DeepSeek's end of sentence after the program", "return 1;\n<｜end▁of▁sentence｜>", "return 1;\n"},
		{"</s> after a comment is the comment's", "return 1; // </s>", "return 1; // "},
		{"a token that is not the only one stays", "<|a|>\nreturn 1;<|return|>", "     \nreturn 1;<|return|>"},
		{"a token with a space in it stays", "return 1;<| return |>", "return 1;<| return |>"},
		{"a fenced hashbang line", "```js\n#!/usr/bin/env node\nreturn 1\n```", "\n                   \nreturn 1\n"},
		{"a hashbang after Windows line ends", "\r\n#!/usr/bin/env node\r\nreturn 1", "\r\n                   \r\nreturn 1"},
		{"python fence is not code", "```python\nprint(1)\n```\n```js\nreturn 1\n```", "\n\n\n\nreturn 1\n"},
		{"fence inside a template literal is code", "const md = `\n```js\nx\n```\n`\nreturn md", "const md = `\n```js\nx\n```\n`\nreturn md"},
		{"async arrow", "async () => {\n  const x = await f()\n  return x\n}", "             \n  const x = await f()\n  return x\n "},
		{"async arrow with a return type", "async (): Promise<number> => {\n  return 1\n};", "                              \n  return 1\n  "},
		{"async arrow with an expression body", "async () => f(1)", "return      f(1)"},
		{"called arrow", "(async () => {\n  return 1\n})();", "              \n  return 1\n     "},
		{"called arrow after void", "void (async () => {\n  return 1\n})();", "                   \n  return 1\n     "},
		{"called arrow with an expression body after void", "void (async () => f(1))()", "return            f(1)   "},
		{"void of another expression stays", "void (f)()", "void (f)()"},
		// Session 42: ! and void before a called function without parentheses.
		{"called function after !", "!async function () {\n  return 1\n}();", "                    \n  return 1\n    "},
		{"called function after void", "void function () {\n  return 1\n}()", "                  \n  return 1\n   "},
		{"called arrow after !", "!(async () => {\n  return 1\n})();", "               \n  return 1\n     "},
		{"! of a bound function called stays", "!function () { return 1 }.bind(x)()", "!function () { return 1 }.bind(x)()"},
		{"a called function in parentheses with more stays", "(function () { return 1 }.call)()", "(function () { return 1 }.call)()"},
		{"async main", "async function main() {\n  return 1\n}", "                       \n  return 1\n "},
		{"async main then a call", "async function main() {\n  return 1\n}\nawait main();", "                       \n  return 1\n \n             "},
		{"main followed by other code stays", "async function main() { return 1 }\nconst x = await main()\nreturn x", "async function main() { return 1 }\nconst x = await main()\nreturn x"},
		{"a plain function and its call stay", "function f() { return f() + 1 }\nf()", "function f() { return f() + 1 }\nf()"},
		// A plain (not async) function that is the whole program is its
		// main too: as a script its value would be the function.
		{"arrow", "() => {\n  const x = f()\n  return x\n}", "       \n  const x = f()\n  return x\n "},
		{"arrow with a return type", "(): number => {\n  return 1\n};", "               \n  return 1\n  "},
		{"arrow with an expression body", "() => f(1)", "      f(1)"},
		{"arrow with an expression body on the next line", "() =>\n  ({ a: 1 });", "     \n  ({ a: 1 });"},
		{"arrow with an object body", "() => ({ a: await f() })", "      ({ a: await f() })"},
		{"a function", "function main() {\n  return 1\n}", "                 \n  return 1\n "},
		{"a function of another name", "function run() { return 1 }", "                 return 1  "},
		{"an anonymous function", "function () { return 1 }", "              return 1  "},
		{"a plain function and a call of another stays", "function main() { return 1 }\nmain()", "function main() { return 1 }\nmain()"},
		{"a plain arrow with parameters stays", "(x) => x + 1", "(x) => x + 1"},
		{"two plain arrows stay", "() => 1, () => 2", "() => 1, () => 2"},
		{"an arrow of a function stays", "() => function () {}", "() => function () {}"},
		{"an arrow of a class stays", "() => class {}", "() => class {}"},
		{"an assigned arrow is called (loneConst)", "const f = () => 1", "const f = () => 1\n;return await f();"},
		{"a recursive main stays", "async function main(n) { return n ? main(n - 1) : 0 }\nawait main(3)", "async function main(n) { return n ? main(n - 1) : 0 }\nawait main(3)"},
		{"a main that names itself keeps its name and is called", "async function main() { return main.name }", "async function main() { return main.name }" + callMain},
		{"arrow with parameters stays", "async (x) => { return x }", "async (x) => { return x }"},
		{"two arrows stay", "async () => 1, async () => 2", "async () => 1, async () => 2"},
		// A main declared beside other code and never called is called.
		{"helpers and an uncalled main", "async function helper() { return 1 }\nasync function main() {\n  return await helper()\n}", "async function helper() { return 1 }\nasync function main() {\n  return await helper()\n}" + callMain},
		{"a plain uncalled main", "function sum(a, b) { return a + b }\nfunction main() { return sum(1, 2) }", "function sum(a, b) { return a + b }\nfunction main() { return sum(1, 2) }" + callMain},
		{"data, then an uncalled main", "const data = [1]\nasync function main() { return data.length } // done", "const data = [1]\nasync function main() { return data.length } // done" + callMain},
		{"TypeScript helpers and an uncalled main", "type O = { id: string }\nasync function main(): Promise<number> { return 1 }", ";                      \nasync function main()                  { return 1 }" + callMain},
		{"a main with other parameters stays", "const a = 1\nasync function main(opts) { return 1 }", "const a = 1\nasync function main(opts) { return 1 }"},
		{"a main called by then() stays", "const a = 1\nasync function main() { return 1 }\nmain().then(console.log)", "const a = 1\nasync function main() { return 1 }\nmain().then(console.log)"},
		{"a main beside a top-level return stays", "async function main() { return 1 }\nconst x = 2\nreturn x", "async function main() { return 1 }\nconst x = 2\nreturn x"},
		{"a main inside a block stays", "{ async function main() { return 1 } }\n2", "{ async function main() { return 1 } }\n2"},
		{"a generator main stays", "const a = 1\nfunction* main() { yield 1 }", "const a = 1\nfunction* main() { yield 1 }"},
		{"a main named in a string is still called", "const s = 'main'\nasync function main() { return s }", "const s = 'main'\nasync function main() { return s }" + callMain},
		// A whole-program function of the global tools is unwrapped (its
		// body's tools are the global); beside other code it is called.
		{"a main of tools alone is unwrapped", "async function main(tools) {\n  return await tools.a.b({})\n}", "                            \n  return await tools.a.b({})\n "},
		{"a function of tools of another name alone is unwrapped", "async function run(tools) { return 1 }", "                            return 1  "},
		{"a main of { tools } alone is unwrapped", "async function main({ tools }) { return 1 }", "                                 return 1  "},
		{"a main of { tools } beside data is called with { tools }", "const n = 1\nasync function main({ tools }) { return n }", "const n = 1\nasync function main({ tools }) { return n }" + callOf("main", "{ tools }")},
		{"a typed main of { tools } beside data", "const n = 1\nasync function main({ tools }: { tools: any }) { return n }", "const n = 1\nasync function main({ tools }                ) { return n }" + callOf("main", "{ tools }")},
		{"an assigned arrow of tools is called with tools", "const run = async (tools) => (await tools.a.b({})).length", "const run = async (tools) => (await tools.a.b({})).length" + callOf("run", "tools")},
		{"an assigned arrow of { tools } is called with { tools }", "const run = async ({ tools }) => { return 1 }", "const run = async ({ tools }) => { return 1 }" + callOf("run", "{ tools }")},
		{"a main of tools and more stays", "const n = 1\nasync function main(tools, x) { return n }", "const n = 1\nasync function main(tools, x) { return n }"},
		{"a main of { tools, x } stays", "const n = 1\nasync function main({ tools, x }) { return n }", "const n = 1\nasync function main({ tools, x }) { return n }"},
		{"a typed main of tools beside helpers", "const n = 1\nasync function main(tools: any): Promise<number> { return n }", "const n = 1\nasync function main(tools     )                  { return n }" + callMainTools},
		{"a main of another parameter stays", "async function main(ctx) { return ctx }", "async function main(ctx) { return ctx }"},
		{"a main of tools and more stays", "async function main(tools, x) { return x }", "async function main(tools, x) { return x }"},
		{"a main that calls itself is called", "let n = 0\nasync function main() { if (++n < 3) return main(); return n }", "let n = 0\nasync function main() { if (++n < 3) return main(); return n }" + callMain},
		{"a main of tools that calls itself alone is called", "async function main(tools) {\n  try { return await tools.a.b({}) } catch { return main(tools) }\n}", "async function main(tools) {\n  try { return await tools.a.b({}) } catch { return main(tools) }\n}" + callMainTools},
		{"a main called by a nested function of its own is called", "const a = 1\nfunction main() { const again = () => main(); return a }", "const a = 1\nfunction main() { const again = () => main(); return a }" + callMain},
		{"a recursive main called at the end stays", "async function main() { return 1 || main() }\nmain()", "async function main() { return 1 || main() }\nmain()"},
		// The same for a main assigned a function (models write both forms).
		{"an uncalled const main arrow", "const main = async () => {\n  return 1\n};", "const main = async () => {\n  return 1\n};" + callMain},
		{"an uncalled let main arrow of tools beside helpers", "const n = 1\nlet main = async (tools) => { return n }", "const n = 1\nlet main = async (tools) => { return n }" + callMainTools},
		{"an uncalled typed main arrow", "const main = async (): Promise<number> => { return 1 }", "const main = async ()                  => { return 1 }" + callMain},
		{"an uncalled main arrow with an expression body", "var main = () => tools.a.b({})", "var main = () => tools.a.b({})" + callMain},
		{"an uncalled main function expression", "const main = async function () { return 1 }", "const main = async function () { return 1 }" + callMain},
		{"an uncalled named main function expression", "const main = async function main() { return 1 }", "const main = async function main() { return 1 }" + callMain},
		{"an uncalled main arrow that calls itself", "let n = 0\nconst main = async () => { if (++n < 3) return main(); return n }", "let n = 0\nconst main = async () => { if (++n < 3) return main(); return n }" + callMain},
		{"a called main arrow stays", "const main = async () => { return 1 }\nmain()", "const main = async () => { return 1 }\nmain()"},
		{"a main arrow with other parameters stays", "const main = async (x) => { return x }", "const main = async (x) => { return x }"},
		{"a main arrow of one bare parameter stays", "const main = x => x", "const main = x => x"},
		{"a main that is not a function stays", "const main = { a: 1 }\nconst b = 2", "const main = { a: 1 }\nconst b = 2"},
		{"a main generator expression stays", "const main = function* () { yield 1 }", "const main = function* () { yield 1 }"},
		{"a main assigned twice stays", "let main = async () => 1\nmain = async () => 2", "let main = async () => 1\nmain = async () => 2"},
		{"a main arrow inside a block stays", "{ const main = async () => 1 }\n2", "{ const main = async () => 1 }\n2"},
		{"a main arrow beside a top-level return stays", "const main = async () => 1\nreturn 2", "const main = async () => 1\nreturn 2"},
		// A program that is one function of another name assigned, as a lone
		// function declaration of any name is, runs: it was no result and
		// no word why.
		{"a lone const arrow of another name", "const run = async () => {\n  return 1\n};", "const run = async () => {\n  return 1\n};\n;return await run();"},
		{"a lone let function expression of another name", "let getOrders = function load() { return 1 }", "let getOrders = function load() { return 1 }\n;return await getOrders();"},
		{"a lone typed arrow of another name", "const run = async (): Promise<number> => { return 1 }", "const run = async ()                  => { return 1 }\n;return await run();"},
		{"a lone arrow of another name with parameters stays", "const run = async (x) => { return x }", "const run = async (x) => { return x }"},
		{"a lone arrow of another name with an expression body", "const run = async () => tools.a.b({})", "const run = async () => tools.a.b({})\n;return await run();"},
		{"a lone arrow's expression body over lines", "const run = async () =>\n  tools.a\n    .b({}) &&\n  1;", "const run = async () =>\n  tools.a\n    .b({}) &&\n  1;\n;return await run();"},
		{"a lone arrow's object body", "let get = () => ({ a: 1 })", "let get = () => ({ a: 1 })\n;return await get();"},
		{"a lone arrow's expression body then a statement stays", "const run = async () => 1\nfoo()", "const run = async () => 1\nfoo()"},
		{"a lone arrow's expression body then a declaration stays", "const run = async () => 1, b = 2", "const run = async () => 1, b = 2"},
		{"a lone arrow of another name and more stays", "const run = async () => { return 1 }\nconst b = 2", "const run = async () => { return 1 }\nconst b = 2"},
		{"a lone generator expression stays", "const gen = function* () { yield 1 }", "const gen = function* () { yield 1 }"},
		// A program written as a module's export is its function.
		{"export default async function main", "export default async function main() {\n  return 1\n}", "                                      \n  return 1\n "},
		{"export async function main beside helpers", "const a = 1\nexport async function main() { return a }", "const a = 1\n       async function main() { return a }" + callMain},
		{"export default async function, anonymous", "export default async function () {\n  return 1\n}", "                                  \n  return 1\n "},
		{"export default async function of tools, anonymous", "export default async function (tools) {\n  return 1\n}", "                                       \n  return 1\n "},
		{"export default async function of typed { tools }, anonymous", "export default async function ({ tools }: { tools: any }) { return 1 }", "                                                            return 1  "},
		{"export default function, anonymous, with a ';'", "export default function () { return 1 };", "                             return 1   "},
		{"export default function run", "export default function run() { return 1 }", "                                return 1  "},
		{"export const main arrow", "export const main = async () => {\n  return 1\n};", "       const main = async () => {\n  return 1\n};" + callMain},
		{"export let main function beside helpers", "const a = 1\nexport let main = async function () { return a }", "const a = 1\n       let main = async function () { return a }" + callMain},
		{"export default async arrow", "export default async () => {\n  return 1\n};", "                            \n  return 1\n  "},
		{"export default arrow", "export default () => f(1)", "                     f(1)"},
		{"export default of a parenthesized value", "export default ({ a: 1 })", "               ({ a: 1 })"},
		{"a recursive main called by a helper stays", "async function main() { return main }\nconst go = () => main()", "async function main() { return main }\nconst go = () => main()"},
	} {
		got, err := Program(tc.in)
		if err != nil {
			t.Errorf("%s: error %v", tc.name, err)
			continue
		}
		if got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// TestProgramOtherLanguage: a program that is only a fenced block of
// another language (a model that wrote Python, or sent data as ```json)
// is a SYNTAX error saying so, at its fence. It ran as JavaScript: the
// fence's backticks are template literals, so it failed with "not a
// function" or an unrelated syntax error. A JavaScript fence anywhere, or
// a fence inside a template literal, still wins.
// TestUnfenceManyTrailingFences: in a block no line closes, the lines
// that end with its marker (as code, closing no template literal) are
// weighed as its fence at most maxTrailingFences times: each weighing
// scans the code above it, so 200,000 such lines took hours (8,000 held a
// page 16 s). The program is the block, as when none is the fence.
func TestUnfenceManyTrailingFences(t *testing.T) {
	body := strings.Repeat("a``````\n", 200_000) + "return 1"
	got, err := Unfence("```js\n" + body)
	if err != nil || got != "\n"+body {
		t.Fatalf("Unfence: %v, %d bytes, want %d", err, len(got), len(body)+1)
	}
}

func TestProgramOtherLanguage(t *testing.T) {
	for _, tc := range []struct {
		name, in, msg string
		line          int
	}{
		{"python", "```python\nprint(1)\n```", "```python is not JavaScript", 1},
		{"json", "```json\n{\"a\": 1}\n```", "```json is not JavaScript", 1},
		{"prose, then bash", "Run this:\n\n~~~bash\nls\n~~~\nDone.", "~~~bash is not JavaScript", 3},
		{"python then js", "```python\nprint(1)\n```\n```js\nreturn 1\n```", "", 0},
		{"inside a template literal", "const md = `\n```python\nx\n```\n`\nreturn md", "", 0},
	} {
		_, err := Program(tc.in)
		switch {
		case tc.line == 0 && err != nil:
			t.Errorf("%s: error %v", tc.name, err)
		case tc.line != 0 && err == nil:
			t.Errorf("%s: no error", tc.name)
		case tc.line != 0 && (!strings.Contains(err.Message, tc.msg) || err.Line != tc.line || err.Column != 1):
			t.Errorf("%s: got %d:%d %q, want %d:1 ~%q", tc.name, err.Line, err.Column, err.Message, tc.line, tc.msg)
		}
	}
}

// TestPrepareBody: Body is set only when the prepared code surely returns
// outside any function and closes no bracket it did not open.
func TestPrepareBody(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		body     bool
	}{
		{"top-level return", "const a = 1\nreturn a", true},
		{"return first", "return 1+1", true},
		{"TypeScript body", "const x: number = 1\nreturn x", true},
		{"fenced body", "```ts\nconst x: number = 1\nreturn x\n```", true},
		{"unwrapped async arrow", "async () => {\n  return 1\n}", true},
		{"unwrapped expression arrow", "async () => f(1)", true},
		{"an expression", "1 + 1", false},
		{"return only in a function", "const f = () => { return 1 }\nf()", false},
		{"return only in a method", "const o = { get() { return 1 } }\no.get()", false},
		{"return in a block is left to the script attempt", "if (a) { return 1 }\n2", false},
		{"a property named return", "it.return(1)\nit?.return", false},
		{"return in a string, template or comment", "'return'; `return ${x}`; // return\nx", false},
		{"a closing bracket the code did not open", "return 1\n})(); (async () => {", false},
		{"unreadable code", "return 'unterminated", false},
		{"helpers and an uncalled main", "function h() { return 1 }\nasync function main() { return h() }", true},
	} {
		p, err := Prepare(tc.in)
		if err != nil {
			t.Errorf("%s: error %v", tc.name, err)
			continue
		}
		if p.Body != tc.body {
			t.Errorf("%s: Body = %v, want %v (code %q)", tc.name, p.Body, tc.body, p.Code)
		}
		if code, _ := Program(tc.in); code != p.Code {
			t.Errorf("%s: Prepare's code %q differs from Program's %q", tc.name, p.Code, code)
		}
	}
}

// TestPrepareLaterFence: a JavaScript block after the one that runs is
// reported by its line (the run warns); a bare fence after it (most often
// the output a model shows) and other languages are not.
func TestPrepareLaterFence(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		line     int
	}{
		{"one block", "Here:\n```js\nreturn 1\n```\nDone.", 0},
		{"two blocks", "First:\n```js\nconst a = 1\n```\nThen:\n```ts\nreturn a\n```", 6},
		{"a tilde block after a backtick block", "```javascript\nconst a = 1\n```\n~~~js\nreturn a\n~~~", 4},
		{"a later bare fence (output) is not code", "```js\nreturn 1\n```\nOutput:\n```\n1\n```", 0},
		{"a later block of another language", "```js\nreturn 1\n```\n```json\n{\"a\": 1}\n```", 0},
		{"no fence", "return 1", 0},
		{"a fence in a template is code", "const md = `\n```js\nx\n```\n```js\ny\n```\n`\nreturn md", 0},
	} {
		p, err := Prepare(tc.in)
		if err != nil {
			t.Errorf("%s: error %v", tc.name, err)
			continue
		}
		if p.LaterFenceLine != tc.line {
			t.Errorf("%s: LaterFenceLine = %d, want %d", tc.name, p.LaterFenceLine, tc.line)
		}
	}
}

// TestPrepareTypesBlockFirst: a first block of types only runs nothing: the
// next block is the program, at its own lines (it was the first block's
// nothing, with a warning that the next did not run).
func TestPrepareTypesBlockFirst(t *testing.T) {
	for _, tc := range []struct {
		name, in, code string
		line           int
	}{
		{"types, then the program", "Types:\n```ts\ninterface O { a: number }\n```\nCode:\n```ts\nconst o: O = f()\nreturn o.a\n```",
			"\n\n\n\n\n\nconst o    = f()\nreturn o.a\n", 0},
		{"types, the program, a block more", "```ts\ntype A = 1;\n```\n```js\nreturn 1\n```\n```js\nreturn 2\n```",
			"\n\n\n\nreturn 1\n", 7},
		{"types only, no program after", "```ts\ntype A = 1;\n```", "\n;          \n", 0},
		{"code, then code: the first runs", "```js\nconst a = 1;\n```\n```js\nreturn 2\n```", "\nconst a = 1;\n", 4},
	} {
		p, err := Prepare(tc.in)
		if err != nil {
			t.Errorf("%s: error %v", tc.name, err)
			continue
		}
		if p.Code != tc.code || p.LaterFenceLine != tc.line {
			t.Errorf("%s: got %q (later fence %d), want %q (%d)", tc.name, p.Code, p.LaterFenceLine, tc.code, tc.line)
		}
	}
}

// TestPrepareManyTypesBlocks: Prepare passes over at most maxTypesBlocks
// blocks of types only, each pass reading the whole text again (4,000
// blocks took 3 s, before the run's timeout starts; 50,000 never ended in
// a test's time). Past them the block it stopped at is the program, and
// the next block the one that did not run.
func TestPrepareManyTypesBlocks(t *testing.T) {
	const block = "```ts\ntype A = 1;\n```\n"
	for _, n := range []int{maxTypesBlocks, maxTypesBlocks + 1, 50_000} {
		p, err := Prepare(strings.Repeat(block, n) + "```ts\nreturn 1\n```\n")
		if err != nil {
			t.Fatalf("%d blocks: error %v", n, err)
		}
		ran := strings.TrimSpace(p.Code) == "return 1"
		if want := n <= maxTypesBlocks; ran != want || (p.LaterFenceLine > 0) == want {
			t.Errorf("%d blocks: got %q (later fence %d), want the last block to run: %v", n, strings.TrimSpace(p.Code), p.LaterFenceLine, want)
		}
	}
}

// TestPrepareUncalled: a function with parameters that is never called,
// where it is all the program would run, is named (the run warns that
// nothing of it ran); a program that runs something, or whose main is
// called for it, names none.
func TestPrepareUncalled(t *testing.T) {
	checkPrepared(t, "Uncalled", func(p Prepared) UnawaitedCall { return p.Uncalled }, []preparedCase[UnawaitedCall]{
		{"a main of one parameter alone", "async function main(input) {\n  return input\n}", UnawaitedCall{1, "main"}},
		{"a handler of another name alone", "\n\nasync function handler(event) { return 1 };", UnawaitedCall{3, "handler"}},
		{"a plain function of two parameters", "function solve(a, b) { return a + b }", UnawaitedCall{1, "solve"}},
		{"a main of a destructured parameter", "async function main({ input }) { return 1 }", UnawaitedCall{1, "main"}},
		{"an exported handler", "export default async function handler(params) { return 1 }", UnawaitedCall{1, "handler"}},
		{"a typed main beside data", "const S = 'open'\nasync function main(input: { s: string }): Promise<number> { return 1 }", UnawaitedCall{2, "main"}},
		{"a const main arrow of a parameter beside data", "const S = 1\nconst main = async (input) => { return S }", UnawaitedCall{2, "main"}},
		{"a function of tools and more of another name", "async function run(tools, opts) { return 1 }", UnawaitedCall{1, "run"}},
		{"a const arrow of a parameter alone", "\nconst run = async (input) => {\n  return input\n}", UnawaitedCall{2, "run"}},
		{"a const main arrow of a parameter alone", "const main = async (input) => {\n  return input\n};", UnawaitedCall{1, "main"}},
		{"a let function expression of a parameter alone", "let handler = async function (event) { return 1 }", UnawaitedCall{1, "handler"}},
		{"a const arrow of a bare parameter, an expression body", "const pick = o => o.id", UnawaitedCall{1, "pick"}},
		{"a typed const arrow of two parameters", "const add = (a: number, b: number): number => a + b;", UnawaitedCall{1, "add"}},
		{"a const arrow of a parameter and a call", "const run = (x) => x\nrun(1)", UnawaitedCall{}},
		{"a const arrow of a parameter beside a declaration", "const run = (x) => x, y = 1", UnawaitedCall{}},
		{"a const of a parameter's generator", "const gen = function* (x) { yield x }", UnawaitedCall{}},
		{"a main of no parameters is called", "async function main() { return 1 }", UnawaitedCall{}},
		{"a main of tools is called", "const a = 1\nasync function main(tools) { return a }", UnawaitedCall{}},
		{"a main that is called", "async function main(x) { return x }\nmain(1)", UnawaitedCall{}},
		{"a main returned", "async function main(x) { return x }\nreturn main(1)", UnawaitedCall{}},
		{"a helper beside other code", "function add(a, b) { return a + b }\nconst x = add(1, 2)", UnawaitedCall{}},
		{"a helper beside a top-level return", "function add(a, b) { return a + b }\nreturn 1", UnawaitedCall{}},
		{"a generator", "function* gen(x) { yield x }", UnawaitedCall{}},
		{"an arrow of a parameter (its value is the warning's)", "async (x) => { return x }", UnawaitedCall{}},
		{"two functions", "function a(x) { return x }\nfunction b(y) { return y }", UnawaitedCall{}},
	})
}

// TestPrepareDeclared: the name a program's last statement declares, when
// nothing at its top level returns (the run warns that it has no result);
// none for a program that returns, goes on after it, or ends with a
// function.
func TestPrepareDeclared(t *testing.T) {
	checkPrepared(t, "Declared", func(p Prepared) UnawaitedCall { return p.Declared }, []preparedCase[UnawaitedCall]{
		{"a const last", "const orders = await tools.orders.search({});\nconst ids = orders.map(o => o.id);", UnawaitedCall{2, "ids"}},
		{"a lone let", "let x = 5", UnawaitedCall{1, "x"}},
		{"a typed const", "const ids: string[] = []", UnawaitedCall{1, "ids"}},
		{"an expression over lines", "var r = await tools.a.b({})\n  .then(x => x)", UnawaitedCall{1, "r"}},
		{"after a loop", "for (const x of [1]) {}\nconst y = {\n a: 1,\n}", UnawaitedCall{2, "y"}},
		{"returned", "const a = 1\nreturn a", UnawaitedCall{}},
		{"a call after it", "const a = 1\nfoo()", UnawaitedCall{}},
		{"an update after it", "let n = 0\nn++", UnawaitedCall{}},
		{"two declarators", "const a = 1, b = 2", UnawaitedCall{}},
		{"destructured", "const { a } = await f()", UnawaitedCall{}},
		{"inside a block", "if (a) { const z = 1 }", UnawaitedCall{}},
		{"an arrow last", "const d = 1\nconst f = x => x", UnawaitedCall{}},
		{"a function expression last", "const d = 1\nconst g = async function () {}", UnawaitedCall{}},
		{"a lone function of a parameter is Uncalled's", "const f = (x) => x", UnawaitedCall{}},
		{"an async arrow of two parameters last", "const d = 1\nconst h = async (a, b) => a + b", UnawaitedCall{}},
		{"a parenthesized expression last", "const d = 1\nconst s = (d + 2) * 3", UnawaitedCall{2, "s"}},
		{"a parenthesized async call last", "const d = 1\nconst r = async (d)", UnawaitedCall{2, "r"}},
	})
}

// A program of functions only, none called, ran nothing: the run had no
// result and no word why.
func TestPrepareFunctions(t *testing.T) {
	checkPrepared(t, "Functions", func(p Prepared) string { return strings.Join(p.Functions, ",") }, []preparedCase[string]{
		{"two declarations", "async function getOpenOrders() {\n  return tools.orders.search({ status: \"open\" });\n}\n\nfunction totalOf(orders) {\n  return orders.reduce((s, o) => s + o.total, 0);\n}", "getOpenOrders,totalOf"},
		{"on one line", "function a() {} function b() {}", "a,b"},
		{"arrows, an expression body, a function expression, a generator", "const sum = (xs) => xs.reduce((s, x) => s + x, 0)\nconst fetchAll = async () => {\n  return [];\n};\nlet fmt = function (n) { return n.toFixed(2) }\nfunction* ids() { yield 1 }", "sum,fetchAll,fmt,ids"},
		{"typed, the types erased", "interface O { total: number }\nfunction total(xs: O[]): number { return 0 }\nconst top = (xs: O[], n = 3): O[] => xs.slice(0, n);", "total,top"},
		{"a call after them", "function a() {}\nfunction b() {}\nreturn a();", ""},
		{"a call of the last arrow on the next line", "function a() {}\nconst b = () => 1\nb()", ""},
		{"a value beside them", "const STATUS = \"open\";\nfunction a() {}\nfunction b() {}", ""},
		{"one function alone is Uncalled's", "function handler(event) { return 1 }", ""},
		{"main among them is called", "function helper() {}\nasync function main() { return helper() }", ""},
		{"a second declarator", "const a = () => 1, b = 2\nfunction c() {}", ""},
		{"an arrow called at once", "const a = (() => 1)()\nfunction c() {}", ""},
	})
}

// preparedCase is a program and what Prepare should find in it: the call it
// names (UnawaitedCall) or the line it reports (int, 0: none).
type preparedCase[T comparable] struct {
	name, in string
	want     T
}

// checkPrepared runs Prepare on each case and compares what get reads of
// its answer (field names it in messages).
func checkPrepared[T comparable](t *testing.T, field string, get func(Prepared) T, cases []preparedCase[T]) {
	t.Helper()
	for _, tc := range cases {
		p, err := Prepare(tc.in)
		if err != nil {
			t.Errorf("%s: error %v", tc.name, err)
			continue
		}
		if got := get(p); got != tc.want {
			t.Errorf("%s: %s = %+v, want %+v (code %q)", tc.name, field, got, tc.want, p.Code)
		}
	}
}

// TestPrepareReturned: the expression the program's last statement
// returns, unless some return gives nothing (the program may mean to).
func TestPrepareReturned(t *testing.T) {
	checkPrepared(t, "Returned", func(p Prepared) string { return p.Returned }, []preparedCase[string]{
		{"a property read", "const os = await tools.shop.list({}); return os.lenght", "os.lenght"},
		{"an object, the semicolon left out", "const os = await tools.shop.list({});\nreturn { n: os.count, first: os[0]?.name };", "{ n: os.count, first: os[0]?.name }"},
		{"returns inside callbacks and blocks", "const os = await tools.shop.list({});\nif (os.length > 9) { throw new Error('many') }\nconst ids = os.map((o) => { return o.id });\nreturn ids", "ids"},
		{"typed, the types erased", "const o: { id: string } | undefined = (await tools.a.b({})).find((x: any) => x.ok);\nreturn o", "o"},
		{"an early bare return", "const os = await tools.shop.list({});\nif (!os.length) return;\nreturn os[0]", ""},
		{"an early return of undefined", "if (x) return undefined\nreturn y.z", ""},
		{"a return before a line break returns nothing", "const os = 1\nif (os) return\nos.z\nreturn os.y", ""},
		{"return void", "return void tools.a.b({})", ""},
		{"no return at the top", "const os = await tools.shop.list({}); os.lenght", ""},
		{"a last statement that is no return", "return a.b\nconsole.log(1)", ""},
		{"two expressions", "return a.b, c", ""},
		{"too long to quote", "return a" + strings.Repeat(".b", 70), ""},
	})
}

// TestPrepareLastPath: the property read a program without a return ends
// with.
func TestPrepareLastPath(t *testing.T) {
	checkPrepared(t, "LastPath", func(p Prepared) string { return p.LastPath }, []preparedCase[string]{
		{"a misspelt property", "const os = await tools.shop.list({});\nos.lenght", "os.lenght"},
		{"an item's field, a semicolon", "const os = await tools.shop.list({}); os[0]?.name;", "os[0]?.name"},
		{"optional index", "const os = await tools.shop.list({})\nos?.[0].id", "os?.[0].id"},
		{"a bare name", "const os = await tools.shop.list({})\nos", ""},
		{"a call", "const os = await tools.shop.list({})\nconsole.log(os.length)", ""},
		{"part of an expression on two lines", "const n = 1 +\nos.length", ""},
		{"a computed index", "os[i].name", ""},
		{"with a return", "const os = await tools.shop.list({})\nreturn os.lenght", ""},
	})
}
