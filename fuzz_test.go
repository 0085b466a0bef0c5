package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/interopio/code-mode/internal/tsgen"
	"github.com/interopio/code-mode/internal/tsstrip"
	"github.com/interopio/code-mode/sandbox"
)

// The fuzz targets of what a model writes and a catalog registers: plain
// `go test` runs each on its seeds; `go test -run='^$' -fuzz=FuzzLLMArgs
// -parallel=1 .` searches further (a crasher is kept under
// testdata/fuzz/FuzzX, which plain go test then replays).

// llmArgsSeeds are arguments of the rows of TestLLMToolArguments and its
// neighbours: objects, JSON text, markup, fences, strings for numbers.
var llmArgsSeeds = []string{
	`{"query":"transfer money","limit":"1"}`, `{"query":"orders","limit":1.0}`, `"transfer money"`,
	`"{\"query\":\"transfer money\",\"limit\":1}"`, `{"query":"x","limit":"five"}`, `{"query":{"text":"x"}}`, `["x"]`,
	`{"qeury":"x"}`, `{"query":`, `{"code":"return 6*7","explanation":"math"}`, `{"code":"return 1","explanation":5}`,
	`"{\"code\": \"return 1"`, `"{\"code\": \"return 1\", explanation: 2}"`, `"{\"code\": \"return 6*7\", \"explanation\": \"x\",\n}"`,
	`"\ufeff{\"code\": \"return 9\"}"`, "\"```json\\n{\\\"code\\\": \\\"return 1\\\"}\\n```\"", `{"__arg1":"return 1"}`, `{"rawInput":"{\"code\": \"return 1\",}"}`,
	`{"name":"executeCode","arguments":"{\"code\":\"return 1\"}"}`, `{"function":{"code":"return 1"}}`,
	`{"code":"<tool_call>{\"name\": \"executeCode\", \"arguments\": {\"code\": \"return 1\"}}</tool_call>"}`,
	`{"code":"<function=executeCode>{\"code\": \"return 1\"}</function>"}`,
	`{"code":"<invoke name=\"executeCode\"><parameter name=\"code\">return 1</parameter></invoke>"}`,
	`{"code":"<tool_call>executeCode<arg_key>code</arg_key><arg_value>return 1</arg_value></tool_call>"}`,
	`{"code":"[TOOL_CALLS][{\"name\": \"executeCode\", \"arguments\": {\"code\": \"return 1\"}}]"}`,
	`{"code":"<|channel|>commentary to=functions.executeCode <|constrain|>json<|message|>{\"code\":\"return 1\"}<|call|>"}`,
	`{"code":"<|START_ACTION|>[{\"tool_name\": \"executeCode\", \"parameters\": {\"code\": \"return 1\"}}]<|END_ACTION|>"}`,
	`{"code":"Action: executeCode\nAction Input: return 1"}`, `{'code': 'return 1', 'x': True}`, `"{code: \"return 1\"}"`,
	`{"q":"orders","top_k":"3"}`, `{"query":["refund","order"]}`, `{"code":"return 1"}{"code":"return 2"}`,
	`{"code": "x" // a comment` + "\n}", `"[{\"code\":\"return 1\"}]"`, `null`, ``, `5`, `{"limit":1e400}`,
}

// FuzzLLMArgs: the LLM tools' argument reader, on any bytes a model's
// client hands over, neither panics nor answers twice differently; an
// error is the model's (argsError, naming the tool), and what it reads has
// only the spec's fields, of the spec's kinds, integers within bounds.
func FuzzLLMArgs(f *testing.F) {
	for _, s := range llmArgsSeeds {
		f.Add([]byte(s), []byte(`3`))
	}
	f.Fuzz(func(t *testing.T, args, second []byte) {
		for _, spec := range []argSpec{executeCodeArgs, searchToolsArgs, toolSearchArgs} {
			in, err := spec.parse(args)
			again, err2 := spec.parse(args)
			if fmt.Sprint(err) != fmt.Sprint(err2) || !reflect.DeepEqual(in, again) {
				t.Fatalf("%s(%q): %v, %v then %v, %v", spec.tool, args, in, err, again, err2)
			}
			if err != nil {
				var ae *argsError
				if !errors.As(err, &ae) || !strings.HasPrefix(err.Error(), spec.tool+": ") {
					t.Fatalf("%s(%q): error %T %q, want an argsError naming the tool", spec.tool, args, err, err)
				}
				continue
			}
			checkArgs(t, spec, args, in)
			if spec.tool == "tool_search" && in["limit"] == nil {
				if v, err := spec.positional("limit", second); err == nil && v != nil {
					if n, ok := v.(int); !ok || n < 1 || n > spec.field("limit").max {
						t.Fatalf("positional limit %q: %v", second, v)
					}
				} else if err != nil && !strings.HasPrefix(err.Error(), "tool_search: limit: ") {
					t.Fatalf("positional limit %q: %v", second, err)
				}
			}
		}
	})
}

