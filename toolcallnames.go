package codemode

// A tool call's names: finding the tool a call names (and, for an unknown
// name, the ones it was likely meant to be), reading the name and id the
// prelude sends, labelling the call in warnings, and cutting a long name or
// reason for its record.

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/interopio/code-mode/internal/jsoncut"
	"github.com/interopio/code-mode/internal/keys"
	"github.com/interopio/code-mode/internal/tsgen"
)

// callLabelPrefix starts the label of a call of a known tool; the rest is
// its name (finish reads it back from sandbox.Error.Call).
const callLabelPrefix = "tool "

// callLabel names a tool call in the run's warnings as the model wrote it;
// args are __cm_call's: the id begin returned.
func (r *runState) callLabel(args []json.RawMessage) string {
	if id, ok := callID(args); ok {
		r.mu.Lock()
		defer r.mu.Unlock()
		if id >= 1 && id <= len(r.calls) && r.calls[id-1].rec.Name != "" {
			return callLabelPrefix + r.calls[id-1].rec.Name
		}
	}
	return "a tool call"
}

// callID reads the call id begin returned, args[0]: a JSON integer (the
// sandbox writes integers in decimal).
func callID(args []json.RawMessage) (int, bool) {
	if len(args) == 0 || len(args[0]) == 0 || len(args[0]) > 9 {
		return 0, false
	}
	id := 0
	for _, c := range args[0] {
		if c < '0' || c > '9' {
			return 0, false
		}
		id = id*10 + int(c-'0')
	}
	return id, true
}

// jsonName decodes a tool name, a JSON string: printable ASCII without
// escapes (every valid tool name) at once, anything else by encoding/json.
func jsonName(raw json.RawMessage, dst *string) bool {
	if n := len(raw); n >= 2 && raw[0] == '"' && raw[n-1] == '"' {
		plain := true
		for _, c := range raw[1 : n-1] {
			if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
				plain = false
				break
			}
		}
		if plain {
			*dst = string(raw[1 : n-1])
			return true
		}
	}
	return json.Unmarshal(raw, dst) == nil
}

// suggest names up to three visible tools close to an unknown name. The
// name nearest by spelling comes first: a typo ("orders.serch") matches no
// word of the index, which then ranks the namespace's tools in any order,
// and a model calls the first name it is given.
func (r *runState) suggest(name string) string {
	if h, ok := llmToolHints[name]; ok {
		return "; " + h
	}
	if hasWord(searchAliases, looseName(name)) {
		// tools.search(...): other code modes' discovery call. "did you
		// mean orders.search?" sent the query to a tool that takes none.
		return "; to find tools, call the global await tool_search({ query }) (not a member of tools)"
	}
	if hasWord(callAliases, looseName(name)) {
		// tools.call("orders.get", input): a dispatcher of other APIs.
		return "; " + byNameHint
	}
	name = cutString(name, maxNameChars)
	var n []string
	if near := r.nearest(name); near != "" {
		n = append(n, near)
	}
	for _, h := range searchTools(r.visible, strings.NewReplacer(".", " ", "_", " ", "-", " ").Replace(name), 3) {
		if len(n) < 3 && (len(n) == 0 || h.Name != n[0]) {
			n = append(n, h.Name)
		}
	}
	if len(n) == 0 {
		return "; use tool_search to find tools"
	}
	return "; did you mean " + strings.Join(n, ", ") + "?"
}

// dispatchHint is suggest, but for a dispatcher's call whose first
// argument names a tool, tools.call("orders.get", input): the call to
// write, with that name.
func (r *runState) dispatchHint(name string, input json.RawMessage) string {
	var tool string
	if !hasWord(callAliases, looseName(name)) || json.Unmarshal(input, &tool) != nil || !r.isTool(tool) {
		return r.suggest(name)
	}
	return callHint(tool)
}

// namedTool is the tool that code's first call of f names by a string
// literal, callTool("orders.get", ...) or tools("orders.get", ...), or by
// a member, Gemini's default_api.orders_search(...), or "": what a
// dispatcher the sandbox lacks was asked for.
func (r *runState) namedTool(f string) string {
	if _, member, ok := strings.Cut(r.code, f+"."); ok {
		member, _, _ = strings.Cut(member, "(")
		return r.nearest(member)
	}
	_, rest, _ := strings.Cut(r.code, f+"(")
	rest = strings.TrimLeft(rest, " ")
	if rest == "" || rest[0] != '"' && rest[0] != '\'' {
		return ""
	}
	if tool, _, _ := strings.Cut(rest[1:], rest[:1]); r.isTool(tool) {
		return tool
	}
	return ""
}

// nearest is the visible tool's name nearest to name (keys.Nearest), or "".
func (r *runState) nearest(name string) string {
	names := make([]string, len(r.visible))
	for i, e := range r.visible {
		names[i] = e.info.Name
	}
	return keys.Nearest(name, names)
}

// callHint is the call to write for tool, named by a string.
func callHint(tool string) string {
	call := "tools." + tool
	for _, seg := range strings.Split(tool, ".") {
		if !tsgen.IsIdent(seg) {
			call = "tools[" + strconv.Quote(tool) + "]"
		}
	}
	return fmt.Sprintf("; to call %s, write await %s(input) (or await tool_call(%q, input))", tool, call, tool)
}

// callAliases are the names (lower case, without _ and -) of the
// dispatcher models call a tool through in other APIs: tools.call(name,
// input), callTool(name, input).
const callAliases = " call calltool invoke invoketool runtool executetool usetool "

// byNameHint is how a tool is called, for a model that called a dispatcher.
const byNameHint = "call a tool as a function of tools, await tools.<namespace>.<name>(input), or by its name as a string, await tool_call(\"<namespace>.<name>\", input)"

// searchAliases are the names (lower case, without _ and -) under which
// models look for the discovery call among the tools when no tool has it.
const searchAliases = " search toolsearch findtools listtools "

// cutString cuts s to at most n characters, saying how much was left out.
func cutString(s string, n int) string { return cutDropped(s, n, 0) }

// cutDropped is cutString of what is left of a string whose last dropped
// characters were cut off already: the count covers both.
func cutDropped(s string, n, dropped int) string {
	if dropped == 0 && (len(s) <= n || utf8.RuneCountInString(s) <= n) {
		return s
	}
	i, k := 0, 0
	for k < n && i < len(s) {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		k++
	}
	return s[:i] + jsoncut.MoreChars(utf8.RuneCountInString(s[i:])+dropped)
}

// cutName cuts a call's name (begin's args[0], decoded) for its record.
// The prelude sends a name of more than maxNameChars+1 characters cut to
// that many, with its length as args[2] (a JS length, UTF-16 units): the
// record says how many the program's name had past maxNameChars, not how
// many of the prelude's cut.
func cutName(name string, args []json.RawMessage) string {
	if len(args) > 2 {
		if n, err := strconv.Atoi(string(args[2])); err == nil && n > maxNameChars+1 {
			return cutDropped(name, maxNameChars, n-(maxNameChars+1))
		}
	}
	return cutString(name, maxNameChars)
}

// isTool says whether a visible tool has that name.
func (r *runState) isTool(name string) bool {
	_, ok := r.entry(name)
	return ok
}

// entry finds a visible tool by name (the last one, when a session's own
// tool and a registered one share it, as a map filled in order would).
func (r *runState) entry(name string) (*toolEntry, bool) {
	v := r.visible
	i := sort.Search(len(v), func(i int) bool { return v[i].info.Name > name })
	if i > 0 && v[i-1].info.Name == name {
		return v[i-1], true
	}
	return nil, false
}
