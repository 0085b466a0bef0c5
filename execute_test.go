package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// newTestCodeMode builds a CodeMode on the real asset with a small order
// desk: orders.*, payments.transfer and a hidden admin tool.
func newTestCodeMode(t testing.TB, cfg Config) *CodeMode {
	t.Helper()
	echo := func(ctx context.Context, in json.RawMessage, c Call) (json.RawMessage, error) {
		return json.Marshal(map[string]any{"input": in, "context": c.Context})
	}
	cfg.Tools = append([]Tool{
		{Name: "orders.search", Description: "Search orders by status.", Execute: echo,
			InputSchema: json.RawMessage(`{"type":"object","properties":{"status":{"type":"string","enum":["open","shipped"]},"limit":{"type":"integer","minimum":1}},"required":["status"]}`)},
		{Name: "orders.get", Description: "Get one order.", Execute: echo},
		{Name: "payments.transfer", Description: "Transfer money.", Execute: echo},
		{Name: "admin.wipe", Description: "Delete everything.", Execute: echo},
		{Name: "util.fail", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
			return nil, errors.New("backend unavailable")
		}},
		{Name: "util.panic", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) { panic("tool bug") }},
		{Name: "util.badjson", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
			return json.RawMessage(`{not json`), nil
		}},
		{Name: "util.big", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
			return json.Marshal(strings.Repeat("x", 100000))
		}},
	}, cfg.Tools...)
	if cfg.ToolFilter == nil {
		cfg.ToolFilter = func(ti ToolInfo) bool { return !strings.HasPrefix(ti.Name, "admin.") }
	}
	cm := mustNew(t, cfg)
	return cm
}

func exec(t *testing.T, s *Session, code string, runContext any) *ExecuteResult {
	t.Helper()
	res, err := s.ExecuteCode(context.Background(), ExecuteCodeInput{Code: code, Explanation: "test"}, runContext)
	if err != nil {
		t.Fatalf("%q: %v", code, err)
	}
	return res
}

