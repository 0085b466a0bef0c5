package codemode_test

import (
	"context"
	"fmt"
	"os"

	codemode "github.com/interopio/code-mode"
)

// A failed run's RunError.Code, told apart with the codemode constants.
func ExampleRunError() {
	// The QuickJS asset: dist/emscripten-module.wasm of the npm package
	// @jitl/quickjs-wasmfile-release-sync at the version New's doc names,
	// installed here by npm (a program may embed it with go:embed).
	quickjsWasm, err := os.ReadFile("node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm")
	if err != nil {
		fmt.Println(err)
		return
	}
	cm, err := codemode.New(quickjsWasm, codemode.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cm.Close()
	session, err := cm.NewSession()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer session.Close()
	for _, code := range []string{"return )", "throw new Error('boom')", "return 1"} {
		res, err := session.ExecuteCode(context.Background(), codemode.ExecuteCodeInput{Code: code}, nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		switch {
		case res.OK:
			fmt.Println("ok:", string(res.Result))
		case res.Error.Code == codemode.ErrorCodeSyntax:
			fmt.Printf("the code does not parse (line %d)\n", res.Error.Line)
		case res.Error.Code == codemode.ErrorCodeRuntime:
			fmt.Println("the code threw:", res.Error.Message)
		case res.Error.Code == codemode.ErrorCodeTimeout, res.Error.Code == codemode.ErrorCodeMemoryLimit:
			fmt.Println("a limit stopped the run")
		default:
			fmt.Println(res.Error.Code)
		}
	}
	// Output:
	// the code does not parse (line 1)
	// the code threw: boom
	// ok: 1
}
