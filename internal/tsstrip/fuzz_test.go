package tsstrip

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzProgram: any text, however broken, comes back without a panic,
// erasing never moves a line (the count of line terminators is kept), and
// the tokens derived from the edits are those a new scan reads.
func FuzzProgram(f *testing.F) {
	for _, s := range []string{
		"const x: number = 1; return x", "interface A { a: string }\nreturn 1", "f<T>(x) as any!",
		"class A<T> extends B<T> implements C { private x?: T; [k: string]: any; m(): void; }",
		"```ts\nreturn 1\n```", "async () => { return 1 }", "async function main() { return 1 }\nmain()",
		"type T = { [K in keyof X]: X[K] extends string ? 1 : 2 }", "return `${a as any}`", "(a): b => c", "<T,>(x: T) => x",
		"enum E { A }", "namespace N { export type A = 1 }", "declare module 'x' { }", "x = a < b ? c : d > e", "let a: {", ")}]",
		"function f(this: A, ...r: number[]): asserts r is number[] {}", "import type { A } from 'b'", "const [a, b]: [1, 2] = [1, 2]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if !utf8.ValidString(src) {
			return
		}
		out, err := Strip(src)
		if err == nil && strings.Count(out, "\n") != strings.Count(src, "\n") {
			t.Errorf("Strip moved lines: %q -> %q", src, out)
		}
		Program(src)
		CheckBody(src)
		UnwrapMain(src)
		derivedTokens(t, "fuzz", src, false)
	})
}