func TestExecutePipeline(t *testing.T) {
	var seen []ToolCall
	var mu sync.Mutex
	cm := newTestCodeMode(t, Config{
		MaxResultChars: 1000,
		OnToolCall: func(ctx context.Context, c ToolCall) (Decision, error) {
			mu.Lock()
			seen = append(seen, c)
			mu.Unlock()
			switch c.Tool.Name {
			case "payments.transfer":
				return Decision{Allowed: false, Reason: "Transfers require manual approval."}, nil
			case "orders.get":
				return Decision{Allowed: true, Input: json.RawMessage(`{"id":"rewritten"}`)}, nil
			case "util.fail":
				return Decision{}, errors.New("policy service down")
			}
			if c.Tool.Name == "util.panic" && string(c.Input) == `{"interceptorPanics":true}` {
				panic("interceptor bug")
			}
			return Decision{Allowed: true}, nil
		},
	})
	s := mustSession(t, cm)
	for _, tc := range []struct {
		name, code string
		ok         bool
		result     string // exact JSON when ok
		errCode    string
		errHas     string
		calls      string // name:allowed:ok of each call
	}{
		{"allowed call", `return await tools.orders.search({status: "open"})`, true, `{"context":"ctx-1","input":{"status":"open"}}`, "", "", "orders.search:true:true"},
		{"tool_call by name", `return (await tool_call("orders.search", {status: "open"})).input`, true, `{"status":"open"}`, "", "", "orders.search:true:true"},
		{"denied with reason", `await tools.payments.transfer({amount: 5})`, false, "", "RUNTIME", "Transfers require manual approval.", "payments.transfer:false:false"},
		{"denial is catchable", `try { await tools.payments.transfer({}) } catch (e) { return e.message }`, true, `"call to payments.transfer denied: Transfers require manual approval."`, "", "", "payments.transfer:false:false"},
		{"rewritten input", `return (await tools.orders.get({id: "original"})).input`, true, `{"id":"rewritten"}`, "", "", "orders.get:true:true"},
		{"interceptor error fails closed", `await tools.util.fail({})`, false, "", "RUNTIME", "interceptor failed", "util.fail:false:false"},
		{"interceptor panic fails closed", `await tools.util.panic({interceptorPanics: true})`, false, "", "RUNTIME", "interceptor failed", "util.panic:false:false"},
		{"schema rejects", `await tools.orders.search({status: "lost", limit: 0})`, false, "", "RUNTIME", "/status", "orders.search:true:false"},
		{"tool error message", `try { await tools.orders.search({}) } catch (e) { return e.name }`, true, `"ValidationError"`, "", "", "orders.search:true:false"},
		{"tool panics", `await tools.util.panic({})`, false, "", "RUNTIME", "tool util.panic panicked", "util.panic:true:false"},
		{"tool returns bad JSON", `await tools.util.badjson({})`, false, "", "RUNTIME", "invalid JSON", "util.badjson:true:false"},
		{"hidden tool is unknown", `await tool_call("admin.wipe", {})`, false, "", "RUNTIME", `unknown tool "admin.wipe"`, "admin.wipe:false:false"},
		{"hidden namespace absent", `return [typeof tools.admin, Object.keys(tools).sort()]`, true, `["undefined",["orders","payments","util"]]`, "", "", ""},
		{"search hides filtered", `return (await tool_search({query: "delete everything wipe"})).map(t => t.name).includes("admin.wipe")`, true, `false`, "", "", ""},
		{"search finds", `return (await tool_search({query: "search orders", limit: 1}))[0].name`, true, `"orders.search"`, "", "", ""},
		{"unknown name suggests", `await tool_call("orders.serch", {})`, false, "", "RUNTIME", "did you mean", "orders.serch:false:false"},
		{"unknown namespace fails as tool_call does", `await tools.nope.x({a: 1})`, false, "", "RUNTIME", `unknown tool "nope.x"`, "nope.x:false:false"},
		{"unknown namespace error is a catchable ToolError", `try { await tools.nope.x() } catch (e) { return [e.name, e.message.startsWith('unknown tool "nope.x"')] }`, true, `["ToolError",true]`, "", "", "nope.x:false:false"},
		{"unknown tool of a known namespace", `await tools.orders.serch({})`, false, "", "RUNTIME", `unknown tool "orders.serch"; did you mean`, "orders.serch:false:false"},
		{"stand-ins are not listed", `tools.nope.x; if (0) tools.nope.x(); return [Object.keys(tools).sort(), Object.keys(tools.orders).includes("serch"), Object.isFrozen(tools.nope), Object.isFrozen(tools.nope.x)]; tools.orders.serch()`, true, `[["orders","payments","util"],false,true,true]`, "", "", ""},
		// tools["orders.search"]: models write a tool's full name as a key.
		// It reads through the namespaces: no own key (prelude/tools.js).
		{"a tool by its full name in brackets", `const f = tools["orders.search"]; return [(await f({status: "open"})).input, f === tools.orders.search, "orders.search" in tools, Object.keys(tools).sort(), Object.getOwnPropertyNames(tools).length]`, true, `[{"status":"open"},true,true,["orders","payments","util"],3]`, "", "", "orders.search:true:true"},
		{"an unknown full name in brackets fails as tool_call does", `await tools["orders.serch"]({})`, false, "", "RUNTIME", `unknown tool "orders.serch"; did you mean`, "orders.serch:false:false"},
		{"an unknown full name in single quotes, and a hidden one", `try { await tools['admin.wipe']({}) } catch (e) { return [e.name, e.message.startsWith('unknown tool "admin.wipe"'), Object.keys(tools).length] }`, true, `["ToolError",true,3]`, "", "", "admin.wipe:false:false"},
		{"a hidden tool's path called is still unknown", `await tools.admin.wipe({})`, false, "", "RUNTIME", `unknown tool "admin.wipe"`, "admin.wipe:false:false"},
		{"result truncated visibly", `return await tools.util.big({})`, true, "", "", "", "util.big:true:true"},
		{"syntax error", "return (", false, "", "SYNTAX", "", ""},
		{"console captured", `console.log("a", {b: 1}); console.error(new TypeError("t")); return 1`, true, `1`, "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := exec(t, s, tc.code, "ctx-1")
			if res.OK != tc.ok {
				t.Fatalf("ok = %v, result %s, error %+v", res.OK, res.Result, res.Error)
			}
			if tc.ok && tc.result != "" && string(res.Result) != tc.result {
				t.Errorf("result = %s, want %s", res.Result, tc.result)
			}
			if !tc.ok && (res.Error.Code != tc.errCode || !strings.Contains(res.Error.Message, tc.errHas)) {
				t.Errorf("error = %+v, want code %s containing %q", res.Error, tc.errCode, tc.errHas)
			}
			var calls []string
			for _, c := range res.ToolCalls {
				calls = append(calls, fmt.Sprintf("%s:%v:%v", c.Name, c.Allowed, c.OK))
				if !c.OK && c.Reason == "" {
					t.Errorf("call %s failed without a reason", c.Name)
				}
			}
			if got := strings.Join(calls, ","); got != tc.calls {
				t.Errorf("tool calls = %s, want %s", got, tc.calls)
			}
		})
	}
	t.Run("truncation marker", func(t *testing.T) {
		res := exec(t, s, `return await tools.util.big({})`, nil)
		if len(res.Result) > 1000 || !strings.Contains(string(res.Result), "more characters]") {
			t.Errorf("result of %d chars: %.200s", len(res.Result), res.Result)
		}
	})
	t.Run("logs", func(t *testing.T) {
		res := exec(t, s, `console.log("a", {b: 1}); console.error(new TypeError("t")); console.debug(1, null, undefined)`, nil)
		want := []LogEntry{{"log", `a {"b":1}`}, {"error", "TypeError: t"}, {"debug", "1 null undefined"}}
		if fmt.Sprint(res.Logs) != fmt.Sprint(want) {
			t.Errorf("logs = %v, want %v", res.Logs, want)
		}
	})
	t.Run("interceptor sees tool, input and context", func(t *testing.T) {
		mu.Lock()
		seen = nil
		mu.Unlock()
		exec(t, s, `await tools.orders.search({status: "shipped"})`, map[string]string{"user": "u1"})
		mu.Lock()
		defer mu.Unlock()
		if len(seen) != 1 || seen[0].Tool.Name != "orders.search" || string(seen[0].Input) != `{"status":"shipped"}` ||
			fmt.Sprint(seen[0].Context) != "map[user:u1]" {
			t.Errorf("interceptor saw %+v", seen)
		}
	})
}

