package tsstrip

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var moduleSyntax = regexp.MustCompile(`(?m)^\s*export\s`)

// TestPlainJavaScriptUnchanged strips real JavaScript (this repository's
// and that of pinned npm dependencies): none of it is TypeScript, so every
// file must come back byte for byte. Modules, whose import and export the
// sandbox refuses, are read with module syntax allowed.
func TestPlainJavaScriptUnchanged(t *testing.T) {
	roots := []string{"../../web/src", "../../prelude", "../../scripts", "../../bench", "../../demo"}
	for _, dep := range []string{"@babel", "@jitl", "quickjs-emscripten-core", "ajv", "hono/dist/cjs", "@modelcontextprotocol/sdk/dist/cjs",
		"zod", "openai", "express", "playwright-core", "@anthropic-ai"} {
		roots = append(roots, "../../node_modules/"+dep)
	}
	files, changed, modules := 0, 0, 0
	for _, root := range roots {
		if _, err := os.Stat(root); err != nil {
			t.Fatalf("%s: %v (run make deps)", root, err)
		}
		filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() || info.Size() > 1<<20 || !(strings.HasSuffix(p, ".js") || strings.HasSuffix(p, ".mjs") || strings.HasSuffix(p, ".cjs")) {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			src := string(b)
			out, serr := Strip(src)
			// A module whose exports are all named functions strips without
			// an error (the sandbox reads `export function main` as its
			// program's main), but with its exports blanked.
			if serr != nil && (strings.Contains(serr.Message, "import") || strings.Contains(serr.Message, "export")) || serr == nil && out != src && moduleSyntax.MatchString(src) {
				modules++
				out, serr = strip(src, true)
			}
			if serr != nil {
				t.Errorf("%s: %d:%d %s", p, serr.Line, serr.Column, serr.Message)
				return nil
			}
			files++
			if out != src {
				changed++
				i := 0
				for i < len(out) && out[i] == src[i] {
					i++
				}
				lo := max(0, i-50)
				t.Errorf("%s changed at byte %d: %q became %q", p, i, src[lo:min(len(src), i+50)], out[lo:min(len(out), i+50)])
			}
			return nil
		})
	}
	if files < 1000 {
		t.Errorf("only %d files read", files)
	}
	t.Logf("%d JavaScript files unchanged (%d changed), %d of them modules", files-changed, changed, modules)
}
