package codemode

// What a run's TypeError gains: QuickJS names neither the value that was
// undefined nor the callee that was not a function ("cannot read property
// 'map' of undefined", "not a function"), where a model needs the
// expression to fix it; the error's position points just after it, so the
// code's own text names it.

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"github.com/interopio/code-mode/sandbox"
)

// maxExprChars bounds the expression a hint quotes: a longer one is not
// what a reader scans for.
const maxExprChars = 80

// typeErrorHint follows "cannot read property ... of undefined/null" at a
// `.` or `[` and "not a function" at a `(`: the expression before it, as
// the code writes it, is what was undefined or not a function. Two habits
// get their fix: a tool called through a method (tools.x.y.execute(...),
// as AI SDK tool objects are), and a result read as MCP content
// (r.content[0].text), where tools give the data itself. callee, if not
// nil, adds what the run knows of an expression that was not a function
// (tools.orders called as a tool: see calleeHint); result, if not nil,
// what an undefined expression read of a tool's result (resultHint).
func typeErrorHint(code string, e *sandbox.Error, callee, result func(x string) string) string {
	if e.Line <= 0 || e.Column <= 1 {
		return ""
	}
	lines := strings.Split(code, "\n")
	if e.Line > len(lines) {
		return ""
	}
	line := []rune(lines[e.Line-1])
	at := e.Column - 1
	if at >= len(line) {
		return ""
	}
	switch {
	case e.Name != "TypeError":
	case e.Message == "not a function" && line[at] == '(':
		x := exprBefore(line, at)
		if x == "" {
			return ""
		}
		if forAwaitOf(string(line[:at-len([]rune(x))])) {
			// for await (const v of f(...)) over a value with neither
			// Symbol.asyncIterator nor Symbol.iterator (a tool's Promise)
			// fails in QuickJS as a call of the missing method, here.
			return fmt.Sprintf(forAwaitHint, x, x, x)
		}
		h := fmt.Sprintf(": %s is not a function", x)
		for _, m := range []string{".execute", ".invoke", ".run", ".handler"} {
			if base, ok := strings.CutSuffix(x, m); ok && strings.HasPrefix(base, "tools.") {
				h += fmt.Sprintf("; a tool is the function itself: await %s(input)", base)
			}
		}
		if strings.HasSuffix("."+x, ".format") {
			// Python's str.format.
			h += "; JavaScript has no str.format: write a template literal, `${n} orders`"
		}
		if base, ok := strings.CutSuffix(x, ".get"); ok && !strings.HasPrefix(x, "tools") && toolsAlias(code, x) == "" {
			// Python's dict.get(key, default) of a plain object.
			h += fmt.Sprintf("; an object has no get method: read the property, %s.key (%s.key ?? fallback for a default)", base, base)
		}
		// Python's list.append and dict.items(), written by models trained
		// on Python agents, Java's contains, fetch's res.json() of a tool's
		// result, and the Array.prototype.groupBy that was withdrawn for
		// Object.groupBy: % is the expression before.
		for _, m := range [...][2]string{
			{".append", "; a JavaScript array adds to its end with push: %.push(...)"},
			{".items", "; an object has no items method: use Object.entries(%) (Object.keys, Object.values for the keys or the values)"},
			{".groupBy", "; arrays have no groupBy method: use Object.groupBy(%, fn) (or Map.groupBy)"},
			{".upper", "; JavaScript's is %.toUpperCase()"},
			{".lower", "; JavaScript's is %.toLowerCase()"},
			{".strip", "; JavaScript's is %.trim()"},
			{".startswith", "; JavaScript's is %.startsWith(...)"},
			{".endswith", "; JavaScript's is %.endsWith(...)"},
			{".contains", "; JavaScript's is %.includes(...)"},
			{".json", "; a tool's result is its data itself, not a fetch Response: use % as it is, without .json()"},
		} {
			if base, ok := strings.CutSuffix(x, m[0]); ok {
				h += strings.Replace(m[1], "%", base, 1)
			}
		}
		switch x {
		case "join": // Python's ", ".join(names): the string before .join.
			h += "; a string has no join method (Python's sep.join(list)): join the array, list.join(\", \")"
		case "Error.captureStackTrace":
			h += "; that is V8's, which this sandbox has not: leave the call out (an Error has its stack already)"
		}
		if callee != nil {
			if a := toolsAlias(code, x); a != "" {
				x = a // o.serach of const { orders: o } = tools: tools.orders.serach
			}
			h += callee(x)
		}
		return h
	case e.Message == "value is not iterable" && strings.HasSuffix(string(line[:at]), " of "):
		// for (const [k, v] of counts), counts a plain object: QuickJS
		// points at the value, and names it not (a name that ends the
		// loop's head; a call's value is unawaitedHint's).
		if x, _, _ := strings.Cut(string(line[at:]), ")"); isIdentName(x) {
			return strings.ReplaceAll(": % is not iterable; for...of reads an array, a Map or a Set: for an object's keys and values, for (const [k, v] of Object.entries(%))", "%", x)
		}
	case strings.HasPrefix(e.Message, "cannot read property ") && (line[at] == '.' || line[at] == '[' || line[at] == '?'):
		of := "undefined"
		if strings.HasSuffix(e.Message, " of null") {
			of = "null"
		} else if !strings.HasSuffix(e.Message, " of undefined") {
			return ""
		}
		x := exprBefore(line, at)
		if x == "" {
			return ""
		}
		// [...page.items], for (const x of page.items): QuickJS points at
		// the last dot, and what was undefined is the member after it.
		if strings.Contains(e.Message, "'Symbol.iterator'") && line[at] == '.' {
			j := at + 1
			for j < len(line) && (line[j] == '_' || line[j] == '$' || unicode.IsLetter(line[j]) || unicode.IsDigit(line[j])) {
				j++
			}
			x += string(line[at:j])
		}
		h := fmt.Sprintf(": %s is %s", x, of)
		if strings.HasSuffix(x, ".content") {
			h += "; a tool's result is its data itself, not MCP content ({ content: [{ text }] }): read its fields (console.log it to see them)"
		} else if of == "undefined" && result != nil {
			h += result(x)
		}
		// const { invoices } = tools; invoices.list(): a namespace (or
		// tool) tools does not have, destructured, reads undefined.
		prop, quoted := strings.CutPrefix(e.Message, "cannot read property '")
		if prop, _, _ = strings.Cut(prop, "'"); quoted && of == "undefined" && callee != nil && line[at] == '.' {
			if a := toolsAlias(code, x); a != "" && !strings.Contains(x, ".") {
				h += fmt.Sprintf("; tools has no %s (it was destructured from tools)%s", strings.TrimPrefix(a, "tools."), callee(a+"."+prop))
			}
		}
		return h
	}
	return ""
}

