package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// outputTool is a tool with an outputSchema that returns out, through
// Execute and, when start is set, through Start too (the path a run
// without an interceptor takes; a page's tool under GOOS=js has both).
func outputTool(name, schema, out string, start bool) Tool {
	var res json.RawMessage
	if out != "" {
		res = json.RawMessage(out)
	}
	t := Tool{Name: name, Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) { return res, nil }}
	if schema != "" {
		t.OutputSchema = json.RawMessage(schema)
	}
	if start {
		t.Start = func(_ context.Context, _ json.RawMessage, _ Call, done func(json.RawMessage, error)) { done(res, nil) }
	}
	return t
}

// bigRows is the JSON of {"rows": [...]} with n rows {"id": "r<i>", "n": i};
// the last row's id is lastID, raw JSON.
func bigRows(n int, lastID string) string {
	var b strings.Builder
	b.WriteString(`{"rows":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		id := fmt.Sprintf(`"r%d"`, i)
		if i == n-1 {
			id = lastID
		}
		fmt.Fprintf(&b, `{"id":%s,"n":%d}`, id, i)
	}
	b.WriteString(`]}`)
	return b.String()
}

// TestOutputSchemaEnforced: every result is checked against the tool's
// outputSchema before the sandbox sees it; a mismatch fails that call with
// an error naming the tool, the path in the result and the rule, and the
// call's record says so. Each row runs through Execute (with an
// interceptor) and Start (without one).
func TestOutputSchemaEnforced(t *testing.T) {
	const idSchema = `{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`
	const rowsSchema = `{"type":"object","properties":{"rows":{"type":"array","items":{"$ref":"#/$defs/row"}}},"$defs":{"row":{"type":"object","properties":{"id":{"type":"string"},"n":{"type":"integer"}},"required":["id"]}}}`
	for _, tc := range []struct {
		name, schema, out string
		want              string // the call's result as JSON, or "" for a failure
		err               string // the error the program catches
	}{
		{name: "conforming passes unchanged", schema: idSchema, out: `{"id":"o1","extra":[1,2.50,{"a":null}]}`, want: `{"id":"o1","extra":[1,2.5,{"a":null}]}`},
		{name: "wrong type", schema: idSchema, out: `{"id":5}`,
			err: `ToolError: t.x: the tool's result does not match its outputSchema: /id: type: got number, want string`},
		{name: "missing required", schema: idSchema, out: `{}`,
			err: `ToolError: t.x: the tool's result does not match its outputSchema: /: required: missing "id"`},
		{name: "several violations, one per line", schema: `{"type":"object","properties":{"a":{"type":"string"},"b":{"minimum":0}}}`, out: `{"a":1,"b":-1}`,
			err: "ToolError: t.x: the tool's result does not match its outputSchema:\n/a: type: got number, want string\n/b: minimum: got -1, want >= 0"},
		{name: "no hint meant for the model's input", schema: `{"type":"object","properties":{"n":{"type":"number"}}}`, out: `{"n":"5"}`,
			err: `ToolError: t.x: the tool's result does not match its outputSchema: /n: type: got string, want number`},
		{name: "no result is null", schema: idSchema, out: "",
			err: `ToolError: t.x: the tool's result does not match its outputSchema: /: type: got null, want object`},
		{name: "no result where null is allowed", schema: `{"type":["object","null"]}`, out: "", want: "null"},
		{name: "no outputSchema, no check", schema: "", out: `{"id":5}`, want: `{"id":5}`},
		{name: "$ref and $defs, conforming", schema: rowsSchema, out: bigRows(3, `"last"`), want: bigRows(3, `"last"`)},
		{name: "$ref and $defs, mismatch", schema: rowsSchema, out: `{"rows":[{"id":"a"},{"n":1}]}`,
			err: `ToolError: t.x: the tool's result does not match its outputSchema: /rows/1: required: missing "id"`},
		{name: "large result, conforming", schema: rowsSchema, out: bigRows(2000, `"last"`), want: bigRows(2000, `"last"`)},
		{name: "large result, its last row wrong", schema: rowsSchema, out: bigRows(2000, `false`),
			err: `ToolError: t.x: the tool's result does not match its outputSchema: /rows/1999/id: type: got boolean, want string`},
		{name: "format is an annotation in 2020-12", schema: `{"type":"string","format":"email"}`, out: `"not an email"`, want: `"not an email"`},
		{name: "format is asserted under draft-07", schema: `{"$schema":"http://json-schema.org/draft-07/schema#","type":"string","format":"email"}`, out: `"not an email"`,
			err: `ToolError: t.x: the tool's result does not match its outputSchema: /: format: "not an email" is not a valid email`},
	} {
		for _, intercepted := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/intercepted=%v", tc.name, intercepted), func(t *testing.T) {
				cfg := Config{MaxResultChars: 1 << 20, Tools: []Tool{outputTool("t.x", tc.schema, tc.out, true)}}
				if intercepted {
					cfg.OnToolCall = func(context.Context, ToolCall) (Decision, error) { return Decision{Allowed: true}, nil }
				}
				cm := newTestCodeMode(t, cfg)
				s := mustSession(t, cm)
				res := exec(t, s, `try { return JSON.stringify(await tools.t.x({})) ?? "null" } catch (e) { return { caught: e.name + ": " + e.message } }`, nil)
				if !res.OK {
					t.Fatalf("run failed: %+v", res.Error)
				}
				if len(res.ToolCalls) != 1 {
					t.Fatalf("toolCalls = %+v, want one", res.ToolCalls)
				}
				rec := res.ToolCalls[0]
				if tc.err == "" {
					var got string
					if err := json.Unmarshal(res.Result, &got); err != nil {
						t.Fatalf("result %s: %v", res.Result, err)
					}
					if got != tc.want {
						t.Errorf("result\n%.300s\nwant\n%.300s", got, tc.want)
					}
					if !rec.Allowed || !rec.OK || rec.Reason != "" {
						t.Errorf("record %+v, want allowed and ok", rec)
					}
					return
				}
				var got struct{ Caught string }
				if err := json.Unmarshal(res.Result, &got); err != nil || got.Caught == "" {
					t.Fatalf("the call did not fail: result %.300s", res.Result)
				}
				if got.Caught != tc.err {
					t.Errorf("error\n%q\nwant\n%q", got.Caught, tc.err)
				}
				if want := strings.TrimPrefix(tc.err, "ToolError: "); !rec.Allowed || rec.OK || rec.Reason != want {
					t.Errorf("record %+v, want allowed, not ok, reason %q", rec, want)
				}
			})
		}
	}
}

