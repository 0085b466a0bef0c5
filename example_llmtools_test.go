package codemode_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	codemode "github.com/interopio/code-mode"
)

// The two tools for an LLM SDK: each has a name, a description and a JSON
// Schema of its arguments; Execute takes the model's arguments as JSON and
// returns the JSON to send back as the tool's result.
func ExampleSession_LLMTools() {
	// The QuickJS asset: dist/emscripten-module.wasm of the npm package
	// @jitl/quickjs-wasmfile-release-sync at the version New's doc names,
	// installed here by npm (a program may embed it with go:embed).
	quickjsWasm, err := os.ReadFile("node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm")
	if err != nil {
		fmt.Println(err)
		return
	}
	cm, err := codemode.New(quickjsWasm, codemode.Config{Tools: []codemode.Tool{{
		Name:        "weather.get",
		Description: "Current temperature of a city, in degrees Celsius.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
		Execute: func(ctx context.Context, input json.RawMessage, call codemode.Call) (json.RawMessage, error) {
			return json.RawMessage(`{"celsius":21}`), nil
		},
	}}})
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
	tools := session.LLMTools()
	for _, t := range tools {
		fmt.Println(t.Name)
	}
	// What a model sends to executeCode.
	args := json.RawMessage(`{"code": "const w = await tools.weather.get({city: 'Oslo'}); return w.celsius + 1", "explanation": "One degree warmer than Oslo."}`)
	out, err := tools[1].Execute(context.Background(), args, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	var res codemode.ExecuteResult
	if err := json.Unmarshal(out, &res); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.OK, string(res.Result), res.ToolCalls[0].Name)
	// Output:
	// searchTools
	// executeCode
	// true 22 weather.get
}
