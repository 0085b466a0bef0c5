package codemode

import (
	"fmt"
	"strings"
	"testing"
)

// TestConsoleMethods: the console methods models write besides the five
// levels (console.table, dir, assert, count, time, group, trace) and the
// format substitutions of console.log("%s: %d", ...) work as in Node and
// browsers. They were "not a function" (a RUNTIME error naming nothing)
// and the format was printed as written ("%s is %d x 5").
func TestConsoleMethods(t *testing.T) {
	cm := newTestCodeMode(t, Config{})
	s, _ := cm.NewSession()
	for _, tc := range []struct {
		name, code string
		want       []LogEntry
	}{
		{"table", `console.table([{a: 1}, {a: 2}]); console.table({x: "y"}, ["x"])`,
			[]LogEntry{{"log", `[{"a":1},{"a":2}]`}, {"log", `{"x":"y"}`}}},
		{"dir and dirxml", `console.dir({b: 1}, {depth: 0}); console.dirxml("x")`,
			[]LogEntry{{"log", `{"b":1}`}, {"log", "x"}}},
		{"trace", `console.trace("here", 1)`, []LogEntry{{"log", "Trace: here 1"}}},
		{"assert", `console.assert(true, "no"); console.assert(0, "bad %s", "x", {n: 1}); console.assert(false)`,
			[]LogEntry{{"error", `Assertion failed: bad x {"n":1}`}, {"error", "Assertion failed"}}},
		{"count", `console.count(); console.count(); console.count("k"); console.countReset(); console.count()`,
			[]LogEntry{{"log", "default: 1"}, {"log", "default: 2"}, {"log", "k: 1"}, {"log", "default: 1"}}},
		{"time", `console.time("t"); console.timeLog("t", "mid"); console.timeEnd("t"); console.timeEnd("t"); console.time(); console.time()`,
			[]LogEntry{{"log", "t: <ms>ms mid"}, {"log", "t: <ms>ms"}, {"warn", "No such label 't' for console.timeEnd()"},
				{"warn", "Label 'default' already exists for console.time()"}}},
		{"group", `console.group("g"); console.log("in"); console.groupCollapsed(); console.info("a\nb"); console.groupEnd(); console.groupEnd(); console.groupEnd(); console.log("out")`,
			[]LogEntry{{"log", "g"}, {"log", "  in"}, {"info", "    a\n    b"}, {"log", "out"}}},
		{"format", `console.log("%s is %d years, %i, %f%%", "Ann", 41.5, "7.9", "2.5"); console.warn("%o and %O and %j", {a: 1}, [2], null); console.log("%c styled", "color: red")`,
			[]LogEntry{{"log", "Ann is 41.5 years, 7, 2.5%"}, {"warn", `{"a":1} and [2] and null`}, {"log", " styled"}}},
		{"format, more arguments than specifiers and fewer", `console.log("%s", "a", "b", {c: 1}); console.log("%s %s", "a"); console.log("100%%"); console.log(5, "%s", "x")`,
			[]LogEntry{{"log", `a b {"c":1}`}, {"log", "a %s"}, {"log", "100%%"}, {"log", "5 %s x"}}},
		{"format of values that cannot be read", `const p = new Proxy({}, {get() { throw new Error("trap") }}); console.log("%d|%s|%i", p, Symbol("q"), 3n)`,
			[]LogEntry{{"log", "NaN|Symbol(q)|3n"}}},
		{"clear does nothing", `console.clear(); console.log("x")`, []LogEntry{{"log", "x"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := exec(t, s, tc.code, nil)
			if !res.OK {
				t.Fatalf("run failed: %+v", res.Error)
			}
			got := make([]LogEntry, len(res.Logs))
			for i, l := range res.Logs {
				// A time in ms varies: "t: 0.123ms" is kept as "t: <ms>ms".
				if before, rest, ok := strings.Cut(l.Message, ": "); ok && strings.Contains(rest, "ms") && strings.HasPrefix(before, "t") {
					num, after, _ := strings.Cut(rest, "ms")
					var f float64
					if _, err := fmt.Sscan(num, &f); err == nil && f >= 0 {
						l.Message = before + ": <ms>ms" + after
					}
				}
				got[i] = l
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("logs =\n %q\nwant\n %q", got, tc.want)
			}
		})
	}
}
