package tsstrip

import "testing"

func TestCallSite(t *testing.T) {
	for _, tc := range []struct {
		src, name string
		line, col int
	}{
		{"return tools.util.fail({})", "util.fail", 1, 23},
		{"const x = 1;\n  return tools.util.fail({})", "util.fail", 2, 25},
		{"tools?.util?.fail?.({})", "util.fail", 1, 20},
		{"tools.echo(1)", "echo", 1, 11},
		{"return tool_call('util.fail', {})", "util.fail", 1, 17},
		{"return tool_call(\"util.fail\")", "util.fail", 1, 17},
		{"return tool_call(`util.fail`)", "util.fail", 1, 17},
		{"async function main() {\n  return tools.a.b({ n: 1 })\n}\nreturn main()", "a.b", 2, 19},
		{"const s = '😀';\nreturn tools.a.b()", "a.b", 2, 17},
		{"for (const i of [1, 2]) await tools.a.b({ i })", "a.b", 1, 40},
		// Comments and strings are not calls; the other tools' are not either.
		{"// tools.a.b()\nconst t = 'tools.a.b()';\nreturn [tools.a.c(), tools.a.b()]", "a.b", 3, 31},
		// None, or more than one: no position.
		{"return tools.a.b()", "a.c", 0, 0},
		{"return tools.a.bc()", "a.b", 0, 0},
		{"return tools.a.b.c()", "a.b", 0, 0},
		{"const f = tools.a.b;\nreturn f()", "a.b", 0, 0},
		{"return tools['a'].b()", "a.b", 0, 0},
		{"return x.tools.a.b()", "a.b", 0, 0},
		{"return tool_call(name)", "a.b", 0, 0},
		{"return tool_call('a.b' + '')", "a.b", 1, 17},
		{"await tools.a.b();\nreturn tools.a.b()", "a.b", 0, 0},
		{"return tools.a.b(", "a.b", 1, 17},
		{"return 'open", "a.b", 0, 0},
		{"return tools.a.b()", "", 0, 0},
	} {
		if line, col := CallSite(tc.src, tc.name); line != tc.line || col != tc.col {
			t.Errorf("CallSite(%q, %q) = %d:%d, want %d:%d", tc.src, tc.name, line, col, tc.line, tc.col)
		}
	}
}

func TestSearchSite(t *testing.T) {
	for _, tc := range []struct {
		src       string
		line, col int
	}{
		{"return await tool_search({ limit: 'five' })", 1, 25},
		{"const x = 1;\nconst r = await tool_search?.('a', { limit: 0 })", 2, 30},
		// Not a call of it, a property, or more than one call: no position.
		{"// tool_search()\nreturn 'tool_search()'", 0, 0},
		{"return x.tool_search({})", 0, 0},
		{"const f = tool_search;\nreturn f({})", 0, 0},
		{"await tool_search('a');\nreturn tool_search('b')", 0, 0},
		{"return tools.a.b()", 0, 0},
	} {
		if line, col := SearchSite(tc.src); line != tc.line || col != tc.col {
			t.Errorf("SearchSite(%q) = %d:%d, want %d:%d", tc.src, line, col, tc.line, tc.col)
		}
	}
}
