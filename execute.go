package codemode

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/interopio/code-mode/internal/jsoncut"
	"github.com/interopio/code-mode/internal/trunc"
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
	//go:embed prelude/show.js
	showSource string

	preludeJS, toolsJS, consoleJS, apiJS, showJS = compactJS(preludeSource), compactJS(toolsSource), compactJS(consoleSource), compactJS(apiSource), compactJS(showSource)
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
	// (what to write instead of Intl, say); at most 2,000 bytes of UTF-8
	// (cut on a character boundary, ending in "…").
	Message string `json:"message"`
	// Code is one of the ErrorCode constants.
	Code string `json:"code"`
	// Line and Column are 1-based, 0 when unknown.
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
	// Stack is the JavaScript stack, at most 2,000 bytes of UTF-8.
	Stack string `json:"stack,omitempty"`
}

// LogEntry is one console call, or a warning of the run.
type LogEntry struct {
	// Level is "log", "info", "warn", "error" or "debug".
	Level string `json:"level"`
	// Message is the line as console.log formats it (objects as JSON), at
	// most 2,000 bytes of UTF-8 (cut on a character boundary, ending in
	// "…").
	Message string `json:"message"`
}

// ToolCallRecord is one tool call of a run.
type ToolCallRecord struct {
	// Name is the name the code called (at most 128 characters).
	Name string `json:"name"`
	// Allowed says the call passed the interceptor (or there is none)
	// and the checks before it: false for a call that was denied, named
	// no visible tool, went over MaxToolCalls, whose tool was unregistered
	// during the run, or that the run's end stopped before it started
	// (Reason says which).
	Allowed bool `json:"allowed"`
	// OK says the tool returned without an error, and its result matched
	// its OutputSchema (Reason says how it did not).
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
	// maxErrorChars bounds RunError's Message and Stack, in bytes.
	maxErrorChars = 2000
)

// syntaxResult is the result of code refused before it ran, as QuickJS's
// own SyntaxError would be.
func syntaxResult(start time.Time, msg string, line, col int) *ExecuteResult {
	return &ExecuteResult{Logs: []LogEntry{}, ToolCalls: []ToolCallRecord{}, DurationMs: ms(time.Since(start)),
		Error: &RunError{Name: "SyntaxError", Code: string(sandbox.CodeSyntax), Message: msg, Line: line, Column: col}}
}

