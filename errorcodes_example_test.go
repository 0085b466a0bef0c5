package codemode_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	codemode "github.com/interopio/code-mode"
	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

// A failed run's RunError.Code, told apart with the codemode constants.
func ExampleRunError() {
	quickjsWasm, err := os.ReadFile(filepath.Join(".", sandboxtest.AssetPath))
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