// TestOutputSchemaRegistration: an outputSchema is held to the rules of an
// inputSchema, since both are enforced: a pattern RE2 cannot compile,
// another draft's form of a keyword, an empty enum under draft-07 are
// refused at registration naming the path, not left to fail (or to pass
// unchecked) every result.
func TestOutputSchemaRegistration(t *testing.T) {
	for _, tc := range []struct{ name, schema, want string }{
		{"a lookahead", `{"properties":{"user":{"type":"string","pattern":"^(?!admin)"}}}`,
			`tool "t.x": outputSchema: /properties/user/pattern: "^(?!admin)" cannot be enforced: patterns are checked with Go's RE2 syntax`},
		{"a patternProperties key", `{"patternProperties":{"^(?=x)":{}}}`, `tool "t.x": outputSchema: /patternProperties/^(?=x): "^(?=x)" cannot be enforced`},
		{"2020-12's exclusiveMinimum under draft-04", `{"$schema":"http://json-schema.org/draft-04/schema#","exclusiveMinimum":0}`, `tool "t.x": outputSchema: /exclusiveMinimum:`},
		{"a tuple in items in 2020-12", `{"items":[{"type":"string"}]}`, `tool "t.x": outputSchema: /items:`},
		{"an empty enum under draft-07", `{"$schema":"http://json-schema.org/draft-07/schema#","enum":[]}`, `tool "t.x": outputSchema: /enum:`},
		{"a $ref to nothing", `{"$ref":"#/$defs/none"}`, `tool "t.x": outputSchema:`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := newRegistry().add(outputTool("t.x", tc.schema, `{}`, false))
			if !errors.Is(err, ErrInvalidTool) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want ErrInvalidTool containing %q", err, tc.want)
			}
		})
	}
}