// checkArgs: in, read by spec from args, holds the spec's fields (and
// their coercedFrom notes) only, each of its kind.
func checkArgs(t *testing.T, spec argSpec, args []byte, in map[string]any) {
	t.Helper()
	for k, v := range in {
		f := spec.field(strings.TrimSuffix(k, " from"))
		if f == nil {
			t.Fatalf("%s(%q): key %q is no field", spec.tool, args, k)
		}
		switch x := v.(type) {
		case string:
			if f.kind != "string" && !strings.HasSuffix(k, " from") {
				t.Fatalf("%s(%q): %s is the string %q", spec.tool, args, k, x)
			}
		case int:
			if f.kind != "integer" || x < f.min || x > f.max {
				t.Fatalf("%s(%q): %s is %d, want an integer %d..%d", spec.tool, args, k, x, f.min, f.max)
			}
		default:
			t.Fatalf("%s(%q): %s is %T", spec.tool, args, k, v)
		}
	}
	// At most 3 bytes a byte: invalid UTF-8 reads as U+FFFD.
	if c, ok := in["code"].(string); spec.tool == "executeCode" && (!ok || len(c) > 3*len(args)) {
		t.Fatalf("executeCode(%q): code %q", args, c)
	}
}

// FuzzPrepareCode: what ExecuteCode does to a program before the run
// (encodedProgram, tsstrip.Prepare without prepareCode's recover, the
// escaped-twice hint, the prelude's choice) neither panics nor answers
// twice differently, and an error names a place in the text.
func FuzzPrepareCode(f *testing.F) {
	for _, s := range []string{
		"return 6*7", "```ts\nconst x: number = 1\nreturn x\n```", "```js\\nreturn 1\\n```", `"const a = 1;\nreturn a"`,
		"// a comment\nreturn 1", "/* unclosed", "interface A { a: string }\nreturn 1", "```ts\ninterface A {}\n```\n```js\nreturn 1\n```",
		"async function main() { return 1 }\nmain()", "items.forEach(async (x) => { await tools.a.b(x) })",
		"return new Intl.DateTimeFormat().format(0)", "setTimeout(() => 1, 5)", "return crypto.randomUUID()",
		"const s = \"a\\nb\"; return s", "#!/usr/bin/env node\nreturn 1", "return `${a as any}`", "{ return 1 }", ")}]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		if len(code) > maxCodeBytes {
			return
		}
		l1, c1 := encodedProgram(code)
		if l2, c2 := encodedProgram(code); l1 != l2 || c1 != c2 {
			t.Fatalf("encodedProgram(%q): %d:%d then %d:%d", code, l1, c1, l2, c2)
		}
		p, err := tsstrip.Prepare(code)
		p2, err2 := tsstrip.Prepare(code)
		if !reflect.DeepEqual(p, p2) || !reflect.DeepEqual(err, err2) {
			t.Fatalf("Prepare(%q) differs between two calls", code)
		}
		if err != nil {
			if err.Message == "" || err.Line < 1 || err.Line > strings.Count(code, "\n")+1 {
				t.Fatalf("Prepare(%q): error %q at line %d", code, err.Message, err.Line)
			}
			e := &sandbox.Error{Message: err.Message, Line: err.Line, Column: err.Column}
			escapedTwice(code, e)
			return
		}
		if utf8.ValidString(code) && !utf8.ValidString(p.Code) {
			t.Fatalf("Prepare(%q): invalid UTF-8 %q", code, p.Code)
		}
		for _, zoned := range []bool{false, true} {
			preludeFor(p.Code, zoned)
		}
	})
}

