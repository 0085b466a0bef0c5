package tsstrip

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// TestTypeScriptSourcesAgainstEsbuild erases the TypeScript sources that
// pinned npm dependencies ship (SDKs and libraries written by people, not
// models) and has esbuild print both our JavaScript and its own transform
// of the original: the two printouts must be the same program. Imports and
// exports are left out of the comparison (TypeScript drops imports used
// only as types, which needs the whole program; the sandbox refuses both
// anyway). Files with what cannot be erased (enum, namespace, parameter
// properties) are rewritten, which must parse; what is refused must fail
// with a message that says so.
func TestTypeScriptSourcesAgainstEsbuild(t *testing.T) {
	var files []string
	for _, dep := range []string{"@anthropic-ai/sdk", "zod/src", "ai/src", "openai/src", "@ai-sdk/provider", "@ai-sdk/provider-utils", "ajv/lib", "@ai-sdk/gateway"} {
		root := "../../node_modules/" + dep
		if _, err := os.Stat(root); err != nil {
			t.Fatalf("%s: %v (run make deps)", root, err)
		}
		filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() && strings.HasSuffix(p, ".ts") && !strings.HasSuffix(p, ".d.ts") && !strings.Contains(p, "/node_modules/"+dep+"/node_modules/") {
				files = append(files, p)
			}
			return nil
		})
	}
	same, refused, differ, rewrote := 0, 0, 0, 0
	why := map[string]int{}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		src, ok := script(string(b))
		if !ok {
			continue
		}
		theirs := api.Transform(src, api.TransformOptions{Loader: api.LoaderTS, Target: api.ESNext})
		if len(theirs.Errors) > 0 {
			continue // not TypeScript esbuild reads either (JSX, decorators metadata)
		}
		js, rewritten, serr := rewrite(src, true)
		if serr != nil {
			if !strings.Contains(serr.Message, "not supported") {
				t.Errorf("%s: %d:%d %s", p, serr.Line, serr.Column, serr.Message)
			}
			refused++
			why[serr.Message[:strings.Index(serr.Message, " are not")+strings.Index(serr.Message, " is not")+1]]++
			continue
		}
		ours := api.Transform(js, api.TransformOptions{Loader: api.LoaderJS, Target: api.ESNext})
		if len(ours.Errors) > 0 {
			differ++
			e := ours.Errors[0]
			line := ""
			if e.Location != nil {
				line = e.Location.LineText
			}
			t.Errorf("%s: our JavaScript does not parse: %s at line %d: %q", p, e.Text, lineOf(e), line)
			continue
		}
		if rewritten {
			// An enum, a namespace with values, parameter properties: our
			// JavaScript is tsc's shape, not esbuild's; it must parse (what
			// it does is compared with tsc's in web/test/tsvalues.test.mjs).
			rewrote++
			continue
		}
		a, b2 := printed(string(ours.Code)), printed(emptyNamespaces.ReplaceAllString(string(theirs.Code), ""))
		if a != b2 {
			differ++
			i := 0
			for i < len(a) && i < len(b2) && a[i] == b2[i] {
				i++
			}
			t.Errorf("%s: differs from esbuild:\n ours    %q\n esbuild %q", p, a[max(0, i-80):min(len(a), i+80)], b2[max(0, i-80):min(len(b2), i+80)])
			continue
		}
		same++
	}
	if same < 500 {
		t.Errorf("only %d files compared", same)
	}
	if rewrote < 40 {
		t.Errorf("only %d files with TypeScript that is rewritten", rewrote)
	}
	t.Logf("%d TypeScript source files: %d print the same as esbuild's transform, %d rewritten (enum, namespace, parameter properties) parse, %d refused (%v), %d differ", same+rewrote+refused+differ, same, rewrote, refused, why, differ)
}

func lineOf(m api.Message) int {
	if m.Location == nil {
		return 0
	}
	return m.Location.Line
}

// script turns a TypeScript module into a script: import statements and
// re-exports go, 'export' before a declaration goes, 'export default x'
// becomes a constant. TypeScript's import-equals and export-assignment
// make a file unusable here (ok false).
func script(src string) (string, bool) {
	toks, ok := scan(src)
	if !ok {
		return "", false
	}
	m, bad := match(toks)
	if bad >= 0 {
		return "", false
	}
	s := &stripper{src: src, toks: toks, m: m}
	var b strings.Builder
	last := 0
	cut := func(from, to int, with string) {
		b.WriteString(src[last:from])
		b.WriteString(with)
		last = to
	}
	for i := 0; i < len(toks); i++ {
		if m[i] > i {
			i = m[i]
			continue
		}
		if s.isProp(i) || !(s.is(i, "import") || s.is(i, "export")) || s.is(i+1, "(") || s.is(i+1, ".") {
			continue
		}
		if s.is(i+2, "=") || s.is(i+1, "=") || s.is(i+1, "import") {
			return "", false // import x = require(...), export = x
		}
		if s.is(i, "import") || s.is(i+1, "{") || s.is(i+1, "*") || s.is(i+1, "type") && s.is(i+2, "{") {
			j := i + 1
			for j < len(toks) && toks[j].k != tString {
				if m[j] > j {
					j = m[j]
				}
				j++
			}
			if s.is(i, "export") && !s.is(j-1, "from") {
				j-- // export { a, b } without a module
			}
			j++
			if s.is(j, ";") {
				j++
			}
			cut(toks[i].s, toks[min(j, len(toks))-1].e, "")
			i = j - 1
			continue
		}
		if s.is(i+1, "default") {
			if s.is(i+2, "function") || s.is(i+2, "class") || s.is(i+2, "async") || s.is(i+2, "abstract") || s.is(i+2, "interface") {
				cut(toks[i].s, toks[i+1].e, "")
			} else {
				cut(toks[i].s, toks[i+1].e, "const __default =")
			}
			i++
			continue
		}
		cut(toks[i].s, toks[i].e, "")
	}
	b.WriteString(src[last:])
	return b.String(), true
}

// printed is esbuild's printout without the empty statements that stand
// where erased statements were, and without white space: where esbuild
// breaks a line depends on the line breaks in its input.
// emptyNamespaces matches what esbuild prints for a dotted namespace of
// types alone (`namespace A.B { export interface C {} }`, as openai 7.60's
// live.ts has): an empty IIFE for A, which tsc does not emit (the
// namespace is not instantiated) and the erasure rightly leaves out.
var emptyNamespaces = regexp.MustCompile(`var \w+;\n\(\(\w+\) => \{\n\}\)\(\w+ \|\| \(\w+ = \{\}\)\);\n`)

func printed(code string) string {
	var b strings.Builder
	for _, l := range strings.Split(code, "\n") {
		if l = strings.TrimSpace(l); l != ";" {
			b.WriteString(strings.Join(strings.Fields(l), ""))
		}
	}
	return b.String()
}
