package codemode_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	codemode "github.com/interopio/code-mode"
)

// A CodeMode with one tool, a session, and a run of a model's program.
// searchOpenOrders holds the README's Go snippet (TestReadmeGoSnippets).
func ExampleNew() {
	// The QuickJS asset: dist/emscripten-module.wasm of the npm package
	// @jitl/quickjs-wasmfile-release-sync at the version New's doc names,
	// installed here by npm (a program may embed it with go:embed).
	quickjsWasm, err := os.ReadFile("node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm")
	if err != nil {
		fmt.Println(err)
		return
	}
	requestMetadata := map[string]string{"user": "u-1"}
	res, err := searchOpenOrders(context.Background(), quickjsWasm, requestMetadata)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.OK, string(res.Result), len(res.ToolCalls))
	// Output: true 3 1
}

func searchOpenOrders(ctx context.Context, quickjsWasm []byte, requestMetadata any) (*codemode.ExecuteResult, error) {
	ordersSearch := codemode.Tool{
		Name:        "orders.search",
		Description: "Search orders by status.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"status":{"enum":["open","shipped"]}},"required":["status"]}`),
		Execute: func(ctx context.Context, input json.RawMessage, call codemode.Call) (json.RawMessage, error) {
			return json.RawMessage(`[{"id":1},{"id":2},{"id":3}]`), nil
		},
	}
	cm, err := codemode.New(quickjsWasm, codemode.Config{
		ToolFilter: func(t codemode.ToolInfo) bool { return !strings.HasPrefix(t.Name, "admin.") },
		Tools:      []codemode.Tool{ordersSearch},
	})
	if err != nil {
		return nil, err
	}
	defer cm.Close() // stops its runs and frees its sandbox instances
	session, err := cm.NewSession()
	if err != nil {
		return nil, err
	}
	defer session.Close()
	res, err := session.ExecuteCode(ctx, codemode.ExecuteCodeInput{
		Code: `return (await tools.orders.search({status: "open"})).length`,
	}, requestMetadata)
	// res: {ok: true, result: 3, logs: [], toolCalls: [...], durationMs: 1.2}
	return res, err
}
