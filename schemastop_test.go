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
// compile is kept, and the next check goes on with it.
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
	// Asked twice before the compile (before each decode), 19 times by
	// the two scans for a surely valid input (every 1,024 schemas applied,
	// 10,002 by each), then by the compile.
	asked := 0
	_, _, err = v.check(json.RawMessage(`{"a":-1}`), func() bool { asked++; return asked > 21 })
	if !errors.Is(err, errStopped) || asked != 22 || v.done || v.schema != nil || v.comp == nil {
		t.Fatalf("got %v after %d questions (done %v); want errStopped at the compile's first question, the compile kept", err, asked, v.done)
	}
	// Its polls while it compiles the rest: about three per 1,024
	// subschemas (read, queued, compiled).
	asked = 0
	ve, _, err := v.check(json.RawMessage(`{"a":-1}`), func() bool { asked++; return false })
	if err != nil || ve == nil || !v.done || v.comp != nil {
		t.Fatalf("got %v, %v; want the violation", ve, err)
	}
	if asked < 21+2*10000/1024 {
		t.Errorf("the check asked %d times; the compile of 10,000 subschemas asks at least %d", asked, 2*10000/1024)
	}
	// Compiled once: later checks use it.
	if ve, _, err := v.check(json.RawMessage(`{"a":7}`), nil); err != nil || ve != nil {
		t.Errorf("a valid input: %v, %v", ve, err)
	}
}

