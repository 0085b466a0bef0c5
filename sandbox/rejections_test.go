//go:build !js

package sandbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/interopio/code-mode/sandbox"
)

// TestUnobservedRejectionsPastTheCap: a run keeps the message of at most
// 1,000 rejected calls nobody had observed when they were rejected (it
// kept every rejected call's Error until it ended); the ones past that are
// counted in one warning, and only those still unobserved at the end. The
// Error of the last rejections still names the call of the run's error.
func TestUnobservedRejectionsPastTheCap(t *testing.T) {
	e := mustEngine(t, sandbox.Config{})
	unused := func(context.Context, []json.RawMessage) (json.RawMessage, error) { panic("Start took every call") }
	// Both answer at once, in call order: every fail is settled before ok.
	funcs := map[string]sandbox.Func{
		"fail": {Start: func(_ context.Context, a []json.RawMessage, done func(json.RawMessage, error)) bool {
			done(nil, errors.New("no "+string(a[0])))
			return true
		}, Async: unused},
		"ok": {Start: func(_ context.Context, _ []json.RawMessage, done func(json.RawMessage, error)) bool {
			done(json.RawMessage("1"), nil)
			return true
		}, Async: unused},
	}
	for _, tc := range []struct {
		what, code string
		unhandled  int    // warnings naming one call
		more       string // the warning counting the rest, "" for none
		call       string // Error.Call
	}{
		{"1,200 never observed", "for (let i = 0; i < 1200; i++) fail(i); return await ok()", 1000, "200 unhandled rejections of calls that were not awaited, past the first 1000 calls rejected before anybody awaited them (counted, not listed)", ""},
		{"1,200 observed after they were rejected", "const ps = []; for (let i = 0; i < 1200; i++) ps.push(fail(i)); await ok(); await Promise.allSettled(ps); return 1", 0, "", ""},
		{"1,200 observed but the last 3", "const ps = []; for (let i = 0; i < 1200; i++) ps.push(fail(i)); await ok(); await Promise.allSettled(ps.slice(0, -3)); return 1", 0, "3 unhandled rejections of calls that were not awaited, past the first 1000 calls rejected before anybody awaited them (counted, not listed)", ""},
		{"the run's error after 5,000 caught rejections", "for (let i = 0; i < 5000; i++) await fail(i).catch(() => 0); return fail(7)", 0, "", "fail"},
	} {
		res, err := e.Run(context.Background(), sandbox.Program{Code: tc.code, Funcs: funcs})
		if err != nil {
			t.Fatalf("%s: %v", tc.what, err)
		}
		n := 0
		for _, w := range res.Warnings {
			if strings.HasPrefix(w, "unhandled rejection of a call that was not awaited: fail: no ") {
				n++
			}
		}
		i := slices.IndexFunc(res.Warnings, func(w string) bool { return strings.Contains(w, "(counted, not listed)") })
		more := ""
		if i >= 0 {
			more = res.Warnings[i]
		}
		call := ""
		if res.Error != nil {
			call = res.Error.Call
		}
		if n != tc.unhandled || more != tc.more || call != tc.call {
			t.Errorf("%s: %d unhandled, %q, call %q (%+v), want %d, %q, %q", tc.what, n, more, call, res.Error, tc.unhandled, tc.more, tc.call)
		}
	}
}
