package codemode

// What a run's error message and warnings add for the model: QuickJS's own
// words say what failed, not what to write instead (Intl, JSX, a using
// declaration, await outside an async function, a tool call's Promise used
// as its result, prose around the code, code escaped twice, an object
// literal read as a block), and a model that is not told repeats the
// mistake. ExecuteCode and runState.finish apply them; the texts stand
// together so that their wording stays consistent.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/interopio/code-mode/internal/trunc"
	"github.com/interopio/code-mode/internal/tsgen"
	"github.com/interopio/code-mode/internal/tsstrip"
	"github.com/interopio/code-mode/sandbox"
)

// emptyReduceHint follows QuickJS's "empty array" from reduce (or
// reduceRight) of an empty array without an initial value (a tool's search
// that found nothing): V8 says "Reduce of empty array with no initial
// value", and QuickJS's two words did not say which call or what to do.
const emptyReduceHint = ": reduce of an empty array with no initial value; give reduce its initial value, e.g. arr.reduce((sum, x) => sum + x.total, 0) (a tool's result may be an empty list)"

// segmenterHint, displayNamesHint and supportedValuesHint follow the
// TypeError of a program that uses what the sandbox's Intl
// (prelude/intl.js) leaves out.
const segmenterHint = ": this sandbox's Intl has no Segmenter (typeof Intl.Segmenter is \"undefined\"); split the text yourself: " +
	"[...text] for characters, text.match(/[\\p{L}\\p{N}'-]+/gu) for words, text.split(/(?<=[.!?])\\s+/) for sentences"

const displayNamesHint = ": this sandbox's Intl has no DisplayNames (typeof Intl.DisplayNames is \"undefined\"); write the names the program needs " +
	"in a map of its own, e.g. const countries = { US: \"United States\", DE: \"Germany\" }"

const supportedValuesHint = ": this sandbox's Intl has no supportedValuesOf; to check a time zone, construct " +
	"new Intl.DateTimeFormat(\"en-US\", { timeZone }) in a try (an unknown zone is a RangeError)"

// missingIntlHint is what a TypeError's message (with the other hints:
// "not a function: Intl.Segmenter is not a function") gains when it names
// what the sandbox's Intl leaves out: those words said nothing of why or
// what to write instead.
func missingIntlHint(name, msg string) string {
	switch {
	case name != "TypeError":
	case strings.Contains(msg, "Intl.Segmenter is "):
		return segmenterHint
	case strings.Contains(msg, "Intl.DisplayNames is "):
		return displayNamesHint
	case strings.Contains(msg, "Intl.supportedValuesOf is "):
		return supportedValuesHint
	}
	return ""
}

// hintFor is what the run's error message gains: how to do without what
// the sandbox lacks (notDefinedHints).
func hintFor(e *sandbox.Error) string {
	if e.Name == "SyntaxError" && strings.Contains(e.Stack, "at parse (native)") {
		switch e.Message {
		case "unexpected token: 'object'":
			return jsonParseObjectHint
		case "unexpected token: 'undefined'":
			return jsonParseUndefinedHint
		}
	}
	if e.Name == "TypeError" && e.Message == "empty array" && (strings.HasPrefix(e.Stack, "    at reduce (native)") || strings.HasPrefix(e.Stack, "    at reduceRight (native)")) {
		return emptyReduceHint
	}
	if e.Name == "RangeError" && e.Message == "Date value is NaN" && strings.HasPrefix(e.Stack, "    at toISOString (native)") {
		return invalidDateHint
	}
	// A Proxy around tools.orders, which is frozen (prelude/tools.js).
	if e.Name == "TypeError" && e.Message == "proxy: inconsistent get" {
		return ": a Proxy's get must give a frozen object's own values, and tools and its namespaces are frozen; make the target a new object, new Proxy({}, { get: (_, k) => ... }), and read the tools inside the trap"
	}
	// JSON.stringify of a BigInt: QuickJS's words named no way out.
	if e.Name == "TypeError" && e.Message == "Do not know how to serialize a BigInt" {
		return ": JSON has no BigInt; convert it first, with String(x) (or Number(x) below 2**53), or JSON.stringify(value, (k, v) => typeof v === \"bigint\" ? String(v) : v)"
	}
	name, ok := strings.CutSuffix(e.Message, "' is not defined")
	if e.Name != "ReferenceError" || !ok || !strings.HasPrefix(name, "'") {
		return ""
	}
	return notDefinedHints[name[1:]]
}

// memoryLimitHint follows a run's MEMORY_LIMIT error, whose own words
// ("out of memory") say neither how much the run had nor what to do; a
// TIMEOUT names its limit ("did not finish within 30s"), so this names the
// memory limit, in MB as config.memoryLimit counts it.
func memoryLimitHint(e *sandbox.Error, limitMB int) string {
	if e.Code != sandbox.CodeMemoryLimit {
		return ""
	}
	unit := ":"
	if limitMB < smallMemoryLimitMB {
		unit = fmt.Sprintf("; config.memoryLimit counts MiB: %d GiB would be %d;", limitMB, limitMB<<10)
	}
	return fmt.Sprintf(" (the run's memory limit is %d MB%s hold less data at once, e.g. work through it in parts and keep only what the result needs)", limitMB, unit)
}

// Limits below these were likely meant in a larger unit (timeout: 30 for
// 30 s, memoryLimit: 1 for 1 GiB), which the docs allow: the run's error
// names the field and its unit, the fix being the host's, not the model's.
const (
	shortTimeout       = time.Second
	smallMemoryLimitMB = 16
)

// timeoutUnitHint names config.timeout's unit in a short timeout's TIMEOUT
// ("did not finish within 30ms"), which alone did not say that the
// timeout the page set was read as milliseconds.
func timeoutUnitHint(e *sandbox.Error, msg string, timeout time.Duration) string {
	limit := "within " + timeout.String()
	if e.Code != sandbox.CodeTimeout || timeout >= shortTimeout || !strings.Contains(msg, limit) {
		return msg
	}
	ms := float64(timeout) / float64(time.Millisecond)
	return strings.Replace(msg, limit, fmt.Sprintf("%s (config.timeout: %g, in milliseconds; %g seconds would be %g)", limit, ms, ms, ms*1000), 1)
}