// ExecuteCode runs the model's code. runContext is the run context, the
// caller's opaque state that every tool (Call.Context) and the interceptor
// (ToolCall.Context) receive. Failures of the code come back in the result
// (OK false); the error is non-nil only when ctx is done, the session or
// its CodeMode is closed (ErrClosed), ctx is nil (an error saying so, not
// a panic: pass context.Background() for none), or a sandbox instance
// cannot be made.
// An error that wraps ErrNotStarted says that nothing of the code ran.
// With an error the result is nil, with no logs or tool-call records:
// WithConsole gives a run's logs as they come, WithRefusedCalls its
// refused calls.
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
	if err := s.checkCtx(ctx); err != nil {
		return nil, err
	}
	if strings.TrimSpace(in.Code) == "" {
		return invalidInputResult(&argsError{"executeCode: code: required; expected a non-empty string of JavaScript or TypeScript (the body of an async function)"}), nil
	}
	if len(in.Code) > maxCodeBytes {
		return invalidInputResult(&argsError{codeTooLong(len(in.Code))}), nil
	}
	start := time.Now()
	if line, col := encodedProgram(in.Code); line > 0 {
		return syntaxResult(start, encodedProgramMessage, line, col), nil
	}
	prepared, perr := prepareCode(in.Code)
	code := prepared.Code
	if perr != nil {
		msg := perr.Message
		if escapedTwice(in.Code, &sandbox.Error{Message: msg, Line: perr.Line, Column: perr.Column}) {
			msg += escapedHint
		}
		return syntaxResult(start, msg, perr.Line, perr.Column), nil
	}
	// The run stops when the caller's ctx is done, or when its session or
	// factory is closed: then nothing of it may start any more.
	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stopS := context.AfterFunc(s.done, func() { cancel(ErrClosed) })
	defer stopS()
	stopCM := context.AfterFunc(s.cm.done, func() { cancel(ErrClosed) })
	defer stopCM()
	r := &runState{s: s, runContext: runContext, code: code, returned: prepared.Returned, lastPath: prepared.LastPath}
	fn, _ := ctx.Value(consoleKey{}).(func(LogEntry))
	refused, _ := ctx.Value(refusedKey{}).(func(RefusedCall))
	if fn != nil || refused != nil {
		r.obs = newConsoleObserver(fn, refused, runCtx.Done(), s.cm.cfg.Timeout)
	}
	r.sourceSpy, _ = ctx.Value(sourceSpyKey{}).(func(string))
	defer r.end("the run was stopped")
	if line := prepared.AsyncForEachLine; line > 0 {
		// First, within the log budget the program's own logs cannot
		// spend before it: the run still goes as written.
		r.warn(fmt.Sprintf(asyncForEachWarning, line))
	}
	if line := prepared.AwaitedMapLine; line > 0 {
		r.warn(fmt.Sprintf(awaitedMapWarning, line))
	}
	if line := prepared.AsyncTestLine; line > 0 {
		r.warn(fmt.Sprintf(asyncTestWarning, line, prepared.AsyncTest, prepared.AsyncTest))
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
	if c := prepared.Uncalled; c.Line > 0 {
		r.warn(fmt.Sprintf(uncalledWarning, c.Line, c.Name, c.Name))
	}
	if f := prepared.Functions; len(f) > 0 {
		r.warn(fmt.Sprintf(functionsWarning, strings.Join(f, ", "), f[len(f)-1]))
	}
	// Sorted by name: a call finds its tool by binary search, so a run
	// builds nothing per visible tool.
	r.visible = s.cm.visible(s.own)
	prelude, needs := preludeFor(code, s.cm.zone != nil)
	funcs := map[string]sandbox.Func{
		"__cm_begin":  {Sync: r.begin, Unwritable: r.beginUnwritable},
		"__cm_call":   {Async: r.call, Start: r.startCall, Label: r.callLabel},
		"__cm_depth":  {Sync: jsonDepthHost},
		"__cm_search": {Async: r.search, Label: searchLabel},
		"__cm_log":    {Sync: r.log},
		"__cm_src":    {Source: r.source},
	}
	// Named to sort after the API's six: the prelude takes the functions
	// in the order of their names, these as its last arguments (more).
	if needs.timers {
		funcs["__cm_timer"] = sandbox.Func{Async: r.timers.sleep, Detached: true, Dropped: r.timers.dropped}
		funcs["__cm_timer_clear"] = sandbox.Func{Sync: r.timers.clear}
	}
	if needs.random {
		funcs["__cm_urandom"] = sandbox.Func{Bytes: (&entropy{src: s.cm.cfg.Random}).random}
	}
	if needs.syntax {
		funcs["__cm_syntax"] = sandbox.Func{Sync: syntaxHost}
	}
	if needs.zones {
		funcs["__cm_tz"] = sandbox.Func{Sync: zoneHost(s.cm.cfg.TimeZones, s.cm.cfg.TimeZone)}
	}
	if needs.clock {
		r.clock.start = start
		funcs["__cm_time"] = sandbox.Func{Sync: r.clock.now}
	}
	started, leased := false, false
	s.waiting.Add(1)
	res, err := s.cm.engine.Run(runCtx, sandbox.Program{
		// A run that waited for an instance may get one after its session
		// or CodeMode was closed, before the cancel Close sent reaches
		// runCtx (context.AfterFunc runs on its own goroutine): the closed
		// flag, set before that cancel, decides, so nothing of it runs.
		Started: func() error {
			leased = true
			s.waiting.Add(-1)
			if err := s.check(); err != nil {
				return err
			}
			started = true
			r.deadline.Store(time.Now().Add(s.cm.cfg.Timeout).UnixNano())
			return nil
		},
		Code:    code,
		Prelude: prelude,
		Timeout: s.cm.cfg.Timeout,
		Waiting: s.waiting.Load,
		Funcs:   funcs,
		Sources: sharedSources,
		Hidden:  true,
		Body:    prepared.Body,
		// The prelude's JSON.parse guards against nesting too deep for
		// the host's stack; the results of tools are checked on the host.
		NativeParse: parseNatively,
		LocalOffset: s.cm.localOffset(),
	})
	if !leased {
		s.waiting.Add(-1)
	}
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
	} else if n := lastObjectBlock(prepared.Code, len(prepared.Code)); n > 0 && res.Error == nil {
		// `{ count: n }` after other code: a block, its value n.
		r.warn(fmt.Sprintf(lastObjectBlockHint[2:], n))
	}
	if c := prepared.Declared; c.Line > 0 && res.Error == nil {
		if len(res.Value) == 0 {
			r.warn(fmt.Sprintf(declaredWarning, c.Line, c.Name, c.Name))
		} else {
			r.warn(fmt.Sprintf(declaredValueWarning, c.Line, c.Name, c.Name, c.Name, c.Name))
		}
	}
	out := r.finish(res, time.Since(start))
	if read := len(res.Value); read >= bigResult && len(out.Result) < read {
		// The text read from QuickJS is garbage once cut: a collection now
		// lets the next run's result reuse its memory, which the
		// collector's pacing grew instead (its goal is twice what was
		// live when it last ran), and a GOOS=js core's memory never
		// shrinks: a program's result of 100 MB, again, left the Go core
		// at 199 MB. It also frees the host's references to the QuickJS
		// instance such a run outgrew (syscall/js releases them from
		// finalizers), whose memory was kept until a collection came.
		runtime.GC()
	}
	return out, nil
}

