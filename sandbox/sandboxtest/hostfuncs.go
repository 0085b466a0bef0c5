package sandboxtest

// The conformance suite's host functions: arguments and results crossing
// as JSON (bytes as ArrayBuffers, with their conversion warnings), host
// errors the program catches, concurrent, late and unawaited calls, a
// sandbox.Fatal that ends the run, and the prelude that wraps them.

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox"
)

func testHostFuncs(t *testing.T, e *sandbox.Engine) {
	t.Run("ArgsAsJSON", func(t *testing.T) {
		res := run(t, e, sandbox.Program{Code: "return args(1, 'a', undefined, {b: [true]}, 5n, () => 1, new Date(0))", Funcs: echoFuncs()})
		want := `["1","\"a\"","","{\"b\":[true]}","\"5\"","","\"1970-01-01T00:00:00.000Z\""]`
		if res.Error != nil || string(res.Value) != want {
			t.Fatalf("got %s %v, want %s", res.Value, res.Error, want)
		}
	})
	t.Run("CyclicArgThrowsAtCallSite", func(t *testing.T) {
		res := run(t, e, sandbox.Program{Code: "const a = {}; a.a = a; try { await echo(a) } catch (e) { return e.name + ': ' + e.message }", Funcs: echoFuncs()})
		if res.Error != nil || !strings.Contains(string(res.Value), "TypeError: circular") {
			t.Fatalf("got %s %v", res.Value, res.Error)
		}
	})
	t.Run("NestedHostCallsAreBounded", func(t *testing.T) {
		// A getter in an argument calls the host function again, forever.
		code := "const o = { get x() { return args(o) } }; try { args(o) } catch (e) { return e.name + ': ' + e.message }"
		res := run(t, e, sandbox.Program{Code: code, Funcs: echoFuncs()})
		if res.Error != nil || !strings.Contains(string(res.Value), "RangeError: a getter or toJSON of a host call's arguments called host functions") {
			t.Fatalf("got %s %v", res.Value, res.Error)
		}
		code = "const o = { get x() { echo(o); return 1 } }; await echo(o); return 'survived'"
		res = run(t, e, sandbox.Program{Code: code, Funcs: echoFuncs()})
		if res.Error != nil && strings.Contains(res.Error.Message, "crashed") {
			t.Fatalf("got %v", res.Error)
		}
	})
	t.Run("NestedConversionsKeepTheirPaths", func(t *testing.T) {
		// A getter of an input makes a host call while the input is being
		// written: each conversion reports its own paths, and the outer
		// one goes on where it was.
		code := "const inner = { s: new Set([1]), deep: [{ n: NaN }] };\nreturn args({ m: new Map([['k', 1]]), o: { get a() { return args(inner) } }, after: [1n] })"
		res := run(t, e, sandbox.Program{Code: code, Funcs: echoFuncs()})
		want := `["{\"m\":{\"k\":1},\"o\":{\"a\":[\"{\\\"s\\\":[1],\\\"deep\\\":[{\\\"n\\\":\\\"NaN\\\"}]}\"]},\"after\":[\"1\"]}"]`
		if res.Error != nil || string(res.Value) != want {
			t.Fatalf("got %s %v, want %s", res.Value, res.Error, want)
		}
		wantW := []string{"input.s: a Set, converted to an array", `input.deep[0].n: NaN, converted to the string "NaN"`, "input.m: a Map, converted to an object", "input.after[0]: a BigInt, converted to a string"}
		if strings.Join(res.Warnings, "|") != strings.Join(wantW, "|") {
			t.Fatalf("warnings %q, want %q", res.Warnings, wantW)
		}
	})
	t.Run("BytesAsArrayBuffer", func(t *testing.T) {
		funcs := map[string]sandbox.Func{"bytes": {Bytes: func(a []json.RawMessage) ([]byte, error) {
			if string(a[0]) == "-1" {
				return nil, &sandbox.JSError{Name: "RangeError", Message: "no bytes"}
			}
			var n int
			json.Unmarshal(a[0], &n)
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(i % 253)
			}
			return b, nil
		}}}
		code := "const u = new Uint8Array(bytes(65536));\nlet e;\ntry { bytes(-1) } catch (x) { e = x.name + ': ' + x.message }\nreturn [bytes(0) instanceof ArrayBuffer, bytes(0).byteLength, u.length, u.every((x, i) => x === i % 253), e]"
		res := run(t, e, sandbox.Program{Code: code, Funcs: funcs})
		if want := `[true,0,65536,true,"RangeError: no bytes"]`; res.Error != nil || string(res.Value) != want {
			t.Fatalf("got %s %v, want %s", res.Value, res.Error, want)
		}
		both := map[string]sandbox.Func{"f": {Sync: func([]json.RawMessage) (json.RawMessage, error) { return nil, nil }, Bytes: funcs["bytes"].Bytes}}
		if _, err := e.Run(context.Background(), sandbox.Program{Code: "1", Funcs: both}); !errors.Is(err, sandbox.ErrInvalidProgram) || !strings.Contains(err.Error(), `Program.Funcs["f"]: exactly one of Async, Sync, Bytes and Source`) {
			t.Fatalf("a Func with Sync and Bytes: %v", err)
		}
	})
	t.Run("ErrorCallNamesTheRejectedCall", func(t *testing.T) {
		funcs := echoFuncs()
		labelled := funcs["fail"]
		labelled.Label = func(a []json.RawMessage) string { return "fail of " + string(a[0]) }
		funcs["failL"] = labelled
		for _, tc := range []struct{ code, call string }{
			{"return fail(1)", "fail"},
			{"echo(1);\nfailL(2)", "fail of 2"},
			{"return Promise.all([echo(1), failL(3)])", "fail of 3"},
			// Not the call's own error: no call.
			{"return fail(1).catch((e) => { throw new Error('mine') })", ""},
			{"return Promise.reject(new Error('mine'))", ""},
			{"return fail(1).catch(() => { throw 'plain' })", ""},
		} {
			res := run(t, e, sandbox.Program{Code: tc.code, Funcs: funcs})
			if res.Error == nil || res.Error.Call != tc.call {
				t.Errorf("%q: %+v, want the call %q", tc.code, res.Error, tc.call)
			}
		}
	})
	t.Run("ErrorIsCatchable", func(t *testing.T) {
		res := run(t, e, sandbox.Program{Code: "try { await fail(1) } catch (e) { return [e instanceof Error, e.name, e.message] }", Funcs: echoFuncs()})
		if want := `[true,"ToolError","it failed: 1"]`; res.Error != nil || string(res.Value) != want {
			t.Fatalf("got %s %v, want %s", res.Value, res.Error, want)
		}
	})
	t.Run("TypeAndRangeErrorsAreTheClasses", func(t *testing.T) {
		// A host's TypeError or RangeError is an instance of the context's
		// own class, the one the program found, whatever it put in its place.
		refuse := func(name string) sandbox.Func {
			return sandbox.Func{Async: func(context.Context, []json.RawMessage) (json.RawMessage, error) {
				return nil, &sandbox.JSError{Name: name, Message: "refused"}
			}}
		}
		funcs := map[string]sandbox.Func{"typeErr": refuse("TypeError"), "rangeErr": refuse("RangeError"), "toolErr": refuse("ToolError")}
		code := "const T = TypeError, R = RangeError;\nglobalThis.TypeError = globalThis.RangeError = class {};\nconst c = async (f) => { try { await f() } catch (e) { return [e instanceof T, e instanceof R, e.constructor === Error, e.name, e.message] } };\nreturn [await c(typeErr), await c(rangeErr), await c(toolErr)]"
		res := run(t, e, sandbox.Program{Code: code, Funcs: funcs})
		if want := `[[true,false,false,"TypeError","refused"],[false,true,false,"RangeError","refused"],[false,false,true,"ToolError","refused"]]`; res.Error != nil || string(res.Value) != want {
			t.Fatalf("got %s %v, want %s", res.Value, res.Error, want)
		}
	})
	t.Run("PromiseAll100Concurrent", func(t *testing.T) {
		// Every call waits until all 100 have started: this only finishes if
		// the calls really run concurrently.
		var started atomic.Int32
		all := make(chan struct{})
		funcs := map[string]sandbox.Func{"slow": {Async: func(ctx context.Context, a []json.RawMessage) (json.RawMessage, error) {
			if started.Add(1) == 100 {
				close(all)
			}
			select {
			case <-all:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return a[0], nil
		}}}
		res := run(t, e, sandbox.Program{Code: "const r = await Promise.all(Array.from({length: 100}, (_, i) => slow(i))); return r.reduce((a, b) => a + b)", Funcs: funcs})
		if res.Error != nil || string(res.Value) != "4950" {
			t.Fatalf("got %s %v", res.Value, res.Error)
		}
	})
	t.Run("LateAnswer", func(t *testing.T) {
		funcs := map[string]sandbox.Func{"later": {Async: func(ctx context.Context, a []json.RawMessage) (json.RawMessage, error) {
			time.Sleep(20 * time.Millisecond)
			return json.RawMessage(`"done"`), nil
		}}}
		res := run(t, e, sandbox.Program{Code: "return await later()", Funcs: funcs})
		if res.Error != nil || string(res.Value) != `"done"` {
			t.Fatalf("got %s %v", res.Value, res.Error)
		}
	})
	t.Run("UnawaitedRejectionReported", func(t *testing.T) {
		// afterFail answers once fail has answered (plus a moment for its
		// result to be queued), so the rejection lands before the end.
		funcs := func() map[string]sandbox.Func {
			funcs := echoFuncs()
			failed := make(chan struct{})
			var once sync.Once
			funcs["fail"] = sandbox.Func{Async: func(_ context.Context, a []json.RawMessage) (json.RawMessage, error) {
				defer once.Do(func() { close(failed) })
				return nil, errors.New("it failed: " + string(a[0]))
			}}
			funcs["afterFail"] = sandbox.Func{Async: func(context.Context, []json.RawMessage) (json.RawMessage, error) {
				<-failed
				time.Sleep(100 * time.Millisecond)
				return nil, nil
			}}
			return funcs
		}
		res := run(t, e, sandbox.Program{Code: "fail('lost'); await afterFail(); return 3", Funcs: funcs()})
		if res.Error != nil || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "lost") {
			t.Fatalf("got %s %v %q", res.Value, res.Error, res.Warnings)
		}
		for _, code := range []string{
			"const p = fail('seen'); await afterFail(); try { await p } catch {} return 3",
			"fail('seen').catch(() => {}); await afterFail(); return 3",
			"await Promise.allSettled([fail('seen')]); return 3",
			"fail('seen').then(() => {}, () => {}); await afterFail(); return 3",
		} {
			res = run(t, e, sandbox.Program{Code: code, Funcs: funcs()})
			if res.Error != nil || len(res.Warnings) != 0 {
				t.Fatalf("%q: an observed rejection was reported: %v %q", code, res.Error, res.Warnings)
			}
		}
	})
	t.Run("Fatal", func(t *testing.T) {
		funcs := map[string]sandbox.Func{"stop": {Async: func(context.Context, []json.RawMessage) (json.RawMessage, error) {
			return nil, &sandbox.Fatal{Code: "TOOL_LIMIT", Message: "too many calls"}
		}}}
		res := run(t, e, sandbox.Program{Code: "try { await stop() } catch (e) {} while (true) {}", Funcs: funcs})
		if res.Error == nil || res.Error.Code != "TOOL_LIMIT" {
			t.Fatalf("got %s %v", res.Value, res.Error)
		}
	})
	t.Run("Prelude", func(t *testing.T) {
		res := run(t, e, sandbox.Program{Prelude: "globalThis.twice = async (x) => 2 * await echo(x)", Code: "return twice(21)", Funcs: echoFuncs()})
		if res.Error != nil || string(res.Value) != "42" {
			t.Fatalf("got %s %v", res.Value, res.Error)
		}
	})
}
