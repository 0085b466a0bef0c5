package codemode

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestCalleeHint: a namespace called as a tool, tools itself called, and a
// tool's name spelled in brackets get, after QuickJS's "not a function",
// the namespace's tools or the tool meant; before, the error said only
// "tools.slack is not a function".
func TestCalleeHint(t *testing.T) {
	var tools []Tool
	for _, name := range []string{"slack.chat_postMessage", "slack.chat_update", "slack.chat_delete", "slack.users_list", "github.issues_create", "slackbot"} {
		tools = append(tools, Tool{Name: name, Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
			return json.RawMessage("1"), nil
		}})
	}
	s := mustSession(t, mustNew(t, Config{Tools: tools}))
	for _, tc := range []struct{ code, want string }{
		{`return await tools.slack({ channel: "C1", text: "hi" })`,
			"not a function: tools.slack is not a function; tools.slack is a namespace of 4 tools, not a tool: call one of them by its full name (e.g. tools.slack.chat_delete, tools.slack.chat_postMessage, tools.slack.chat_update) (tool_search({ query }) finds the one you need)"},
		{`return await tools.github({})`,
			"tools.github is a namespace of 1 tool, not a tool: call one of them by its full name (tools.github.issues_create)"},
		{`return await tools["slack"]({})`, "tools.slack is a namespace of 4 tools"},
		{`return await tools({ name: "slack.chat_update" })`,
			"tools is not a function; tools holds the tools and is not one: call a tool by its name, await tools.<name>(input)"},
		{`return await tools.slack["chat.postMessage"]({ channel: "C1" })`,
			`tools.slack["chat.postMessage"] is not a function; did you mean slack.chat_postMessage`},
	} {
		res := exec(t, s, tc.code, nil)
		if res.OK || !strings.Contains(res.Error.Message, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %q", tc.code, res.Error, tc.want)
		}
	}
	// Another callee keeps QuickJS's words alone.
	res := exec(t, s, `const f = 1; return f()`, nil)
	if res.OK || strings.Contains(res.Error.Message, "namespace") || strings.Contains(res.Error.Message, "did you mean") {
		t.Errorf("a callee that is not under tools: %+v", res.Error)
	}
}

// TestCalleeHintNamesOnlyCallableTools: the namespace hint and the tool
// meant count and name only what the run can call: not a tool of that
// namespace that ToolFilter hides, nor another session's own tool there.
func TestCalleeHintNamesOnlyCallableTools(t *testing.T) {
	one := func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
		return json.RawMessage("1"), nil
	}
	cm := mustNew(t, Config{
		ToolFilter: func(ti ToolInfo) bool { return !strings.Contains(ti.Name, "secret") },
		Tools:      []Tool{{Name: "admin.list", Execute: one}, {Name: "admin.secretWipe", Execute: one}, {Name: "admin.secret_dump", Execute: one}},
	})
	mustSession(t, cm, Tool{Name: "admin.privateNotes", Execute: one})
	s := mustSession(t, cm)
	for _, code := range []string{`return await tools.admin({})`, `return await tools.admin["secretWipe"]({})`, `return await tools.admin["secret.dump"]({})`, `return await tools.admin["private.notes"]({})`} {
		res := exec(t, s, code, nil)
		if res.OK || !strings.Contains(res.Error.Message, "admin.list") || strings.Contains(res.Error.Message, "2 tools") {
			t.Errorf("%s: %+v, want a hint naming admin.list alone", code, res.Error)
		}
		// What follows QuickJS's words is the hint (they quote the code).
		_, hint, _ := strings.Cut(res.Error.Message, "is not a function")
		for _, w := range []string{"secret", "wipe", "dump", "private", "notes"} {
			if strings.Contains(strings.ToLower(hint), w) {
				t.Errorf("%s: the hint names a tool the run cannot call (%q): %s", code, w, hint)
			}
		}
	}
}

// TestDestructuredToolsHint: a namespace destructured from tools that
// tools does not have (const { invoices } = tools) read as undefined, and a
// misspelt tool called through a destructured namespace was "not a
// function" with no word of the tools: both now get the hint a path under
// tools gets.
func TestDestructuredToolsHint(t *testing.T) {
	var tools []Tool
	for _, name := range []string{"orders.search", "orders.get", "payments.refund"} {
		tools = append(tools, Tool{Name: name, Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
			return json.RawMessage("1"), nil
		}})
	}
	s := mustSession(t, mustNew(t, Config{Tools: tools}))
	for _, tc := range []struct{ code, want string }{
		{"const { invoices } = tools;\nreturn await invoices.list({})",
			"cannot read property 'list' of undefined: invoices is undefined; tools has no invoices (it was destructured from tools); "},
		{"const { orders, payment } = tools\nreturn await payment.refund({})",
			"payment is undefined; tools has no payment (it was destructured from tools); did you mean payments.refund"},
		{"const { orders: o } = tools;\nreturn await o.serach({})", "o.serach is not a function; did you mean orders.search"},
		{"const { orders } = tools;\nreturn await orders.serach({})", "orders.serach is not a function; did you mean orders.search"},
	} {
		res := exec(t, s, tc.code, nil)
		if res.OK || !strings.Contains(res.Error.Message, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %q", tc.code, res.Error, tc.want)
		}
	}
	// A name destructured from anything else keeps QuickJS's words and the expression.
	for _, code := range []string{"const { invoices } = {};\nreturn invoices.list", "const { orders } = tools.x ?? {};\nreturn orders.list"} {
		res := exec(t, s, code, nil)
		if res.OK || strings.Contains(res.Error.Message, "tools has no") {
			t.Errorf("%s: %+v", code, res.Error)
		}
	}
}
