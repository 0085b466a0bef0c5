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
