package tsstrip

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// derivedTokens erases src's TypeScript and unwraps its main as Prepare
// does, and compares the tokens derived from the edits (stripper.tokens)
// with a scan of each resulting text: they must be the same tokens, nl
// flags included. It returns how many texts it compared.
func derivedTokens(t *testing.T, name, src string, module bool) int {
	t.Helper()
	toks, ok := scan(src)
	if !ok {
		return 0
	}
	m, bad := match(toks)
	if bad >= 0 {
		return 0
	}
	s := &stripper{src: src, toks: toks, m: m, exprClose: map[int]bool{}, module: module}
	s.walk(0, len(toks), fBlock)
	if s.err != nil {
		return 0
	}
	compared := 0
	same := func(what, text string, got []token) bool {
		want, ok := scan(text)
		if !ok {
			t.Errorf("%s: %s: the edited text does not scan", name, what)
			return false
		}
		compared++
		for i := range max(len(got), len(want)) {
			var g, w token
			if i < len(got) {
				g = got[i]
			}
			if i < len(want) {
				w = want[i]
			}
			if g != w {
				t.Errorf("%s: %s: token %d derived %+v, scanned %+v (of %d and %d)", name, what, i, g, w, len(got), len(want))
				return false
			}
		}
		return true
	}
	out := s.output()
	if out != src {
		if toks, ok = s.tokens(out); !ok {
			return compared
		}
		if !same("erased", out, toks) {
			return compared
		}
		if m, bad = match(toks); bad >= 0 {
			return compared
		}
	}
	if unwrapped, utoks, ok := unwrapMain(out, toks, m); unwrapped != out && ok {
		same("unwrapped", unwrapped, utoks)
	}
	return compared
}

// TestDerivedTokens: the tokens Prepare derives after erasing types and
// unwrapping a main are the tokens a new scan reads, on the shapes that
// write into erased text (';' for an erased statement, ')' moved before an
// arrow's '=>', 'return' for an arrow's head), on models' programs, and on
// the TypeScript sources the esbuild oracle reads.
func TestDerivedTokens(t *testing.T) {
	cases := []struct{ name, src string }{
		{"statement erased, ';' written", "interface A { a: string }\n[1].forEach(f)\nreturn 1"},
		{"annotation then '('", "let x: number\n(f)()"},
		{"return type across lines before '=>'", "const f = (\n  a: number,\n):\n  | string\n  | undefined => {\n  return a\n}"},
		{"erased between two tokens of one line", "const o = JSON.parse(s) as Order[]; const v = m.get(k)!.x"},
		{"erased across lines", "const a = b as\n  Foo\nreturn a"},
		{"an async arrow is the program", "async () => {\n  const x: number = await f()\n  return x\n}"},
		{"an async arrow with an expression body", "async () =>   tools.a.b({ n: 1 as number })"},
		{"an arrow with an expression body", "() => f(1 as number)"},
		{"an IIFE", "(async () => {\n  return 1\n})();"},
		{"main and its call", "async function main(): Promise<number> {\n  return 1\n}\nmain()"},
		{"a plain main", "async function main() { const a: string = 'x'; return a }"},
		{"comments and U+2028 between tokens", "const a /* x\n */ : T /* y */ = 1\u2028; let b: U\u2029= 2 // z\nreturn a"},
		{"template literals", "const s: string = `a ${b as any} c ${`${d!}`}`; return s"},
		{"a regular expression after an erased type", "const r = x as any\n/re/g.test(s)"},
		{"erased text that is not ASCII (scanned again)", "const a: { \"é\": 1, \"😀\": 2 } = b\nreturn a"},
	}
	for name, src := range benchPrograms {
		cases = append(cases, struct{ name, src string }{"bench " + name, src})
	}
	compared := 0
	for _, tc := range cases {
		src, err := Unfence(tc.src)
		if err != nil {
			t.Fatal(err)
		}
		if n := derivedTokens(t, tc.name, src, false); n == 0 && !strings.HasPrefix(tc.name, "bench") {
			t.Errorf("%s: nothing was edited", tc.name)
		} else {
			compared += n
		}
	}
	// Real TypeScript, as the oracle reads it (imports and exports gone).
	files := 0
	for _, dep := range []string{"@anthropic-ai/sdk", "zod/src", "ai/src", "openai/src", "@ai-sdk/provider", "@ai-sdk/provider-utils", "ajv/lib", "@ai-sdk/gateway"} {
		root := "../../node_modules/" + dep
		if _, err := os.Stat(root); err != nil {
			t.Fatalf("%s: %v (run make deps)", root, err)
		}
		filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() || !strings.HasSuffix(p, ".ts") || strings.HasSuffix(p, ".d.ts") {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if src, ok := script(string(b)); ok {
				files++
				compared += derivedTokens(t, p, src, true)
			}
			return nil
		})
	}
	if files < 500 || compared < 500 {
		t.Errorf("only %d texts compared from %d files", compared, files)
	}
	t.Log(fmt.Sprintf("%d edited texts compared (%d TypeScript files)", compared, files))
}
