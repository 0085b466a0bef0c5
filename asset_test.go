package codemode

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

// TestNewBadAsset: New's error for bytes that are not the QuickJS asset is
// matched with codemode.ErrAsset (a caller had to import package sandbox
// to match it) and says what is wrong with them.
func TestNewBadAsset(t *testing.T) {
	asset := sandboxtest.Asset(t)
	for _, tc := range []struct {
		name  string
		bytes []byte
		want  string
	}{
		{"nil", nil, "the file is empty"},
		{"not WebAssembly", []byte("<!doctype html>"), "not WebAssembly"},
		{"truncated", asset[:len(asset)/2], "does not compile"},
		{"another module", []byte("\x00asm\x01\x00\x00\x00"), "not the QuickJS asset this build understands"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cm, err := New(tc.bytes, Config{})
			if err == nil {
				cm.Close()
				t.Fatal("New accepted it")
			}
			if !errors.Is(err, ErrAsset) {
				t.Errorf("errors.Is(%v, ErrAsset) = false", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to say %q", err, tc.want)
			}
		})
	}
}

// TestNewDocNamesPinnedAsset: New's doc comment, where a Go user learns
// which file to pass, names the asset package at the version package.json
// pins.
func TestNewDocNamesPinnedAsset(t *testing.T) {
	raw, err := os.ReadFile("package.json")
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct{ Dependencies, DevDependencies map[string]string }
	if err := json.Unmarshal(raw, &pkg); err != nil {
		t.Fatal(err)
	}
	const name = "@jitl/quickjs-wasmfile-release-sync"
	version := pkg.Dependencies[name] + pkg.DevDependencies[name]
	if version == "" {
		t.Fatalf("package.json does not pin %s", name)
	}
	src, err := os.ReadFile("codemode.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(src)
	if i := strings.Index(doc, "\nfunc New("); i >= 0 {
		doc = doc[:i]
	}
	if want := "// " + name + "@" + version + " "; !strings.Contains(doc, want) {
		t.Errorf("New's doc comment does not name %s@%s", name, version)
	}
}
