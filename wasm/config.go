//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	codemode "github.com/interopio/code-mode"
	"github.com/interopio/code-mode/internal/keys"
	"github.com/interopio/code-mode/jsbridge"
	"github.com/interopio/code-mode/sandbox"
)

// typeError is a configuration or argument error; it reaches JavaScript as
// a TypeError whose message names the field.
type typeError struct{ msg string }

func (e *typeError) Error() string     { return e.msg }
func (e *typeError) ErrorName() string { return "TypeError" }

func typeErrorf(format string, a ...any) error { return &typeError{fmt.Sprintf(format, a...)} }

// describe names a JS value's type for error messages.
func describe(v Value) string { return jsbridge.Describe(v) }

// optFunc reads an optional function field.
func optFunc(obj Value, field, path string) (Value, error) {
	v := get(obj, field)
	if v.IsUndefined() || jsbridge.TypeOf(v) == jsbridge.TypeFunction {
		return v, nil
	}
	return v, typeErrorf("%s: expected a function, got %s", path, describe(v))
}

// optPositive reads an optional positive number field. Only the type is
// checked here; the bounds are codemode's (see jsConfigError).
func optPositive(obj Value, field, path string, integer bool) (float64, error) {
	v := get(obj, field)
	if v.IsUndefined() {
		return 0, nil
	}
	kind := "a positive number"
	if integer {
		kind = "a positive integer"
	}
	if jsbridge.TypeOf(v) != jsbridge.TypeNumber {
		return 0, typeErrorf("%s: expected %s, got %s", path, kind, describe(v))
	}
	f := v.Float()
	if math.IsNaN(f) || math.IsInf(f, 0) {
		// Infinity is a positive number to a reader: what it is not is
		// finite (no limit is unbounded), which the message says.
		return 0, typeErrorf("%s: expected a finite %s, got %s", path, kind[2:], describe(v))
	}
	if f <= 0 || integer && f != math.Trunc(f) {
		return 0, typeErrorf("%s: expected %s, got %s", path, kind, describe(v))
	}
	return f, nil
}

