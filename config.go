package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/interopio/code-mode/internal/search"
	"github.com/interopio/code-mode/sandbox"
)

// Config configures a Code Mode instance. The zero value of every field
// means its default.
type Config struct {
	// Timeout is the wall-clock limit of one executeCode run, time spent
	// awaiting tools included. Default 30s; 1ms to 24h. It starts when the
	// run gets a sandbox instance: a run waiting for one (16 runs of the
	// CodeMode already executing, see New) waits as long as its ctx allows.
	Timeout time.Duration
	// MemoryLimitMB is the sandbox heap limit and the ceiling of its
	// WebAssembly memory, in MiB. Default 128; 1 to 1016 (a run's
	// WebAssembly memory is 16 MiB plus twice the limit, and the QuickJS
	// asset's can be at most 2 GiB: sandbox.MaxMemoryLimit). It also
	// bounds the JSON inputs of a run's tool calls in flight (made and
	// not yet returned; each counts twice with OnToolCall, which gets a
	// copy): a call past it throws a RangeError in the program, and its
	// record says "input too large".
	MemoryLimitMB int
	// MaxToolCalls is the number of tool calls one run may make. Default
	// 1000; 1 to 50,000 (each call has a record in the run's output). The
	// call past it ends the run with ErrorCodeToolLimit.
	MaxToolCalls int
	// MaxResultChars is the budget of model-visible output of one run
	// (result and logs), in bytes of UTF-8 (JSON for the result): a
	// character outside ASCII counts 2 to 4. More is truncated with a
	// visible marker. Default 20000; 100 to 10,000,000 (room for an error
	// message, and a run's output must fit in one JavaScript string).
	MaxResultChars int
	// ToolFilter decides which tools exist for the model. nil shows all.
	// It is asked about every tool on every run, search and
	// SystemInstruction, and again before each call, possibly from
	// several goroutines at once: keep it fast. One that panics hides the
	// tool (fail closed).
	ToolFilter func(ToolInfo) bool
	// OnToolCall is consulted before every tool call. nil allows all calls.
	OnToolCall Interceptor
	// OverwriteSystemInstruction rewrites the built-in instructions: it
	// gets them and returns what Session.SystemInstruction gives. nil keeps
	// them as they are. It is called on every SystemInstruction call, from
	// the caller's goroutine. One that panics leaves the built-in
	// instructions (the model is never left without any), and its first
	// panic is reported on standard error.
	OverwriteSystemInstruction func(current string) string
	// Tools are registered when the instance is created. New fails on an
	// unusable one with a *ToolError (wrapping ErrInvalidTool or
	// ErrDuplicateTool) whose message starts with its index: "Tools[3]: ".
	// nil registers none (RegisterTools adds tools later).
	Tools []Tool
	// Search adds semantic ranking to tool search (see SearchConfig).
	Search SearchConfig
	// Random is the source of the sandbox's crypto.getRandomValues and
	// crypto.randomUUID. nil is crypto/rand natively. Under GOOS=js nil is
	// no source (those calls throw; crypto/rand would link Go's FIPS 140
	// stack into the core): the JavaScript binding gives jsbridge.WebCrypto,
	// the host's crypto.getRandomValues. Concurrent runs share it, one
	// Read at a time: it need not be safe for concurrent use. It is read
	// inside the run, where neither Timeout nor Close can interrupt it: a
	// Read must not block. An error, a panic, or 100 reads in a row with
	// no byte and no error (io.ErrNoProgress) make the call throw.
	Random io.Reader
	// TimeZones answers the time zones of the sandbox's Intl (a timeZone
	// other than UTC, in Intl.DateTimeFormat and toLocaleString): for style
	// "" zone's canonical name (resolvedOptions().timeZone), else its name
	// in that timeZoneName style at unixMs: "longOffset" (which gives the
	// sandbox the offset), "short", "long", "shortGeneric", "longGeneric"
	// ("GMT-05:00", "EST", "Eastern Standard Time"; "" for none: the
	// sandbox writes the offset, as ICU does). An error wrapping
	// ErrUnknownTimeZone is a RangeError naming the zone, as in browsers;
	// another error or an answer of more than 64 bytes formats in UTC with
	// a warn. nil is Go's time.LoadLocation natively (the system's zoneinfo:
	// a program for an image without it imports time/tzdata; short names
	// for the US zones only, as in en-US; no long ones); under
	// GOOS=js nil is none (UTC with a warn): the JavaScript binding gives
	// the host's own Intl. Zone "" asks for the host's own zone's name
	// (TimeZone's default); time.LoadLocation's answers it with the machine's.
	// It also gives the offsets of TimeZone, kept by day. Concurrent runs
	// call it at once.
	TimeZones func(zone string, unixMs float64, style string) (string, error)
	// TimeZone is the sandbox's own time zone, an IANA name
	// ("America/New_York", "UTC"): the zone of Date's local-time methods
	// (getHours, setHours, getTimezoneOffset, toString, parsing a date
	// and time without an offset) and of Intl and toLocaleString without a
	// timeZone, as a page's JavaScript has the user's. Default "": the
	// host's, time.Local natively (the TZ variable's zone, else
	// /etc/localtime's; UTC when neither names one), under GOOS=js the
	// one TimeZones gives for zone "" (the JavaScript binding's: the
	// host's Intl's). "UTC" pins it, for runs that must give the same
	// text on every machine. Its offsets come from TimeZones; New fails on
	// a zone TimeZones does not know, or cannot answer for (UTC needs no
	// answer). ResolveConfig gives its canonical name.
	TimeZone string
}

