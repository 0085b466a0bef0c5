package codemode

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/interopio/code-mode/internal/trunc"
	"github.com/interopio/code-mode/internal/tsstrip"
)

// Globals the sandbox builds on first use (see lazy in prelude/prelude.js):
// a run that does not touch them compiles none of their code, and a run
// whose code does not name them does not even define their getters.
var (
	//go:embed prelude/timers.js
	timersSource string
	//go:embed prelude/url.js
	urlSource string
	//go:embed prelude/text.js
	textSource string
	//go:embed prelude/base64.js
	base64Source string
	//go:embed prelude/clone.js
	cloneSource string
	//go:embed prelude/microtask.js
	microtaskSource string
	//go:embed prelude/crypto.js
	cryptoSource string
	//go:embed prelude/performance.js
	performanceSource string
	//go:embed prelude/intl.js
	intlSource string
	//go:embed prelude/localdate.js
	localDateSource string

	// Compacted on first use, not at package init: most runs never build
	// these globals. An array, not a map literal, whose statement per
	// entry was code of the core's own.
	builtins = [...]lazySource{
		{name: "timers", src: timersSource},
		{name: "url", src: urlSource},
		{name: "text", src: textSource},
		{name: "base64", src: base64Source},
		{name: "structuredClone", src: cloneSource},
		{name: "queueMicrotask", src: microtaskSource},
		{name: "crypto", src: cryptoSource},
		{name: "performance", src: performanceSource},
		{name: "intl", src: intlSource},
		{name: "localdate", src: localDateSource},
	}
)

// lazySource is a built-in's source, compacted once on first use. (One
// sync.Once per source, not a sync.OnceValue each: every OnceValue call
// site is inlined as closures of its own, ~2.8 KB of the core apiece.)
type lazySource struct {
	once sync.Once
	name string
	src  string
}

func (l *lazySource) get() string {
	l.once.Do(func() { l.src = compactJS(l.src) })
	return l.src
}

func builtinSource(key string) (string, bool) {
	for i := range builtins {
		if builtins[i].name == key {
			return builtins[i].get(), true
		}
	}
	return "", false
}

// builtinGroups are the lazily built globals, by the source that builds
// them, with the host functions that source is handed (at most two; the
// names sort after the API's five, see execute.go).
var builtinGroups = []struct {
	names  []string
	source string
	host   []string
}{
	{[]string{"setTimeout", "setInterval", "clearTimeout", "clearInterval"}, "timers", []string{"__cm_timer", "__cm_timer_clear"}},
	{[]string{"URL", "URLSearchParams"}, "url", nil},
	{[]string{"TextEncoder", "TextDecoder"}, "text", nil},
	{[]string{"atob", "btoa"}, "base64", nil},
	{[]string{"structuredClone"}, "structuredClone", nil},
	{[]string{"queueMicrotask"}, "queueMicrotask", nil},
	{[]string{"crypto"}, "crypto", []string{"__cm_urandom"}},
	{[]string{"performance"}, "performance", []string{"__cm_time"}},
}

// refusedGlobals are what code reaches for to get out: each is a function
// that throws an error saying to use the tools instead (a bare
// ReferenceError would leave the model guessing).
var refusedGlobals = []string{"fetch", "require", "XMLHttpRequest", "WebSocket", "EventSource"}

var refusedJS = `const none = (what) => function () { throw new ReferenceError(what + " is not available in this sandbox: it has no network and no modules; use the tools you are given (tools.*, tool_call, tool_search) instead" + (what === "require" ? ` + strconv.Quote(requireTip) + ` : "")); };
for (const k of %s) O.defineProperty(g, k, { value: none(k), configurable: true, writable: true });
`

// requireTip ends require's error: what models require most has a global
// here (require("timers/promises") for a sleep, "crypto" for an id,
// "buffer" for base64), which the error alone did not say, and the model
// wrote its program without them. (ASCII: Go's quoting is a JavaScript
// string literal.)
const requireTip = "; for what Node's modules give, the sandbox has globals: setTimeout and setInterval " +
	"(a sleep: await new Promise((r) => setTimeout(r, ms))), URL, TextEncoder, atob and btoa (base64), structuredClone, " +
	"crypto.randomUUID() and crypto.getRandomValues()"

