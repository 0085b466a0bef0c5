//go:build !js

package sandbox

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestTimeoutNamesTheAnswerItParsed: a run whose time runs out while it
// takes in a large answer names that answer (Error.Answer, AnswerBytes),
// also when the loop checks' hard limit stops QuickJS's parse of it (a
// trap: the parse never polls), which gave the plain timeout.
func TestTimeoutNamesTheAnswerItParsed(t *testing.T) {
	e := testEngine(t, Config{MemoryLimit: 512 << 20})
	// 10 million numbers: seconds of parse, far past the deadline and its
	// grace (the answer comes at once).
	answer := json.RawMessage("[" + strings.TrimSuffix(strings.Repeat("1,", 1e7), ",") + "]")
	funcs := map[string]Func{"big": {
		Label: func([]json.RawMessage) string { return "tool big.get" },
		Async: func(context.Context, []json.RawMessage) (json.RawMessage, error) { return answer, nil },
	}}
	res, err := e.Run(context.Background(), Program{Code: "const a = await big(); return a.length", Funcs: funcs, Timeout: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.Error == nil || res.Error.Code != CodeTimeout || !res.Error.Awaiting || res.Error.Answer != "tool big.get" || res.Error.AnswerBytes != len(answer) {
		t.Errorf("got %+v; want an awaited TIMEOUT naming tool big.get's %d bytes", res.Error, len(answer))
	}
}