func TestToolLimit(t *testing.T) {
	cm := newTestCodeMode(t, Config{MaxToolCalls: 3})
	s := mustSession(t, cm)
	res := exec(t, s, `for (let i = 0; i < 10; i++) { try { await tools.orders.get({}) } catch (e) {} } return "survived"`, nil)
	if res.OK || res.Error.Code != ErrorCodeToolLimit {
		t.Fatalf("got %+v %s", res.Error, res.Result)
	}
	if len(res.ToolCalls) != 4 || res.ToolCalls[3].Allowed {
		t.Errorf("tool calls: %+v", res.ToolCalls)
	}
	if res := exec(t, s, `return (await tools.orders.get({})).input`, nil); !res.OK {
		t.Errorf("the next run is limited too: %+v", res.Error)
	}
}

func TestLimits(t *testing.T) {
	// Each case has its own factory: the memory case must reach its limit
	// long before its timeout, even on a loaded machine.
	// Each error names its limit, so the model knows what it ran into.
	for _, tc := range []struct {
		code, want, message string
		timeout             time.Duration
	}{
		{"while (true) {}", ErrorCodeTimeout, "the program did not finish within 3s", 3 * time.Second},
		{"const a = []; while (true) a.push({x: 'y'.repeat(100) + a.length})", ErrorCodeMemoryLimit,
			"out of memory (the run's memory limit is 16 MB: hold less data at once, e.g. work through it in parts and keep only what the result needs)", 60 * time.Second},
	} {
		cm := newTestCodeMode(t, Config{Timeout: tc.timeout, MemoryLimitMB: 16})
		s := mustSession(t, cm)
		res := exec(t, s, tc.code, nil)
		if res.OK || res.Error.Code != tc.want || res.Error.Message != tc.message {
			t.Errorf("%q: got %+v, want %s %q", tc.code, res.Error, tc.want, tc.message)
		}
		if res := exec(t, s, "return 1", nil); !res.OK {
			t.Errorf("after %s the next run failed: %+v", tc.want, res.Error)
		}
	}
}