// ErrUnknownTimeZone is what Config.TimeZones wraps for a zone it does not know.
var ErrUnknownTimeZone = errors.New("codemode: unknown time zone")

// ToolCall is what an interceptor sees of one call.
type ToolCall struct {
	// Tool is the tool called.
	Tool ToolInfo
	// Input is the program's input, not yet validated against the tool's
	// InputSchema (that comes after the interceptor). It is the
	// interceptor's own copy: writing into it changes nothing of the call
	// (return Decision.Input to run the tool with another input). The
	// copy counts in the run's bound on inputs in flight (MemoryLimitMB).
	Input json.RawMessage
	// Context is the run context of the run making the call (see Call).
	Context any
}

// Decision is an interceptor's verdict on one call. The zero Decision
// denies it (with the reason "denied").
type Decision struct {
	// Allowed lets the call run; false denies it.
	Allowed bool
	// Reason is given to the model's code when the call is denied.
	Reason string
	// ReasonDropped is how many characters were cut off the end of Reason
	// before it came in: the messages that show Reason count them with
	// the characters they cut. A binding that copies a reason in from
	// elsewhere (the JavaScript binding's page) cuts a long one first, as
	// it does a thrown message: 90 million characters copied in grew the
	// WebAssembly memory, which never shrinks, by 182 MB. An interceptor
	// written in Go leaves it 0.
	ReasonDropped int
	// Input replaces the call's input when non-nil (and Allowed). It is
	// copied as the interceptor returns: the tool gets those bytes, as
	// validated against its InputSchema, whatever is written into Input
	// afterwards (by the interceptor, or by a tool of another call
	// handed the same bytes).
	Input json.RawMessage
}

// Interceptor authorises, denies or rewrites a tool call. An error or a
// panic denies the call (fail closed). ctx is done when the run making
// the call ends (its ctx, its Timeout, Close). It is called from several
// goroutines at once, as Tool.Execute is: for the calls of concurrent
// runs, and one run's calls in parallel.
type Interceptor func(ctx context.Context, call ToolCall) (Decision, error)

// ErrInvalidConfig is wrapped by every configuration error.
var ErrInvalidConfig = errors.New("codemode: invalid config")

// ConfigError is one Config field whose value cannot work. Field is the
// Go field's name (Timeout, MemoryLimitMB, ...); bindings that expose the
// config under other names map it to theirs.
type ConfigError struct {
	Field   string // the Config field, "MemoryLimitMB"
	Problem string // what it must be, and what it was
}

// Error is "codemode: invalid config: <Field>: <Problem>".
func (e *ConfigError) Error() string {
	return ErrInvalidConfig.Error() + ": " + e.Field + ": " + e.Problem
}

// Unwrap returns ErrInvalidConfig.
func (e *ConfigError) Unwrap() error { return ErrInvalidConfig }

// The limits' defaults and bounds live here and nowhere else: the sandbox's
// own defaults are its engine's, and the JavaScript binding checks types
// only, then reports these bounds under its field names.
const (
	defaultTimeout        = sandbox.DefaultTimeout
	defaultMemoryLimitMB  = sandbox.DefaultMemoryLimit >> 20
	defaultMaxToolCalls   = 1000
	defaultMaxResultChars = 20000

	// A host timer enforces Timeout while the sandbox awaits a tool, and
	// JavaScript timers count whole milliseconds.
	minTimeout = time.Millisecond
	// A run that needs more than a day is a configuration mistake; the
	// bound also keeps the millisecond count far below the 2^31-1 at which
	// setTimeout silently fires at once.
	maxTimeout = 24 * time.Hour
	// The sandbox's bound (sandbox.MaxMemoryLimit): the QuickJS asset's
	// memory holds at most 2 GiB, of which an instance takes 16 MiB plus
	// twice the limit. A larger limit would fail every run with a LinkError.
	maxMemoryLimitMB = int(sandbox.MaxMemoryLimit >> 20)
	// Below this the truncation marker and an error message (name, message,
	// code, position) no longer fit, so the model could not even learn why
	// its run failed.
	minMaxResultChars = 100
	// A run's output (result, logs and warnings: about twice this) is
	// handed to a JavaScript host as one JSON string, where an escaped
	// character takes up to six: past V8's longest string (2^29-24) the
	// engine's Go program died with the run (a host that set 1e9 for "no
	// cut" lost its factory to `return "<".repeat(1e8)`). Ten million
	// characters are more than any model's context.
	maxMaxResultChars = 10_000_000
	// Every call has a record in the run's output, and what a record holds
	// (a 128-character name, a 1,000-character reason that a tool may echo
	// from the program's input) can escape to about 7 KB: 50,000 of them
	// stay far below V8's longest string, which the output must fit.
	maxMaxToolCalls = 50_000
)

