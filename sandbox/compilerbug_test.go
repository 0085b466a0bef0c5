//go:build !js

package sandbox

import (
	"context"
	"testing"
)

// TestCompilerFailureSaysSo: QuickJS refuses some valid code when its check
// of the bytecode it made fails (bellard/quickjs#488: a for...of over a
// yield in a generator, "stack underflow (op=110, pc=7)"). The error has no
// position, and the run said "unexpected end of input", which sent the
// model looking for an unclosed bracket. It now says what failed and how
// to write the statement instead, and that way compiles.
func TestCompilerFailureSaysSo(t *testing.T) {
	e := testEngine(t, Config{})
	for _, c := range []struct{ name, code, want string }{
		{"for (var e of yield [])", `function* x() { for (var e of yield []); } return 1`,
			"QuickJS could not compile this code: its compiler failed (stack underflow (op=110, pc=7)), a bug of QuickJS's, not of the code; write the statement it fails on another way (here, it seems, a for...of over a yield: take the yield out first, const it = yield x; for (const v of it) ...)"},
		{"for (const e of (yield* g()))", `function* g() {} function* x() { for (const e of (yield* g())) {} } return 1`,
			"QuickJS could not compile this code: its compiler failed (stack underflow (op=110, pc=50)), a bug of QuickJS's, not of the code; write the statement it fails on another way (here, it seems, a for...of over a yield: take the yield out first, const it = yield x; for (const v of it) ...)"},
	} {
		res, err := e.Run(context.Background(), Program{Code: c.code})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if res.Error == nil || res.Error.Code != CodeSyntax || res.Error.Message != c.want || res.Error.Line != 0 {
			t.Errorf("%s: got %s %+v, want SYNTAX %q", c.name, res.Value, res.Error, c.want)
		}
	}
	res, err := e.Run(context.Background(), Program{Code: `function* x() { const it = yield []; for (var e of it); return 2 } const g = x(); g.next(); return g.next([1]).value`})
	if err != nil || res.Error != nil || string(res.Value) != "2" {
		t.Errorf("the suggested form: %s %+v %v", res.Value, res.Error, err)
	}
}
