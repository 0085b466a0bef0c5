//go:build !js

package codemode

// The differential oracle (issue 9): generated programs run in our sandbox
// (QuickJS) and in goja, a second JavaScript engine in pure Go, and their
// results and error classes are compared. goja is a native-test dependency
// only (TestImportRules keeps it out of the GOOS=js core). Every difference
// is a bug or one of the documented rules listed in knownDifferences.

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

// referenceConverter is USAGE.md's table "What comes back: results JSON
// cannot hold", written independently in JavaScript for goja: the value a
// result (or a tool input) must arrive as.
const referenceConverter = `(() => {
const ABSENT = {};
const conv = (v, inArray) => {
  if (v === undefined || typeof v === "function") return inArray ? null : ABSENT;
  if (typeof v === "symbol") return v.toString();
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") return Number.isFinite(v) ? v : String(v);
  if (v === null || typeof v !== "object") return v;
  if (typeof v.toJSON === "function") return conv(v.toJSON(), inArray);
  if (v instanceof Promise) return null;
  if (v instanceof RegExp) return String(v);
  if (v instanceof Error) return { name: conv(v.name), message: conv(v.message) };
  if (v instanceof Map) {
    const entries = [...v];
    if (entries.every(([k]) => typeof k === "string")) {
      const o = {};
      for (const [k, x] of entries) { const c = conv(x, false); if (c !== ABSENT) o[k] = c; }
      return o;
    }
    return entries.map(([k, x]) => [conv(k, true), conv(x, true)]);
  }
  if (v instanceof Set) return [...v].map((x) => conv(x, true));
  if (ArrayBuffer.isView(v)) return Array.from(v, (x) => conv(x, true));
  if (Array.isArray(v)) return Array.from(v, (x) => conv(x, true));
  const o = {};
  for (const k of Object.keys(v)) { const c = conv(v[k], false); if (c !== ABSENT) o[k] = c; }
  return o;
};
return (v) => { const c = conv(v, false); return c === ABSENT ? undefined : JSON.stringify(c); };
})()`

// valueGen writes random JavaScript expressions of every kind of value.
type valueGen struct{ r *rand.Rand }

var (
	oracleStrings = []string{`""`, `"a"`, `"héllo wörld"`, `"日本語"`, `"\u00e9\n\t\"q\""`, `"😀 emoji"`, `"<script>&'"`, `"\\\\back"`, `"x".repeat(50)`, `String.fromCharCode(0, 31, 127)`}
	oracleNumbers = []string{"0", "-0", "1", "-1", "42", "3.14159", "0.1 + 0.2", "1e21", "1e-7", "2 ** 53", "2 ** 53 + 1", "Number.MAX_SAFE_INTEGER", "Number.MIN_VALUE", "Number.MAX_VALUE", "-123.456e10", "1 / 3", "NaN", "Infinity", "-Infinity", "0 / 0", "parseInt('08')", "Math.round(2.5)", "(-7) % 3", "7 >>> 1", "~5", "2 ** -1074"}
	oracleKeys    = []string{"a", "b", "z", "2", "10", "1", "key with space", "__proto__x", "$", "ünï", "constructor"}
)

func (g valueGen) pick(list []string) string { return list[g.r.Intn(len(list))] }

func (g valueGen) scalar() string {
	switch g.r.Intn(9) {
	case 0, 1:
		return g.pick(oracleNumbers)
	case 2, 3:
		return g.pick(oracleStrings)
	case 4:
		return g.pick([]string{"true", "false", "null", "undefined"})
	case 5:
		return g.pick([]string{"10n", "-(2n ** 70n)", "0n"})
	case 6:
		return g.pick([]string{"new Date(0)", "new Date(Date.UTC(2024, 1, 29, 12, 30))", "/a+b/gi", "Symbol('s')", "Symbol()", "() => 1", "function named() {}"})
	case 7:
		return g.pick([]string{"new Error('boom')", "new TypeError('bad type')", "new RangeError('r')", "Object.assign(new Error('m'), { extra: 1 })"})
	default:
		return g.pick([]string{"new Uint8Array([1, 2, 255])", "new Float64Array([0.5, -1])", "new Int16Array(2)"})
	}
}

