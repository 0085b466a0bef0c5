package codemode

import "strings"

// maxCalledPaths bounds the unknown paths one run's `tools` gets stand-ins
// for (a program names a handful; a generated one must not grow `tools`).
const maxCalledPaths = 50

// unknownCalls returns the dotted paths the code calls as `tools.a.b(`
// that are no visible tool's name, for prelude/tools.js to give hidden
// stand-ins: without one, `tools.nope.x()` is a TypeError about reading
// 'x' of undefined, with no hint that the name is wrong, while
// tool_call("nope.x") says so. A stand-in calls the path by name, so it
// fails in the pipeline with tool_call's "unknown tool" error. It runs
// when `tools` is first read, not per run: one pass over the code.
func (r *runState) unknownCalls(code string) []string {
	var out []string
	seen := map[string]bool{}
	for i := 0; i+6 <= len(code) && len(out) < maxCalledPaths; i++ {
		j := strings.Index(code[i:], "tools.")
		if j < 0 {
			break
		}
		j += i
		i = j
		if j > 0 && (isIdentByte(code[j-1]) || code[j-1] == '.') {
			continue
		}
		k := j + len("tools.")
		for {
			s := k
			for k < len(code) && isIdentByte(code[k]) {
				k++
			}
			if k == s || code[s] >= '0' && code[s] <= '9' {
				k = -1
				break
			}
			if k < len(code) && code[k] == '.' {
				k++
				continue
			}
			break
		}
		if k < 0 {
			continue
		}
		path := code[j+len("tools.") : k]
		for k < len(code) && (code[k] == ' ' || code[k] == '\t') {
			k++
		}
		if k >= len(code) || code[k] != '(' || len(path) > maxNameChars || seen[path] {
			continue
		}
		seen[path] = true
		if _, ok := r.entry(path); !ok {
			out = append(out, path)
		}
	}
	return out
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
