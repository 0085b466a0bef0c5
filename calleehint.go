package codemode

// What a run adds to "not a function" when the callee is a path under
// tools: a model that read the catalog's namespaces calls one as a tool
// (tools.slack({ ... })) or spells a tool's name in brackets
// (tools.slack["chat.postMessage"](...), which no stand-in answers), and
// QuickJS's "tools.slack is not a function" names neither the tools there
// nor the tool meant.

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// namespaceShown is how many of a namespace's tools the hint names.
const namespaceShown = 3

// calleeHint is typeErrorHint's addition for callee x, the expression
// before the call's "(", as the code writes it.
func (r *runState) calleeHint(x string) string {
	const find = " (tool_search({ query }) finds the one you need)"
	if x == "tools" {
		if tool := r.namedTool(x); tool != "" {
			return callHint(tool)
		}
		return "; tools holds the tools and is not one: call a tool by its name, await tools.<name>(input)" + find
	}
	name, ok := toolsPath(x)
	if !ok {
		return ""
	}
	v := r.visible
	prefix := name + "."
	i := sort.Search(len(v), func(i int) bool { return v[i].info.Name >= prefix })
	var in []string
	n := 0
	for ; i+n < len(v) && strings.HasPrefix(v[i+n].info.Name, prefix); n++ {
		if len(in) < namespaceShown {
			in = append(in, "tools."+v[i+n].info.Name)
		}
	}
	if n == 0 {
		// Not a namespace: the name spelled differently, or no tool.
		if _, ok := r.entry(name); ok {
			return ""
		}
		// tools.orders["orders.get"]: the full name under its namespace.
		if _, full, _ := strings.Cut(name, "."); r.isTool(full) {
			return callHint(full)
		}
		return r.suggest(name)
	}
	some := strings.Join(in, ", ")
	if n > len(in) {
		some = "e.g. " + some
	}
	tools := "tools"
	if n == 1 {
		tools = "tool"
	}
	return fmt.Sprintf("; tools.%s is a namespace of %d %s, not a tool: call one of them by its full name (%s)%s",
		name, n, tools, some, find)
}

// toolsPath is the tool name a member chain under tools spells
// (tools.a.b, tools.a["b.c"], tools["a"].b), or false for another
// expression (a call, a computed key, optional chaining).
func toolsPath(x string) (string, bool) {
	rest, ok := strings.CutPrefix(x, "tools")
	if !ok || rest == "" {
		return "", false
	}
	var segs []string
	for rest != "" {
		switch rest[0] {
		case '.':
			j := 1
			for j < len(rest) && rest[j] != '.' && rest[j] != '[' {
				j++
			}
			if j == 1 {
				return "", false
			}
			segs, rest = append(segs, rest[1:j]), rest[j:]
		case '[':
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return "", false
			}
			lit := rest[1:end]
			if len(lit) < 2 || (lit[0] != '"' && lit[0] != '\'') || lit[len(lit)-1] != lit[0] {
				return "", false
			}
			s, err := strconv.Unquote(`"` + strings.ReplaceAll(lit[1:len(lit)-1], `"`, `\"`) + `"`)
			if err != nil || s == "" {
				return "", false
			}
			segs, rest = append(segs, s), rest[end+1:]
		default:
			return "", false
		}
	}
	for _, s := range segs {
		if strings.ContainsAny(s, "?!()") {
			return "", false
		}
	}
	return strings.Join(segs, "."), true
}