// TestOverlappingRuns runs 50 runs of one session at once; each tool call
// echoes the context of its own run.
func TestOverlappingRuns(t *testing.T) {
	cm := newTestCodeMode(t, Config{})
	s := mustSession(t, cm)
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code := fmt.Sprintf(`console.log("run %d"); const r = await Promise.all([1, 2, 3].map(() => tools.orders.get({}))); return r.map(x => x.context)`, i)
			res, err := s.ExecuteCode(context.Background(), ExecuteCodeInput{Code: code}, i)
			if err != nil {
				errs <- err
				return
			}
			want := fmt.Sprintf("[%d,%d,%d]", i, i, i)
			if !res.OK || string(res.Result) != want || len(res.Logs) != 1 || res.Logs[0].Message != fmt.Sprintf("run %d", i) || len(res.ToolCalls) != 3 {
				errs <- fmt.Errorf("run %d: %s %+v logs %v calls %d", i, res.Result, res.Error, res.Logs, len(res.ToolCalls))
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestCancelRun(t *testing.T) {
	started := make(chan struct{})
	var toolCtxErr error
	done := make(chan struct{})
	cm := newTestCodeMode(t, Config{Tools: []Tool{{Name: "slow.wait", Execute: func(ctx context.Context, _ json.RawMessage, _ Call) (json.RawMessage, error) {
		close(started)
		<-ctx.Done()
		toolCtxErr = ctx.Err()
		close(done)
		return nil, ctx.Err()
	}}}})
	s := mustSession(t, cm)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	_, err := s.ExecuteCode(ctx, ExecuteCodeInput{Code: "await tools.slow.wait({})"}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	<-done
	if toolCtxErr == nil {
		t.Error("the tool's context was not cancelled")
	}
}

func TestSessionTools(t *testing.T) {
	cm := newTestCodeMode(t, Config{})
	mine := Tool{Name: "notes.add", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
		return json.RawMessage(`"added"`), nil
	}}
	s1 := mustSession(t, cm, mine)
	s2 := mustSession(t, cm)
	if res := exec(t, s1, `return await tools.notes.add({})`, nil); string(res.Result) != `"added"` {
		t.Errorf("own tool: %s %+v", res.Result, res.Error)
	}
	if res := exec(t, s2, `return typeof tools.notes`, nil); string(res.Result) != `"undefined"` {
		t.Errorf("another session sees the tool: %s", res.Result)
	}
	if _, err := cm.NewSession(Tool{Name: "orders.get", Execute: mine.Execute}); !errors.Is(err, ErrDuplicateTool) {
		t.Errorf("session tool shadowing a factory tool: err = %v", err)
	}
	unregister, err := cm.RegisterTools(Tool{Name: "late.tool", Execute: mine.Execute})
	if err != nil {
		t.Fatal(err)
	}
	if res := exec(t, s2, `return typeof tools.late.tool`, nil); string(res.Result) != `"function"` {
		t.Errorf("tool registered after the session: %s", res.Result)
	}
	unregister()
	if res := exec(t, s2, `return typeof tools.late`, nil); string(res.Result) != `"undefined"` {
		t.Errorf("unregistered tool still visible: %s", res.Result)
	}
	// A factory tool may not take a live session's own name (it made the
	// session's program fail building `tools`, and tool_call reach the
	// factory's tool); once every session holding it is closed it may.
	factoryTool := Tool{Name: "notes.add", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
		return json.RawMessage(`"factory"`), nil
	}}
	s3 := mustSession(t, cm, mine)
	for _, closing := range []*Session{s1, s3} {
		if _, err := cm.RegisterTools(factoryTool); !errors.Is(err, ErrDuplicateTool) || !strings.Contains(err.Error(), `tool name "notes.add": already a tool of a session`) {
			t.Errorf("factory tool over a session's own: err = %v", err)
		}
		if res := exec(t, s3, `return [await tools.notes.add({}), await tool_call("notes.add", {})]`, nil); string(res.Result) != `["added","added"]` {
			t.Errorf("the session's own tool: %s %+v", res.Result, res.Error)
		}
		closing.Close()
	}
	closeTwice := s3.Close() // a second Close frees nothing twice
	if _, err := cm.RegisterTools(factoryTool); err != nil || closeTwice != nil {
		t.Errorf("after every session holding the name closed: err = %v", err)
	}
	if res := exec(t, s2, `return await tools.notes.add({})`, nil); string(res.Result) != `"factory"` {
		t.Errorf("the factory's tool: %s %+v", res.Result, res.Error)
	}
}

func TestLLMTools(t *testing.T) {
	cm := newTestCodeMode(t, Config{OverwriteSystemInstruction: func(cur string) string { return "HOUSE RULES\n" + cur }})
	s := mustSession(t, cm)
	tools := s.LLMTools()
	if len(tools) != 2 || tools[0].Name != "searchTools" || tools[1].Name != "executeCode" {
		t.Fatalf("tools: %+v", tools)
	}
	if !strings.HasPrefix(s.SystemInstruction(), "HOUSE RULES") {
		t.Error("OverwriteSystemInstruction not applied")
	}
	if strings.Contains(s.SystemInstruction(), "admin") {
		t.Error("the instructions mention a hidden tool")
	}
	out, err := tools[1].Execute(context.Background(), json.RawMessage(`{"code":"return 6*7","explanation":"math"}`), nil)
	if err != nil || string(out) != `{"ok":true,"result":42,"logs":[],"toolCalls":[],"durationMs":`+extractDuration(out)+`}` {
		t.Errorf("executeCode: %s %v", out, err)
	}
	out, err = tools[0].Execute(context.Background(), json.RawMessage(`{"query":"transfer money","limit":1}`), nil)
	if err != nil || !strings.Contains(string(out), `"name":"payments.transfer"`) || !strings.Contains(string(out), `"signature"`) {
		t.Errorf("searchTools: %s %v", out, err)
	}
	// Bad arguments: TestLLMToolArguments.
}

func extractDuration(out []byte) string {
	var m struct{ DurationMs json.Number }
	json.Unmarshal(out, &m)
	return m.DurationMs.String()
}

func TestClosed(t *testing.T) {
	cm := newTestCodeMode(t, Config{})
	s := mustSession(t, cm)
	cm.Close()
	if _, err := s.ExecuteCode(context.Background(), ExecuteCodeInput{Code: "1"}, nil); !errors.Is(err, ErrClosed) {
		t.Errorf("ExecuteCode after Close: %v", err)
	}
	if _, err := cm.NewSession(); !errors.Is(err, ErrClosed) {
		t.Errorf("NewSession after Close: %v", err)
	}
	if _, err := cm.RegisterTools(); !errors.Is(err, ErrClosed) {
		t.Errorf("RegisterTools after Close: %v", err)
	}
}

// TestWithConsole: the observer of WithConsole sees each line while the
// run is still going (the tool below waits for the first line), in the
// order and the form of the result's Logs.
func TestWithConsole(t *testing.T) {
	cases := []struct {
		name string
		code string
		want []LogEntry
	}{
		{"before a tool call", `console.log("a", {n: 1}); await tools.wait.line({}); console.warn("b")`,
			[]LogEntry{{"log", `a {"n":1}`}, {"warn", "b"}}},
		{"a sandbox note", `console.info("x"); await tools.wait.line({}); await tool_search({ query: "zzzqqq" })`,
			nil}, // checked against res.Logs below: the note is an entry too
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var seen []LogEntry
			first := make(chan struct{})
			wait := Tool{Name: "wait.line", Execute: func(ctx context.Context, _ json.RawMessage, _ Call) (json.RawMessage, error) {
				select {
				case <-first:
					return json.RawMessage(`true`), nil
				case <-time.After(10 * time.Second):
					return nil, errors.New("no console line reached the observer before the run ended")
				}
			}}
			cm := newTestCodeMode(t, Config{Tools: []Tool{wait}})
			s := mustSession(t, cm)
			ctx := WithConsole(context.Background(), func(e LogEntry) {
				mu.Lock()
				defer mu.Unlock()
				if len(seen) == 0 {
					close(first)
				}
				seen = append(seen, e)
			})
			res, err := s.ExecuteCode(ctx, ExecuteCodeInput{Code: tc.code}, nil)
			if err != nil || !res.OK {
				t.Fatalf("run: %v %+v", err, res)
			}
			mu.Lock()
			defer mu.Unlock()
			if fmt.Sprint(seen) != fmt.Sprint(res.Logs) {
				t.Errorf("observed %v, result logs %v", seen, res.Logs)
			}
			if tc.want != nil && fmt.Sprint(seen) != fmt.Sprint(tc.want) {
				t.Errorf("observed %v, want %v", seen, tc.want)
			}
			if tc.want == nil && len(seen) < 2 {
				t.Errorf("observed %v, want the log line and the search note", seen)
			}
		})
	}
}

