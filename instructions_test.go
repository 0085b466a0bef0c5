package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

func syntheticCatalog(n int) []*toolEntry {
	namespaces := []string{"orders", "payments", "customers", "inventory", "shipping", "crm", "hr", "email", "calendar", "files"}
	var tools []Tool
	for i := 0; i < n; i++ {
		tl := testTool(fmt.Sprintf("%s.op%d", namespaces[i%len(namespaces)], i))
		tl.Description = "Does operation number " + fmt.Sprint(i) + "."
		tools = append(tools, tl)
	}
	r := newRegistry()
	if _, err := r.add(tools...); err != nil {
		panic(err)
	}
	return r.snapshot()
}

var testLimits = limits{Timeout: 30 * time.Second, MemoryLimitMB: 128, MaxToolCalls: 1000, MaxResultChars: 20000}

func TestInstructionContent(t *testing.T) {
	small := syntheticCatalog(4)
	withTop := append(syntheticCatalog(3), func() *toolEntry {
		e, err := compileTool(testTool("echo"))
		if err != nil {
			t.Fatal(err)
		}
		return e
	}())
	tests := []struct {
		name    string
		tools   []*toolEntry
		lim     limits
		want    []string
		notWant []string
	}{
		{"explains the API and the limits", small, testLimits, []string{
			"searchTools({query, namespace?, limit?})", "executeCode({code, explanation})",
			"async function", "await tool_search({query, namespace?, limit?})", "([]: no match)", "tools.<namespace>.<name>(input)",
			"await tool_call(name, input)", "console.log/info/warn/error/debug", "URL, TextEncoder, atob, setTimeout, Intl; no fetch, DOM or modules", "You may write TypeScript",
			"30s", "128 MB", "1000 tool calls", "20000 bytes",
			"{ok: false, error:", "try/catch", "Promise.all",
		}, nil},
		{"small catalog inlines signatures", small, testLimits, []string{
			"Available tools (4) by namespace; tool_search({namespace}) lists one:\n- customers (1)\n- inventory (1)\n- orders (1)\n- payments (1)\n",
			"```ts\n/** Does operation number 2. */\ntools.customers.op2(input?: unknown): Promise<unknown>;",
		}, nil},
		{"tools without namespace", withTop, testLimits, []string{
			"- customers (1)\n- orders (1)\n- payments (1)\nWithout namespace: echo.\n",
		}, nil},
		{"large catalog lists counts only", syntheticCatalog(500), limits{90 * time.Second, 64, 10, 5000}, []string{
			"Available tools (500) by namespace; tool_search({namespace}) lists one:\n- calendar (50)\n- crm (50)\n- customers (50)\n",
			"1m30s", "64 MB", "10 tool calls", "5000 bytes",
		}, []string{"```ts", "op17"}},
		{"no tools", nil, testLimits, []string{"No tools are available"}, []string{"Available tools"}},
		{"namespaces carry the words their names use most", namedCatalog(t,
			"issues.create", "issues.createComment", "issues.listComments", "issues.addLabels", "issues.removeLabel",
			"issues.listLabelsForRepo", "issues.createMilestone", "repos.getContent", "echo"), testLimits, []string{
			"- issues (7): labels, comment, milestone, repo\n- repos (1): content\nWithout namespace: echo.\n",
		}, nil},
		{"only tools without namespace", namedCatalog(t, "echo", "ping"), testLimits, []string{"Available tools (2): echo, ping.\n"}, []string{"by namespace"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := buildInstructions(tt.tools, tt.lim)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in:\n%s", w, got)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(got, w) {
					t.Errorf("unexpected %q in:\n%s", w, got)
				}
			}
		})
	}
}