// TestOutputSchemaCompiledLazily: registering does not compile a plain
// outputSchema (1,000 tools must register fast); the first result does.
// One with references is compiled at registration, as an inputSchema.
func TestOutputSchemaCompiledLazily(t *testing.T) {
	r := newRegistry()
	plain := outputTool("t.plain", `{"type":"object","properties":{"id":{"type":"string"}}}`, `{}`, false)
	ref := outputTool("t.ref", `{"$ref":"#/$defs/a","$defs":{"a":{"type":"object"}}}`, `{}`, false)
	if _, err := r.add(plain, ref); err != nil {
		t.Fatal(err)
	}
	p, _ := r.lookup("t.plain")
	if p.output.v != nil {
		t.Fatal("a plain outputSchema compiled at registration")
	}
	if err := p.checkResult(json.RawMessage(`{"id":1}`)); err == nil || !strings.Contains(err.Error(), "/id: type: got number, want string") {
		t.Fatalf("checkResult: %v", err)
	}
	if p.output.v == nil {
		t.Fatal("not compiled by the first result")
	}
	if e, _ := r.lookup("t.ref"); e.output.v == nil {
		t.Fatal("an outputSchema with $ref not compiled at registration")
	}
}

// TestCheckResult: a tool with an outputSchema gets Call.CheckResult, the
// call's own check, for a binding that reports a call's outcome before it
// answers (the JavaScript binding's tool-result event); a result that
// passed it is not checked again. A tool without one gets nil.
func TestCheckResult(t *testing.T) {
	var got []string
	checker := func(name, schema string, checkThis, answer string) Tool {
		return Tool{Name: name, OutputSchema: json.RawMessage(schema), Execute: func(_ context.Context, _ json.RawMessage, c Call) (json.RawMessage, error) {
			if c.CheckResult == nil {
				got = append(got, name+": nil")
				return json.RawMessage(answer), nil
			}
			err := c.CheckResult(json.RawMessage(checkThis))
			got = append(got, fmt.Sprintf("%s: %v", name, err))
			if err != nil {
				return nil, err
			}
			return json.RawMessage(answer), nil
		}}
	}
	const idSchema = `{"type":"object","properties":{"id":{"type":"string"}}}`
	cm := newTestCodeMode(t, Config{Tools: []Tool{
		checker("c.bad", idSchema, `{"id":5}`, `{"id":"x"}`),
		// the binding's promise: it answers with what it checked
		checker("c.good", idSchema, `{"id":"x"}`, `{"id":"x"}`),
		// so an answer that differs is not checked again
		checker("c.unchecked", idSchema, `{"id":"x"}`, `{"id":6}`),
		{Name: "c.none", Execute: func(_ context.Context, _ json.RawMessage, c Call) (json.RawMessage, error) {
			got = append(got, fmt.Sprintf("c.none: %v", c.CheckResult == nil))
			return json.RawMessage(`1`), nil
		}},
	}})
	s := mustSession(t, cm)
	res := exec(t, s, `const r = []; for (const n of ["bad", "good", "unchecked", "none"]) { try { r.push(await tools.c[n]({})) } catch (e) { r.push(e.message) } } return r`, nil)
	if want := `["c.bad: the tool's result does not match its outputSchema: /id: type: got number, want string",{"id":"x"},{"id":6},1]`; string(res.Result) != want {
		t.Errorf("result %s\nwant   %s", res.Result, want)
	}
	if want := []string{"c.bad: c.bad: the tool's result does not match its outputSchema: /id: type: got number, want string", "c.good: <nil>", "c.unchecked: <nil>", "c.none: true"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("checks %q\nwant   %q", got, want)
	}
}