// intlJS is added to the prelude of code that mentions Intl, toLocale or
// localeCompare: QuickJS has no Intl, its toLocale* methods ignored their
// locales and options ("1234.5", "01/15/2024") and its localeCompare
// compared code units ("B" before "a"), silently unlike a browser.
// prelude/intl.js, built on first use, has an en-US Intl; the global Intl is
// a getter until then (writable and configurable, as on a page), and the
// methods are replaced before the program runs, so that they call intl.js's
// own formatters, not what the program may put on Intl's prototypes.
// log is the host's console function and more[%d] __cm_tz (timezone.go),
// handed to intl.js only.
const intlJS = `{
let I;
const intl = () => I || (I = src("intl")(log, apply, more[%d])), def = (P, k, v) => O.defineProperty(P, k, { value: v, writable: true, configurable: true });
O.defineProperty(g, "Intl", { configurable: true, get() { const v = intl().Intl; def(g, "Intl", v); return v; }, set(v) { def(g, "Intl", v); } });
for (const [P, k, names] of [[Number.prototype, "n", ["toLocaleString"]], [BigInt.prototype, "b", ["toLocaleString"]], [Date.prototype, "d", ["toLocaleString", "toLocaleDateString", "toLocaleTimeString"]]])
  for (const name of names) def(P, name, { [name](...a) { return intl()[k](this, a[0], a[1], name); } }[name]);
def(String.prototype, "localeCompare", { localeCompare(that) { "use strict"; return intl().c(this, that, arguments[1], arguments[2]); } }.localeCompare);
}
`

// outOfMemoryJS is added to the prelude of code that mentions normalize,
// localeCompare or Intl (the collation of intlJS normalizes): QuickJS
// allocates normalize's buffers through the runtime's
// realloc, which fails silently at the memory limit, so they throw an
// exception nobody set, QuickJS's "uninitialized" marker (typeof
// "unknown"). Uncaught, the sandbox reads it as the memory limit
// (sandbox/errors.go toError); caught, the program held it: a variable it
// was stored in read as "e is not initialized" (a ReferenceError) ever
// after. The wrappers throw what QuickJS throws at the limit elsewhere,
// InternalError("out of memory"), which a program can catch and read, and
// which ends an uncaught run as MEMORY_LIMIT. Code that builds the names
// at run time is not served, as for the other built-ins.
var outOfMemoryJS = `{
const IE = InternalError, SP = String.prototype, orig = SP.normalize;
O.defineProperty(SP, "normalize", { value: { normalize(...a) {
  try { return apply(orig, this, a); } catch (e) { if (typeof e === "unknown") throw new IE("out of memory"); throw e; }
} }.normalize, writable: true, configurable: true });
}
`

// fromAsyncJS is added to the prelude of code that mentions fromAsync:
// QuickJS lacks Array.fromAsync (ES2024), and code that collects an async
// iterable or an array of promises with it failed with "not a function".
// for await takes async and sync iterables alike (a sync one's values
// awaited, as the standard's async-from-sync iterator does); an array-like
// is read by index, each value awaited. A mapper's result is awaited too.
var fromAsyncJS = `if (typeof Array.fromAsync !== "function") O.defineProperty(Array, "fromAsync", { writable: true, configurable: true, value: { async fromAsync(items, mapfn = undefined, thisArg = undefined) {
  if (mapfn !== undefined && typeof mapfn !== "function") throw new TypeError("Array.fromAsync: the mapper is not a function");
  if (items == null) throw new TypeError("Array.fromAsync: " + items + " is not iterable or array-like");
  const out = [];
  let i = 0;
  const put = async (v) => { out[i] = mapfn ? await apply(mapfn, thisArg, [v, i]) : v; i++; };
  if (items[Symbol.asyncIterator] != null || items[Symbol.iterator] != null) { for await (const v of items) await put(v); }
  else { const n = Math.min(Math.max(Math.trunc(Number(items.length)) || 0, 0), 2 ** 32 - 1); while (i < n) await put(await items[i]); }
  return out;
} }.fromAsync });
`

