//go:build !js

package sandbox_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/interopio/code-mode/sandbox"
)

// A program that awaits a host function, and one that fails: the
// program's failure is the result's Error, not Run's error.
func ExampleEngine_Run() {
	// The QuickJS asset, dist/emscripten-module.wasm of the npm package
	// @jitl/quickjs-wasmfile-release-sync (installed here by npm).
	wasm, err := os.ReadFile("../node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm")
	if err != nil {
		fmt.Println(err)
		return
	}
	e, err := sandbox.NewEngine(wasm, sandbox.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer e.Close() // frees its instances once the runs in flight end
	double := sandbox.Func{Async: func(ctx context.Context, args []json.RawMessage) (json.RawMessage, error) {
		var x float64
		if len(args) == 0 || json.Unmarshal(args[0], &x) != nil {
			return nil, &sandbox.JSError{Name: "TypeError", Message: "double: expected a number"}
		}
		return json.Marshal(2 * x)
	}}
	for _, code := range []string{
		`const n = await double(21); return { n }`,
		`await double("x")`,
	} {
		res, err := e.Run(context.Background(), sandbox.Program{
			Code:    code,
			Funcs:   map[string]sandbox.Func{"double": double},
			Timeout: 5 * time.Second,
		})
		switch {
		case err != nil:
			fmt.Println(err) // ctx done, engine closed, no instance
		case res.Error != nil:
			fmt.Println(res.Error.Code, res.Error.Name+":", res.Error.Message)
		default:
			fmt.Println(string(res.Value))
		}
	}
	// Output:
	// {"n":42}
	// RUNTIME TypeError: double: expected a number
}
