package codemode

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"
)

// spyJS replaces every method of the intrinsics the prelude's lazy build
// could touch (Array, Object, Reflect, Function, Promise, Map, Set, String,
// JSON, Math), and puts getters on Array.prototype's first indices and on
// Object.prototype under the built-ins' source names, before any built-in
// is built. Each replacement looks at its this and arguments for a raw host
// function (named __cm_...); found collects their names, and own-name
// getters that fired.
const spyJS = `
let found = "", busy = false;
const apply = Reflect.apply, keysOf = Reflect.ownKeys, desc = Object.getOwnPropertyDescriptor, def = Object.defineProperty, raw = /^__cm/, test = RegExp.prototype.test;
const isRaw = (f) => typeof f === "function" && apply(test, raw, [f.name]);
const look = (v) => {
  if (busy) return;
  busy = true;
  try {
    if (isRaw(v)) found += v.name + " ";
    else if (v !== null && typeof v === "object") {
      const ks = keysOf(v);
      for (let i = 0; i < ks.length; i++) { const d = desc(v, ks[i]); if (d && isRaw(d.value)) found += d.value.name + " "; }
    }
  } catch (e) {} finally { busy = false; }
};
for (const h of [Array.prototype, Array, Object, Object.prototype, Reflect, Function.prototype, Promise.prototype, Promise, Map.prototype, Set.prototype, String.prototype, JSON, Math]) {
  const ks = keysOf(h);
  for (let i = 0; i < ks.length; i++) {
    const k = ks[i], d = desc(h, k);
    if (k === "constructor" || !d.configurable || typeof d.value !== "function") continue;
    const orig = d.value;
    def(h, k, { value: { m(...args) { look(this); for (let j = 0; j < args.length; j++) look(args[j]); return apply(orig, this, args); } }.m, writable: true, configurable: true });
  }
}
for (let i = 0; i < 8; i++) {
  const k = String(i);
  def(Array.prototype, k, { get() { look(this); return undefined; }, set(v) { def(this, k, { value: v, writable: true, enumerable: true, configurable: true }); }, configurable: true });
}
for (const n of ["api", "tools", "console", "tool_call", "tool_search", "timers", "url", "text", "base64", "structuredClone", "queueMicrotask", "crypto", "performance", "intl"]) {
  def(Object.prototype, n, { get() { look(this); found += "own." + n + " "; return undefined; }, configurable: true });
}
`

// TestRawHostFunctionsStayInThePrelude: the sandbox API and the web
// built-ins are built on first use, after the program ran, from the raw
// host functions the prelude holds. Their build used to destructure and
// spread arrays holding them, so a program that set
// Array.prototype[Symbol.iterator] first got __cm_begin, __cm_call,
// __cm_log (any log level), __cm_timer (past the 1,000-timer cap),
// __cm_urandom, ...; and a function on Object.prototype named after a
// built-in replaced it (own[name]).
func TestRawHostFunctionsStayInThePrelude(t *testing.T) {
	_, s := newHostile(t, Config{Timeout: 30 * time.Second}, echoTool("orders.get", nil))
	for _, tc := range []struct{ name, code, want string }{
		{"spied intrinsics see no raw host function", spyJS + `
			console.log("x"); JSON.parse("[1]"); JSON.stringify({ a: [1] });
			clearTimeout(setTimeout(() => {}, 1000)); await new Promise((r) => setTimeout(r, 1));
			crypto.randomUUID(); crypto.getRandomValues(new Uint8Array(4)); performance.now(); performance.timeOrigin;
			new URL("https://a.b/c?d=1").searchParams.get("d"); new TextDecoder().decode(new TextEncoder().encode("x"));
			atob(btoa("x")); structuredClone({ a: [1] }); queueMicrotask(() => {});
			new Intl.NumberFormat("de", { timeZone: "x" }).format(1); (1).toLocaleString("fr"); new Date(0).toLocaleString("en", { timeZone: "Asia/Tokyo", timeZoneName: "long" }); new Intl.DateTimeFormat("en", { timeZone: "Europe/Berlin" }).resolvedOptions(); new Date(0).toLocaleString(); ["b", "a"].sort((x, y) => x.localeCompare(y)); new Intl.Collator().compare("a", "b");
			await tool_search({ query: "orders" }); await tools.orders.get({}); await tool_call("orders.get", {});
			return found`, `""`},
		{"the iterator of the prelude's arrays", `const it = Array.prototype[Symbol.iterator], got = [];
			Array.prototype[Symbol.iterator] = function () { for (let i = 0; i < this.length; i++) if (typeof this[i] === "function" && /^__cm/.test(this[i].name)) got.push(this[i].name); return it.call(this); };
			console.log("x"); setTimeout(() => {}, 0); crypto.randomUUID(); performance.now();
			Array.prototype[Symbol.iterator] = it; return got`, `[]`},
		{"a built-in's name on Object.prototype", `Object.prototype.timers = function () { return { setTimeout: () => "hijacked", setInterval: 1, clearTimeout: 1, clearInterval: 1 } };
			Object.prototype.crypto = function () { return "hijacked" };
			const r = [typeof setTimeout(() => {}, 1), typeof crypto.randomUUID()]; delete Object.prototype.timers; delete Object.prototype.crypto; return r`,
			`["number","string"]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := exec(t, s, tc.code, nil)
			if !res.OK || string(res.Result) != tc.want {
				t.Errorf("got ok=%v %s %+v, want %s", res.OK, res.Result, res.Error, tc.want)
			}
			if res := exec(t, s, "return 1", nil); !res.OK {
				t.Errorf("the next run failed: %+v", res.Error)
			}
		})
	}
}

// TestHostFunctionsCheckWhatTheyAreGiven: what the prelude keeps from the
// program, the host checks again: a log level is one of console's (else
// "log"), and no more than 1,000 host timers are pending, each id once.
func TestHostFunctionsCheckWhatTheyAreGiven(t *testing.T) {
	r := &runState{s: &Session{cm: &CodeMode{cfg: Config{MaxResultChars: 20000}}}}
	for _, level := range []string{"log", "info", "warn", "error", "debug", "system", "", "LOG"} {
		r.logs = nil
		l, _ := json.Marshal(level)
		r.log([]json.RawMessage{l, json.RawMessage(`"m"`)})
		want := level
		if !strings.Contains(" log info warn error debug ", " "+level+" ") || level == "" {
			want = "log"
		}
		if len(r.logs) != 1 || r.logs[0].Level != want {
			t.Errorf("log level %q: got %+v, want level %q", level, r.logs, want)
		}
	}
	var tm timers
	for i := 1; i <= maxTimers; i++ {
		tm.mu.Lock()
		if tm.pending == nil {
			tm.pending = map[int]chan struct{}{}
		}
		tm.pending[i] = make(chan struct{})
		tm.mu.Unlock()
	}
	arg := func(v int) json.RawMessage { return json.RawMessage(strconv.Itoa(v)) }
	if _, err := tm.sleep(t.Context(), []json.RawMessage{arg(maxTimers + 1), arg(1)}); err == nil {
		t.Errorf("timer %d while %d are pending: no error", maxTimers+1, maxTimers)
	}
	tm.clear([]json.RawMessage{arg(1)})
	if _, err := tm.sleep(t.Context(), []json.RawMessage{arg(2), arg(1)}); err == nil {
		t.Error("a timer id that is pending was taken again: no error")
	}
	if _, err := tm.sleep(t.Context(), []json.RawMessage{arg(maxTimers + 1), arg(1)}); err != nil {
		t.Errorf("timer %d after one was cleared: %v", maxTimers+1, err)
	}
}