// namedCatalog compiles a test tool per name, sorted by name as a registry
// snapshot is.
func namedCatalog(t *testing.T, names ...string) []*toolEntry {
	t.Helper()
	slices.Sort(names)
	var out []*toolEntry
	for _, n := range names {
		e, err := compileTool(testTool(n))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

func TestInstructionSize(t *testing.T) {
	ten := syntheticCatalog(10)
	base := buildInstructions(ten, testLimits)
	sigs := 0
	for _, e := range ten {
		sigs += len(e.signature()) + 1
	}
	tokens10 := (len(base) - sigs) / 4
	tokens500 := len(buildInstructions(syntheticCatalog(500), testLimits)) / 4
	fmt.Printf("INSTRUCTIONS tokens(chars/4): 10 tools=%d (+%d for signatures) 500 tools=%d\n", tokens10, sigs/4, tokens500)
	if tokens10 >= 500 {
		t.Errorf("instructions for 10 tools are %d tokens without signatures, want < 500", tokens10)
	}
	if tokens500 >= 800 {
		t.Errorf("instructions for 500 tools are %d tokens, want < 800", tokens500)
	}
}

func TestFormatDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		30 * time.Second: "30s", 2 * time.Minute: "2m", 90 * time.Second: "1m30s",
		time.Hour: "1h", 1500 * time.Millisecond: "1.5s", 500 * time.Millisecond: "500ms",
	} {
		if got := formatDuration(d); got != want {
			t.Errorf("formatDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestOneInstruction: executeCode's description is the contract in brief,
// without the catalog; the catalog lives in SystemInstruction, which follows
// later registrations, and both tell the model it may write TypeScript.
func TestOneInstruction(t *testing.T) {
	cm := newTestCodeMode(t, Config{OverwriteSystemInstruction: func(cur string) string { return "HOUSE RULES\n" + cur }})
	s := mustSession(t, cm)
	desc := s.LLMTools()[1].Description
	before := s.SystemInstruction()
	if _, err := cm.RegisterTools(Tool{Name: "billing.refund", Description: "Refund an invoice.", Execute: noopToolExecute}); err != nil {
		t.Fatal(err)
	}
	after := s.SystemInstruction()
	for _, tc := range []struct {
		name, text string
		want       []string
		notWant    []string
	}{
		{"description states the contract", desc,
			[]string{"JavaScript or TypeScript", "async function", "await tools.<namespace>.<name>(input)", "{ok: true, result, logs, toolCalls}",
				"{ok: false, error: {name, message, code, line?, column?}", "searchTools", "30s", "128 MB", "1000 tool calls", "20000 bytes"},
			[]string{"orders.search", "Available tools", "HOUSE RULES", "```ts"}},
		{"instruction holds the catalog and TypeScript", before,
			[]string{"HOUSE RULES", "JavaScript or TypeScript", "You may write TypeScript", "Available tools", "orders.search"},
			[]string{"billing.refund"}},
		{"instruction follows registrations", after, []string{"billing.refund", "billing (1)"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, w := range tc.want {
				if !strings.Contains(tc.text, w) {
					t.Errorf("missing %q in:\n%s", w, tc.text)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(tc.text, w) {
					t.Errorf("unexpected %q in:\n%s", w, tc.text)
				}
			}
		})
	}
	if len(desc) > 600 {
		t.Errorf("description is %d characters, want at most 600: %s", len(desc), desc)
	}
	if s.LLMTools()[1].Description != desc {
		t.Error("the description changed with the catalog")
	}
}

// executeCode's description, word for word: it is built without fmt (a
// long format string made fmt's printer one of the functions V8 optimizes
// at every cold start), so this pins the text the fmt version produced.
func TestExecuteCodeDescription(t *testing.T) {
	const head = "Run JavaScript or TypeScript in a sandbox: the body of an async function that calls the host's tools " +
		"(await tools.<namespace>.<name>(input)) and returns JSON data. " +
		"Resolves with {ok: true, result, logs, toolCalls} or {ok: false, error: {name, message, code, line?, column?}, logs, toolCalls}. " +
		"Use searchTools (or tool_search in the code) to find tools and their TypeScript signatures; the system instruction has the rules. "
	tests := []struct {
		lim  limits
		want string
	}{
		{limits{Timeout: 30 * time.Second, MemoryLimitMB: 128, MaxToolCalls: 1000, MaxResultChars: 100000},
			"Limits per run: 30s, 128 MB, 1000 tool calls, 100000 bytes of output."},
		{limits{Timeout: 2 * time.Minute, MemoryLimitMB: 1, MaxToolCalls: 0, MaxResultChars: 12345},
			"Limits per run: 2m, 1 MB, 0 tool calls, 12345 bytes of output."},
		{limits{Timeout: 0, MemoryLimitMB: 2048, MaxToolCalls: 5, MaxResultChars: 1},
			"Limits per run: no time limit, 2048 MB, 5 tool calls, 1 bytes of output."},
	}
	for _, tt := range tests {
		if got := executeCodeDescription(tt.lim); got != head+tt.want {
			t.Errorf("executeCodeDescription(%+v) =\n%q\nwant\n%q", tt.lim, got, head+tt.want)
		}
	}
}

// TestInstructionConsoleMethods: the instruction's console line names what
// the sandbox's console has, no more and no less: each method is a name of
// the line or begins with one (timeEnd with time, groupEnd with group),
// and each name of the line is a method. It failed when the line listed
// the five levels alone and console had 19 methods (prelude/console.js).
func TestInstructionConsoleMethods(t *testing.T) {
	ins := buildInstructions(nil, testLimits)
	var line string
	for _, l := range strings.Split(ins, "\n") {
		if strings.HasPrefix(l, "- console.") {
			line = l
		}
	}
	if line == "" {
		t.Fatalf("no console line in the instruction:\n%s", ins)
	}
	// "- console.log/info/.../clear are logged."
	named := map[string]bool{}
	for _, w := range strings.Split(strings.Fields(strings.TrimPrefix(line, "- console."))[0], "/") {
		if !regexp.MustCompile(`^[a-z][A-Za-z]*$`).MatchString(w) {
			t.Fatalf("%q in the console line %q is not a method name", w, line)
		}
		named[w] = true
	}
	cm := newTestCodeMode(t, Config{})
	s := mustSession(t, cm)
	res, err := s.ExecuteCode(context.Background(), ExecuteCodeInput{Code: "return Object.keys(console).filter((k) => typeof console[k] === 'function')"}, nil)
	if err != nil || res.Error != nil {
		t.Fatalf("%v %+v", err, res.Error)
	}
	var methods []string
	if err := json.Unmarshal(res.Result, &methods); err != nil || len(methods) < 5 {
		t.Fatalf("console methods %s: %v", res.Result, err)
	}
	has := map[string]bool{}
	for _, m := range methods {
		has[m] = true
		ok := false
		for n := range named {
			ok = ok || strings.HasPrefix(m, n)
		}
		if !ok {
			t.Errorf("console.%s is not named in the instruction's line %q", m, line)
		}
	}
	for n := range named {
		if !has[n] {
			t.Errorf("the instruction names console.%s, which the sandbox lacks (it has %v)", n, methods)
		}
	}
}

// TestOverwriteSystemInstructionPanics: an OverwriteSystemInstruction that
// panics leaves the built-in instruction, as a hook that throws does in the
// JavaScript binding, and its first panic is reported. Before, the panic
// unwound out of SystemInstruction into the caller.
func TestOverwriteSystemInstructionPanics(t *testing.T) {
	for _, tc := range []struct {
		name  string
		panic func()
		want  string // in the report
	}{
		{"a string", func() { panic("hook bug") }, "hook bug"},
		{"an error", func() { panic(errors.New("hook error")) }, "hook error"},
		{"a runtime error", func() { var m map[string]int; m["x"] = 1 }, "assignment to entry in nil map"},
		{"nil", func() { panic(nil) }, "panic called with nil argument"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var reported []string
			defer func(f func(string, ...any)) { reportf = f }(reportf)
			reportf = func(format string, args ...any) { reported = append(reported, fmt.Sprintf(format, args...)) }
			var given string
			cm := newTestCodeMode(t, Config{OverwriteSystemInstruction: func(cur string) string {
				given = cur
				tc.panic()
				return "unreachable"
			}})
			s := mustSession(t, cm)
			for i := 0; i < 2; i++ {
				var got string
				func() {
					defer func() {
						if p := recover(); p != nil {
							t.Fatalf("SystemInstruction panicked: %v", p)
						}
					}()
					got = s.SystemInstruction()
				}()
				if got == "" || got != given {
					t.Errorf("call %d: SystemInstruction() = %.80q..., want the built-in instruction the hook was given", i+1, got)
				}
			}
			if len(reported) != 1 || !strings.Contains(reported[0], "OverwriteSystemInstruction panicked") || !strings.Contains(reported[0], tc.want) {
				t.Errorf("reported %q, want one report naming the hook and %q", reported, tc.want)
			}
		})
	}
}
