package codemode

import (
	"os"
	osexec "os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// TestModuleImportable: a program of another module that imports this one
// resolves every package it needs. Go ignores a dependency's replace
// lines, and this module reached its patched JSON Schema validator through
// one (third_party/jsonschema as github.com/santhosh-tekuri/jsonschema/v6):
// an importer got upstream's v6.0.3, which lacks the patch's message
// package, and did not build ("does not contain package
// github.com/santhosh-tekuri/jsonschema/v6/message"). The validator is
// now a package of this module, and go.mod has no replace line.
func TestModuleImportable(t *testing.T) {
	mod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`(?m)^[ \t]*replace\b.*$`).Find(mod); m != nil {
		t.Errorf("go.mod has %q: an importer's build ignores it", m)
	}
	goBin, err := osexec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	sum, err := os.ReadFile("go.sum")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod": "module example.com/user\n\ngo 1.26\n\nrequire github.com/interopio/code-mode v0.0.0\n\n" +
			"replace github.com/interopio/code-mode => " + root + "\n",
		"go.sum":      string(sum),
		"app/main.go": "package main\n\nimport codemode \"github.com/interopio/code-mode\"\n\nfunc main() { _ = codemode.New }\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Offline: the requirements come from the module cache this test's
	// own build filled; a package no requirement provides fails at once.
	cmd := osexec.Command(goBin, "list", "-deps", "./app")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOSUMDB=off", "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("a module importing code-mode does not resolve its packages: %v\n%s", err, out)
	}
}
