package codemode

import "testing"

// toolBinding finds the tool call whose awaited result a name holds or was
// destructured from.
func TestToolBinding(t *testing.T) {
	for _, tc := range []struct {
		name, code, of, tool string
		destructured         bool
	}{
		{"a const", "const res = await tools.orders.search({})\nres.results.map(f)", "res", "orders.search", false},
		{"typed", "let rows: Row[] = await tools.crm.contacts.list({ q })", "rows", "crm.contacts.list", false},
		{"in parentheses, maybe with a member after", "const rows = (await tools.crm.contacts.list({ q }))", "rows", "", false},
		{"destructured", "const { data, meta: m } = await tools.orders.search({})", "data", "orders.search", true},
		{"destructured with a default is not read", "const { items = [] } = await tools.orders.get({ id })", "items", "", false},
		{"another name", "const res = await tools.orders.search({})", "rows", "", false},
		{"not awaited", "const res = tools.orders.search({})", "res", "", false},
		{"a then after the call", "const res = await tools.orders.search({ q: \"a)\" }).then((r) => r.items);", "res", "", false},
		{"a call with strings and objects in its input", "const res = await tools.orders.search({ q: \"a)\", f: [1, { g: '}' }] });\nreturn res.x", "res", "orders.search", false},
		{"a member of the result", "const n = (await tools.orders.search({})).length", "n", "", false},
	} {
		tool, d := toolBinding(tc.code, tc.of)
		if tool != tc.tool || d != tc.destructured {
			t.Errorf("%s: got %q, %v; want %q, %v", tc.name, tool, d, tc.tool, tc.destructured)
		}
	}
}

// resultType reads a signature's result; mentionsMember says where a type
// may have a member, so that no hint says it has none.
func TestResultTypeMembers(t *testing.T) {
	sig := "/** Search. */\ntools.orders.search(input: { q?: string }): Promise<{\n  /** The id. */\n  id: string;\n  note?: string;\n}[]>; // result type inferred from its results"
	if got, want := resultType(sig), "{ /** The id. */ id: string; note?: string; }[]"; got != want {
		t.Errorf("resultType = %q, want %q", got, want)
	}
	for _, tc := range []struct {
		prop string
		want bool
	}{{"id", true}, {"note", true}, {"results", false}, {"d", false}, {"i", false}} {
		if got := mentionsMember(resultType(sig), tc.prop); got != tc.want {
			t.Errorf("mentionsMember(%q) = %v, want %v", tc.prop, got, tc.want)
		}
	}
	if got := resultType("tools.t(input?: unknown): Promise<unknown>;"); got != "unknown" {
		t.Errorf("resultType of unknown = %q", got)
	}
}