// invalidDateHint follows QuickJS's "Date value is NaN" from toISOString
// of an Invalid Date: a date made of a field the data does not have (new
// Date(o.createdAt)) or of text that is no date. The words named neither.
const invalidDateHint = ": toISOString of an Invalid Date, made from a value that is no date (new Date(undefined), new Date(\"not a date\")): " +
	"a field the data does not have, or text in another form; check the value first (console.log it), and test a Date with isNaN(d.getTime())"

// jsonParseObjectHint follows JSON.parse of an object: String(obj) is
// "[object Object]", which JSON.parse refuses as "unexpected token:
// 'object'". Models write JSON.parse(await tools.x.y(...)) expecting JSON
// text, as an MCP tool's text content or an HTTP body would be.
const jsonParseObjectHint = ": JSON.parse was given an object, not JSON text (String of an object is \"[object Object]\"); a tool's result is already data: use it as it is"

// jsonParseUndefinedHint follows JSON.parse of undefined ("unexpected
// token: 'undefined'"): a missing value, as r.content?.[0]?.text of a
// tool's result read as MCP content, or a field the data does not have.
const jsonParseUndefinedHint = ": JSON.parse was given undefined, not JSON text: the value it parses is missing (a tool's result is already data, not { content: [{ text }] }: use it as it is)"