// asUintNJS is added to the prelude of code that mentions asUintN: QuickJS's
// BigInt.asUintN gives a negative BigInt as it is, or as its 64-bit two's
// complement, for 32 bits or more (asUintN(64, -1n) was -1n, V8's and the
// standard's 18446744073709551615n): a wrong number, silently. Its answer
// is right modulo 2^bits, so a negative one gains 2^bits. bits is made an
// integer first (its valueOf called once, before the value's), and
// QuickJS's own checks the rest: the range, the BigInt.
var asUintNJS = `{
const native = BigInt.asUintN, T = Math.trunc, B = BigInt;
O.defineProperty(B, "asUintN", { writable: true, configurable: true, value: { asUintN(bits, bigint) {
  let n = +bits;
  n = n !== n ? 0 : T(n);
  const r = native(n, bigint);
  if (r >= 0n) return r;
  const m = 1n << B(n);
  return (r % m + m) % m;
} }.asUintN });
}
`

// localDateJS is added to the prelude of code that mentions Date when the
// sandbox's zone is not UTC (prelude/localdate.js says why).
const localDateJS = "src(\"localdate\")();\n"

var preludePlain = strings.Replace(preludeJS, "/*GLOBALS*/\n", "", 1)

// hostNeeds says which of the built-ins' host functions a run needs.
type hostNeeds struct {
	timers bool // __cm_timer, __cm_timer_clear
	random bool // __cm_urandom
	clock  bool // __cm_time
	syntax bool // __cm_syntax (funcguard.go)
	zones  bool // __cm_tz (timezone.go)
}

// preludeFor returns the prelude for code: the plain one plus the lazy
// built-ins and refusing stand-ins whose names appear in the code (a
// mention in a string or a comment costs one getter; code that builds the
// names at run time is not served), and the host functions those need.
// They are the prelude's arguments after the five of the API (`more`), in
// the order of their names, as the sandbox hands them over.
func preludeFor(code string, zoned bool) (prelude string, needs hostNeeds) {
	var used []int
	var hostNames []string
	for i, g := range builtinGroups {
		for _, n := range g.names {
			if strings.Contains(code, n) {
				used = append(used, i)
				hostNames = append(hostNames, g.host...)
				break
			}
		}
	}
	intl := strings.Contains(code, "Intl") || strings.Contains(code, "toLocale") || strings.Contains(code, "localeCompare")
	if intl {
		hostNames = append(hostNames, "__cm_tz")
		needs.zones = true
	}
	if usesFunctionConstructors(code) {
		hostNames = append(hostNames, "__cm_syntax")
		needs.syntax = true
	}
	sort.Strings(hostNames)
	var b strings.Builder
	if needs.syntax {
		fmt.Fprintf(&b, constructorGuardJS, sort.SearchStrings(hostNames, "__cm_syntax"))
	}
	for _, i := range used {
		g := builtinGroups[i]
		names, _ := json.Marshal(g.names)
		fmt.Fprintf(&b, "lazy(%s, %q", names, g.source)
		for _, h := range g.host {
			fmt.Fprintf(&b, ", more[%d]", sort.SearchStrings(hostNames, h))
		}
		b.WriteString(");\n")
		switch g.source {
		case "timers":
			needs.timers = true
		case "crypto":
			needs.random = true
		case "performance":
			needs.clock = true
		}
	}
	if strings.Contains(code, "fromAsync") {
		b.WriteString(fromAsyncJS)
	}
	if intl || strings.Contains(code, "normalize") {
		b.WriteString(outOfMemoryJS)
	}
	if intl {
		fmt.Fprintf(&b, intlJS, sort.SearchStrings(hostNames, "__cm_tz"))
	}
	if zoned && strings.Contains(code, "Date") {
		b.WriteString(localDateJS)
	}
	if strings.Contains(code, "asUintN") {
		b.WriteString(asUintNJS)
	}
	var refused []string
	for _, n := range refusedGlobals {
		if strings.Contains(code, n) {
			refused = append(refused, n)
		}
	}
	if len(refused) > 0 {
		names, _ := json.Marshal(refused)
		fmt.Fprintf(&b, refusedJS, names)
	}
	if b.Len() == 0 {
		return preludePlain, needs
	}
	return strings.Replace(preludeJS, "/*GLOBALS*/\n", b.String(), 1), needs
}