// bigResult is how many bytes of a run's result make ExecuteCode collect
// the Go heap once it is cut.
const bigResult = 16 << 20

// ErrNotStarted is wrapped by ExecuteCode's error when the run ended
// before it had a sandbox instance: nothing of the code ran, and no
// interceptor or tool was called for it, so running it again runs it
// once. Typically ctx ended while the run waited for an instance (16 runs
// of the CodeMode executing, see New): the error then also matches
// ctx.Err() and its cause, as for any run stopped by ctx. It is also
// wrapped when an instance could not be made: the error then also
// matches sandbox.ErrNoInstance and the host's cause. A run whose session
// or CodeMode was closed meanwhile gives ErrClosed.
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

// runState is one run's record: what it logged and called.
type runState struct {
	s          *Session
	runContext any
	visible    []*toolEntry // sorted by name
	// code is the program as run, read when `tools` is built
	// (unknownCalls).
	code string
	// returned is the expression the program's last statement returns
	// (tsstrip.Prepared.Returned), for the warnings of an undefined result.
	returned string
	// lastPath is the property read a program without a return ends
	// with (tsstrip.Prepared.LastPath), likewise.
	lastPath string
	// objectTextSaid: a tool's input held "[object Object]", and the run
	// said so (objectTextNote; once a run).
	objectTextSaid atomic.Bool
	// objectLogSaid: a console line held it, and the run said so
	// (objectLogWarning; once a run).
	objectLogSaid atomic.Bool
	// unknown is unknownCalls(code), read once (calledUnknown): tools.js
	// asks toolOps for each namespace as the program reads it, and each
	// asking scanned the whole program again.
	unknown     []string
	unknownRead bool
	// sourceSpy, set by tests (sourceSpyKey), hears each source the run
	// asks for: what a run compiles is what it pays for.
	sourceSpy func(key string)

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
	// deadline is when the program's time runs out (set as it starts):
	// a large answer taken in past it is where the time went, though the
	// call was done by the time the run ended (awaitedHint).
	deadline atomic.Int64 // Unix nanoseconds; 0 until it starts
	// inFlight is the bytes of the inputs of the calls begun and not yet
	// returned (at most the run's memory limit: see begin).
	inFlight int
}