// unawaitedHint follows a TypeError that ended the run while tool calls
// were still in flight: nearly always a call's Promise used as its value
// (`const r = tools.orders.search(...); r.map(...)`, `const [a, b] =
// Promise.all([...])`), where QuickJS says only "not a function" or "value
// is not iterable" (or nothing at all: `r.length` is undefined). The
// pending-calls warning says so too, but the error is what models read.
func unawaitedHint(e *sandbox.Error, calls []ToolCallRecord) string {
	if e.Code != sandbox.CodeRuntime || e.Name != "TypeError" {
		return ""
	}
	var names []string
	for _, c := range calls {
		// In flight, or made and not yet started when the error came.
		inFlight := strings.HasPrefix(c.Reason, "not finished: ") || c.Reason == notStartedReason
		if inFlight && !slices.Contains(names, c.Name) {
			names = append(names, c.Name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf(" (%s had not returned when this error ended the run: a tool call gives a Promise, not its result; if the code used it as the result, await it: const r = await %s(...), or await Promise.all([...]))",
		callNames(names), tsgen.ToolPath(names[0]))
}

// awaitedHint follows a TIMEOUT that came while the program only awaited
// (sandbox.Error.Awaiting): the timeout's own words read as the program's
// loop, where the time went to a tool, to a person deciding on a call
// (onToolCall), or to taking in a large result, and a model rewrote code
// that only waited. It names the call the time went to, or the run's first
// call in flight, and counts the rest in flight. Called with r.mu held.
func (r *runState) awaitedHint(e *sandbox.Error) string {
	if e.Code != sandbox.CodeTimeout || !e.Awaiting {
		return ""
	}
	var inFlight, late []*toolCallState
	for _, c := range r.calls {
		if !c.done && c.started {
			inFlight = append(inFlight, c)
		} else if c.lateLarge {
			late = append(late, c)
		}
	}
	// A large answer the sandbox was taking in (its call is done here), one
	// the core had (checkOutput) or the binding had made (Call.Answering)
	// and had not handed on, one the core took in past the deadline (done
	// by now), or one the binding was still converting: the
	// tool had answered, and the time went there. Else the first call in
	// flight.
	name, size, converting, others := "", int64(0), false, len(inFlight)
	// A call whose input was being checked against its schema (before its
	// tool started, or after its interceptor allowed it).
	// Or whose result was (after its tool answered, its outputSchema's).
	checking := slices.IndexFunc(r.calls, func(c *toolCallState) bool {
		return !c.done && (c.checking.Load() || c.checkingResult.Load())
	})
	result := checking >= 0 && r.calls[checking].checkingResult.Load()
	answeredLarge := func(c *toolCallState) bool { return c.answered.Load()-1 >= 1<<20 }
	convertingLarge := func(c *toolCallState) bool { return c.converting.Load()-1 >= 1<<20 }
	if result {
		// Its answer, however large, was in: the check took the time.
		others--
	} else if n, ok := strings.CutPrefix(e.Answer, callLabelPrefix); ok && e.AnswerBytes >= 1<<20 {
		name, size = n, int64(e.AnswerBytes)
	} else if i := slices.IndexFunc(inFlight, answeredLarge); i >= 0 {
		name, size, others = inFlight[i].rec.Name, inFlight[i].answered.Load()-1, others-1
	} else if len(late) > 0 {
		// Taken in past the deadline, done by the time the run ended.
		name, size = late[0].rec.Name, late[0].answered.Load()-1
	} else if i := slices.IndexFunc(inFlight, convertingLarge); i >= 0 {
		name, size, converting, others = inFlight[i].rec.Name, inFlight[i].converting.Load()-1, true, others-1
	} else if checking >= 0 {
		if c := r.calls[checking]; c.started {
			others--
		}
	} else if others == 0 {
		return ""
	} else {
		others--
	}
	more := ""
	if others > 0 {
		more = trunc.Count(others, "more tool call", "more tool calls")
	}
	if name != "" {
		if more != "" {
			more = "; it was also waiting for " + more
		}
		what := fmt.Sprintf("its result, %d MB of JSON, was being taken in", size>>20)
		if converting {
			what = fmt.Sprintf("its result was being converted to JSON, %d MB of it so far", size>>20)
		}
		return fmt.Sprintf("; tool %s%s had answered, and %s (ask it for less, e.g. a page or a filter, if its input allows)%s", name, calledAt(r.code, name), what, more)
	}
	if checking >= 0 {
		if more != "" {
			more = ", and for " + more
		}
		c := r.calls[checking]
		// Its schema's preparation (a first call's) or the check itself.
		what, against := "preparing the input schema", ""
		switch {
		case result && c.entry.output.preparing():
			what = "preparing the output schema"
		case result:
			what, against = "checking the result", " against the tool's outputSchema"
		case !c.entry.validator.preparing():
			what, against = "checking the input", " against the tool's inputSchema"
		}
		return "; it was " + what + " of tool " + c.rec.Name + calledAt(r.code, c.rec.Name) + against + more
	}
	first := inFlight[0]
	what := "the result of tool "
	if !first.rec.Allowed && r.s.cm.cfg.OnToolCall != nil {
		// Started, not yet allowed: its interceptor had not answered.
		what = "the host's decision (onToolCall) on its call of tool "
	}
	if more != "" {
		more = ", and for " + more
	}
	return "; it was waiting for " + what + first.rec.Name + calledAt(r.code, first.rec.Name) + more
}

// calledAt is " (called at line N)" when code calls tool name in one place.
func calledAt(code, name string) string {
	if line, _ := tsstrip.CallSite(code, name); line > 0 {
		return fmt.Sprintf(" (called at line %d)", line)
	}
	return ""
}

// callNames is "tool a.b" or "tools a.b, c.d" (at most three, then "...").
func callNames(names []string) string {
	if len(names) == 1 {
		return "tool " + names[0]
	}
	if len(names) > 3 {
		names = append(names[:3:3], "...")
	}
	return "tools " + strings.Join(names, ", ")
}

// syntaxHint is what a SYNTAX error's message gains where QuickJS's own
// words do not say what is wrong: a decorator ("unexpected token in
// expression: '@'", "invalid property name") and a program that is only a
// JSON object (a block to JavaScript: "expecting ';'").
func syntaxHint(code string, e *sandbox.Error) string {
	if e.Code != sandbox.CodeSyntax {
		return ""
	}
	// A model's tool-call markup around the code (Hermes/Qwen, Llama 3.1,
	// XML function calls, in <function_calls> or not, Step-3's
	// <steptml:invoke name=...>), of several calls,
	// of another tool's or cut short (one call's of executeCode runs:
	// markupArgs): no JSX. <tool_call> before JSON on its line is read as
	// a TypeScript cast, and erased.
	if inMarkup(code) {
		return markupHint
	}
	if t := strings.TrimSpace(code); strings.HasPrefix(t, "{") && json.Valid([]byte(t)) {
		return ": the code is a JSON object, not a program; to give that data back, write return followed by it (return { ... };)"
	}
	if tsstrip.ObjectBlock(code) {
		return objectBlockHint
	}
	if n := lastObjectBlock(code, e.Line); n > 0 {
		return fmt.Sprintf(lastObjectBlockHint, n)
	}
	if h := entityHint(code, e); h != "" {
		return h
	}
	if n := tsstrip.TemplateFence(code, e.Line); n > 0 {
		return fmt.Sprintf(templateFenceHint, n)
	}
	if e.Line > 0 && e.Line <= strings.Count(code, "\n")+1 && pythonLine(strings.Split(code, "\n")[e.Line-1]) {
		return fmt.Sprintf(pythonHint, e.Line)
	}
	if escapedTwice(code, e) {
		return escapedHint
	}
	// The error at the code's very end, in words that do not say so
	// ("invalid property name"): a model that ran out of tokens, or a
	// bracket, string or comment left open.
	if t := strings.TrimRight(code, " \t\r\n"); !strings.Contains(e.Message, "end of") && e.Line == strings.Count(t, "\n")+1 && e.Column > len(t)-strings.LastIndexByte(t, '\n')-1 {
		return ": the program ends before its last statement does (cut short? a bracket, string or comment left open); send the whole program"
	}
	if e.Line > 0 && e.Column > 0 {
		lines := strings.Split(code, "\n")
		if e.Line <= len(lines) {
			line := []rune(lines[e.Line-1])
			if h := tsstrip.SyntaxHabit(string(line), len(string(line[:min(e.Column, len(line)+1)-1]))); h != "" {
				return h
			}
			if e.Column <= len(line) && line[e.Column-1] == '@' {
				return ": decorators (@name) are not supported in this sandbox; apply the function yourself (C = dec(C), or call it on the method)"
			}
			if e.Message == "unexpected character" && e.Column <= len(line) && strings.ContainsRune("\u201c\u201d\u2018\u2019", line[e.Column-1]) {
				return quoteHint
			}
			if e.Message == "unexpected character" && e.Column <= len(line) {
				// A zero-width space or joiner of copied text: invisible, and
				// no white space to JavaScript.
				if r := line[e.Column-1]; unicode.Is(unicode.Cf, r) {
					return fmt.Sprintf(": line %d holds U+%04X, an invisible character (of copied text) that JavaScript does not read as a space; delete it", e.Line, r)
				} else if r >= 0xff01 && r <= 0xff5e {
					// A full-width ；，（） of a model writing Chinese.
					return fmt.Sprintf(": line %d holds %c (U+%04X), a full-width character; JavaScript's is %c", e.Line, r, r, r-0xfee0)
				}
			}
			// \`: a backtick escaped as if inside a template literal.
			if e.Column < len(line) && line[e.Column-1] == '\\' && line[e.Column] == '`' {
				return ": \\` outside a template literal is no JavaScript; write the backtick itself: `orders: ${n}`"
			}
			// """docstring""": QuickJS reads "" and a string after it.
			if t := strings.TrimSpace(string(line)); strings.HasPrefix(t, `"""`) || strings.HasPrefix(t, "'''") {
				return ": \"\"\" begins a Python docstring; JavaScript writes comments with // (or /* ... */)"
			}
			if e.Message == "invalid first character of private name" && hashComment(line, e.Column) {
				return fmt.Sprintf(hashCommentHint, e.Line)
			}
			if e.Message == "unexpected token in expression: '<'" && e.Column <= len(line) && jsxAt(string(line[e.Column-1:]), code) {
				return jsxHint
			}
			// `using x = ...` (and `await using`, `for (using x of ...)`):
			// QuickJS reads using as a name and stops at the next one.
			if (e.Message == "expecting ';'" || strings.HasPrefix(e.Message, "expected 'of' or 'in'")) && e.Column <= len(line)+1 && endsWithWord(string(line[:e.Column-1]), "using") {
				return usingHint
			}
			// `accessor x = 1` in a class (an auto-accessor): QuickJS reads
			// accessor as a field's name and stops at the next one.
			if e.Message == "expecting ';'" && e.Column <= len(line)+1 && endsWithWord(string(line[:e.Column-1]), "accessor") {
				return accessorHint
			}
			// QuickJS reads await as a name outside an async function, so
			// `x => await f(x)` stops at the token after it: "expecting ','".
			// A top-level await is valid (the code is an async body), and an
			// error after one is of another kind.
			if strings.HasPrefix(e.Message, "expecting '") && e.Column <= len(line)+1 && endsWithWord(string(line[:e.Column-1]), "await") {
				return awaitHint
			}
			// f"{n} orders": QuickJS reads f as a name and stops at the
			// string after it.
			if strings.HasPrefix(e.Message, "expecting '") && e.Column <= len(line) && (line[e.Column-1] == '"' || line[e.Column-1] == '\'') && endsWithWord(string(line[:e.Column-1]), "f") {
				return fStringHint
			}
			if proseLine(string(line)) {
				return fmt.Sprintf(proseHint, e.Line)
			}
			if strings.HasPrefix(e.Message, "expecting '") && e.Column <= len(line)+1 {
				if h := pythonWordHint(string(line[:e.Column-1]), string(line[e.Column-1:])); h != "" {
					return h
				}
			}
		}
	}
	return ""
}

// proseHint follows a syntax error on a line of prose ("Here is the
// code:", "This sums the totals."): a model that wrote its words around
// the program without a fence, where QuickJS says only "expecting ';'".
const proseHint = ": line %d is prose, not code; send only the program, or put it in a ```js block (the text around a fenced block is left out)"

// proseLine reports whether s reads as a sentence: at least three words of
// letters (an apostrophe or a hyphen inside), punctuation after words (a
// comma, or a sentence's end inside the line: "Sure! Here's the code:"),
// and a sentence's end (: . ! ?) or a capital at its start. Code has
// operators, brackets or fewer words; a line of bare words that
// JavaScript would take is not where a syntax error points.
func proseLine(s string) bool {
	words := strings.Fields(s)
	if len(words) < 3 {
		return false
	}
	last := words[len(words)-1]
	end := strings.ContainsRune(":.!?", rune(last[len(last)-1]))
	first, _ := utf8.DecodeRuneInString(words[0])
	if !end && !unicode.IsUpper(first) {
		return false
	}
	for _, w := range words {
		w = strings.TrimRight(w, ",;:.!?")
		if w == "" {
			return false
		}
		for j, r := range w {
			if !unicode.IsLetter(r) && (j == 0 || !strings.ContainsRune("'’-", r)) {
				return false
			}
		}
	}
	return true
}

// objectBlockHint follows the syntax error of a program that is an object
// literal with more than one property, `{ a: 1, b: 2 }`: JavaScript reads
// it as a block (a label a, then `1, b` and a stray colon), and QuickJS
// says "expecting ';'". objectBlockWarning is the warning of one that
// runs, `{ a: 1 }`, whose result is 1.
const (
	objectBlockHint    = ": a program that starts with { is a block, not an object literal; to give the object back, return it (return { ... }) or wrap it in parentheses: ({ ... })"
	objectBlockWarning = "the program is read as a block, not an object: { a: ... } at its start is a block whose first statement has the label a, so the result is that statement's value; to give the object back, return it (return { a: ... }) or wrap it in parentheses: ({ a: ... })"
)

// lastObjectBlock is the 1-based line of the object literal that ends a
// program as its answer, `{ open: a, shipped: b }` on a line of its own
// after other code, when the syntax error at line is in it; else 0.
func lastObjectBlock(code string, line int) int {
	lines := strings.Split(code, "\n")
	for i := len(lines) - 1; i > 0; i-- {
		if t := strings.TrimSpace(lines[i]); strings.HasPrefix(t, "{") {
			if line > i && tsstrip.ObjectBlock(strings.Join(lines[i:], "\n")) {
				return i + 1
			}
			return 0
		}
	}
	return 0
}

// lastObjectBlockHint follows the syntax error of a program whose last
// statement is an object literal (lastObjectBlock), which JavaScript reads
// as a block, as objectBlockHint says.
const lastObjectBlockHint = ": line %d starts with {, so it is a block, not an object literal; to give the object back, return it: return { ... }"

// jsxHint follows QuickJS's words for JSX ("unexpected token in
// expression: '<'" at `<div`), which models write out of habit; usingHint
// follows those for a using declaration where tsstrip does not rewrite it
// (a for loop's head), which this QuickJS predates.
const (
	jsxHint   = ": JSX (<div>...</div>) is not supported: the sandbox runs JavaScript and TypeScript, with no JSX transform and no DOM; return the data itself, or build markup as a string ('<li>' + name + '</li>')"
	usingHint = ": a using declaration runs only as a statement of its own (using r = open();), not in a for loop's head, where this engine (QuickJS) has none; declare the value with const and release it yourself: const r = open(); try { ... } finally { r[Symbol.dispose]() }"
	// accessorHint follows QuickJS's words for an auto-accessor field
	// (accessor x = 1), which models copy from TypeScript 4.9+ code.
	accessorHint = ": auto-accessors (accessor x = ...) are not supported by this engine (QuickJS); declare a plain field (x = ...), or a get and a set over a private field (#x)"
	// quoteHint follows QuickJS's words for a typographic quote (a model's
	// text, or a chat client's that "smartened" it) outside a string.
	quoteHint = ": \u201c \u201d \u2018 \u2019 are typographic quotes, not JavaScript's: write strings with \" or ' (or ` for a template)"
)

// hashCommentHint follows QuickJS's words for a line's # that begins a
// comment in Python or the shell, or a markdown heading ("# Step 1"):
// QuickJS reads # as the start of a private name.
const hashCommentHint = ": # begins a comment in Python and the shell (or a markdown heading), not in JavaScript; write comments on line %d with // (or /* ... */)"

// hashComment says whether line's # at col (1-based) stands alone, as a
// comment's or a heading's does: after a space or at the line's start,
// before a space, another # or the line's end (a private name's # is
// followed by a letter and comes after a dot or in a class body).
func hashComment(line []rune, col int) bool {
	if col < 1 || col > len(line) || line[col-1] != '#' || col > 1 && !unicode.IsSpace(line[col-2]) {
		return false
	}
	rest := strings.TrimLeft(string(line[col-1:]), "#")
	return rest == "" || unicode.IsSpace([]rune(rest)[0])
}

// templateFenceHint follows the syntax error of a program that writes
// markdown with a fence line (```json) inside a template literal: the
// fence's first backtick ends the literal, and QuickJS says only
// "expecting ';'" or points past it.
const templateFenceHint = ": line %d begins with ``` inside a template literal, whose first backtick ends the literal; escape the backticks in the literal (\\`\\`\\`json) or write the fence apart (const fence = \"```\"; then ${fence}json)"

// jsxAt says whether rest, the text from the '<' QuickJS stopped at, opens
// a JSX element or fragment (`<div`, `<Foo.Bar`, `<>`) that the code closes
// somewhere (`/>` or `</`): a TypeScript cast (<T>x) is erased before.
func jsxAt(rest, code string) bool {
	if len(rest) < 2 || rest[0] != '<' {
		return false
	}
	c := rest[1]
	if !(c == '>' || c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		return false
	}
	return strings.Contains(code, "/>") || strings.Contains(code, "</")
}

// escapedHint follows the syntax error of code that was escaped once too
// often (its arguments JSON-encoded twice, a habit of some models): it
// arrives as one line holding \n, a backslash and an n, where the model
// meant a line break, and \" where it meant a quote. QuickJS names the
// backslash only.
const escapedHint = ": the code was escaped twice: it holds \\n (a backslash and an n) where a line break was meant, or \\\" where a quote was; send the code itself, with real line breaks and quotes"

// escapedTwice says whether a SYNTAX error is that of code escaped twice: a
// single line that stops at a backslash outside a string, or whose first
// fence's language runs on past an escaped line break (```js\nreturn ...).
func escapedTwice(code string, e *sandbox.Error) bool {
	if strings.Contains(code, "\n") || !strings.Contains(code, `\`) {
		return false
	}
	if strings.HasPrefix(e.Message, "```") || strings.HasPrefix(e.Message, "~~~") {
		return strings.Contains(strings.SplitN(e.Message, " ", 2)[0], `\n`)
	}
	rs := []rune(code)
	c := e.Column - 1
	return e.Line == 1 && c >= 0 && c+1 < len(rs) && rs[c] == '\\' && strings.ContainsRune(`n"'rt`, rs[c+1])
}

// encodedProgramMessage is the SYNTAX error of a program sent as one JSON
// string literal, its quotes included (encoded once too often, as a whole):
// JavaScript runs it as a string, whose value, the program's own text, was
// the result, ok, and the model read its program back with no word of what
// went wrong.
const encodedProgramMessage = "the code is one string literal holding a program, which would only give back its own text" + escapedHint

// encodedProgram says where code that is one JSON string literal holding a
// program begins (its 1-based line and column), or 0, 0. A line break or a
// semicolon and a statement that begins with return or await tell a
// program from a string meant as the result ("return 1" alone stays one).
func encodedProgram(code string) (line, col int) {
	s := jsonString(code)
	if !strings.ContainsAny(s, "\n;") || !statementWord(s, "return") && !statementWord(s, "await") {
		return 0, 0
	}
	lead := code[:len(code)-len(strings.TrimLeft(code, " \t\r\n"))]
	line = strings.Count(lead, "\n") + 1
	return line, utf8.RuneCountInString(lead[strings.LastIndexByte(lead, '\n')+1:]) + 1
}

// statementWord says whether word begins a statement of s: at its start, or
// after a line break, a semicolon or a brace, and not as part of a longer name.
func statementWord(s, word string) bool {
	for i := strings.Index(s, word); i >= 0; {
		before := strings.TrimRight(s[:i], " \t\r")
		r, _ := utf8.DecodeRuneInString(s[i+len(word):])
		if (before == "" || strings.ContainsRune("\n;{}", rune(before[len(before)-1]))) && !(r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return true
		}
		j := strings.Index(s[i+1:], word)
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// pythonOperatorHint and pythonLambdaHint follow the syntax error at
// Python's words written in JavaScript: QuickJS reads and, or and is as
// names, stopping at them (`x > 0 and y`), and not and lambda as names,
// stopping at the word after them (`not done`, `lambda x: ...`).
const (
	pythonOperatorHint = ": and, or, not and is are Python; JavaScript writes &&, ||, ! and === (x === null for x is None, xs.includes(x) for x in xs)"
	pythonLambdaHint   = ": lambda is Python; JavaScript writes an arrow function: (x) => x + 1"
)

// comprehensionHint and conditionalHint follow the syntax error at
// Python's list comprehension ([x * 2 for x in xs], where QuickJS says
// "expecting ']'" at for) and conditional expression (a if c else b,
// "expecting ';'" at if).
const (
	comprehensionHint = ": [... for x in xs] is a Python list comprehension; JavaScript writes xs.map((x) => ...), with xs.filter((x) => ...) first for an if"
	conditionalHint   = ": a if c else b is Python; JavaScript writes c ? a : b"
)

// pythonWordHint is the hint for a syntax error between before and at (the
// line split at the error) that a Python word explains, or "".
func pythonWordHint(before, at string) string {
	// A for or an if where an expression goes on: JavaScript's statements
	// never stop the parser there.
	if rest, ok := strings.CutPrefix(at, "for "); ok && strings.Contains(rest, " in ") && strings.ContainsAny(before, "[(") {
		return comprehensionHint
	}
	if rest, ok := strings.CutPrefix(at, "if "); ok && strings.Contains(rest, " else ") && strings.TrimSpace(before) != "" && !endsWithWord(before, "else") {
		return conditionalHint
	}
	// elif on a line of its own, or after the block's closing brace.
	if strings.HasPrefix(strings.TrimLeft(before, " \t}"), "elif ") {
		return ": elif is Python; JavaScript writes else if"
	}
	for _, w := range []string{"and", "or", "is", "not"} {
		if rest, ok := strings.CutPrefix(at, w+" "); ok && rest != "" && strings.TrimSpace(before) != "" {
			return pythonOperatorHint
		}
	}
	if endsWithWord(before, "not") && strings.HasSuffix(before, " ") {
		return pythonOperatorHint
	}
	if endsWithWord(before, "raise") && strings.HasSuffix(before, " ") {
		return ": raise is Python; JavaScript writes throw new Error(\"...\")"
	}
	if endsWithWord(before, "lambda") && strings.HasSuffix(before, " ") {
		return pythonLambdaHint
	}
	// def main() { ... }, async def main() {: Python's def before a body
	// in braces (one ending in a colon is pythonLine's).
	if endsWithWord(before, "def") || strings.HasPrefix(at, "def ") {
		return ": def is Python; JavaScript declares a function with function: async function main() { ... }"
	}
	return ""
}

// fStringHint follows the syntax error at a Python f-string, which models
// trained on Python agents write in JavaScript too.
const fStringHint = ": f\"...\" is a Python f-string; JavaScript writes it as a template literal, in backticks with ${} around each expression: `${n} orders`"

// awaitHint follows QuickJS's words for an await in a function that is not
// async (a map or forEach callback, a helper), which models write often and
// which QuickJS reports as "expecting ','" or, before a parenthesis, as
// "'await' is not defined".
const awaitHint = ": await is only valid in an async function: make the function around it async (x => ... becomes async x => ..., function f() becomes async function f()) and await its calls; " +
	"for a map callback, await Promise.all(arr.map(async x => ...)); forEach does not wait: use for (const x of arr) { await ... }"

// endsWithWord says whether s, without its trailing white space, ends with
// the name word (and not a longer name that ends with it).
func endsWithWord(s, word string) bool {
	s = strings.TrimRight(s, " \t\r")
	rest, ok := strings.CutSuffix(s, word)
	if !ok {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(rest)
	return rest == "" || !(r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r))
}

// llmToolHints follow the error of code that calls the model's own two
// tools as if the sandbox had them (searchTools(...), tools.executeCode(...)):
// the instruction names both, and tool_search is searchTools's inside.
var llmToolHints = map[string]string{"searchTools": searchToolsHint, "executeCode": executeCodeHint}

const (
	searchToolsHint = "searchTools is a tool you call outside the code; inside it, search with await tool_search({ query })"
	executeCodeHint = "executeCode is the tool that runs this code; inside it, call the tools themselves: await tools.<namespace>.<name>(input)"
)

// notDefinedHints follow "'<name>' is not defined" for the globals models
// reach for that the sandbox lacks: what they know
// from a module or a page, where the sandbox has neither: "'module' is not
// defined" alone did not say to return the result, nor "'document' is not
// defined" where page data is.
var notDefinedHints = buildNotDefinedHints()

// notDefinedTable is notDefinedHints as text, a line per hint: the names
// it follows, a tab, the hint. Text, not a statement per name (each was a
// map assignment of its own, 6.5 KB of the core's code) nor a table of
// strings (whose headers brotli packs worse than the statements).
const notDefinedTable = "module exports\t: the code is the body of an async function, not a module; return the result (return value;) instead of assigning module.exports\n" +
	"await\t" + awaitHint + "\n" +
	"searchTools\t: " + searchToolsHint + "\n" +
	"executeCode\t: " + executeCodeHint + "\n" +
	"window document localStorage sessionStorage navigator location Buffer Deno Bun Response Request Headers AbortController AbortSignal\t" + noHostHint + "\n" +
	"global\t: Node.js's global is globalThis here (globalThis.tools, or tools itself)\n" +
	"setImmediate\t: use setTimeout: await new Promise((r) => setTimeout(r, 0))\n" +
	"Temporal\t: this sandbox has no Temporal; use Date (Date.UTC, getTime, toISOString) and Intl.DateTimeFormat\n" +
	"React useState useEffect\t: the sandbox has no React and no components; call the tools and return the data\n" +
	"TOOL_CALLS\t: [TOOL_CALLS] is tool-call markup; send only the program, as executeCode's code, one call at a time\n" +
	// FireFunction's functools[{"name": ..., "arguments": ...}].
	"functools\t" + markupHint + "\n" +
	"json\t: the code is JavaScript, where Python's json.dumps and json.loads are JSON.stringify and JSON.parse\n" +
	"asyncio\t: the code is JavaScript, where Python's asyncio.gather(a, b) is await Promise.all([a, b]) and asyncio.sleep(s) is await new Promise((r) => setTimeout(r, s * 1000))\n" +
	"Atomics\t: this sandbox has no Atomics (nor threads to wait for); to wait, await new Promise((r) => setTimeout(r, ms))\n" +
	// process.env, process.argv, process.stdout.write (Node.js's output).
	"process\t" + noHostHint + "; log with console.log(...), not process.stdout.write\n" +
	// Gemini's function calls, default_api.orders_search(...): the tool
	// meant is named where the code names it (namedTool).
	"default_api\t: the tools are functions of tools, not of default_api; " + byNameHint + "\n" +
	"alert confirm prompt\t: the sandbox has no page and no user to ask; log with console.log(...) or return the value (a question for the user goes in your answer, after the run)\n" +
	// Python's words, which models trained on Python agents write in
	// JavaScript too: QuickJS's bare ReferenceError did not say the
	// JavaScript for them.
	"True False None\t: the code is JavaScript, where Python's True, False and None are true, false and null\n" +
	"print\t: the code is JavaScript, which has no print; log with console.log(...) (the run's logs show it) or return the value\n" +
	"len\t: the code is JavaScript, which has no len(); use x.length (Object.keys(o).length for an object's keys)\n" +
	"str\t: the code is JavaScript, which has no str(); use String(x) or a template literal (`${x}`)\n" +
	"int\t: the code is JavaScript, which has no int(); use Math.trunc(Number(x)) (Number(x) for a number, parseInt(s, 10) for a string)\n" +
	"float\t: the code is JavaScript, which has no float(); use Number(x)\n" +
	"range\t: the code is JavaScript, which has no range(); for (let i = 0; i < n; i++), or Array.from({ length: n }, (_, i) => i)\n" +
	"sum\t: the code is JavaScript, which has no sum(); add with xs.reduce((a, b) => a + b, 0)\n" +
	"round\t: the code is JavaScript, which has no round(); use Math.round(x) (to 2 places: Math.round(x * 100) / 100, or x.toFixed(2) for text)\n" +
	"sorted\t: the code is JavaScript, which has no sorted(); use [...xs].sort() (numbers: .sort((a, b) => a - b); then .reverse() for descending)\n" +
	"max min\t: the code is JavaScript, which has no max() or min() of a list; use Math.max(...xs) (Math.min(...xs))\n" +
	"enumerate\t: the code is JavaScript, which has no enumerate(); use xs.entries(): for (const [i, x] of xs.entries())\n" +
	"zip\t: the code is JavaScript, which has no zip(); pair two arrays with xs.map((x, i) => [x, ys[i]])\n" +
	// search(...): the discovery call other code modes name so; here it is
	// tool_search, and "'search' is not defined" sent models guessing.
	"search search_tools\t: to find tools inside the code, call await tool_search({ query })\n" +
	// The dispatchers of callAliases as globals: callTool(name, input).
	"callTool invokeTool runTool executeTool useTool call_tool\t: " + byNameHint + "\n" +
	// smolagents' way to end a run, which models trained on its agents write.
	"final_answer finalAnswer\t: the code has no final_answer(); give the answer back with return: return value;\n" +
	// Withheld (sandbox/withheld.go: QuickJS's use-after-free bugs are in
	// its callbacks): the bare ReferenceError read like a missing import.
	"FinalizationRegistry\t: this sandbox withholds FinalizationRegistry (typeof FinalizationRegistry is \"undefined\"): a run is too short for its callbacks, which come only after an object is garbage collected; clean up in a finally block instead"

// inMarkup says whether code holds a tag of a model's tool-call markup.
func inMarkup(code string) bool {
	for _, tag := range []string{"tool_call>", "<function=", "function_calls>", "invoke name=", "<|tool_call", "[TOOL_CALLS]", " to=functions.", "tool▁call", "START_ACTION|>", "function_call>", "TOOLCALL>"} {
		if strings.Contains(code, tag) {
			return true
		}
	}
	return false
}

// markupHint follows code wrapped in a model's tool-call markup.
const markupHint = ": the code is wrapped in tool-call markup (<tool_call>, <function=...>, <invoke ...>), which is not JavaScript; send only the program, as executeCode's code, one call at a time (search with searchTools, or with tool_search(...) in the program)"

// noHostHint follows a global of a page, Node.js, Deno or Bun.
const noHostHint = ": the sandbox has no page, DOM, storage or Node.js objects, only JavaScript's built-ins and the globals the instructions list; get the page's data by calling its tools (tool_search finds them)"

// buildNotDefinedHints is notDefinedHints. Not inlined into the package's
// init (TestCoreInitInlinesNoLoop says why).
//
//go:noinline
func buildNotDefinedHints() map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(notDefinedTable, "\n") {
		names, hint, _ := strings.Cut(line, "\t")
		for _, k := range strings.Fields(names) {
			m[k] = hint
		}
	}
	return m
}

// asyncForEachWarning is the run's warning when the program passes an
// async callback to forEach (tsstrip.Prepared.AsyncForEachLine): the
// program went on without the callbacks' results and errors, and came
// back with a short sum and no hint why. QuickJS's rejection tracker,
// which would catch their errors, is not exposed by the pinned build.
const asyncForEachWarning = "line %d: forEach does not wait for async callbacks: the program goes on (and may return) before their awaits finish, and their errors are lost; " +
	"use for (const x of arr) { await ... } or await Promise.all(arr.map(async x => ...))"

// lostEntriesJS is source "lost" of prelude/api.js: (log, isMap) logs the
// run's warning when the program's own JSON.stringify wrote a Map (or a
// Set) as {}, and answers true (warned: once a run).
const lostEntriesJS = `(log, isMap) => {
  const kind = isMap ? "Map" : "Set";
  log("warn", "JSON.stringify wrote a " + kind + " as {} (JSON keeps none of its entries): convert it first, " + (isMap ? "JSON.stringify(Object.fromEntries(map))" : "JSON.stringify([...set])") + ", or return the " + kind + " itself (the result converts it)");
  return true;
}`

// asyncTestWarning is the run's warning when the program passes an async
// callback to filter, find, some, ... (tsstrip.Prepared.AsyncTestLine):
// each test gave a Promise, which is truthy, so every item passed.
const asyncTestWarning = "line %d: %s(async ...) tests each item by a Promise, which is truthy, so every item passes before any await in the test finishes; " +
	"await the tests first: const ok = await Promise.all(arr.map(async (x) => ...)), then arr.%s((x, i) => ok[i])"

// awaitedMapWarning is the run's warning when the program awaits the
// array an async map callback gives (tsstrip.Prepared.AwaitedMapLine):
// the await does not wait for the promises in it.
const awaitedMapWarning = "line %d: await of arr.map(...) does not wait for what its callback awaits or calls: the array holds the promises, not their results; use await Promise.all(arr.map(async x => ...))"

// unawaitedWarning is the run's warning for a statement that calls an
// async function the program declares and drops its promise
// (tsstrip.Prepared.Unawaited): the program went on, or ended, before the
// call was done, and a rejection of it was lost without a word (QuickJS's
// rejection tracker is not exposed by the pinned build). One per call, at
// most maxUnawaitedWarnings.
const (
	unawaitedWarning = "line %d: %s() is an async function and this call is not awaited: the program goes on (and may return) before it finishes, and its error is lost; " +
		"write await %s(...), or collect the promises and await Promise.all(...)"
	maxUnawaitedWarnings = 3
)

// uncalledWarning is the run's warning for a function with parameters
// that the program declares and never calls, where it is all the program
// would run (tsstrip.Prepared.Uncalled): `async function main(input)
// {...}`, `function handler(event) {...}`. A main without parameters is
// called for the model; these have nothing to be called with, and the run
// came back with no result and no word why.
const uncalledWarning = "line %d: %s(...) is declared and never called, so none of its code ran and the run has no result; " +
	"send its body as the program (top-level await and return work), or call it: return await %s(...)"

// functionsWarning is the run's warning for a program that only declares
// functions (tsstrip.Prepared.Functions): none of their code ran, and the
// run came back with no result and no word why. The last is named in the
// call, as models write the one that uses the others last.
const functionsWarning = "the program only declares functions (%s) and calls none of them, so none of their code ran and the run has no result; " +
	"end it with the call that gives the answer, e.g. return await %s(...)"

// declaredWarning is the run's warning when the program's last statement
// declares a name and nothing returns (tsstrip.Prepared.Declared):
// `const ids = orders.map(...)` as the last line. A declaration has no
// value of its own: the run had no result, or, after an expression
// statement, that statement's value (`total += o.total` in a loop before
// `let summary = ...`), and the model read either with no word why, where
// it meant the name's value. declaredValueWarning is the second case's.
const (
	declaredWarning      = "line %d: the program ends by declaring %s and returns nothing, so the run has no result; to give its value back, end with return %s"
	declaredValueWarning = "line %d: the program ends by declaring %s and returns nothing, so the result is the value of an earlier statement, not of %s; to give %s back, end with return %s"
)

// laterFenceWarning is the run's warning when the code holds a second
// JavaScript block (tsstrip.Prepared.LaterFenceLine): only the first ran,
// and a model that split its program into blocks read the first block's
// result with no word about the rest.
const laterFenceWarning = "line %d: this code block did not run: only the first JavaScript block of the text is the program; send the whole program in one block"

// htmlEntities are the escapes a chat client or a page writes for
// characters of code that went through HTML: QuickJS reads `=&gt;` as an
// assignment of a stray `&` ("unexpected token in expression: '&'") and
// `a &lt; b` as `a & lt; b`, so its words never named the cause.
var htmlEntities = []string{"&lt;", "&gt;", "&amp;", "&quot;", "&apos;", "&#39;", "&#x27;", "&nbsp;"}

// entityHint follows a syntax error at an HTML entity of the code (the
// error's position inside one). The code is not unescaped: an entity can
// be meant, inside a string that builds markup.
func entityHint(code string, e *sandbox.Error) string {
	if e.Code != sandbox.CodeSyntax || e.Line <= 0 || e.Column <= 0 {
		return ""
	}
	lines := strings.Split(code, "\n")
	if e.Line > len(lines) {
		return ""
	}
	line, col := []rune(lines[e.Line-1]), e.Column-1
	for _, ent := range htmlEntities {
		for i := 0; i+len(ent) <= len(line); i++ {
			if string(line[i:i+len(ent)]) == ent && col >= i && col < i+len(ent) {
				return fmt.Sprintf(entityText, ent)
			}
		}
	}
	return ""
}

// entityNameHint follows "'lt' is not defined" (`a &lt; b` runs as
// `a & lt; b`) of code that holds that entity.
func entityNameHint(code string, e *sandbox.Error) string {
	name, ok := strings.CutSuffix(e.Message, "' is not defined")
	if !ok || e.Name != "ReferenceError" || !strings.HasPrefix(name, "'") {
		return ""
	}
	if ent := "&" + name[1:] + ";"; slices.Contains(htmlEntities, ent) && strings.Contains(code, ent) {
		return fmt.Sprintf(entityText, ent)
	}
	return ""
}

const entityText = ": the code holds HTML entities (%s): it was HTML-escaped on its way; send the characters themselves (< > & \" ' rather than &lt; &gt; &amp; &quot; &#39;)"

// pythonHint follows a syntax error on a line that is Python (`def f():`,
// `elif x:`, `for x in xs:`): a model that wrote its habitual language,
// unfenced, where QuickJS says "expecting ';'".
const pythonHint = ": line %d is Python, not JavaScript: executeCode runs JavaScript or TypeScript (the body of an async function); write the program in JavaScript"

// pythonLine says whether s is a Python import (from x import y) or block
// header: def, elif, or a header keyword (if, for, while, with, try, except, else, class) ending
// in a colon, with no brace or semicolon, which JavaScript lines ending in
// a colon (case x:, a label, an object key) never start with.
func pythonLine(s string) bool {
	t := strings.TrimSpace(s)
	// from x import y: JavaScript's import begins with import.
	if f := strings.Fields(t); len(f) >= 4 && f[0] == "from" && f[2] == "import" && !strings.ContainsAny(t, "{};'\"") {
		return true
	}
	if !strings.HasSuffix(t, ":") || strings.ContainsAny(t, "{};") {
		return false
	}
	head, _, _ := strings.Cut(strings.TrimPrefix(t, "async "), " ")
	head = strings.TrimSuffix(head, ":")
	switch head {
	case "def", "elif", "except", "while", "with", "try", "else", "class":
		return true
	case "if", "for":
		// `for x in xs:` and `if x:` (JavaScript's have parentheses).
		rest := strings.TrimSpace(strings.TrimPrefix(t, head))
		return !strings.HasPrefix(rest, "(")
	}
	return false
}