func (g valueGen) value(depth int) string {
	if depth <= 0 || g.r.Intn(3) == 0 {
		return g.scalar()
	}
	n := g.r.Intn(4)
	parts := make([]string, n)
	switch g.r.Intn(6) {
	case 0, 1:
		for i := range parts {
			parts[i] = g.value(depth - 1)
		}
		if g.r.Intn(5) == 0 && n > 0 {
			return "[" + strings.Join(parts, ", ") + ", , ]" // holes
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case 2, 3:
		for i := range parts {
			parts[i] = fmt.Sprintf("%q: %s", g.pick(oracleKeys), g.value(depth-1))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case 4:
		for i := range parts {
			k := g.pick(oracleStrings)
			if g.r.Intn(3) == 0 {
				k = g.pick(oracleNumbers)
			}
			parts[i] = fmt.Sprintf("[%s, %s]", k, g.value(depth-1))
		}
		return "new Map([" + strings.Join(parts, ", ") + "])"
	default:
		for i := range parts {
			parts[i] = g.value(depth - 1)
		}
		return "new Set([" + strings.Join(parts, ", ") + "])"
	}
}

// gojaRun runs code as the body of an async function in goja, with the
// given tools (name -> JS function source), and returns the settled
// promise's value or the thrown value.
func gojaRun(t *testing.T, code string, tools string) (goja.Value, *goja.Object, *goja.Runtime) {
	t.Helper()
	vm := goja.New()
	if _, err := vm.RunString("var tools = " + tools + "; var tool_call = (n, i) => n.split('.').reduce((o, k) => o[k], tools)(i);"); err != nil {
		t.Fatal(err)
	}
	v, err := vm.RunScript("code.js", "(async () => {\n"+code+"\n})()")
	if err != nil {
		if ex, ok := err.(*goja.Exception); ok {
			return nil, ex.Value().ToObject(vm), vm
		}
		t.Fatalf("goja: %v", err)
	}
	p, ok := v.Export().(*goja.Promise)
	if !ok {
		t.Fatalf("goja: not a promise: %v", v)
	}
	switch p.State() {
	case goja.PromiseStateFulfilled:
		return p.Result(), nil, vm
	case goja.PromiseStateRejected:
		return nil, p.Result().ToObject(vm), vm
	}
	t.Fatalf("goja: the promise is pending")
	return nil, nil, nil
}

func gojaExpect(t *testing.T, vm *goja.Runtime, v goja.Value) string {
	t.Helper()
	conv, err := vm.RunString(referenceConverter)
	if err != nil {
		t.Fatal(err)
	}
	fn, _ := goja.AssertFunction(conv)
	out, err := fn(goja.Undefined(), v)
	if err != nil {
		t.Fatalf("reference converter: %v", err)
	}
	if goja.IsUndefined(out) {
		return ""
	}
	return out.String()
}

// knownDifferences are the documented rules where our result and the
// reference are allowed to differ, by a substring of the expression.
var knownDifferences = []struct{ substr, rule string }{}

func TestOracleValues(t *testing.T) {
	cm, err := New(oracleAsset(t), Config{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer cm.Close()
	s := mustSession(t, cm)
	g := valueGen{rand.New(rand.NewSource(9))}
	diffs := 0
	for i := 0; i < 250; i++ {
		expr := g.value(3)
		code := "return " + expr
		res, err := s.ExecuteCode(context.Background(), ExecuteCodeInput{Code: code}, nil)
		if err != nil {
			t.Fatal(err)
		}
		v, exc, vm := gojaRun(t, code, "{}")
		if exc != nil {
			t.Fatalf("goja threw for %s: %v", expr, exc)
		}
		want := gojaExpect(t, vm, v)
		got := string(res.Result)
		if !res.OK {
			got = "error " + res.Error.Code + ": " + res.Error.Message
		}
		if got != want {
			diffs++
			if diffs <= 15 {
				t.Errorf("return %s\n  ours:  %s\n  goja:  %s", expr, got, want)
			}
		}
	}
	if diffs > 15 {
		t.Errorf("... %d differences in all", diffs)
	}
}

func TestOracleToolRoundTrip(t *testing.T) {
	echo := Tool{Name: "t.echo", Execute: func(_ context.Context, in json.RawMessage, _ Call) (json.RawMessage, error) { return in, nil }}
	cm, err := New(oracleAsset(t), Config{Timeout: 10 * time.Second, Tools: []Tool{echo}})
	if err != nil {
		t.Fatal(err)
	}
	defer cm.Close()
	s := mustSession(t, cm)
	g := valueGen{rand.New(rand.NewSource(14))}
	diffs := 0
	for i := 0; i < 150; i++ {
		expr := g.value(2)
		code := "return await tools.t.echo({ v: " + expr + " })"
		res, err := s.ExecuteCode(context.Background(), ExecuteCodeInput{Code: code}, nil)
		if err != nil {
			t.Fatal(err)
		}
		// The reference: the input crosses as JSON by the same rules, and
		// comes back as that JSON's value.
		v, exc, vm := gojaRun(t, code, `{ t: { echo: async (x) => x } }`)
		if exc != nil {
			t.Fatalf("goja threw for %s: %v", expr, exc)
		}
		want := gojaExpect(t, vm, v)
		got := string(res.Result)
		if !res.OK {
			got = "error " + res.Error.Code + ": " + res.Error.Message
		}
		if got != want {
			diffs++
			if diffs <= 15 {
				t.Errorf("echo %s\n  ours:  %s\n  goja:  %s", expr, got, want)
			}
		}
	}
	if diffs > 15 {
		t.Errorf("... %d differences in all", diffs)
	}
}

// faults are statements that throw, with the class every engine must give.
// lineShift is a documented difference of position: QuickJS reports a
// write to a const at the start of the next statement (one line down when
// the statement ends its line); goja and V8 at the write. gojaShift is
// goja's own (it puts a BigInt-and-number mix on the line before).
var faults = []struct {
	stmt, class          string
	lineShift, gojaShift int
}{
	{"null.f;", "TypeError", 0, 0},
	{"undefined.x = 1;", "TypeError", 0, 0},
	{"notDefinedAnywhere + 1;", "ReferenceError", 0, 0},
	{"new Array(-1);", "RangeError", 0, 0},
	{"(1).toFixed(200);", "RangeError", 0, 0},
	{"JSON.parse('{');", "SyntaxError", 0, 0},
	{"decodeURIComponent('%');", "URIError", 0, 0},
	{"Symbol() + '';", "TypeError", 0, 0},
	{"1n + 1;", "TypeError", 0, -1},
	{"({}).x.y;", "TypeError", 0, 0},
	{"const c = 1; c = 2;", "TypeError", 1, 0},
	{"throw new EvalError('e');", "EvalError", 0, 0},
	{"throw new Error('plain');", "Error", 0, 0},
	{"BigInt(1.5);", "RangeError", 0, 0},
	{"'abc'.repeat(-1);", "RangeError", 0, 0},
	{"new (class A { constructor() { throw new TypeError('in ctor') } })();", "TypeError", 0, 0},
	{"[].reduce((a, b) => a);", "TypeError", 0, 0},
	{"Object.defineProperty(1, 'x', {});", "TypeError", 0, 0},
	{"await Promise.reject(new RangeError('async'));", "RangeError", 0, 0},
	{"await (async () => { null.g })();", "TypeError", 0, 0},
}

func TestOracleErrors(t *testing.T) {
	cm, err := New(oracleAsset(t), Config{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer cm.Close()
	s := mustSession(t, cm)
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 120; i++ {
		f := faults[r.Intn(len(faults))]
		before := r.Intn(6)
		var b strings.Builder
		for k := 0; k < before; k++ {
			fmt.Fprintf(&b, "let v%d = %d;\n", k, k)
		}
		line := before + 1
		b.WriteString(strings.Repeat(" ", r.Intn(4)) + f.stmt + "\nreturn 1")
		code := b.String()

		// Caught inside: the class the program sees.
		caught := "try {\n" + code + "\n} catch (e) { return [e.name, e instanceof Error] }"
		res, err := s.ExecuteCode(context.Background(), ExecuteCodeInput{Code: caught}, nil)
		if err != nil {
			t.Fatal(err)
		}
		v, exc, _ := gojaRun(t, caught, "{}")
		if exc != nil {
			t.Fatalf("goja threw for %q: %v", caught, exc)
		}
		want, _ := json.Marshal(v.Export())
		if string(res.Result) != string(want) || !strings.Contains(string(want), f.class) {
			t.Errorf("%s caught: ours %s %+v, goja %s, want class %s", f.stmt, res.Result, res.Error, want, f.class)
		}

		// Uncaught: the run's error, its class and its line.
		res, err = s.ExecuteCode(context.Background(), ExecuteCodeInput{Code: code}, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, exc, _ = gojaRun(t, code, "{}")
		if exc == nil {
			t.Fatalf("goja did not throw for %q", code)
		}
		gname := exc.Get("name").String()
		if res.OK || res.Error.Name != gname || res.Error.Name != f.class {
			t.Errorf("%q: ours %+v, goja %s", code, res.Error, gname)
			continue
		}
		if res.Error.Line != line+f.lineShift {
			t.Errorf("%q: ours at line %d, the fault is on line %d (%+v)", code, res.Error.Line, line, res.Error)
		}
		if gl := gojaLine(exc); gl != line+f.gojaShift {
			t.Errorf("%q: goja at line %d, the fault is on line %d", code, gl, line)
		}
	}
}

// gojaLine is the line in the model's code of goja's first frame in code.js
// (the wrapper's first line is line 1 there).
func gojaLine(exc *goja.Object) int {
	m := regexp.MustCompile(`code\.js:(\d+):\d+`).FindStringSubmatch(exc.Get("stack").String())
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n - 1
}

func oracleAsset(t *testing.T) []byte {
	t.Helper()
	return sandboxtest.Asset(t)
}