// sourceSpyKey keys a test's func(key string) in ExecuteCode's context.
type sourceSpyKey struct{}

// sharedSources are the sources every run evaluates alike: the sandbox
// compiles them once per instance, and a run that builds the API, console
// or a log line of a value takes them ready (QuickJS compiled api.js in
// ~0.46 ms of a run under V8). tools.js is among them: the run's tools
// are not written into it but handed to it (source "toolnames", toolOps).
var sharedSources = []string{apiJS, toolsJS, consoleJS, showJS, sandbox.ConvertJS}

// Prepare makes a sandbox instance ready for the next ExecuteCode while
// the host is idle: the instance made and the sandbox's sources compiled
// into its image (sandbox.Engine.Prepare), for a program that uses no
// built-in with a prelude of its own (the usual case). A first run then
// starts as later runs do: the JS package calls it right after a factory
// is made; a Go program may call it after New. A run never needs it: a
// run without it does that work itself, before its timeout starts. With
// every instance running it does nothing; after Close it returns
// ErrClosed.
func (c *CodeMode) Prepare() error {
	if err := c.check(); err != nil {
		return err
	}
	err := c.engine.Prepare(sandbox.Program{Prelude: preludePlain, Hidden: true, Sources: sharedSources, Timeout: c.cfg.Timeout})
	if errors.Is(err, sandbox.ErrClosed) {
		return ErrClosed
	}
	return err
}

