package codemode

import (
	"fmt"
	"strings"

	"github.com/interopio/code-mode/internal/tsgen"
	"github.com/interopio/code-mode/sandbox"
)

// toolPathHint follows "'contacts' is not defined" where the code wrote a
// tool's name that holds a '-' as a path: tools.crm-contacts.list(...) is
// tools.crm minus contacts.list, and QuickJS names only the word after the
// '-'. Names from MCP servers often hold one; the signature writes
// tools["crm-contacts"].list, but models write the name a hit gave them.
// Likewise a '-' where a '.' was meant: tools.orders-search(...) for the
// tool orders.search. Only for a path that is a visible tool's name
// (isTool), so the hint is never a guess.
func toolPathHint(code string, e *sandbox.Error, isTool func(string) bool) string {
	word, ok := strings.CutSuffix(e.Message, "' is not defined")
	if !ok || e.Name != "ReferenceError" || !strings.HasPrefix(word, "'") || e.Line <= 0 || e.Column <= 1 {
		return ""
	}
	word = word[1:]
	lines := strings.Split(code, "\n")
	if e.Line > len(lines) {
		return ""
	}
	line, at := []rune(lines[e.Line-1]), e.Column-1
	if at+len(word) > len(line) || string(line[at:at+len(word)]) != word || line[at-1] != '-' {
		return ""
	}
	// The path around the '-': name segments joined by '.' or '-'.
	start := at - 1
	for start > 0 && isPathRune(line[start-1]) {
		start--
	}
	end := at + len(word)
	for end < len(line) && isPathRune(line[end]) {
		end++
	}
	for line[end-1] == '.' || line[end-1] == '-' {
		end--
	}
	path := string(line[start:end])
	name, ok := strings.CutPrefix(path, "tools.")
	if !ok {
		return ""
	}
	minus := fmt.Sprintf(": %s is read as %s minus %s ('-' is subtraction); ", path, string(line[start:at-1]), string(line[at:end]))
	if name := toolPrefix(name, isTool); strings.Contains(name, "-") {
		return minus + fmt.Sprintf("write a tool name that holds '-' with brackets, %s(...), or call the tool by its name: tool_call(%q, input)", tsgen.ToolPath(name), name)
	}
	// A '-' where a '.' was meant (tools.orders-search for orders.search):
	// QuickJS named the word after it, for which "search" has a hint of
	// its own, about tool_search.
	head := string(line[start+len("tools.") : at-1])
	if name := toolPrefix(head+"."+string(line[at:end]), isTool); len(name) > len(head) {
		return minus + "the tool is " + tsgen.ToolPath(name) + ", with a '.'"
	}
	return ""
}

// toolPrefix is the longest name that path (tools.a.b.get.bind without
// "tools.") starts with, up to a '.', that is a tool's, or "".
func toolPrefix(path string, isTool func(string) bool) string {
	for !isTool(path) {
		i := strings.LastIndexByte(path, '.')
		if i < 0 {
			return ""
		}
		path = path[:i]
	}
	return path
}

// isPathRune says whether r can be part of a tools.a-b.c path as a model
// writes it: name characters, '.' and '-'.
func isPathRune(r rune) bool {
	return r == '.' || r == '-' || r == '_' || r == '$' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}
