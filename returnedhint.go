package codemode

import (
	"fmt"
	"strings"
)

// A program whose value is undefined, or holds an undefined property, ran
// without an error and gave the model nothing to read: `return os.lenght`
// answered {"ok":true} and `return { n: os.count }` {"result":{}}, which
// look like data that has nothing. The sandbox notes an undefined property
// of the result (sandbox/convert.go); these say which expression gave
// undefined, and what the tool's result it read has instead.

// undefinedResultWarning is the run's warning when its result is
// undefined and its last statement returns an expression (see
// tsstrip.Prepared.Returned): the expression, and what its hint adds.
const undefinedResultWarning = "the program returned %s, which is undefined, so the run has no result%s"

// undefinedLastWarning is the same for a program without a return that
// ends with a property read (tsstrip.Prepared.LastPath): its value is the
// program's.
const undefinedLastWarning = "the program ends with %s, which is undefined, so the run has no result%s"

// lastItemHint follows xs[-1] (Python's last item) or xs.last (Ruby's
// and Swift's) read as undefined.
const lastItemHint = "; JavaScript has no negative indexes (xs[-1] reads nothing) and arrays have no last: the last item is xs.at(-1)"

// leftOut is how the sandbox's note of an undefined property ends, after
// its path (and before how many more there are).
const leftOut = ": undefined, so JSON leaves it out"

// undefinedResult is the warning of a run that returned expr and got
// undefined, "" when expr is a tool's call (a tool that gives nothing is
// no mistake of the program's).
func (r *runState) undefinedResult(expr string) string {
	if call := strings.TrimPrefix(expr, "await "); strings.HasPrefix(call, "tools.") && strings.HasSuffix(call, ")") {
		return ""
	}
	return fmt.Sprintf(undefinedResultWarning, expr, r.pathHint(expr)+r.calledHint(expr))
}

// calledHint is what a returned call of a function the program declares
// adds: that function gave nothing back (a helper whose return was
// forgotten), "" for any other expression.
func (r *runState) calledHint(expr string) string {
	name, _, ok := strings.Cut(strings.TrimPrefix(expr, "await "), "(")
	if !ok || !isIdentName(name) || !strings.HasSuffix(expr, ")") {
		return ""
	}
	declared := false
	for _, d := range []string{"function " + name + "(", "function " + name + " (", name + " = (", name + " = async"} {
		declared = declared || strings.Contains(r.code, d)
	}
	if !declared {
		return ""
	}
	return "; the function " + name + " gave undefined: if it computes the answer, give it back with return inside it"
}

// leftOutHint adds to the sandbox's note of result.key being undefined
// (w) the expression the returned object literal gave key, and what its
// hint adds: w as it was when the note is of another path, or the
// program returned no literal with key; "" (no warning) when the literal
// itself gives key undefined and no other property is.
func (r *runState) leftOutHint(w, returned string) string {
	rest, ok := strings.CutPrefix(w, "result.")
	if !ok || !strings.HasPrefix(returned, "{") {
		return w
	}
	key, after, ok := strings.Cut(rest, leftOut)
	if !ok || !isIdentName(key) || strings.ContainsAny(after, ":") {
		return w
	}
	expr := literalValue(returned, key)
	if (expr == "undefined" || strings.HasPrefix(expr, "void ")) && after == "" {
		return "" // { note: undefined }: written so, meant so
	}
	if expr == "" || expr == "undefined" {
		return w
	}
	if expr == key {
		return w + r.pathHint(expr) // shorthand, { total }: the name says it
	}
	return w + "; " + key + ": " + expr + r.pathHint(expr)
}

// pathHint is what the run knows of an expression that read a property
// of a tool's result and got undefined: resultHint's words for res.prop
// (and for a name destructured from a result), and for res[i].prop, the
// type of the result's items, which have no prop. "" when it knows none.
func (r *runState) pathHint(expr string) string {
	if strings.HasSuffix(expr, "[-1]") {
		return lastItemHint
	}
	if h := unawaitedBinding(r.code, expr); h != "" {
		return h
	}
	if h := r.resultHint(expr); h != "" {
		return h
	}
	base, index, prop, ok := indexedRead(expr)
	if !ok {
		return ""
	}
	tool, destructured := toolBinding(r.code, base)
	if tool == "" || destructured {
		return ""
	}
	e, ok := r.entry(tool)
	if !ok {
		return ""
	}
	out := resultType(r.s.signature(e))
	item, isArray := strings.CutSuffix(out, "[]")
	if !isArray || len(out) > maxResultTypeChars || mentionsMember(item, prop) {
		return ""
	}
	item = strings.TrimSuffix(strings.TrimPrefix(item, "("), ")")
	return fmt.Sprintf("; %s[%s] is an item of what tools.%s gives, %s, which has no %s%s", base, index, tool, item, prop, memberSuggestion(item, prop, false))
}

// unawaitedBinding is what an expression reading a property of a name
// given a tool's call without await adds: the name holds the call's
// Promise, which has no such property. "" for any other expression.
func unawaitedBinding(code, expr string) string {
	n := 0
	for n < len(expr) && isIdentByte(expr[n]) {
		n++
	}
	base := expr[:n]
	if !isIdentName(base) || n == len(expr) || !strings.ContainsAny(expr[n:n+1], ".[?") {
		return ""
	}
	for _, kw := range []string{"const ", "let ", "var "} {
		if i := strings.Index(code, kw+base+" = tools."); i >= 0 {
			call := code[i+len(kw+base+" = "):]
			if j := strings.IndexByte(call, '('); j > 0 {
				return fmt.Sprintf("; %s holds a Promise: %s(...) was not awaited (const %s = await %s(...))", base, call[:j], base, call[:j])
			}
		}
	}
	return ""
}

// indexedRead reads expr as name[digits].prop (each '.' may be '?.'),
// and says whether it is one.
func indexedRead(expr string) (base, index, prop string, ok bool) {
	base, rest, ok := strings.Cut(expr, "[")
	base = strings.TrimSuffix(base, "?.")
	if !ok || !isIdentName(base) {
		return "", "", "", false
	}
	index, rest, ok = strings.Cut(rest, "]")
	if !ok || index == "" || strings.Trim(index, "0123456789") != "" {
		return "", "", "", false
	}
	prop = strings.TrimPrefix(strings.TrimPrefix(rest, "?"), ".")
	if len(prop) == len(rest) || !isIdentName(prop) {
		return "", "", "", false
	}
	return base, index, prop, true
}

// literalValue is the text of what object literal lit gives key (`key:
// value`, or `key` alone, its shorthand), "" when it gives key nothing
// one can read so. Brackets are counted and strings skipped; only the
// literal's own entries are read.
func literalValue(lit, key string) string {
	depth, start := 0, -1
	for i := 0; i < len(lit); i++ {
		c := lit[i]
		switch c {
		case '(', '[', '{':
			if depth++; depth == 1 {
				start = i + 1
			}
		case ')', ']', '}', ',':
			if c != ',' {
				depth--
			}
			if depth == 0 && c == '}' || depth == 1 && c == ',' {
				entry := strings.TrimSpace(lit[start:i])
				name, value, found := strings.Cut(entry, ":")
				if strings.TrimSpace(name) == key {
					if !found {
						return key
					}
					return strings.TrimSpace(value)
				}
				start = i + 1
			}
		case '"', '\'', '`':
			for i++; i < len(lit) && lit[i] != c; i++ {
				if lit[i] == '\\' {
					i++
				}
			}
		}
	}
	return ""
}
