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
// Only for a path that is a visible tool's name (isTool), so the hint is
// never a guess.
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
	// The path may go on past the name (tools.a-b.get.bind): the longest
	// name it starts with that is a tool's.
	for !isTool(name) {
		i := strings.LastIndexByte(name, '.')
		if i < 0 {
			return ""
		}
		name = name[:i]
	}
	if !strings.Contains(name, "-") {
		return ""
	}
	return fmt.Sprintf(": %s is read as %s minus %s ('-' is subtraction); write a tool name that holds '-' with brackets, %s(...), or call the tool by its name: tool_call(%q, input)",
		path, string(line[start:at-1]), string(line[at:end]), tsgen.ToolPath(name), name)
}

// isPathRune says whether r can be part of a tools.a-b.c path as a model
// writes it: name characters, '.' and '-'.
func isPathRune(r rune) bool {
	return r == '.' || r == '-' || r == '_' || r == '$' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}
