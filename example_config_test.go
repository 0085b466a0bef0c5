package codemode_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	codemode "github.com/interopio/code-mode"
)

// A Config checked before anything is made: each bad field is a
// *ConfigError (errors.As), and the whole error wraps ErrInvalidConfig
// (errors.Is); New fails on the same Config with the same error.
func ExampleValidateConfig() {
	err := codemode.ValidateConfig(codemode.Config{Timeout: 25 * time.Hour, MaxToolCalls: -1})
	fmt.Println(errors.Is(err, codemode.ErrInvalidConfig))
	var ce *codemode.ConfigError
	if errors.As(err, &ce) {
		fmt.Println(ce.Field)
	}
	fmt.Println(err)
	// Output:
	// true
	// Timeout
	// codemode: invalid config: Timeout: must be at most 24h (86400000 ms), got 25h (90000000 ms)
	// codemode: invalid config: MaxToolCalls: must be >= 1, got -1
}

// A tool that cannot be registered: the error wraps ErrInvalidTool or
// ErrDuplicateTool, and its *ToolError says which tool of the batch and
// which field.
func ExampleToolError() {
	noop := func(context.Context, json.RawMessage, codemode.Call) (json.RawMessage, error) { return nil, nil }
	err := codemode.ValidateConfig(codemode.Config{Tools: []codemode.Tool{
		{Name: "orders.search", Execute: noop},
		{Name: "orders search", Execute: noop},
	}})
	var te *codemode.ToolError
	if errors.As(err, &te) {
		fmt.Println(errors.Is(err, codemode.ErrInvalidTool), te.Index, te.Field)
	}
	err = codemode.ValidateConfig(codemode.Config{Tools: []codemode.Tool{
		{Name: "orders.search", Execute: noop},
		{Name: "orders.search", Execute: noop},
	}})
	fmt.Println(errors.Is(err, codemode.ErrDuplicateTool))
	// Output:
	// true 1 name
	// true
}