// source hands prelude/prelude.js the source of a lazily built global (the
// sandbox evaluates it: the getter gets the value).
func (r *runState) source(args []json.RawMessage) (string, error) {
	var key string
	if len(args) > 0 {
		json.Unmarshal(args[0], &key)
	}
	if r.sourceSpy != nil {
		r.sourceSpy(key)
	}
	switch key {
	case "tools":
		return toolsJS, nil
	case "toolnames":
		// Which object of `tools`: a dotted path; a longer one than a name
		// can be is no tool's nor namespace's.
		var path string
		if len(args) > 1 {
			json.Unmarshal(args[1], &path)
		}
		if len(path) > maxNameChars {
			return "[[],0,0]", nil
		}
		return r.toolOps(path), nil
	case "console":
		return consoleJS, nil
	case "api":
		return apiJS, nil
	case "show":
		return showJS, nil
	case "convert":
		return sandbox.ConvertJS, nil
	case "lost":
		return lostEntriesJS, nil
	}
	if src, ok := builtinSource(key); ok {
		return src, nil
	}
	return "", errors.New("unknown source")
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
	if strings.Contains(msg, string(objectText)) && r.objectLogSaid.CompareAndSwap(false, true) {
		r.warn(objectLogWarning)
	}
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
	if r.obs == nil || r.obs.fn == nil {
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

// searchLabel names a tool_search call in the run's warnings as the
// program wrote it: they said "__cm_search", a name it never saw.
func searchLabel([]json.RawMessage) string { return "tool_search" }

func (r *runState) search(ctx context.Context, args []json.RawMessage) (json.RawMessage, error) {
	var arg json.RawMessage
	if len(args) > 0 {
		arg = args[0]
	}
	in, err := toolSearchArgs.parse(arg)
	if err == nil && len(args) > 1 && in["limit"] == nil {
		// tool_search("orders", 3): a number after the query is its limit.
		in["limit"], err = toolSearchArgs.positional("limit", args[1])
	}
	if err != nil {
		return nil, &sandbox.JSError{Name: "TypeError", Message: err.Error()}
	}
	query, _ := in["query"].(string)
	namespace, _ := in["namespace"].(string)
	limit, _ := in["limit"].(int)
	hits := r.s.cm.search(ctx, r.visible, SearchRequest{Query: query, Namespace: namespace, Limit: limit}, r.s.signature)
	if err := unmatchedQuery("tool_search", in); len(hits) == 0 && err != nil && !noNamespace(r.visible, namespace) {
		return nil, &sandbox.JSError{Name: "TypeError", Message: err.Error()}
	}
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
	budget, spent, dropped, nanSaid := r.s.cm.cfg.MaxResultChars/2, 0, 0, false
	for i, w := range res.Warnings {
		if i >= maxLogEntries || spent >= budget {
			dropped++
			continue
		}
		if strings.Contains(w, leftOut) {
			if w = r.leftOutHint(w, r.returned); w == "" {
				continue
			}
		} else if strings.HasSuffix(w, nanWarning) && !nanSaid {
			w, nanSaid = w+r.nanHint(), true
		}
		w = trunc.String(w, min(maxLogEntryChars, budget-spent))
		spent += len(w)
		out.Logs = append(out.Logs, LogEntry{Level: "warn", Message: w})
	}
	if dropped > 0 {
		out.Logs = append(out.Logs, LogEntry{Level: "warn", Message: "[" + trunc.More(dropped, "warning", "warnings") + " dropped: their budget is spent]"})
	}
	if r.dropped > 0 {
		out.Logs = append(out.Logs, LogEntry{Level: "warn", Message: "[" + trunc.More(r.dropped, "log entry", "log entries") + " dropped: the log budget is spent]"})
	}
	if res.Error != nil {
		e := res.Error
		// A path that is a tool's name is what went wrong, whatever word
		// after its '-' QuickJS names (tools.brave-search: 'search').
		hint := toolPathHint(r.code, e, r.isTool)
		if hint == "" {
			hint = hintFor(e)
		}
		// callTool("orders.get", input): the call to write, with that name.
		if name, ok := strings.CutSuffix(e.Message, "' is not defined"); ok && strings.HasSuffix(hint, byNameHint) {
			if tool := r.namedTool(name[1:]); tool != "" {
				hint = callHint(tool)
			}
		}
		msg := timeoutUnitHint(e, e.Message, r.s.cm.cfg.Timeout) + hint + memoryLimitHint(e, r.s.cm.cfg.MemoryLimitMB) + entityNameHint(r.code, e) + syntaxHint(r.code, e) + typeErrorHint(r.code, e, r.calleeHint, r.resultHint) + unawaitedHint(e, calls) + r.awaitedHint(e)
		// rows[-1].id: Python's last item, which JavaScript reads as a key
		// "-1"; rows.last.id, Ruby's and Swift's.
		if strings.Contains(msg, "[-1] is undefined") || strings.Contains(msg, ".last is undefined") {
			msg += lastItemHint
		}
		out.Error = &RunError{Name: e.Name, Message: trunc.String(msg+missingIntlHint(e.Name, msg), maxErrorChars), Code: string(e.Code), Line: e.Line, Column: e.Column, Stack: trunc.String(e.Stack, maxErrorChars)}
		if name, ok := strings.CutPrefix(e.Call, callLabelPrefix); ok && e.Line == 0 {
			// A tool's error the program returned rather than awaited:
			// the position of the call, when the code makes it in one place.
			out.Error.Line, out.Error.Column = tsstrip.CallSite(r.code, name)
		} else if e.Call == searchLabel(nil) && e.Line == 0 {
			out.Error.Line, out.Error.Column = tsstrip.SearchSite(r.code)
		}
		return out
	}
	out.OK = true
	out.Result = res.Value
	// No value and no note of the sandbox's at the top: undefined (a
	// function, also of no value, has its note: "result: a function, ...").
	undefinedValue := len(res.Value) == 0 && !slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.HasPrefix(w, "result: ") })
	if undefinedValue && r.returned != "" {
		if w := r.undefinedResult(r.returned); w != "" {
			out.Logs = append(out.Logs, LogEntry{Level: "warn", Message: w})
		}
	} else if undefinedValue && r.lastPath != "" {
		out.Logs = append(out.Logs, LogEntry{Level: "warn", Message: fmt.Sprintf(undefinedLastWarning, r.lastPath, r.pathHint(r.lastPath))})
	}
	if w := objectTextNote(res.Value, "result"); w != "" {
		out.Logs = append(out.Logs, LogEntry{Level: "warn", Message: w})
	}
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