// The keys each page-supplied options object may have. Anything else is a
// TypeError: a misspelt or misplaced policy (a top-level onToolCall) that
// were silently ignored would leave every tool unguarded.
var (
	configKeys = []string{"wasmLocation", "wasmModule", "coreModule", "timeout", "memoryLimit", "maxToolCalls", "maxResultChars",
		"toolFilter", "interceptors", "overwriteSystemInstruction", "tools", "search", "timeZone",
		// Read by the loader (the compiled modules, the worker engine and live events).
		"worker", "onEvent"}
	configHints = map[string]string{
		"onToolCall": `it belongs in interceptors: { interceptors: { onToolCall } }`,
		"timeoutMs":  `did you mean "timeout"? It is in milliseconds`,
		// Other libraries' names for the instruction hook.
		"overwriteSystemPrompt": `did you mean "overwriteSystemInstruction"? It takes the built-in instruction and returns yours`,
		"systemPrompt":          `the instruction is changed by overwriteSystemInstruction: (current) => string`,
		"systemInstruction":     `the instruction is changed by overwriteSystemInstruction: (current) => string`,
	}
	interceptorKeys = []string{"onToolCall"}
	searchKeys      = []string{"embed", "weight", "minSimilarity", "timeout"}
	sessionKeys     = []string{"tools"}
	sessionHints    = map[string]string{
		"toolFilter":   "toolFilter is a factory option: IoCodeModeFactory({ toolFilter })",
		"interceptors": "interceptors are a factory option: IoCodeModeFactory({ interceptors })",
		"onToolCall":   "onToolCall is a factory option: IoCodeModeFactory({ interceptors: { onToolCall } })",
		"timeout":      "limits are factory options: IoCodeModeFactory({ timeout })",
		"timeoutMs":    "limits are factory options: IoCodeModeFactory({ timeout }), in milliseconds",
		"memoryLimit":  "limits are factory options: IoCodeModeFactory({ memoryLimit })",
		"maxToolCalls": "limits are factory options: IoCodeModeFactory({ maxToolCalls })",
	}
	// execute's options: Code Mode's names, and the AI SDK's tool options,
	// so that an LLM tool's execute can be handed to the AI SDK as is: v6's
	// experimental_context, v7's context (its toolsContext entry) and
	// experimental_sandbox, which v7 passes to every tool (ignored: a run's
	// sandbox is its own), and with which every v7 call was a TypeError.
	// Mastra's agents take AI SDK tools and pass each call the keys after
	// it (requestContext read as context, the rest ignored: they serve
	// Mastra's own tools), with which every call of a Mastra agent was a
	// TypeError ("unknown key \"actor\"").
	runOptionKeys = []string{"signal", "context", "onEvent", "abortSignal", "experimental_context", "toolCallId", "messages", "experimental_sandbox",
		"requestContext", "outputWriter", "tracingContext", "workspace", "actor", "mcp", "flushMessages", "suspend", "resumeData"}
	runOptionHints = map[string]string{
		"callContext": `did you mean "context"? It reaches onToolCall as callContext`,
		"timeout":     "timeout is a factory option: IoCodeModeFactory({ timeout })",
	}
	toolKeys = []string{"name", "description", "inputSchema", "outputSchema", "annotations", "execute"}
	// Other tool formats' names for the input schema and the function:
	// OpenAI's parameters, LangChain's schema and func, handlers elsewhere.
	toolHints = map[string]string{
		"parameters": `the JSON Schema of the input is inputSchema here`,
		"schema":     `the JSON Schema of the input is inputSchema here`,
		"handler":    `the function is execute here: execute(input, { signal, context })`,
		"func":       `the function is execute here: execute(input, { signal, context })`,
		"run":        `the function is execute here: execute(input, { signal, context })`,
		"invoke":     `the function is execute here: execute(input, { signal, context })`,
	}
	// What onToolCall may return: {allowed: true, input?} or {allowed: false, reason}.
	decisionKeys = []string{"allowed", "input", "reason"}
)

// checkKeys rejects own enumerable keys of obj that are not in valid.
func checkKeys(obj Value, path string, valid []string, hints map[string]string) error {
	names, err := jsbridge.Keys(obj)
	if err != nil {
		return typeErrorf("%s: cannot list its keys: %v", path, plain(err))
	}
	if err := keys.UnknownHint(path, names, valid, hints); err != nil {
		return &typeError{err.Error()}
	}
	return nil
}

// jsConfigFields names codemode's Config fields as the page wrote them.
var jsConfigFields = map[string]string{
	"Timeout":        "config.timeout",
	"MemoryLimitMB":  "config.memoryLimit",
	"MaxToolCalls":   "config.maxToolCalls",
	"MaxResultChars": "config.maxResultChars",
	"TimeZone":       "config.timeZone",
	// The binding refuses what is not positive, and a minSimilarity over 1.
	"Search.Weight":        "config.search.weight",
	"Search.MinSimilarity": "config.search.minSimilarity",
	"Search.Timeout":       "config.search.timeout",
}

// pageNumbers holds, by codemode's field name, the number the page wrote
// for a duration no time.Duration holds as written (msDuration), or for an
// integer past 2^53 (pageInt), with the unit the message quotes it in.
type pageNumbers map[string]pageNumber

type pageNumber struct {
	n    float64
	unit string // "" or " ms"
}

// pageInt is a page's (finite, positive) integer as the int whose bounds
// codemode checks. Past 2^53 it is 2^53, past every bound, and the page's
// number is kept in wrote for the message to quote, with the bounds:
// memoryLimit: 1e300 read "expected a positive integer, got the number
// 1e+300".
func pageInt(f float64, field string, wrote pageNumbers) int {
	if f > 1<<53 {
		wrote[field] = pageNumber{n: f}
		return 1 << 53
	}
	return int(f)
}