// maxRandomBytes is what one getRandomValues call may ask for, as in
// browsers (prelude/crypto.js refuses more with a QuotaExceededError).
const maxRandomBytes = 65536

// errNoRandom is what crypto's calls throw when Config.Random is nil under
// GOOS=js.
var errNoRandom = errors.New("crypto: no random source: the host gives none (Config.Random)")

// entropy is a run's random source (Config.Random). buf is reused from
// call to call (the sandbox copies what random returns): a fresh 64 KiB
// per call was most of the Go side's cost, in allocation and GC.
type entropy struct {
	src io.Reader
	buf []byte
}

// lockedReader takes Config.Random's reads one at a time. Concurrent runs
// read it from goroutines of their own, and a host's source need not allow
// that (a seeded math/rand does not); crypto/rand's, the default, does and
// is not wrapped.
type lockedReader struct {
	mu sync.Mutex
	r  io.Reader
}

func (l *lockedReader) Read(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Read(p)
}

// random is __cm_urandom: args[0] bytes from the source, which reach the
// sandbox as an ArrayBuffer (sandbox.Func.Bytes). Without a source, or when
// it fails, the call throws: a program must never take zeros for random
// bytes.
func (e *entropy) random(args []json.RawMessage) ([]byte, error) {
	var v any
	if len(args) > 0 {
		json.Unmarshal(args[0], &v)
	}
	n, ok := v.(float64)
	if !ok || n != math.Trunc(n) || n < 0 || n > maxRandomBytes {
		return nil, fmt.Errorf("random: expected a byte count 0..%d", maxRandomBytes)
	}
	if e.src == nil {
		return nil, errNoRandom
	}
	if cap(e.buf) < int(n) {
		e.buf = make([]byte, int(n))
	}
	buf := e.buf[:int(n)]
	if err := readFull(e.src, buf); err != nil {
		return nil, fmt.Errorf("crypto: the host's random source failed: %w", err)
	}
	return buf, nil
}

// readFull is io.ReadFull, except that a source answering 100 reads in a
// row with no byte and no error fails with io.ErrNoProgress (as bufio's
// readers do): io.ReadFull would call it for ever, on the run's own
// goroutine inside a host call, where neither Timeout nor Close can stop
// the run. A source that panics fails the same way: the panic trapped
// QuickJS, and the run failed with the engine's trap and stack.
func readFull(r io.Reader, buf []byte) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	for n, empty := 0, 0; n < len(buf); {
		m, err := r.Read(buf[n:])
		if n += m; n >= len(buf) {
			return nil
		}
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		if err != nil {
			return err
		}
		if empty++; m > 0 {
			empty = 0
		} else if empty == 100 {
			return io.ErrNoProgress
		}
	}
	return nil
}

// clock is a run's performance clock (prelude/performance.js), from the
// run's start.
type clock struct{ start time.Time }

// now is __cm_time: the milliseconds since the run started (monotonic:
// time.Since reads Go's monotonic clock, which under GOOS=js is the host's
// performance.now), or with the argument 1 the start in Unix milliseconds.
// Both are floored to 0.1 ms: a sandbox needs no finer timer than a page
// without cross-origin isolation gets.
func (c clock) now(args []json.RawMessage) (json.RawMessage, error) {
	var ms float64
	switch {
	case len(args) == 0:
		ms = float64(time.Since(c.start)) / float64(time.Millisecond)
	case len(args) == 1 && string(args[0]) == "1":
		ms = float64(c.start.UnixMicro()) / 1000
	default:
		return nil, fmt.Errorf("time: expected no argument, or 1 for the origin")
	}
	return strconv.AppendFloat(nil, math.Floor(ms*10)/10, 'f', -1, 64), nil
}

// maxTimerMs bounds one timer's delay; the run's timeout ends the run long
// before (a timer never outlives its run: the sandbox cancels its context).
const maxTimerMs = 24 * 60 * 60 * 1000

// maxTimers is prelude/timers.js's cap on pending timers; the host holds
// it too, so a program that got hold of the raw host function (which the
// prelude keeps from it) still could not start more.
const maxTimers = 1000

