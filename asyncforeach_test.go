package codemode

import (
	"fmt"
	"strings"
	"testing"
)

// TestAsyncForEachWarning: a program that passes an async callback to
// forEach gets one warning naming the line of the first, and still runs
// as written; the same words in a string or comment, a sync forEach or a
// for...of loop get none.
func TestAsyncForEachWarning(t *testing.T) {
	warning := func(line int) string { return fmt.Sprintf(asyncForEachWarning, line) }
	cm := newTestCodeMode(t, Config{})
	s := mustSession(t, cm)
	for _, tc := range []struct {
		name, code, result string
		warns              []string
	}{
		{"async arrow", "const seen = [];\n[1, 2, 3].forEach(async (x) => { seen.push(x); await null; seen.push(-x) });\nreturn seen.slice()", "[1,2,3]", []string{warning(2)}},
		{"async function, once for two", "[1].forEach(async function (x) { await x });\n[2].forEach(async x => 1);\nconsole.warn('mine');\nreturn 1", "1", []string{warning(1), "mine"}},
		{"TypeScript in a fence", "Like this:\n```ts\nconst xs: number[] = [1];\nxs.forEach(async (x: number): Promise<void> => { await x });\nreturn xs.length;\n```", "1", []string{warning(4)}},
		{"a callback's error is still lost, but warned of", "[1].forEach(async () => { await null; throw new Error('lost') });\nreturn 2", "2", []string{warning(1)}},
		{"in a string", `const s = "x.forEach(async x => f(x))"; return s.length`, "26", nil},
		{"in a comment", "// x.forEach(async x => await f(x))\n/* y.forEach(async function () {}) */\nreturn 3", "3", nil},
		{"sync forEach", "let t = 0;\n[1, 2].forEach((x) => { t += x })\nreturn t", "3", nil},
		{"for...of with await", "let t = 0\nfor (const x of [1, 2]) { t += (await tools.orders.get({ id: x })).input.id }\nreturn t", "3", nil},
		{"Promise.all of map", "const r = await Promise.all([1, 2].map(async (x) => (await tools.orders.get({ id: x })).input.id))\nreturn r", "[1,2]", nil},
	} {
		checkWarnings(t, s, tc.name, tc.code, tc.result, tc.warns)
	}
}

// checkWarnings runs code and compares its result and its warnings, in
// order, with the ones given (the program's own console.warn included).
func checkWarnings(t *testing.T, s *Session, name, code, result string, want []string) {
	t.Helper()
	res := exec(t, s, code, nil)
	if !res.OK || string(res.Result) != result {
		t.Errorf("%s: ok=%v %s %+v, want %s", name, res.OK, res.Result, res.Error, result)
	}
	var warns []string
	for _, l := range res.Logs {
		if l.Level == "warn" {
			warns = append(warns, l.Message)
		}
	}
	if strings.Join(warns, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s: warnings %q, want %q", name, warns, want)
	}
}
