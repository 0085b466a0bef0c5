package codemode

import (
	"context"
	"encoding/json"
	"testing"
)

// TestInterceptorInputIsACopy: an interceptor's ToolCall.Input is its own
// copy, and the replacement it returns is copied as it returns: the tool
// gets the program's input or the replacement, exactly as validated, and
// its own bytes, whatever the interceptor or another call's tool writes
// into the bytes they hold. Each row makes two calls, in two sessions.
// Before, the rows' writes reached the tool: the first ran the edited
// input; in the second, the first call's tool wrote into the shared
// replacement, which the second call then got; in the third, the tool's
// own input changed under it after validation.
func TestInterceptorInputIsACopy(t *testing.T) {
	const schema = `{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`
	for _, tc := range []struct {
		name string
		// intercept decides on a call with input in.
		intercept func(in json.RawMessage) Decision
		// tool gives what the tool got, called with its input (nil: the
		// input as it reads when the tool returns).
		tool func(in json.RawMessage) string
		want string // each call's result
	}{
		{"interceptor writes into Input", func(in json.RawMessage) Decision {
			copy(in, `{"n":9}`)
			return Decision{Allowed: true}
		}, nil, `{"n":1}`},
		{"tool writes into a shared replacement", func(json.RawMessage) Decision {
			return Decision{Allowed: true, Input: sharedReplacement}
		}, func(in json.RawMessage) string {
			got := string(in)
			copy(in, `{"n":"x"}`)
			return got
		}, `{"n":2}`},
		{"the replacement changes after validation", func(json.RawMessage) Decision {
			return Decision{Allowed: true, Input: sharedReplacement}
		}, func(in json.RawMessage) string {
			copy(sharedReplacement, `{"n":"y"}`)
			got := string(in)
			copy(sharedReplacement, `{"n":2}`)
			return got
		}, `{"n":2}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			copy(sharedReplacement, `{"n":2}`)
			cm := mustNew(t, Config{
				OnToolCall: func(_ context.Context, c ToolCall) (Decision, error) { return tc.intercept(c.Input), nil },
				Tools: []Tool{{Name: "t.n", InputSchema: json.RawMessage(schema),
					Execute: func(_ context.Context, in json.RawMessage, _ Call) (json.RawMessage, error) {
						if tc.tool != nil {
							return json.Marshal(tc.tool(in))
						}
						return json.Marshal(string(in))
					}}},
			})
			for call := 1; call <= 2; call++ {
				s := mustSession(t, cm)
				res := exec(t, s, `return await tools.t.n({ n: 1 })`, nil)
				var got string
				if !res.OK || json.Unmarshal(res.Result, &got) != nil {
					t.Fatalf("call %d: %s %+v", call, res.Result, res.Error)
				}
				if got != tc.want {
					t.Errorf("call %d: the tool held %s, want %s", call, got, tc.want)
				}
			}
		})
	}
}

// sharedReplacement is an interceptor's replacement input, the same bytes
// for every call.
var sharedReplacement = json.RawMessage(`{"n":2}`)