// withDefaults fills zero fields with defaults and rejects values that are
// negative or cannot work.
func (c Config) withDefaults() (Config, error) {
	if c.Timeout == 0 {
		c.Timeout = defaultTimeout
	}
	if c.MemoryLimitMB == 0 {
		c.MemoryLimitMB = defaultMemoryLimitMB
	}
	if c.MaxToolCalls == 0 {
		c.MaxToolCalls = defaultMaxToolCalls
	}
	if c.MaxResultChars == 0 {
		c.MaxResultChars = defaultMaxResultChars
	}
	if c.TimeZones == nil {
		c.TimeZones = defaultTimeZones
	}
	if c.Random == nil {
		c.Random = defaultRandom
	}
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, &ConfigError{Field: field, Problem: fmt.Sprintf(format, args...)})
	}
	zone, problem := resolveZone(c.TimeZones, c.TimeZone)
	if problem != "" {
		errs = append(errs, &ConfigError{Field: "TimeZone", Problem: problem})
	}
	c.TimeZone = zone
	switch {
	case c.Timeout < minTimeout:
		if c.Timeout < 0 {
			bad("Timeout", "must be > 0, got %s", limitText(c.Timeout))
		} else {
			bad("Timeout", "must be at least %s, got %s", limitText(minTimeout), limitText(c.Timeout))
		}
	case c.Timeout > maxTimeout:
		bad("Timeout", "must be at most %s, got %s", limitText(maxTimeout), limitText(c.Timeout))
	}
	if c.MemoryLimitMB < 1 || c.MemoryLimitMB > maxMemoryLimitMB {
		bad("MemoryLimitMB", "must be 1..%d MiB (a run's WebAssembly memory is 16 MiB plus twice the limit, and can be at most 2 GiB), got %d",
			maxMemoryLimitMB, c.MemoryLimitMB)
	}
	if c.MaxToolCalls < 1 {
		bad("MaxToolCalls", "must be >= 1, got %d", c.MaxToolCalls)
	}
	if c.MaxToolCalls > maxMaxToolCalls {
		bad("MaxToolCalls", "must be at most %d (each call has a record in the run's output, which must fit in one JavaScript string), got %d",
			maxMaxToolCalls, c.MaxToolCalls)
	}
	if c.MaxResultChars < minMaxResultChars {
		bad("MaxResultChars", "must be >= %d (room for an error message and the truncation marker), got %d",
			minMaxResultChars, c.MaxResultChars)
	}
	if c.MaxResultChars > maxMaxResultChars {
		bad("MaxResultChars", "must be at most %d (a run's output must fit in one JavaScript string, however its characters are escaped), got %d",
			maxMaxResultChars, c.MaxResultChars)
	}
	// The zero values are the defaults (newEmbedder); what no embedder
	// can mean is refused, where it was taken for the default.
	if w := c.Search.Weight; math.IsNaN(w) || math.IsInf(w, 0) || w < 0 {
		bad("Search.Weight", "must be a finite number >= 0 (0: the default %v), got %v", search.DefaultSemanticWeight, w)
	}
	if m := c.Search.MinSimilarity; math.IsNaN(m) || m < 0 || m > 1 {
		bad("Search.MinSimilarity", "must be 0..1, a cosine (0: the default %v), got %v", defaultMinSimilarity, m)
	}
	if c.Search.Timeout < 0 {
		bad("Search.Timeout", "must be >= 0 (0: the default %s), got %s", limitText(defaultEmbedTimeout), limitText(c.Search.Timeout))
	}
	if len(errs) > 0 {
		return c, errors.Join(errs...)
	}
	return c, nil
}

// limitText writes a duration of a limit's message for both of its
// readers: Go's Config holds a time.Duration ("24h"), the JavaScript
// config milliseconds, which Go's "24h0m0s" or "500µs" left the page to
// convert. A whole number of milliseconds under a second is both at once.
func limitText(d time.Duration) string {
	s := d.String()
	if d > 0 {
		s = formatDuration(d)
	}
	ms := strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', -1, 64)
	if s == ms+"ms" {
		return s
	}
	return s + " (" + ms + " ms)"
}

// limits are the run limits as the instructions and the sandbox see them.
type limits struct {
	Timeout        time.Duration
	MemoryLimitMB  int
	MaxToolCalls   int
	MaxResultChars int
}

// limits extracts the run limits; call it on a Config from withDefaults.
func (c Config) limits() limits {
	return limits{Timeout: c.Timeout, MemoryLimitMB: c.MemoryLimitMB, MaxToolCalls: c.MaxToolCalls, MaxResultChars: c.MaxResultChars}
}