// forAwaitHint follows "not a function" at the call that gives a for
// await loop its value: the callee may be a function whose value the loop
// cannot iterate.
const forAwaitHint = ": %s(...) is not async iterable, or %s is not a function; for await iterates an async iterable or an array, and a tool call gives a Promise of its result: for (const x of await %s(...))"

// forAwaitOf says whether before, a line up to an expression, ends with
// the "of" of a for await loop's head.
func forAwaitOf(before string) bool {
	head, ok := strings.CutSuffix(strings.TrimRight(before, " \t"), "of")
	if !ok || head == "" || !unicode.IsSpace([]rune(head)[len([]rune(head))-1]) {
		return false
	}
	return strings.Contains(head, "for await")
}

// exprBefore is the member chain of line that ends just before index at
// (`o.items`, `r?.rows[0]`, `(await f()).items`), or "" when none is
// there or it is longer than maxExprChars.
func exprBefore(line []rune, at int) string {
	i := at
	for i > 0 {
		c := line[i-1]
		switch {
		case c == '_' || c == '$' || unicode.IsLetter(c) || unicode.IsDigit(c) || c == '.' || c == '?' || c == '!':
			i--
		case c == ']' || c == ')':
			open := map[rune]rune{']': '[', ')': '('}[c]
			depth, j := 0, i-1
			for ; j >= 0; j-- {
				if line[j] == c {
					depth++
				} else if line[j] == open {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			if j < 0 {
				return ""
			}
			i = j
		default:
			goto done
		}
		if at-i > maxExprChars {
			return ""
		}
	}
done:
	x := strings.TrimLeft(string(line[i:at]), ".?!")
	// A chain starts with a name or a bracket, not a number; a lone word
	// that is a keyword or a literal (`if (`, `undefined.x`) names nothing.
	if x == "" || unicode.IsDigit([]rune(x)[0]) || hasWord(notValues, x) {
		return ""
	}
	return x
}

// notValues are the words before a "(" or a "." that name no value.
const notValues = " if for while switch catch return await typeof void new delete in of yield case throw function undefined null "

// hasWord says whether words (names, each between spaces) holds w. A
// text, not a map: a map literal is a statement per name in the core's
// code.
func hasWord(words, w string) bool {
	return w != "" && !strings.Contains(w, " ") && strings.Contains(words, " "+w+" ")
}

// toolsDestructuring matches `{ ... } = tools` not followed by a member
// (`const { orders, payments: p } = tools;`): its names are the namespaces
// (or tools) the program reads into locals. Compiled on first use, as
// sandbox's frameRE: at package init it was regexp's compiler run, and
// recompiled by TurboFan (17 KB), in every cold start
// (TestCoreInitCompilesNoRegexp).
func toolsDestructuring() *regexp.Regexp {
	destructuringOnce.Do(func() {
		destructuringRx = regexp.MustCompile(`\{([^{}]*)\}\s*=\s*tools\b\s*[^\s.\[]`)
	})
	return destructuringRx
}

var (
	destructuringOnce sync.Once
	destructuringRx   *regexp.Regexp
)

// toolsAlias is x, a member chain that starts with a local the code
// destructured from tools (`o.serach` after `const { orders: o } = tools`),
// as that path under tools (`tools.orders.serach`), or "" when x starts
// with no such local.
func toolsAlias(code, x string) string {
	local, rest := x, ""
	if i := strings.IndexAny(x, ".[?!"); i >= 0 {
		local, rest = x[:i], x[i:]
	}
	for _, m := range toolsDestructuring().FindAllStringSubmatch(code+";", -1) {
		for _, entry := range strings.Split(m[1], ",") {
			ns, name, renamed := strings.Cut(entry, ":")
			if !renamed {
				name = ns
			}
			name, _, _ = strings.Cut(name, "=") // a default value
			if ns = strings.TrimSpace(ns); strings.TrimSpace(name) == local && ns != "" && strings.IndexFunc(ns, func(c rune) bool { return c > 127 || !isIdentByte(byte(c)) }) < 0 {
				return "tools." + ns + rest
			}
		}
	}
	return ""
}