// TestSchemaCompileResumed: a compile longer than a run's whole time was
// never made (an anyOf of 100,000 alternatives at a 2 s timeout under
// GOOS=js: every call timed out, each compiling from the start). Each
// check goes on with the compile the last one stopped: here each may ask
// its stop 42 times until the schema is compiled (two before the compile,
// 39 by the two scans for a surely valid input, one by the compile), and
// the compile of 20,000 alternatives asks about 80 times, so it ends
// within about 40 checks; started again each time, it never ended.
func TestSchemaCompileResumed(t *testing.T) {
	alts := make([]string, 20000)
	for i := range alts {
		alts[i] = fmt.Sprintf(`{"const":%d}`, i)
	}
	schema := json.RawMessage(`{"type":"object","properties":{"a":{"anyOf":[` + strings.Join(alts, ",") + `]}}}`)
	r := newRegistry()
	if _, err := r.add(Tool{Name: "t.wide", InputSchema: schema, Execute: noopToolExecute}); err != nil {
		t.Fatal(err)
	}
	e, _ := r.lookup("t.wide")
	// What the schema compiled at once says.
	whole, err := compileSchema(schema)
	if err != nil {
		t.Fatal(err)
	}
	want := whole.validate(json.RawMessage(`{"a":-1}`))
	if want == nil || !strings.Contains(want.Error(), "/a: const: got -1, want 0") {
		t.Fatalf("compiled at once: %v", want)
	}
	checks := 0
	for checks = 1; checks <= 80; checks++ {
		asked := 0
		err = e.validateStop(json.RawMessage(`{"a":-1}`), func() bool {
			asked++
			v := e.validator.v
			return asked > 42 && (v == nil || !v.done)
		})
		if !errors.Is(err, errStopped) {
			break
		}
	}
	if err == nil || err.Error() != want.Error() {
		t.Fatalf("after %d checks: %v; want %v", checks, err, want)
	}
	if checks < 10 {
		t.Errorf("compiled in %d checks: want it stopped more often", checks)
	}
	for _, in := range []string{`{"a":0}`, `{"a":19999}`} {
		if err := e.validate(json.RawMessage(in)); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
}

// TestSchemaPrepareStopped: a tool's first call prepares its schema inside
// its run (the decode and the walks of compileSchema, before any compile),
// and an enum of 1,000,000 values took a second past the run's timeout in a
// page. The preparation asks the call's stop before each step and keeps
// the steps it made: each call goes on where the last one stopped, so a
// schema slower to prepare than a run's whole time is prepared in the end.
// So does a result's outputSchema.
func TestSchemaPrepareStopped(t *testing.T) {
	values := make([]string, 10000)
	for i := range values {
		values[i] = fmt.Sprintf(`"v%d"`, i)
	}
	schema := json.RawMessage(`{"type":"object","properties":{"a":{"enum":[` + strings.Join(values, ",") + `]}},"required":["a"]}`)
	tool := Tool{Name: "t.enum", InputSchema: schema, OutputSchema: schema, Execute: noopToolExecute}
	r := newRegistry()
	if _, err := r.add(tool); err != nil {
		t.Fatal(err)
	}
	e, _ := r.lookup("t.enum")
	if e.validator.done || e.output.done {
		t.Fatal("a plain schema prepared at registration")
	}
	valid := json.RawMessage(`{"a":"v9999"}`)
	for _, c := range []struct {
		name  string
		lazy  *lazySchema
		check func(json.RawMessage, func() bool) error
	}{
		{"inputSchema", &e.validator, e.validateStop},
		{"outputSchema", &e.output, e.checkResultStop},
	} {
		// A run already over prepares nothing.
		asked := 0
		if err := c.check(valid, func() bool { asked++; return true }); !errors.Is(err, errStopped) || asked != 1 || c.lazy.prep == nil || c.lazy.prep.step != 0 {
			t.Fatalf("%s: a run past its end: %v after %d questions; want errStopped at the first, before the decode", c.name, err, asked)
		}
		// Each call that makes one step before its run ends keeps it: the
		// decode, then the schema read as meant, then its walks.
		// The decode asks too, every 4,096 elements, for its sign of life
		// only (sandbox.Beat): stopped, it would start over.
		for step := 1; step <= stepsPrepared-1; step++ {
			asked = 0
			err := c.check(valid, func() bool { asked++; return asked > 1 })
			want := 2
			if step == 1 {
				want += 10000 / 4096
			}
			if !errors.Is(err, errStopped) || asked != want || c.lazy.done || c.lazy.prep == nil || c.lazy.prep.step != step {
				t.Fatalf("%s, call %d: got %v after %d questions (prepared %v); want errStopped after one step more, the steps kept", c.name, step, err, asked, c.lazy.done)
			}
		}
		if doc, _ := c.lazy.prep.doc.(map[string]any); doc == nil || !c.lazy.prep.plain {
			t.Fatalf("%s: the steps kept are not the schema's: %v", c.name, c.lazy.prep.doc)
		}
		// The last step (a plain schema compiles later), then the check.
		if err := c.check(valid, func() bool { return false }); err != nil || !c.lazy.done || c.lazy.prep != nil {
			t.Fatalf("%s: a valid value: %v (prepared %v)", c.name, err, c.lazy.done)
		}
		if err := c.check(json.RawMessage(`{"a":"w"}`), nil); err == nil || !strings.Contains(err.Error(), `/a: enum: got "w", want one of "v0", "v1"`) {
			t.Fatalf("%s: an invalid value: %v", c.name, err)
		}
	}
}

// TestSchemaFirstCompileStopped: a schema the plain walk does not vouch
// for (a pattern, draft-04, an unknown keyword), without references, is
// compiled at its tool's first call, and that compile (meta-schema
// included) now asks the call's stop too: an anyOf of 100,000
// alternatives beside a pattern compiled whole past the run's end.
func TestSchemaFirstCompileStopped(t *testing.T) {
	alts := make([]string, 10000)
	for i := range alts {
		alts[i] = fmt.Sprintf(`{"const":%d}`, i)
	}
	schema := json.RawMessage(`{"type":"object","properties":{"a":{"anyOf":[` + strings.Join(alts, ",") + `]},"b":{"type":"string","pattern":"^b+$"}}}`)
	r := newRegistry()
	if _, err := r.add(Tool{Name: "t.pattern", InputSchema: schema, Execute: noopToolExecute}); err != nil {
		t.Fatal(err)
	}
	e, _ := r.lookup("t.pattern")
	if e.validator.done {
		t.Fatal("compiled at registration")
	}
	// Asked before each step (four), then by the compiler.
	asked := 0
	err := e.validateStop(json.RawMessage(`{"a":-1}`), func() bool { asked++; return asked > stepsPrepared })
	if !errors.Is(err, errStopped) || asked != stepsPrepared+1 || e.validator.done || e.validator.prep.schema != nil {
		t.Fatalf("got %v after %d questions (compiled %v); want errStopped at the compiler's first question, no compile kept", err, asked, e.validator.done)
	}
	asked = 0
	err = e.validateStop(json.RawMessage(`{"a":5,"b":"c"}`), func() bool { asked++; return false })
	if err == nil || !strings.Contains(err.Error(), "/b: pattern") || !e.validator.done {
		t.Fatalf("got %v; want the pattern's violation, the schema kept", err)
	}
	if asked < 1+10000/1024 {
		t.Errorf("the call asked %d times; the compile of 10,000 subschemas asks at least %d", asked, 10000/1024)
	}
}

// TestSchemaUnionErrorsBounded: an input that matches none of an anyOf's
// (or oneOf's) 100,000 alternatives kept 100,000 errors, which were then
// worded and sorted: longer than a run of 2 s under GOOS=js, so that such
// a tool's invalid calls timed out every time. The errors of the first
// 1,000 alternatives are kept, the rest only judged and counted (the
// message said "... and 996 more" alone, as if 1,000 had failed); a union
// of fewer says what it said, and which input matches is unchanged.
func TestSchemaUnionErrorsBounded(t *testing.T) {
	union := func(kw string, n int) json.RawMessage {
		alts := make([]string, n)
		for i := range alts {
			alts[i] = fmt.Sprintf(`{"const":%d}`, i)
			if kw == "anyOf strings" {
				alts[i] = `{"type":"string"}`
			}
		}
		kw, _, _ = strings.Cut(kw, " ")
		return json.RawMessage(`{"type":"object","properties":{"v":{"` + kw + `":[` + strings.Join(alts, ",") + `]}}}`)
	}
	lines := func(more int) string {
		return fmt.Sprintf("/v: const: got -1, want 0\n/v: const: got -1, want 1\n/v: const: got -1, want 10\n/v: const: got -1, want 100\n... and %d more", more)
	}
	compiled := map[string]*inputValidator{}
	for _, tc := range []struct {
		kw        string
		n         int
		input     string
		want      string // "" valid
		maxErrors int
	}{
		{"anyOf", 100000, `{"v":-1}`, lines(996) + "\n... and 99000 more alternatives that fail", 1003},
		{"oneOf", 100000, `{"v":-1}`, lines(996) + "\n... and 99000 more alternatives that fail", 1003},
		// Their kept errors say one thing: the count is a line of its own.
		{"anyOf strings", 1500, `{"v":-1}`, "invalid input:\n/v: type: got number, want string\n... and 500 more alternatives that fail", 1003},
		{"anyOf", 150, `{"v":-1}`, lines(146), 153},
		{"anyOf", 100000, `{"v":99999}`, "", 0},
		{"oneOf", 100000, `{"v":99999}`, "", 0},
	} {
		key := fmt.Sprint(tc.kw, tc.n)
		v := compiled[key]
		if v == nil {
			var err error
			if v, err = compileSchema(union(tc.kw, tc.n)); err != nil {
				t.Fatal(err)
			}
			compiled[key] = v
		}
		ve, _, err := v.check(json.RawMessage(tc.input), nil)
		if err != nil || (ve == nil) != (tc.want == "") {
			t.Errorf("%s of %d, %s: got %v, %v", tc.kw, tc.n, tc.input, ve, err)
			continue
		}
		if ve == nil {
			continue
		}
		if n := countErrors(ve); n > tc.maxErrors {
			t.Errorf("%s of %d: %d errors in the tree, want at most %d", tc.kw, tc.n, n, tc.maxErrors)
		}
		if err := v.validateStop(json.RawMessage(tc.input), nil); err == nil || !strings.HasSuffix(err.Error(), tc.want) {
			t.Errorf("%s of %d: got %v\nwant it to end %q", tc.kw, tc.n, err, tc.want)
		}
	}
}