// msDuration is a page's (finite, positive) milliseconds as the Duration
// whose bounds codemode checks. Past what a Duration holds (about 292
// years) it is the longest, and under a nanosecond the shortest (0 would
// be the default: a timeout of 1e-300 ran for 30 s). Those are kept
// in wrote under field, for the message to quote the page's number: it
// read "got 2562047h47m16.854775807s (9223372036854.775 ms)" for 1e300.
func msDuration(ms float64, field string, wrote pageNumbers) time.Duration {
	ns := ms * float64(time.Millisecond)
	switch {
	case ns >= math.MaxInt64: // 2^63 as a float64: past it, a conversion is undefined
		wrote[field] = pageNumber{ms, " ms"}
		return math.MaxInt64
	case ns > 0 && ns < 1:
		wrote[field] = pageNumber{ms, " ms"}
		return 1
	}
	return time.Duration(ns)
}

// jsConfigError reports codemode's verdict on a limit under the page's
// field name, as a TypeError. A number msDuration or pageInt could not
// hold is quoted as the page wrote it, with its unit, in place of what
// codemode saw: its problems end ", got " and the value (config.go
// withDefaults).
func jsConfigError(err error, wrote pageNumbers) error {
	var ce *codemode.ConfigError
	if errors.As(err, &ce) {
		field := jsConfigFields[ce.Field]
		if field == "" {
			field = "config." + ce.Field
		}
		problem := ce.Problem
		if w, ok := wrote[ce.Field]; ok {
			if i := strings.LastIndex(problem, ", got "); i >= 0 {
				problem = problem[:i] + ", got " + strconv.FormatFloat(w.n, 'g', -1, 64) + w.unit
			}
		}
		return typeErrorf("%s: %s", field, problem)
	}
	return asTypeError(err)
}

