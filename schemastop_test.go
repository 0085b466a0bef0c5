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

// TestSchemaCompileStopped: a first call compiles its tool's schema inside
// its run, and an anyOf of 100,000 alternatives compiled for seconds past
// the run's timeout (12 s in a page, where nothing else runs meanwhile).
// The compile asks the check's stop every 1,024 subschemas; a stopped
// compile keeps nothing, and the next check compiles the schema whole.
func TestSchemaCompileStopped(t *testing.T) {
	alts := make([]string, 10000)
	for i := range alts {
		alts[i] = fmt.Sprintf(`{"const":%d}`, i)
	}
	schema := json.RawMessage(`{"type":"object","properties":{"a":{"anyOf":[` + strings.Join(alts, ",") + `]}}}`)
	v, err := compileSchema(schema)
	if err != nil || !v.plain {
		t.Fatalf("%v, plain %v: want a plain schema, compiled at its first check", err, v.plain)
	}
	// Asked twice before the compile (before each decode), then by it.
	asked := 0
	_, _, err = v.check(json.RawMessage(`{"a":-1}`), func() bool { asked++; return asked > 2 })
	if !errors.Is(err, errStopped) || asked != 3 || v.done || v.schema != nil {
		t.Fatalf("got %v after %d questions (done %v); want errStopped at the compile's first question, nothing kept", err, asked, v.done)
	}
	// Its polls while it compiles whole: about two per 1,024 subschemas.
	asked = 0
	ve, _, err := v.check(json.RawMessage(`{"a":-1}`), func() bool { asked++; return false })
	if err != nil || ve == nil || !v.done {
		t.Fatalf("got %v, %v; want the violation", ve, err)
	}
	if asked < 2+10000/1024 {
		t.Errorf("the check asked %d times; the compile of 10,000 subschemas asks at least %d", asked, 10000/1024)
	}
	// Compiled once: later checks use it.
	if ve, _, err := v.check(json.RawMessage(`{"a":7}`), nil); err != nil || ve != nil {
		t.Errorf("a valid input: %v, %v", ve, err)
	}
}
