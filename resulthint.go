package codemode

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/interopio/code-mode/internal/keys"
)

// maxResultTypeChars bounds the result type a hint quotes: a longer one is
// not quoted, and no hint is given.
const maxResultTypeChars = 300

// resultHint follows "x is undefined" where x reads a property of what a
// tool call gave (`const res = await tools.orders.search(...)`, then
// res.results.map(...)) or names a property destructured from it (`const
// { data } = await tools.orders.search(...)`): models write the wrappers
// of REST clients ({ data }, { results }, { items }) around results that
// are the data itself, and read "res.results is undefined" with no word of
// what res holds. The hint quotes the tool's result type as the model
// would read it in its signature (declared, or inferred from the results
// this session has seen), "" when the run knows none.
func (r *runState) resultHint(x string) string {
	// x is the name, or the name and one property: what is undefined is
	// then a property of the result itself (res.data.items is data's).
	base, prop := x, ""
	if i := strings.IndexAny(x, ".[?!"); i >= 0 {
		base, prop = x[:i], strings.TrimLeft(x[i:], ".?!")
	}
	tool, destructured := toolBinding(r.code, base)
	if destructured {
		if prop != "" {
			return "" // what was destructured is there; a property of it is not
		}
		prop = base
	}
	if tool == "" || !isIdentName(prop) {
		return ""
	}
	e, ok := r.entry(tool)
	if !ok {
		return ""
	}
	// The type in full, or no word: a property it has (optional, or cut
	// off) would be said to be missing.
	out := resultType(r.s.signature(e))
	if out == "" || out == "unknown" || len(out) > maxResultTypeChars || mentionsMember(out, prop) {
		return ""
	}
	array := strings.HasSuffix(out, "[]")
	if destructured {
		h := fmt.Sprintf("; %s was destructured from what tools.%s gives, %s, which has no %s%s", base, tool, out, base, memberSuggestion(out, base, array))
		if array {
			h += fmt.Sprintf(": it is the array itself, const %s = await tools.%s(...)", base, tool)
		}
		return h
	}
	h := fmt.Sprintf("; %s holds what tools.%s gives, %s, which has no %s%s", base, tool, out, prop, memberSuggestion(out, prop, array))
	if array {
		h += fmt.Sprintf(": %s is the array itself", base)
	}
	return h
}

// mentionsMember says whether type text t has a member named prop
// (`prop:` or `prop?:` after no name character), in any of its objects or
// its comments: where it may, no hint says it has none.
func mentionsMember(t, prop string) bool {
	for i := 0; ; {
		j := strings.Index(t[i:], prop)
		if j < 0 {
			return false
		}
		j += i
		after := strings.TrimPrefix(t[j+len(prop):], "?")
		if (j == 0 || !isIdentByte(t[j-1])) && strings.HasPrefix(after, ":") {
			return true
		}
		i = j + 1
	}
}

// resultType is the type a signature's Promise resolves to, on one line.
func resultType(sig string) string {
	i := strings.LastIndex(sig, "): Promise<")
	if i < 0 {
		return ""
	}
	out, _, _ := strings.Cut(sig[i+len("): Promise<"):], ">; //")
	out = strings.TrimSuffix(out, ">;")
	return strings.Join(strings.Fields(out), " ")
}

// toolBinding is the tool whose awaited result the code declares name to
// hold, `const name = await tools.a.b(`, with a type or not, or to be
// destructured from (`const { name } = await tools.a.b(`, destructured
// true); "" when it declares no such name.
func toolBinding(code, name string) (tool string, destructured bool) {
	for _, ix := range toolBindingRx().FindAllStringSubmatchIndex(code, -1) {
		m := []string{code[ix[0]:ix[1]], code[ix[2]:ix[3]], code[ix[4]:ix[5]]}
		if !callEndsStatement(code, ix[1]-1) {
			continue // `= await tools.a.b(...).then(...)`: not the result itself
		}
		target := strings.TrimSpace(m[1])
		if target == name {
			return m[2], false
		}
		inner, ok := strings.CutPrefix(target, "{")
		if !ok {
			continue
		}
		for _, entry := range strings.Split(strings.TrimSuffix(inner, "}"), ",") {
			entry, _, _ = strings.Cut(entry, "=") // a default value
			if strings.TrimSpace(entry) == name {
				return m[2], true
			}
		}
	}
	return "", false
}

// callEndsStatement says whether the call whose '(' is at code[open]
// ends its statement: a ';', a line break, a '}' or the code's end after
// its ')'. Brackets are counted, strings skipped; what cannot be read so
// is no.
func callEndsStatement(code string, open int) bool {
	depth := 0
	for i := open; i < len(code); i++ {
		switch c := code[i]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth--; depth == 0 {
				rest := strings.TrimLeft(code[i+1:], " \t")
				return rest == "" || strings.ContainsAny(rest[:1], ";\r\n}")
			}
		case '"', '\'', '`':
			for i++; i < len(code) && code[i] != c; i++ {
				if code[i] == '\\' {
					i++
				}
			}
		}
	}
	return false
}

// toolBindingRx matches a declaration of an awaited tool call's result:
// the name or the braces, then the tool's dotted name. Compiled on first
// use (TestCoreInitCompilesNoRegexp).
func toolBindingRx() *regexp.Regexp {
	toolBindingOnce.Do(func() {
		bindingRx = regexp.MustCompile(`\b(?:const|let|var)\s+(\{[^{}=]*\}|[A-Za-z_$][\w$]*)\s*(?::[^=;\n]*)?=\s*await\s+tools\.([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$-]*)*)\s*\(`)
	})
	return bindingRx
}

var (
	toolBindingOnce sync.Once
	bindingRx       *regexp.Regexp
)

// memberSuggestion is what follows "which has no prop" in a hint about
// type text t (an array's type when array): the member prop likely meant,
// ` (did you mean "created_at"?)`, for a name written in another case or
// with other separators (createdAt for created_at) or one typo away; an
// array's count is its length (count, size, lenght). "" when no member is
// that near.
func memberSuggestion(t, prop string, array bool) string {
	if array {
		if prop == "count" || prop == "size" || prop == "len" || keys.Nearest(prop, []string{"length"}) != "" {
			return ` (did you mean "length"?)`
		}
		return ""
	}
	members := typeMembers(t)
	for _, m := range members {
		if looseName(m) == looseName(prop) {
			return fmt.Sprintf(" (did you mean %q?)", m)
		}
	}
	if len(prop) >= 5 {
		return keys.DidYouMean(prop, members)
	}
	return ""
}

// looseName is a name in lower case without '_' and '-': createdAt,
// created_at and CreatedAt are one (and search_tools is searchtools).
func looseName(s string) string { return strings.ToLower(separators.Replace(s)) }

var separators = strings.NewReplacer("_", "", "-", "")

// typeMembers are the names of the members of object type text t at its
// first level (`{ id: string; note?: string; c: { d: number } }`: id,
// note, c); comments and strings are not read apart (the type text is
// the core's own).
func typeMembers(t string) []string {
	var out []string
	depth, start := 0, -1
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c == '{' || c == '(' || c == '[' || c == '<':
			depth++
		case c == '}' || c == ')' || c == ']' || c == '>':
			depth--
		case depth == 1 && isIdentByte(c):
			if start < 0 {
				start = i
			}
			continue
		case depth == 1 && start >= 0 && (c == ':' || c == '?' && i+1 < len(t) && t[i+1] == ':'):
			out = append(out, t[start:i])
		}
		start = -1
	}
	return out
}
