//go:build !js

package sandbox

import (
	"context"
	"encoding/json"
	"os"
	"testing"
)

// TestPrecompiledInImage: an instance's image holds the sandbox's own
// sources compiled, and a run that needs them (an object handed to a host
// function, a failure to describe) works from them as from a compile.
func TestPrecompiledInImage(t *testing.T) {
	// sandboxtest imports this package: read the asset as it does.
	wasm, err := os.ReadFile("../node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm")
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewEngine(wasm, Config{MaxInstances: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	echo := map[string]Func{"echo": {Sync: func(args []json.RawMessage) (json.RawMessage, error) { return args[0], nil }}}
	for _, tc := range []struct{ code, value, errMsg string }{
		{`return echo({ a: [1, new Map([["k", 2]])] })`, `{"a":[1,{"k":2}]}`, ""},
		{`throw new TypeError("bad", { cause: new Error("inner") })`, "", "bad; cause: Error: inner"},
		{`return echo({ b: 1 })`, `{"b":1}`, ""},
	} {
		res, err := e.Run(context.Background(), Program{Code: tc.code, Funcs: echo})
		if err != nil {
			t.Fatal(err)
		}
		if tc.errMsg != "" {
			if res.Error == nil || res.Error.Message != tc.errMsg {
				t.Errorf("%s: error %+v, want message %q", tc.code, res.Error, tc.errMsg)
			}
		} else if res.Error != nil || string(res.Value) != tc.value {
			t.Errorf("%s: %s %+v, want %s", tc.code, res.Value, res.Error, tc.value)
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.idle) != 1 || e.idle[0].img == nil {
		t.Fatal("the instance has no image")
	}
	for _, src := range precompiledSources {
		if e.idle[0].compiled[src] == 0 {
			t.Errorf("the image lacks a compiled source (%.40q...)", src)
		}
	}
}