// parseConfig checks an IoCodeMode.Config and turns it into a
// codemode.Config. Errors name the JavaScript field; wrote is for
// jsConfigError.
func parseConfig(c Value, f *factory, wrote pageNumbers) (codemode.Config, error) {
	var cfg codemode.Config
	if jsbridge.TypeOf(c) != jsbridge.TypeObject {
		return cfg, typeErrorf("config: expected an object, got %s", describe(c))
	}
	if err := checkKeys(c, "config", configKeys, configHints); err != nil {
		return cfg, err
	}
	if loc := get(c, "wasmLocation"); jsbridge.TypeOf(loc) != jsbridge.TypeString || loc.String() == "" {
		return cfg, typeErrorf("config.wasmLocation: expected a non-empty string (URL or path of emscripten-module.wasm), got %s", describe(loc))
	}
	timeout, err := optPositive(c, "timeout", "config.timeout", false)
	if err != nil {
		return cfg, err
	}
	cfg.Timeout = msDuration(timeout, "Timeout", wrote)
	mem, err := optPositive(c, "memoryLimit", "config.memoryLimit", true)
	if err != nil {
		return cfg, err
	}
	cfg.MemoryLimitMB = pageInt(mem, "MemoryLimitMB", wrote)
	calls, err := optPositive(c, "maxToolCalls", "config.maxToolCalls", true)
	if err != nil {
		return cfg, err
	}
	cfg.MaxToolCalls = pageInt(calls, "MaxToolCalls", wrote)
	chars, err := optPositive(c, "maxResultChars", "config.maxResultChars", true)
	if err != nil {
		return cfg, err
	}
	cfg.MaxResultChars = pageInt(chars, "MaxResultChars", wrote)
	// The sandbox's own zone; undefined is the host's (codemode asks
	// hostTimeZone for zone "": this Intl's own). codemode checks the name.
	if z := get(c, "timeZone"); !z.IsUndefined() {
		if jsbridge.TypeOf(z) != jsbridge.TypeString || z.String() == "" {
			return cfg, typeErrorf("config.timeZone: expected an IANA time zone name such as \"America/New_York\" or \"UTC\", got %s", describe(z))
		}
		cfg.TimeZone = z.String()
	}
	if w := get(c, "worker"); !w.IsUndefined() && jsbridge.TypeOf(w) != jsbridge.TypeBoolean {
		return cfg, typeErrorf("config.worker: expected a boolean, got %s", describe(w))
	}
	if _, err := optFunc(c, "onEvent", "config.onEvent"); err != nil {
		return cfg, err
	}

	overwrite, err := optFunc(c, "overwriteSystemInstruction", "config.overwriteSystemInstruction")
	if err != nil {
		return cfg, err
	}
	if !overwrite.IsUndefined() {
		cfg.OverwriteSystemInstruction = func(cur string) string {
			v, err := jsbridge.Call(overwrite, cur)
			if err != nil || jsbridge.TypeOf(v) != jsbridge.TypeString {
				return cur // a broken hook must not leave the model without instructions
			}
			return v.String()
		}
	}
	filter, err := optFunc(c, "toolFilter", "config.toolFilter")
	if err != nil {
		return cfg, err
	}
	if !filter.IsUndefined() {
		cfg.ToolFilter = func(t codemode.ToolInfo) bool {
			v, err := jsbridge.Call(filter, sourceValue(t.Source))
			return err == nil && v.Truthy() // a filter that throws hides the tool
		}
	}
	if ic := get(c, "interceptors"); !ic.IsUndefined() {
		if jsbridge.TypeOf(ic) != jsbridge.TypeObject {
			return cfg, typeErrorf("config.interceptors: expected an object, got %s", describe(ic))
		}
		if err := checkKeys(ic, "config.interceptors", interceptorKeys, nil); err != nil {
			return cfg, err
		}
		on, err := optFunc(ic, "onToolCall", "config.interceptors.onToolCall")
		if err != nil {
			return cfg, err
		}
		if !on.IsUndefined() {
			cfg.OnToolCall = func(ctx context.Context, tc codemode.ToolCall) (codemode.Decision, error) {
				return intercept(ctx, on, tc)
			}
		}
	}
	if sc := get(c, "search"); !sc.IsUndefined() {
		if cfg.Search, err = parseSearch(sc, wrote); err != nil {
			return cfg, err
		}
	}
	if tools := get(c, "tools"); !tools.IsUndefined() {
		defs, err := f.toolList(tools, "config.tools")
		if err != nil {
			return cfg, err
		}
		cfg.Tools = defs
	}
	return cfg, nil
}

