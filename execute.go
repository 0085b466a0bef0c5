package codemode

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/interopio/code-mode/internal/jsoncut"
	"github.com/interopio/code-mode/internal/trunc"
	"github.com/interopio/code-mode/internal/tsgen"
	"github.com/interopio/code-mode/internal/tsstrip"
	"github.com/interopio/code-mode/sandbox"
)

// The sandbox API: see prelude/prelude.js.
var (
	//go:embed prelude/prelude.js
	preludeSource string
	//go:embed prelude/tools.js
	toolsSource string
	//go:embed prelude/console.js
	consoleSource string
	//go:embed prelude/api.js
	apiSource string

	preludeJS, toolsJS, consoleJS, apiJS = compactJS(preludeSource), compactJS(toolsSource), compactJS(consoleSource), compactJS(apiSource)
)

// compactJS drops comments and indentation: QuickJS pays for every byte it
// tokenizes, on every run.
func compactJS(src string) string {
	var b strings.Builder
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// ExecuteResult is the result of one executeCode run, in the JSON shape the
// model sees.
type ExecuteResult struct {
	// OK says the code returned; else Error says why it failed.
	OK bool `json:"ok"`
	// Result is the value the code returned, as JSON, shortened to
	// Config.MaxResultChars (a warn entry in Logs then says so); nil when
	// it returned undefined or failed.
	Result json.RawMessage `json:"result,omitempty"`
	// Error is the failure of a run that did not return (nil when OK).
	Error *RunError `json:"error,omitempty"`
	// Logs are the run's console lines and warnings, in order. Past the
	// log budget (200 entries, half of MaxResultChars) a warn entry says
	// how many were dropped. Never nil.
	Logs []LogEntry `json:"logs"`
	// ToolCalls are the run's tool calls, in the order made. Never nil.
	ToolCalls []ToolCallRecord `json:"toolCalls"`
	// DurationMs is the wall-clock time of the ExecuteCode call, in
	// milliseconds.
	DurationMs float64 `json:"durationMs"`
}

// RunError describes a failed run. Code is one of SYNTAX, RUNTIME, TIMEOUT,
// MEMORY_LIMIT, TOOL_LIMIT, RESULT_NOT_SERIALIZABLE, INVALID_INPUT (the
// constants ErrorCodeSyntax, ErrorCodeRuntime, ErrorCodeTimeout,
// ErrorCodeMemoryLimit, ErrorCodeToolLimit, ErrorCodeResultNotSerializable,
// ErrorCodeInvalidInput). Line and Column point into the model's code.
type RunError struct {
	// Name is the JavaScript error's name (TypeError, SyntaxError, ...).
	Name string `json:"name"`
	// Message is its message, with a hint where the sandbox knows one
	// (what to write instead of Intl, say); at most 2,000 characters.
	Message string `json:"message"`
	// Code is one of the ErrorCode constants.
	Code string `json:"code"`
	// Line and Column are 1-based, 0 when unknown.
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
	// Stack is the JavaScript stack, at most 2,000 characters.
	Stack string `json:"stack,omitempty"`
}

// LogEntry is one console call, or a warning of the run.
type LogEntry struct {
	// Level is "log", "info", "warn", "error" or "debug".
	Level string `json:"level"`
	// Message is the line as console.log formats it (objects as JSON), at
	// most 2,000 characters.
	Message string `json:"message"`
}

// ToolCallRecord is one tool call of a run.
type ToolCallRecord struct {
	// Name is the name the code called (at most 128 characters).
	Name string `json:"name"`
	// Allowed says the call passed the interceptor (or there is none)
	// and the checks before it: false for a call that was denied, named
	// no visible tool, went over MaxToolCalls, or that the run's end
	// stopped before it started (Reason says which).
	Allowed bool `json:"allowed"`
	// OK says the tool returned without an error.
	OK bool `json:"ok"`
	// DurationMs is the time from the call to its end, in milliseconds.
	DurationMs float64 `json:"durationMs"`
	// Reason says why a call was denied or failed ("" when OK).
	Reason string `json:"reason,omitempty"`
}

// ErrorCodeToolLimit is the code of a run that made more than MaxToolCalls calls.
const ErrorCodeToolLimit = "TOOL_LIMIT"

const (
	maxLogEntries    = 200
	maxLogEntryChars = 2000
)

// ExecuteCode runs the model's code. runContext is the run context, the
// caller's opaque state that every tool (Call.Context) and the interceptor
// (ToolCall.Context) receive. Failures of the code come back in the result
// (OK false); the error is non-nil only when ctx is done, the session or
// its CodeMode is closed (ErrClosed), or a sandbox instance cannot be made.
// An error that wraps ErrNotStarted says that nothing of the code ran.
//
// A run stopped by ctx returns an error that matches ctx.Err() with
// errors.Is (context.Canceled or context.DeadlineExceeded) and also
// context.Cause(ctx), when a cause was given (context.WithCancelCause,
// WithTimeoutCause): errors.Is(err, context.Canceled) and
// errors.Is(err, cause) both hold. Without a cause, a run stopped once
// begun returns ctx.Err() itself. One whose ctx was done before it had a
// sandbox instance (already, or while it waited for one) wraps
// ErrNotStarted as well. The run's own Config.Timeout is no error: it is
// the result's ErrorCodeTimeout.
func (s *Session) ExecuteCode(ctx context.Context, in ExecuteCodeInput, runContext any) (*ExecuteResult, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	if strings.TrimSpace(in.Code) == "" {
		return invalidInputResult(&argsError{"executeCode: code: required; expected a non-empty string of JavaScript or TypeScript (the body of an async function)"}), nil
	}
	start := time.Now()
	prepared, perr := prepareCode(in.Code)
	code := prepared.Code
	if perr != nil {
		msg := perr.Message
		if escapedTwice(in.Code, &sandbox.Error{Message: msg, Line: perr.Line, Column: perr.Column}) {
			msg += escapedHint
		}
		return &ExecuteResult{Logs: []LogEntry{}, ToolCalls: []ToolCallRecord{}, DurationMs: ms(time.Since(start)),
			Error: &RunError{Name: "SyntaxError", Code: string(sandbox.CodeSyntax), Message: msg, Line: perr.Line, Column: perr.Column}}, nil
	}
	// The run stops when the caller's ctx is done, or when its session or
	// factory is closed: then nothing of it may start any more.
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stopS := context.AfterFunc(s.done, func() { cancel(ErrClosed) })
	defer stopS()
	stopCM := context.AfterFunc(s.cm.done, func() { cancel(ErrClosed) })
	defer stopCM()
	r := &runState{s: s, runContext: runContext, code: code}
	if fn, _ := ctx.Value(consoleKey{}).(func(LogEntry)); fn != nil {
		r.obs = newConsoleObserver(fn, runCtx.Done(), s.cm.cfg.Timeout)
	}
	defer r.end("the run was stopped")
	if line := prepared.AsyncForEachLine; line > 0 {
		// First, within the log budget the program's own logs cannot
		// spend before it: the run still goes as written.
		r.warn(fmt.Sprintf(asyncForEachWarning, line))
	}
	for i, c := range prepared.Unawaited {
		if i == maxUnawaitedWarnings {
			break
		}
		r.warn(fmt.Sprintf(unawaitedWarning, c.Line, c.Name, c.Name))
	}
	if line := prepared.LaterFenceLine; line > 0 {
		r.warn(fmt.Sprintf(laterFenceWarning, line))
	}
	// Sorted by name: a call finds its tool by binary search, so a run
	// builds nothing per visible tool.
	r.visible = s.cm.visible(s.own)
	prelude, needs := preludeFor(code)
	funcs := map[string]sandbox.Func{
		"__cm_begin":  {Sync: r.begin},
		"__cm_call":   {Async: r.call, Start: r.startCall, Label: r.callLabel},
		"__cm_depth":  {Sync: jsonDepthHost},
		"__cm_search": {Async: r.search},
		"__cm_log":    {Sync: r.log},
		"__cm_src":    {Sync: r.source},
	}
	// Named to sort after the API's six: the prelude takes the functions
	// in the order of their names, these as its last arguments (more).
	if needs.timers {
		funcs["__cm_timer"] = sandbox.Func{Async: r.timers.sleep, Detached: true}
		funcs["__cm_timer_clear"] = sandbox.Func{Sync: r.timers.clear}
	}
	if needs.random {
		funcs["__cm_urandom"] = sandbox.Func{Bytes: (&entropy{src: s.cm.cfg.Random}).random}
	}
	if needs.syntax {
		funcs["__cm_syntax"] = sandbox.Func{Sync: syntaxHost}
	}
	if needs.clock {
		r.clock.start = start
		funcs["__cm_time"] = sandbox.Func{Sync: r.clock.now}
	}
	started := false
	res, err := s.cm.engine.Run(runCtx, sandbox.Program{
		Started: func() { started = true },
		Code:    code,
		Prelude: prelude,
		Timeout: s.cm.cfg.Timeout,
		Funcs:   funcs,
		Hidden:  true,
		Body:    prepared.Body,
		// The prelude's JSON.parse guards against nesting too deep for
		// the host's stack; the results of tools are checked on the host.
		NativeParse: parseNatively,
	})
	if err != nil {
		if errors.Is(err, sandbox.ErrClosed) || errors.Is(err, ErrClosed) {
			return nil, ErrClosed
		}
		if ctx.Err() != nil {
			err = stoppedBy(ctx)
		}
		if !started {
			return nil, fmt.Errorf("%w: %w", ErrNotStarted, err)
		}
		return nil, err
	}
	if prepared.ObjectBlock && res.Error == nil {
		r.warn(objectBlockWarning)
	}
	return r.finish(res, time.Since(start)), nil
}

// ErrNotStarted is wrapped by ExecuteCode's error when the run ended
// before it had a sandbox instance: nothing of the code ran, and no
// interceptor or tool was called for it, so running it again runs it
// once. Typically ctx ended while the run waited for an instance (16 runs
// of the CodeMode executing, see New): the error then also matches
// ctx.Err() and its cause, as for any run stopped by ctx. It is also
// wrapped when an instance could not be made. A run whose session or
// CodeMode was closed meanwhile gives ErrClosed.
var ErrNotStarted = errors.New("codemode: the run did not start")

// stoppedBy is the error of a run that ctx stopped: ctx.Err(), joined
// with context.Cause(ctx) when that is another error. context.Cause alone
// (what the sandbox returns, as net/http does) broke the usual
// errors.Is(err, context.Canceled) check under WithCancelCause, and
// ctx.Err() alone would lose the caller's reason.
func stoppedBy(ctx context.Context) error {
	err, cause := ctx.Err(), context.Cause(ctx)
	if cause == nil || cause == err {
		return err
	}
	return fmt.Errorf("%w: %w", err, cause)
}

// intlHint follows QuickJS's "'Intl' is not defined": models format money
// and dates with Intl, which QuickJS lacks, and the bare ReferenceError
// does not say what to write instead. Intl stays undefined (typeof Intl
// still detects it), and an error the program catches keeps QuickJS's
// wording: only the run's own error gets the hint.
const intlHint = ": this sandbox (QuickJS) has no Intl, and toLocaleString() and toLocaleDateString() ignore their locales and options here. " +
	numberTip + ". " + dateTip

// hintFor is what the run's error message gains: how to do without what
// the sandbox lacks (notDefinedHints).
func hintFor(e *sandbox.Error) string {
	name, ok := strings.CutSuffix(e.Message, "' is not defined")
	if e.Name != "ReferenceError" || !ok || !strings.HasPrefix(name, "'") {
		return ""
	}
	return notDefinedHints[name[1:]]
}

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
	if t := strings.TrimSpace(code); strings.HasPrefix(t, "{") && json.Valid([]byte(t)) {
		return ": the code is a JSON object, not a program; to give that data back, write return followed by it (return { ... };)"
	}
	if tsstrip.ObjectBlock(code) {
		return objectBlockHint
	}
	if escapedTwice(code, e) {
		return escapedHint
	}
	if e.Line > 0 && e.Column > 0 {
		lines := strings.Split(code, "\n")
		if e.Line <= len(lines) {
			line := []rune(lines[e.Line-1])
			if e.Column <= len(line) && line[e.Column-1] == '@' {
				return ": decorators (@name) are not supported in this sandbox; apply the function yourself (C = dec(C), or call it on the method)"
			}
			if e.Message == "unexpected character" && e.Column <= len(line) && strings.ContainsRune("\u201c\u201d\u2018\u2019", line[e.Column-1]) {
				return quoteHint
			}
			if e.Message == "unexpected token in expression: '<'" && e.Column <= len(line) && jsxAt(string(line[e.Column-1:]), code) {
				return jsxHint
			}
			// `using x = ...` (and `await using`, `for (using x of ...)`):
			// QuickJS reads using as a name and stops at the next one.
			if (e.Message == "expecting ';'" || strings.HasPrefix(e.Message, "expected 'of' or 'in'")) && e.Column <= len(line)+1 && endsWithWord(string(line[:e.Column-1]), "using") {
				return usingHint
			}
			// QuickJS reads await as a name outside an async function, so
			// `x => await f(x)` stops at the token after it: "expecting ','".
			// A top-level await is valid (the code is an async body), and an
			// error after one is of another kind.
			if strings.HasPrefix(e.Message, "expecting '") && e.Column <= len(line)+1 && endsWithWord(string(line[:e.Column-1]), "await") {
				return awaitHint
			}
			if proseLine(string(line)) {
				return fmt.Sprintf(proseHint, e.Line)
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
// letters (an apostrophe or a hyphen inside), commas after words, and a
// sentence's end (: . ! ?) or a capital at its start. Code has operators,
// brackets or fewer words; a line of bare words that JavaScript would
// take is not where a syntax error points.
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
	for i, w := range words {
		w = strings.TrimRight(w, ",")
		if i == len(words)-1 && end {
			w = w[:len(w)-1]
		}
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

// jsxHint follows QuickJS's words for JSX ("unexpected token in
// expression: '<'" at `<div`), which models write out of habit; usingHint
// follows those for a using declaration, which this QuickJS predates (it
// has no Symbol.dispose either).
const (
	jsxHint   = ": JSX (<div>...</div>) is not supported: the sandbox runs JavaScript and TypeScript, with no JSX transform and no DOM; return the data itself, or build markup as a string ('<li>' + name + '</li>')"
	usingHint = ": using declarations are not supported by this engine (QuickJS); declare the value with const and release it yourself: const r = open(); try { ... } finally { r.close() }"
	// quoteHint follows QuickJS's words for a typographic quote (a model's
	// text, or a chat client's that "smartened" it) outside a string.
	quoteHint = ": \u201c \u201d \u2018 \u2019 are typographic quotes, not JavaScript's: write strings with \" or ' (or ` for a template)"
)

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
var llmToolHints = map[string]string{
	"searchTools": "searchTools is a tool you call outside the code; inside it, search with await tool_search({ query })",
	"executeCode": "executeCode is the tool that runs this code; inside it, call the tools themselves: await tools.<namespace>.<name>(input)",
}

// notDefinedHints follow "'<name>' is not defined" for the globals models
// reach for that the sandbox lacks: Intl (intlHint), and what they know
// from a module or a page, where the sandbox has neither: "'module' is not
// defined" alone did not say to return the result, nor "'document' is not
// defined" where page data is.
var notDefinedHints = func() map[string]string {
	const commonJS = ": the code is the body of an async function, not a module; return the result (return value;) instead of assigning module.exports"
	const page = ": the sandbox has no page, DOM, storage or Node.js objects, only JavaScript's built-ins and the globals the instructions list; get the page's data by calling its tools (tool_search finds them)"
	m := map[string]string{"Intl": intlHint, "module": commonJS, "exports": commonJS, "await": awaitHint}
	for k, h := range llmToolHints {
		m[k] = ": " + h
	}
	for _, k := range []string{"window", "document", "localStorage", "sessionStorage", "navigator", "location", "process", "Buffer"} {
		m[k] = page
	}
	return m
}()

// asyncForEachWarning is the run's warning when the program passes an
// async callback to forEach (tsstrip.Prepared.AsyncForEachLine): the
// program went on without the callbacks' results and errors, and came
// back with a short sum and no hint why. QuickJS's rejection tracker,
// which would catch their errors, is not exposed by the pinned build.
const asyncForEachWarning = "line %d: forEach does not wait for async callbacks: the program goes on (and may return) before their awaits finish, and their errors are lost; " +
	"use for (const x of arr) { await ... } or await Promise.all(arr.map(async x => ...))"

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

// laterFenceWarning is the run's warning when the code holds a second
// JavaScript block (tsstrip.Prepared.LaterFenceLine): only the first ran,
// and a model that split its program into blocks read the first block's
// result with no word about the rest.
const laterFenceWarning = "line %d: this code block did not run: only the first JavaScript block of the text is the program; send the whole program in one block"

// runState is one run's record: what it logged and called.
type runState struct {
	s          *Session
	runContext any
	visible    []*toolEntry // sorted by name
	// code is the program as run, read when `tools` is built
	// (unknownCalls).
	code string

	timers timers
	clock  clock

	// obs, when the caller set one (WithConsole), hands each kept log
	// entry to the observer as it is added, in the order of logs: tools
	// warn from goroutines of their own.
	obs *consoleObserver

	mu       sync.Mutex
	logs     []LogEntry
	logChars int
	dropped  int
	// calls holds every call that reached the pipeline, in call order;
	// ended is set when the run ends, and from then on no interceptor or
	// tool of this run starts.
	calls []*toolCallState
	ended bool
	// inFlight is the bytes of the inputs of the calls begun and not yet
	// returned (at most the run's memory limit: see begin).
	inFlight int
}

// source hands prelude/prelude.js the source of a lazily built global.
func (r *runState) source(args []json.RawMessage) (json.RawMessage, error) {
	var key string
	if len(args) > 0 {
		json.Unmarshal(args[0], &key)
	}
	switch key {
	case "tools":
		names := make([]string, len(r.visible))
		for i, e := range r.visible {
			names[i] = e.info.Name
		}
		namesJSON, _ := json.Marshal(names)
		src := strings.Replace(toolsJS, "/*NAMES*/[]", string(namesJSON), 1)
		if unknown := r.unknownCalls(r.code); len(unknown) > 0 {
			unknownJSON, _ := json.Marshal(unknown)
			src = strings.Replace(src, "/*UNKNOWN*/[]", string(unknownJSON), 1)
		}
		return json.Marshal(src)
	case "console":
		return json.Marshal(consoleJS)
	case "api":
		return json.Marshal(apiJS)
	case "convert":
		return json.Marshal(sandbox.ConvertJS)
	}
	if src, ok := builtinSource(key); ok {
		return json.Marshal(src)
	}
	return nil, errors.New("unknown source")
}

func (r *runState) log(args []json.RawMessage) (json.RawMessage, error) {
	var level, msg string
	if len(args) < 2 || json.Unmarshal(args[0], &level) != nil || json.Unmarshal(args[1], &msg) != nil {
		return nil, nil
	}
	// console's levels only: the prelude keeps this function from the
	// program, and the host does not take its word for the level either.
	switch level {
	case "log", "info", "warn", "error", "debug":
	default:
		level = "log"
	}
	r.addLog(level, msg)
	return nil, nil
}

// warn is Call.Warn: a warn entry within the same log budget.
func (r *runState) warn(msg string) { r.addLog("warn", msg) }

func (r *runState) addLog(level, msg string) {
	r.mu.Lock()
	if r.ended {
		// The result and its Logs are the caller's: a tool that outlived
		// its run (Call.Warn kept, or its context ignored) must not append
		// to the slice the result shares, nor call the observer after
		// ExecuteCode returned.
		r.mu.Unlock()
		return
	}
	budget := r.s.cm.cfg.MaxResultChars / 2
	if len(r.logs) >= maxLogEntries || r.logChars >= budget {
		r.dropped++
		r.mu.Unlock()
		return
	}
	msg = trunc.String(msg, min(maxLogEntryChars, budget-r.logChars))
	r.logChars += len(msg)
	e := LogEntry{Level: level, Message: msg}
	r.logs = append(r.logs, e)
	if r.obs == nil {
		r.mu.Unlock()
		return
	}
	// Its turn is taken under mu (the order of logs), and the observer is
	// waited for outside it: it may take its time.
	q := r.obs.enqueue(e)
	r.mu.Unlock()
	r.obs.deliver(q)
}

// reportf reports a fault of the host's own code that Code Mode survives.
var reportf = func(format string, args ...any) { fmt.Fprintf(os.Stderr, format, args...) }

func (r *runState) search(ctx context.Context, args []json.RawMessage) (json.RawMessage, error) {
	var arg json.RawMessage
	if len(args) > 0 {
		arg = args[0]
	}
	in, err := toolSearchArgs.parse(arg)
	if err != nil {
		return nil, &sandbox.JSError{Name: "TypeError", Message: err.Error()}
	}
	query, _ := in["query"].(string)
	namespace, _ := in["namespace"].(string)
	limit, _ := in["limit"].(int)
	hits := r.s.cm.search(ctx, r.visible, SearchRequest{Query: query, Namespace: namespace, Limit: limit}, r.s.signature)
	if len(hits) == 0 {
		r.note(noMatchNote(r.visible, query, namespace))
	}
	return json.Marshal(hitsJSON(hits))
}

// note adds an info line to the run's logs, as the model's own code would:
// it is how the sandbox API says something about a result.
func (r *runState) note(msg string) {
	level, _ := json.Marshal("info")
	text, _ := json.Marshal(msg)
	r.log([]json.RawMessage{level, text})
}

// finish turns the sandbox result into the model's result, within the
// output budget.
func (r *runState) finish(res *sandbox.Result, d time.Duration) *ExecuteResult {
	why := "the run ended"
	if res.Error != nil {
		why = fmt.Sprintf("the run ended (%s)", res.Error.Code)
	}
	calls := r.end(why)
	r.mu.Lock()
	defer r.mu.Unlock()
	out := &ExecuteResult{Logs: r.logs, ToolCalls: calls, DurationMs: ms(d)}
	if out.Logs == nil {
		out.Logs = []LogEntry{}
	}
	if out.ToolCalls == nil {
		out.ToolCalls = []ToolCallRecord{}
	}
	// Within a budget of their own, as large as the logs': a warning names
	// the path of what it converted, and the keys on it are the program's
	// (90 MB of '<' in GOOS=js passed V8's longest string when the result
	// was handed over, and the engine died), and each tool call's input
	// adds its own (999 calls gave 20,979 warnings, 239 MB of JSON).
	budget, spent, dropped := r.s.cm.cfg.MaxResultChars/2, 0, 0
	for i, w := range res.Warnings {
		if i >= maxLogEntries || spent >= budget {
			dropped++
			continue
		}
		w = trunc.String(w, min(maxLogEntryChars, budget-spent))
		spent += len(w)
		out.Logs = append(out.Logs, LogEntry{Level: "warn", Message: w})
	}
	if dropped > 0 {
		out.Logs = append(out.Logs, LogEntry{Level: "warn", Message: fmt.Sprintf("[%d more warnings dropped: their budget is spent]", dropped)})
	}
	if r.dropped > 0 {
		out.Logs = append(out.Logs, LogEntry{Level: "warn", Message: fmt.Sprintf("[%d more log entries dropped: the log budget is spent]", r.dropped)})
	}
	if res.Error != nil {
		e := res.Error
		out.Error = &RunError{Name: e.Name, Message: trunc.String(e.Message+hintFor(e)+syntaxHint(r.code, e)+unawaitedHint(e, calls), 2000), Code: string(e.Code), Line: e.Line, Column: e.Column, Stack: trunc.String(e.Stack, 2000)}
		if name, ok := strings.CutPrefix(e.Call, callLabelPrefix); ok && e.Line == 0 {
			// A tool's error the program returned rather than awaited:
			// the position of the call, when the code makes it in one place.
			out.Error.Line, out.Error.Column = tsstrip.CallSite(r.code, name)
		}
		return out
	}
	out.OK = true
	out.Result = res.Value
	if budget := r.s.cm.cfg.MaxResultChars; len(res.Value) > budget {
		cut, _ := jsoncut.Cut(res.Value, budget)
		out.Result = cut
		out.Logs = append(out.Logs, LogEntry{Level: "warn", Message: fmt.Sprintf(
			"result: %d bytes of JSON, over the %d budget: long arrays, objects and strings were shortened, and markers (\"… N more items\", \"%s\": \"N more keys\", \"… [N more characters]\") say what was left out; return less, or page through it",
			len(res.Value), budget, jsoncut.MoreKey)})
	}
	return out
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