// TestToolErrorPosition: a tool's error the program returns rather than
// awaits (return, the last expression, main() returning it, Promise.all)
// was thrown through no frame of the program; it gets the position of the
// call when the code makes that call in one place, as an awaited one gets
// the position of its await. An error the program wraps or rethrows keeps
// its own; a call made in two places gets none.
func TestToolErrorPosition(t *testing.T) {
	cm := newTestCodeMode(t, Config{})
	s := mustSession(t, cm)
	for _, tc := range []struct {
		code      string
		name      string
		line, col int
	}{
		{"await tools.util.fail({})", "ToolError", 1, 22}, // the await's own
		{"return tools.util.fail({})", "ToolError", 1, 23},
		{"const x = 1;\ntools.util.fail({})", "ToolError", 2, 16},
		{"async function main() {\n  return tools.util.fail({})\n}\nreturn main()", "ToolError", 2, 25},
		{"main()\nasync function main() { return tool_call('util.fail', {}) }", "ToolError", 2, 41},
		{"return Promise.all([tools.orders.get({}), tools.util.fail({})])", "ToolError", 1, 58},
		{"return tools.orders.search({ status: 'bad' })", "ValidationError", 1, 27},
		{"return tools.util.fail({}).catch((e) => { throw e })", "ToolError", 1, 43}, // rethrown: QuickJS's
		{"return tools.util.fail({}).catch((e) => { throw new Error('wrapped') })", "Error", 1, 58},
		{"tools.util.fail({}).catch(() => {});\nreturn tools.util.fail({})", "ToolError", 0, 0},
		{"const f = tools.util.fail;\nreturn f({})", "ToolError", 0, 0},
		{"return Promise.reject(new TypeError('mine'))", "TypeError", 1, 36},
	} {
		res := exec(t, s, tc.code, nil)
		if e := res.Error; res.OK || e.Name != tc.name || e.Line != tc.line || e.Column != tc.col {
			t.Errorf("%q: %+v, want %s at %d:%d", tc.code, res.Error, tc.name, tc.line, tc.col)
		}
	}
}