// intercept asks onToolCall about one call. Anything but a well-formed
// decision denies the call (fail closed).
func intercept(ctx context.Context, on Value, tc codemode.ToolCall) (codemode.Decision, error) {
	input, err := jsbridge.FromJSON(tc.Input)
	if err != nil {
		return codemode.Decision{}, err
	}
	arg := jsbridge.NewObject()
	arg.Set("tool", sourceValue(tc.Tool.Source))
	arg.Set("input", input)
	arg.Set("callContext", jsValue(tc.Context)) // the JavaScript API's name for it
	ret, err := jsbridge.Call(on, arg)
	if err != nil {
		return codemode.Decision{}, fmt.Errorf("onToolCall threw: %w", pageCut(err))
	}
	d, err := jsbridge.AwaitContext(ctx, ret)
	if err != nil {
		return codemode.Decision{}, fmt.Errorf("onToolCall rejected: %w", pageCut(err))
	}
	if jsbridge.TypeOf(d) != jsbridge.TypeObject {
		return codemode.Decision{}, fmt.Errorf("onToolCall returned %s; expected {allowed: true, input?} or {allowed: false, reason}", describe(d))
	}
	// Strict, as every options object is: a misspelt "input" must deny the
	// call, not run the tool with the program's input that the interceptor
	// meant to replace (a redaction, a forced filter). Checked before
	// "allowed", so that { allowd: false } names its misspelt key.
	if err := checkKeys(d, "onToolCall's decision", decisionKeys, nil); err != nil {
		return codemode.Decision{}, errors.New(err.Error())
	}
	allowed := get(d, "allowed") // read once: a getter may answer differently twice
	switch jsbridge.TypeOf(allowed) {
	case jsbridge.TypeBoolean:
	case jsbridge.TypeUndefined: // none, or only an inherited one (postMessage's reading)
		return codemode.Decision{}, fmt.Errorf("onToolCall returned %s; expected {allowed: true, input?} or {allowed: false, reason}", describe(d))
	default:
		return codemode.Decision{}, fmt.Errorf("onToolCall's decision: allowed: expected true or false, got %s", describe(allowed))
	}
	if !allowed.Bool() {
		dec := codemode.Decision{Reason: "denied by onToolCall"}
		// The page cut a long reason (page-hooks.mjs askInterceptor).
		if r := get(d, "reason"); jsbridge.TypeOf(r) == jsbridge.TypeString && r.String() != "" {
			dec.Reason, dec.ReasonDropped = r.String(), droppedOnPage(d)
		}
		return dec, nil
	}
	dec := codemode.Decision{Allowed: true}
	if in := get(d, "input"); !in.IsUndefined() {
		// As the page wrote it (web/src/worker-wire.mjs inputFromWire): its
		// JSON text when it is JSON data through and through, checked
		// there by this check's rule in one JSON.stringify.
		if t := get(in, "text"); jsbridge.TypeOf(t) == jsbridge.TypeString {
			dec.Input = json.RawMessage(t.String())
			return dec, nil
		}
		// Strict: a replacement that is not JSON data (a function, a
		// Symbol, a value with one inside) must deny the call, never run
		// the tool with the program's original input.
		raw, err := jsbridge.ToJSONStrict(get(in, "value"), sandbox.MaxArrayLen)
		var long *jsbridge.ArrayTooLongError
		if errors.As(err, &long) {
			return codemode.Decision{}, fmt.Errorf("onToolCall returned an input that is not JSON: input%s: %s", long.Path, sandbox.ArrayTooLong(long.Len))
		}
		if err != nil {
			return codemode.Decision{}, fmt.Errorf("onToolCall returned an input that is not JSON: %w", plain(err))
		}
		dec.Input = raw
	}
	return dec, nil
}

// plainError keeps a JavaScript error's message alone, as the model should
// see it (not "Error: message").
type plainError struct{ msg string }

func (e *plainError) Error() string { return e.msg }

func plain(err error) error {
	var je *jsbridge.Error
	if errors.As(err, &je) {
		return &plainError{je.Message}
	}
	return err
}

// jsValue returns the JS value stored in an opaque context, or undefined.
func jsValue(v any) Value {
	if jv, ok := v.(Value); ok {
		return jv
	}
	return jsbridge.Undefined()
}

// get reads a field of a page-supplied object. A throwing getter or proxy
// panics with an error naming the field, which the entry point's recover
// turns into a rejection. A value only Object.prototype holds reads as
// undefined: the page is not ours, and a dependency of it may have
// polluted Object.prototype ("allowed", "input", "timeout" added there by
// a merge of attacker JSON); that must not approve or rewrite a call, nor
// set a limit. A prototype of the page's own (a class, Object.create of
// its defaults) still counts.
func get(v Value, key string) Value {
	val, err := jsbridge.Get(v, key)
	if err == nil && !val.IsUndefined() {
		var root bool
		if root, err = jsbridge.OnlyOnRootPrototype(v, key); root {
			return jsbridge.Undefined()
		}
	}
	if err != nil {
		panic(typeErrorf("reading %q threw: %v", key, plain(err)))
	}
	return val
}

