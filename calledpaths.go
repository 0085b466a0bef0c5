package codemode

import "strings"

// maxCalledPaths bounds the unknown paths one run's `tools` gets stand-ins
// for (a program names a handful; a generated one must not grow `tools`).
const maxCalledPaths = 50

// unknownCalls returns the dotted paths the code calls as `tools.a.b(`,
// or as `tools["a.b"](` (a tool's full name as a key, which models write
// too), that are no visible tool's name, for prelude/tools.js to give
// hidden stand-ins: without one, `tools.nope.x()` is a TypeError about
// reading 'x' of undefined and `tools["nope.x"]()` "not a function", with
// no hint that the name is wrong, while tool_call("nope.x") says so. A
// stand-in calls the path by name, so it fails in the pipeline with
// tool_call's "unknown tool" error. It runs when `tools` is first read,
// not per run: one pass over the code.
func (r *runState) unknownCalls(code string) []string {
	var out []string
	seen := map[string]bool{}
	for i := 0; i+6 <= len(code) && len(out) < maxCalledPaths; i++ {
		j := strings.Index(code[i:], "tools")
		if j < 0 {
			break
		}
		j += i
		i = j
		if j > 0 && (isIdentByte(code[j-1]) || code[j-1] == '.') {
			continue
		}
		path, k := calledPath(code, j+len("tools"))
		if k < 0 || len(path) > maxNameChars || seen[path] {
			continue
		}
		seen[path] = true
		if _, ok := r.entry(path); !ok {
			out = append(out, path)
		}
	}
	return out
}

// calledPath reads what follows `tools` at k: `.a.b` or `["a.b"]` (or
// 'a.b'; white space around the brackets), then a `(`. It returns the
// path and where the `(` is, or -1 when the code does not call a path
// there.
func calledPath(code string, k int) (string, int) {
	skip := func(k int) int {
		for k < len(code) && (code[k] == ' ' || code[k] == '\t') {
			k++
		}
		return k
	}
	var path string
	switch {
	case k < len(code) && code[k] == '.':
		s := k + 1
		for k = s; ; k++ {
			t := k
			for k < len(code) && isIdentByte(code[k]) {
				k++
			}
			if k == t || code[t] >= '0' && code[t] <= '9' {
				return "", -1
			}
			if k >= len(code) || code[k] != '.' {
				break
			}
		}
		path = code[s:k]
	case skip(k) < len(code) && code[skip(k)] == '[':
		k = skip(skip(k) + 1)
		if k >= len(code) || code[k] != '"' && code[k] != '\'' {
			return "", -1
		}
		q, s := code[k], k+1
		for k = s; k < len(code) && code[k] != q; k++ {
			if c := code[k]; !isIdentByte(c) && c != '.' && c != '-' {
				return "", -1
			}
		}
		if k == s || k >= len(code) {
			return "", -1
		}
		path = code[s:k]
		if k = skip(k + 1); k >= len(code) || code[k] != ']' {
			return "", -1
		}
		k++
	default:
		return "", -1
	}
	if k = skip(k); k >= len(code) || code[k] != '(' {
		return "", -1
	}
	return path, k
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
