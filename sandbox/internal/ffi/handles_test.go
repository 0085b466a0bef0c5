//go:build !js

package ffi

import (
	"encoding/json"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHandlesAreTyped compiles misuses of handles into this package (with
// go build -overlay) and expects the compiler to reject each: ownership and
// handle kinds are checked at build time, not by comments.
func TestHandlesAreTyped(t *testing.T) {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, body string
		ok         bool
	}{
		{"owned value lent and freed", `v := q.NewString(ctx, "x"); q.IsString(v.Const()); q.FreeValue(ctx, v)`, true},
		{"freeing a borrowed argument", `q.FreeValue(ctx, q.Arg(0, 0))`, false},
		{"an owned value passed as borrowed without Const", `v := q.Global(ctx); q.GetProp(ctx, v, "x")`, false},
		{"a borrowed value returned as owned", `var _ Value = q.Arg(0, 0)`, false},
		{"a context where a runtime goes", `q.FreeRuntime(ctx)`, false},
		{"a runtime where a context goes", `q.FreeContext(rt)`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "package ffi\n\nfunc misuse(q *Instance, rt Runtime, ctx Context) {\n\t" + tc.body + "\n}\n"
			tmp := t.TempDir()
			file := filepath.Join(tmp, "misuse.go")
			if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			overlay, _ := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(dir, "zz_misuse.go"): file}})
			ov := filepath.Join(tmp, "overlay.json")
			if err := os.WriteFile(ov, overlay, 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := osexec.Command("go", "build", "-overlay", ov, ".").CombinedOutput()
			switch {
			case tc.ok && err != nil:
				t.Fatalf("does not compile:\n%s", out)
			case !tc.ok && err == nil:
				t.Fatalf("compiles; want a type error")
			case !tc.ok && !strings.Contains(string(out), "cannot use"):
				t.Fatalf("fails for another reason:\n%s", out)
			}
		})
	}
}
