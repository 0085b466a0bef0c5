package codemode

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/interopio/code-mode/third_party/jsonschema"
)

// TestSchemaCheckBounded: a check's work grows with the value times the
// schema, where nothing else checks the run's time. It stops when its stop
// says so (the run's time ran out), and an invalid array keeps at most 100
// of its items' errors: an anyOf of 200 array schemas over 100,000 items
// kept every item's error of every branch (4 GB: the engine died), and
// 300,000 items against a pattern held a page's thread 8 s past a 1 s
// timeout.
func TestSchemaCheckBounded(t *testing.T) {
	items := func(n int, item string) json.RawMessage {
		return json.RawMessage(`{"a":[` + strings.TrimSuffix(strings.Repeat(item+",", n), ",") + `]}`)
	}
	branches := make([]string, 200)
	for k := range branches {
		branches[k] = fmt.Sprintf(`{"type":"array","items":{"anyOf":[{"type":"object","required":["x%d"]},{"type":"string"}]}}`, k)
	}
	anyOf := `{"type":"object","properties":{"a":{"anyOf":[` + strings.Join(branches, ",") + `]}}}`
	const pattern = `{"type":"object","properties":{"a":{"type":"array","items":{"type":"string","pattern":"^a+$"}}}}`
	always := func() bool { return true }
	after := func(n int) func() bool { return func() bool { n--; return n < 0 } }
	// 20,000 items, the last one invalid: the validator checks them all.
	lastBad := json.RawMessage(strings.Replace(string(items(20000, `"a"`)), `"a"]`, `"b"]`, 1))
	for _, tc := range []struct {
		name, schema string
		input        json.RawMessage
		stop         func() bool
		stopped      bool // errStopped
		maxErrors    int  // else: invalid, with at most this many errors in its tree
	}{
		{"an anyOf of 200 array schemas over 20,000 items", anyOf, items(20000, `{"y":1}`), nil, false, 200*(100*3+1) + 2},
		{"a pattern over 20,000 items", pattern, items(20000, `"b"`), nil, false, 101},
		{"stopped", pattern, lastBad, always, true, 0},
		{"stopped in an anyOf", anyOf, items(20000, `{"y":1}`), always, true, 0},
		// Asked before each decode and before the validator: then by it.
		{"stopped by the validator", pattern, lastBad, after(3), true, 0},
		{"a stop that never says so", pattern, lastBad, func() bool { return false }, false, 2},
	} {
		v, err := compileSchema(json.RawMessage(tc.schema))
		if err != nil {
			t.Fatal(err)
		}
		ve, _, err := v.check(tc.input, tc.stop)
		switch {
		case tc.stopped:
			if !errors.Is(err, errStopped) {
				t.Errorf("%s: got %v, %v; want errStopped", tc.name, ve, err)
			}
		case err != nil || ve == nil:
			t.Errorf("%s: got %v, %v; want a violation", tc.name, ve, err)
		default:
			if n := countErrors(ve); n > tc.maxErrors {
				t.Errorf("%s: %d errors in the tree, want at most %d", tc.name, n, tc.maxErrors)
			}
		}
	}
}

func countErrors(e *jsonschema.ValidationError) int {
	n := 1
	for _, c := range e.Causes {
		n += countErrors(c)
	}
	return n
}
