package codemode

import (
	"context"
	"encoding/json"
	"testing"
	"time"
)

// TestToolPathHint: a tool name that holds '-' written as a path
// (tools.crm-contacts.list) is subtraction, and QuickJS's "'contacts' is
// not defined" named neither the tool nor the fix. The error now says
// both, for a path that is a visible tool's name only: a hidden tool's
// name reads as any unknown word, and so does a subtraction of the
// program's own.
func TestToolPathHint(t *testing.T) {
	echo := func(_ context.Context, in json.RawMessage, _ Call) (json.RawMessage, error) { return in, nil }
	tool := func(name string) Tool { return Tool{Name: name, Execute: echo} }
	cfg := Config{Timeout: 2 * time.Minute, ToolFilter: func(ti ToolInfo) bool { return ti.Name != "crm-contacts.secret" }, Tools: []Tool{tool("crm-contacts.list"), tool("github.create-issue"), tool("brave-search"), tool("crm-contacts.secret")}}
	runInputCasesWith(t, cfg, []inputCase{
		{name: "a namespace with '-'", code: "const r = await tools.crm-contacts.list({ q: 'a' })\nreturn r", errCode: "RUNTIME", errName: "ReferenceError", line: 1, col: 27,
			errMsg: `'contacts' is not defined: tools.crm-contacts.list is read as tools.crm minus contacts.list ('-' is subtraction); write a tool name that holds '-' with brackets, tools["crm-contacts"].list(...), or call the tool by its name: tool_call("crm-contacts.list", input)`},
		{name: "a tool with '-' in a namespace", code: "return await tools.github.create-issue({ title: 'x' })", errCode: "RUNTIME", errName: "ReferenceError",
			errMsg: `'issue' is not defined: tools.github.create-issue is read as tools.github.create minus issue ('-' is subtraction); write a tool name that holds '-' with brackets, tools.github["create-issue"](...), or call the tool by its name: tool_call("github.create-issue", input)`},
		{name: "a word QuickJS names that has a hint of its own", code: "return await tools.brave-search({ query: 'x' })", errCode: "RUNTIME", errName: "ReferenceError",
			errMsg: `'search' is not defined: tools.brave-search is read as tools.brave minus search ('-' is subtraction); write a tool name that holds '-' with brackets, tools["brave-search"](...), or call the tool by its name: tool_call("brave-search", input)`},
		{name: "a path that goes on past the name", code: "const f = tools.crm-contacts.list.bind(null)", errCode: "RUNTIME", errName: "ReferenceError",
			errMsg: `'contacts' is not defined: tools.crm-contacts.list.bind is read as tools.crm minus contacts.list.bind ('-' is subtraction); write a tool name that holds '-' with brackets, tools["crm-contacts"].list(...)`},
		// A dot meant: "'search' is not defined: to find tools inside the
		// code, call await tool_search({ query })", for a tool it named.
		{name: "a '-' where a '.' was meant", code: "return await tools.orders-search({ status: 'open' })", errCode: "RUNTIME", errName: "ReferenceError",
			errMsg: `'search' is not defined: tools.orders-search is read as tools.orders minus search ('-' is subtraction); the tool is tools.orders.search, with a '.'`},
		{name: "the bracketed name runs", code: "return await tools[\"crm-contacts\"].list({ q: 'a' })", want: `{"q":"a"}`},
	})
	// No hint where the path is no visible tool's name: a hidden tool's
	// reads as any unknown word, and so does a subtraction of the
	// program's own.
	s := mustSession(t, newTestCodeMode(t, cfg))
	for code, want := range map[string]string{
		"return await tools.crm-contacts.secret({})":         "'contacts' is not defined",
		"const n = tools.orders-count":                       "'count' is not defined",
		"const n = tools.orders-search-x":                    "'search' is not defined: to find tools inside the code, call await tool_search({ query })",
		"const mytools = {}\nconst n = mytools.crm-contacts": "'contacts' is not defined",
	} {
		if res := exec(t, s, code, nil); res.Error == nil || res.Error.Message != want {
			t.Errorf("%s: got %+v, want the message %q", code, res.Error, want)
		}
	}
}
