// Command loopcheck writes the QuickJS asset with the loop checks
// (sandbox.InstrumentAsset): scripts/build-dist.mjs runs it for
// dist/emscripten-module.wasm, which the page compiles without Go.
//
//	go run ./scripts/loopcheck IN OUT
package main

import (
	"fmt"
	"os"

	"github.com/interopio/code-mode/sandbox"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: loopcheck IN OUT")
		os.Exit(2)
	}
	in, err := os.ReadFile(os.Args[1])
	if err == nil {
		var out []byte
		if out, err = sandbox.InstrumentAsset(in); err == nil {
			err = os.WriteFile(os.Args[2], out, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "loopcheck:", err)
		os.Exit(1)
	}
}