// parseSearch reads config.search: { embed(texts) => Promise<number[][]>,
// weight?, minSimilarity?, timeout? (ms) }.
func parseSearch(sc Value, wrote pageNumbers) (codemode.SearchConfig, error) {
	var out codemode.SearchConfig
	if jsbridge.TypeOf(sc) != jsbridge.TypeObject {
		return out, typeErrorf("config.search: expected an object, got %s", describe(sc))
	}
	if err := checkKeys(sc, "config.search", searchKeys, nil); err != nil {
		return out, err
	}
	embed := get(sc, "embed")
	if jsbridge.TypeOf(embed) != jsbridge.TypeFunction {
		return out, typeErrorf("config.search.embed: expected a function (texts: string[]) => Promise<number[][]>, got %s", describe(embed))
	}
	var err error
	if out.Weight, err = optPositive(sc, "weight", "config.search.weight", false); err != nil {
		return out, err
	}
	if out.MinSimilarity, err = optPositive(sc, "minSimilarity", "config.search.minSimilarity", false); err != nil {
		return out, err
	}
	// Checked here, not left to codemode: its message offers 0 as the
	// default, which the page cannot write (optPositive refuses it).
	if out.MinSimilarity > 1 {
		return out, typeErrorf("config.search.minSimilarity: must be at most 1 (a cosine), got %v", out.MinSimilarity)
	}
	ms, err := optPositive(sc, "timeout", "config.search.timeout", false)
	if err != nil {
		return out, err
	}
	out.Timeout = msDuration(ms, "Search.Timeout", wrote)
	out.Embed = func(ctx context.Context, texts []string) ([][]float32, error) {
		return embedTexts(ctx, embed, texts)
	}
	out.Warn = func(msg string) {
		if console := get(jsbridge.Global(), "console"); jsbridge.TypeOf(console) == jsbridge.TypeObject {
			if warn := get(console, "warn"); jsbridge.TypeOf(warn) == jsbridge.TypeFunction {
				_, _ = jsbridge.Call(warn, msg)
			}
		}
	}
	return out, nil
}

// embedTexts calls the page's embed and reads its answer: an array (or
// array-like: typed arrays are common) of vectors of finite numbers.
func embedTexts(ctx context.Context, embed Value, texts []string) ([][]float32, error) {
	args := make([]any, len(texts))
	for i, t := range texts {
		args[i] = t
	}
	ret, err := jsbridge.Call(embed, jsbridge.NewArray(args...))
	if err != nil {
		return nil, fmt.Errorf("embed threw: %w", plain(err))
	}
	v, err := jsbridge.AwaitContext(ctx, ret)
	if err != nil {
		return nil, fmt.Errorf("embed rejected: %w", plain(err))
	}
	rows, err := arrayLike(v)
	if err != nil {
		return nil, fmt.Errorf("embed returned %s; expected number[][]", describe(v))
	}
	out := make([][]float32, len(rows))
	for i, row := range rows {
		nums, err := arrayLike(row)
		if err != nil {
			return nil, fmt.Errorf("embed returned %s at [%d]; expected an array of numbers", describe(row), i)
		}
		vec := make([]float32, len(nums))
		for j, n := range nums {
			f := n.Float
			if jsbridge.TypeOf(n) != jsbridge.TypeNumber || math.IsNaN(f()) || math.IsInf(f(), 0) {
				return nil, fmt.Errorf("embed returned %s at [%d][%d]; expected a finite number", describe(n), i, j)
			}
			vec[j] = float32(f())
		}
		out[i] = vec
	}
	return out, nil
}

// arrayLike returns the elements of an array or typed array; a throwing
// getter (a proxy) is an error.
func arrayLike(v Value) ([]Value, error) {
	if jsbridge.TypeOf(v) != jsbridge.TypeObject {
		return nil, errors.New("not an object")
	}
	return jsbridge.Elements(v)
}

// hostTimeZone is Config.TimeZones by jsbridge.TimeZone.
func hostTimeZone(zone string, unixMs float64, style string) (string, error) {
	s, err := jsbridge.TimeZone(zone, unixMs, style)
	if errors.Is(err, jsbridge.ErrUnknownTimeZone) {
		err = codemode.ErrUnknownTimeZone
	}
	return s, err
}