// timers are a run's pending host timers, so clearTimeout can release one.
type timers struct {
	mu      sync.Mutex
	pending map[int]chan struct{}
	cleared bitset // host ids released by clear: their callbacks are done with
}

// bitset is a set of small non-negative ints, a bit each. The timers' host
// ids are the prelude's sequence from 1, one a timer armed: as a map, a
// program that set and cleared timers for its whole run (1e6 in 30 s) held
// tens of MB of the page's memory until the run ended; as bits, 125 KB.
// An id past maxTimerIDs is not recorded (no run arms that many).
type bitset []uint64

const maxTimerIDs = 1 << 26

func (b bitset) has(i int) bool { return i >= 0 && i>>6 < len(b) && b[i>>6]&(1<<(i&63)) != 0 }

func (b *bitset) add(i int) {
	if i < 0 || i >= maxTimerIDs {
		return
	}
	for i>>6 >= len(*b) {
		*b = append(*b, 0)
	}
	(*b)[i>>6] |= 1 << (i & 63)
}

// sleep settles after args[1] milliseconds, when timer args[0] is cleared,
// or when the run ends.
func (t *timers) sleep(ctx context.Context, args []json.RawMessage) (json.RawMessage, error) {
	var id int
	var ms float64
	if len(args) < 2 || json.Unmarshal(args[0], &id) != nil || json.Unmarshal(args[1], &ms) != nil {
		return nil, fmt.Errorf("timer: bad arguments")
	}
	ms = min(max(ms, 0), maxTimerMs)
	stop := make(chan struct{})
	t.mu.Lock()
	if t.pending == nil {
		t.pending = map[int]chan struct{}{}
	}
	if t.cleared.has(id) {
		// Cleared before this wait began (the clear is a sync call, the
		// wait a goroutine: under GOOS=js it always starts after the
		// program's clearTimeout): nothing to wait for. Slept, it held
		// the call's promise, and one of the maxTimers slots, for its
		// whole delay.
		t.mu.Unlock()
		return nil, nil
	}
	if _, taken := t.pending[id]; taken || len(t.pending) >= maxTimers {
		t.mu.Unlock()
		return nil, fmt.Errorf("timer: more than %d timers are pending, or id %d is taken", maxTimers, id)
	}
	t.pending[id] = stop
	t.mu.Unlock()
	defer func() {
		t.mu.Lock()
		delete(t.pending, id)
		t.mu.Unlock()
	}()
	timer := time.NewTimer(time.Duration(ms * float64(time.Millisecond)))
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-stop:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return nil, nil
}

// clear lets timer args[0] settle now (its callback does not run: the JS
// side forgot it first).
func (t *timers) clear(args []json.RawMessage) (json.RawMessage, error) {
	var id int
	if len(args) > 0 && json.Unmarshal(args[0], &id) == nil {
		t.mu.Lock()
		if stop, ok := t.pending[id]; ok {
			close(stop)
			delete(t.pending, id)
		}
		t.cleared.add(id)
		t.mu.Unlock()
	}
	return nil, nil
}

// dropped is the run's warning for the timers whose callbacks had not run
// when the program finished (sandbox.Func.Dropped): they never will, and a
// program that ended on setTimeout(...) came back with the timer's id as
// its result and no word why. A host wait released by clear (clearTimeout,
// or a timer that fired before its own wait ended) is not one of them.
func (t *timers) dropped(args [][]json.RawMessage) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for _, a := range args {
		var id int
		if len(a) > 0 && json.Unmarshal(a[0], &id) == nil && !t.cleared.has(id) {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return trunc.Count(n, "setTimeout or setInterval callback", "setTimeout or setInterval callbacks") + " had not run when the program finished, and never will (the run ends when the program returns; a timeout that lost a Promise.race needs nothing): to wait for a timer, await it: await new Promise((r) => setTimeout(r, ms))"
}

// prepareCode makes the model's text a program (see tsstrip.Prepare). A
// bug in that reader must not cost the run: on a panic the text runs as
// sent, and QuickJS judges it.
func prepareCode(src string) (p tsstrip.Prepared, err *tsstrip.Error) {
	defer func() {
		if recover() != nil {
			p, err = tsstrip.Prepared{Code: src}, nil
		}
	}()
	return tsstrip.Prepare(src)
}