// FuzzToolSchema: a catalog's schemas (an input, an output) and a value
// checked against them: registration refuses a schema with an error
// naming the tool and the field, or takes it; then its signature stays
// within tsgen.SignatureMax, and checking the value neither panics nor
// answers twice differently.
func FuzzToolSchema(f *testing.F) {
	for _, s := range [][3]string{
		{orderSchema, ``, `{"status":"open","limit":2}`},
		{`{"type":"object","properties":{"a":{"$ref":"#"}}}`, `{"$ref":"#/$defs/a","$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}}}`, `{"a":{"a":{}}}`},
		{`{"$defs":{"n":{"$anchor":"n","type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#n"}}}}},"$ref":"#/$defs/n"}`, ``, `{"kids":[{"kids":[]}]}`},
		{`{"type":"object","properties":{"s":{"type":"string","pattern":"^(a+)+$"}}}`, `true`, `{"s":"aaaaaaaaaaaaaaaaaaaa!"}`},
		{`{"type":"object","properties":{"e":{"enum":[1,"a",null,{"x":1},[1],true]}},"required":["e"]}`, `false`, `{"e":2}`},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","items":[{"type":"string"}],"dependencies":{"a":["b"]}}`, ``, `{"a":1}`},
		{`{"type":"object","properties":{"a":{"type":"string","nullable":true},"b":{"type":["integer","null"]}}}`, `{"type":"array","items":{"type":"number","multipleOf":0.01}}`, `[1.005]`},
		{`{"anyOf":[{"type":"string"},{"type":"object","properties":{"x":{"oneOf":[{"const":1},{"const":"1"}]}}}]}`, ``, `{"x":"2"}`},
		{`{"type":"object","properties":{"*/":{"type":"string","description":"a */ b","default":"*/"},"q\"uo'te":{"const":"*/"}}}`, ``, `"{\"a\":1}"`},
		{`{"$ref":"#/components/schemas/Pet"}`, ``, `{}`}, {`{"status":"string"}`, ``, `1`}, {`[]`, `{`, `null`},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, input, output, value string) {
		if !utf8.ValidString(input) || !utf8.ValidString(output) {
			return
		}
		tool := Tool{Name: "fuzz.tool", InputSchema: json.RawMessage(input), OutputSchema: json.RawMessage(output), Execute: noopToolExecute}
		e, err := compileTool(tool)
		if _, err2 := compileTool(tool); fmt.Sprint(err) != fmt.Sprint(err2) {
			t.Fatalf("compileTool(%q, %q): %v then %v", input, output, err, err2)
		}
		if err != nil {
			if msg := err.Error(); !errors.Is(err, ErrInvalidTool) || !strings.Contains(msg, "fuzz.tool") ||
				!strings.Contains(msg, "inputSchema") && !strings.Contains(msg, "outputSchema") {
				t.Fatalf("compileTool(%q, %q): %q, want ErrInvalidTool naming the tool and the field", input, output, msg)
			}
			return
		}
		if sig := e.signature(); len(sig) > tsgen.SignatureMax || !strings.Contains(sig, "tools.fuzz.tool(") {
			t.Fatalf("signature of (%q, %q): %d bytes: %.300q", input, output, len(sig), sig)
		}
		v1, v2 := e.validate(json.RawMessage(value)), e.validate(json.RawMessage(value))
		if fmt.Sprint(v1) != fmt.Sprint(v2) {
			t.Fatalf("validate(%q) against %q: %v then %v", value, input, v1, v2)
		}
		if v1 != nil && e.tool.InputSchema != nil && !errors.Is(v1, errInvalidInput) && v1 != errStopped && !strings.Contains(v1.Error(), "inputSchema") {
			t.Fatalf("validate(%q) against %q: %v, neither the input's fault nor the schema's", value, input, v1)
		}
		e.checkResult(json.RawMessage(value))
	})
}

// FuzzSearchRequest: searchTools' arguments as a model sends them, read
// and searched on a small catalog: always an answer (never a Go error), of
// JSON within searchAnswerChars, the same each time; and tool_search's
// reading in the sandbox (a query and a number after it).
func FuzzSearchRequest(f *testing.F) {
	for _, s := range llmArgsSeeds {
		f.Add([]byte(s), []byte(`2`))
	}
	for _, s := range []string{
		`{"namespace":"orders"}`, `{"query":"","namespace":"tools/orders/"}`, `{"namespace":"orders.get"}`, `{"namespace":"nope","query":"x"}`,
		`{"query":"` + strings.Repeat("refund ", 300) + `"}`, `{"query":"\u00e9t\u00e9 \u0130stanbul \ud83d\ude00 HTTPServer getOrderById"}`,
		`{"query":5}`, `{"query":true,"limit":"50"}`, `{"names":["orders.get","payments.transfer"]}`, `{"query":"orders","limit":-1}`,
	} {
		f.Add([]byte(s), []byte(`"x"`))
	}
	cm := newTestCodeMode(f, Config{})
	s := mustSession(f, cm)
	searchTools := s.LLMTools()[0]
	f.Fuzz(func(t *testing.T, args, second []byte) {
		out, err := searchTools.Execute(context.Background(), args, nil)
		if err != nil {
			t.Fatalf("searchTools(%q): error %v", args, err)
		}
		if !json.Valid(out) || len(out) > searchAnswerChars {
			t.Fatalf("searchTools(%q): %d bytes: %.300q", args, len(out), out)
		}
		if again, _ := searchTools.Execute(context.Background(), args, nil); string(again) != string(out) {
			t.Fatalf("searchTools(%q): %s then %s", args, out, again)
		}
		in, err := toolSearchArgs.parse(args)
		if err == nil && in["limit"] == nil {
			in["limit"], err = toolSearchArgs.positional("limit", second)
		}
		if err != nil {
			return
		}
		query, _ := in["query"].(string)
		namespace, _ := in["namespace"].(string)
		limit, _ := in["limit"].(int)
		visible := cm.visible(s.own)
		hits := cm.search(context.Background(), visible, SearchRequest{Query: query, Namespace: namespace, Limit: limit}, s.signature)
		if len(hits) > 50 || limit > 0 && len(hits) > limit {
			t.Fatalf("tool_search(%q): %d hits for the limit %d", args, len(hits), limit)
		}
		if len(hits) == 0 {
			noMatchNote(visible, query, namespace)
		}
	})
}
