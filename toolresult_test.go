package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestToolResultNil: a tool whose Execute returns a nil result gives the
// program undefined (as Tool.Execute's doc says), and JSON null gives null.
func TestToolResultNil(t *testing.T) {
	for _, tc := range []struct {
		name string
		out  json.RawMessage
		want string
	}{
		{"nil", nil, `"undefined"`},
		{"empty", json.RawMessage{}, `"undefined"`},
		{"null", json.RawMessage("null"), `"object null"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cm := mustNew(t, Config{Tools: []Tool{{Name: "t.n",
				Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) { return tc.out, nil }}}})
			s := mustSession(t, cm)
			res := exec(t, s, `const r = await tools.t.n({}); return r === undefined ? "undefined" : typeof r + " " + r`, nil)
			if !res.OK || string(res.Result) != tc.want {
				t.Errorf("the program got %s %+v, want %s", res.Result, res.Error, tc.want)
			}
		})
	}
}

// TestToolResultPastMemoryLimit: a tool result whose JSON text has more
// characters than the run's memory limit fails its call with a ToolError
// naming the tool, which the program can catch, and the call's record says
// so; copied into the sandbox it ended the whole run MEMORY_LIMIT, the
// call recorded as a success.
func TestToolResultPastMemoryLimit(t *testing.T) {
	const limitMB = 8
	big := json.RawMessage(`"` + strings.Repeat("x", limitMB<<20) + `"`)
	cm := mustNew(t, Config{MemoryLimitMB: limitMB, Tools: []Tool{
		{Name: "t.big", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) { return big, nil }},
	}})
	s := mustSession(t, cm)
	res := exec(t, s, `try { await tools.t.big({}); return "no error" } catch (e) { return e.name + ": " + e.message }`, nil)
	want := `ToolError: tool t.big returned 8388610 characters of JSON, more than the run's memory limit (8 MB) can hold`
	var got string
	if !res.OK || json.Unmarshal(res.Result, &got) != nil || !strings.HasPrefix(got, want) {
		t.Fatalf("the program got %s %+v, want %q...", res.Result, res.Error, want)
	}
	if len(res.ToolCalls) != 1 || res.ToolCalls[0].OK || !strings.Contains(res.ToolCalls[0].Reason, "memory limit") {
		t.Errorf("the call's record: %+v, want a failure naming the memory limit", res.ToolCalls)
	}
}

// TestCallMemoryLimit: a tool learns the run's memory limit from its Call,
// the default's too: the JavaScript binding's page refuses a result too
// long for it before copying it into the core (web/src/call.mjs).
func TestCallMemoryLimit(t *testing.T) {
	for _, tc := range []struct{ given, want int }{{8, 8}, {0, 128}} {
		var got int
		cm := mustNew(t, Config{MemoryLimitMB: tc.given, Tools: []Tool{{Name: "t.limit",
			Execute: func(_ context.Context, _ json.RawMessage, c Call) (json.RawMessage, error) {
				got = c.MemoryLimitMB
				return json.RawMessage("1"), nil
			}}}})
		if res := exec(t, mustSession(t, cm), `return await tools.t.limit({})`, nil); !res.OK {
			t.Fatalf("the run failed: %+v", res.Error)
		}
		if got != tc.want {
			t.Errorf("MemoryLimitMB %d: the tool's Call says %d, want %d", tc.given, got, tc.want)
		}
	}
}

// droppedError is an error whose text a binding cut before handing it
// over, as the JavaScript binding's page cuts a thrown message.
type droppedError struct {
	msg     string
	dropped int
}

func (e *droppedError) Error() string     { return e.msg }
func (e *droppedError) DroppedChars() int { return e.dropped }

// TestToolErrorCutAlready: a tool's error whose text was cut before it
// reached the core (DroppedChars) reads, in the program and in the
// call's record, as the whole text would: its first 1,000 characters and
// the count of all the others, those dropped before included.
func TestToolErrorCutAlready(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"cut already", &droppedError{strings.Repeat("é", 4096), 89995904}, strings.Repeat("é", 1000) + "… [89999000 more characters]"},
		{"shorter than shown, cut already", &droppedError{"short", 7}, "short… [7 more characters]"},
		{"whole", errors.New(strings.Repeat("<", 1500)), strings.Repeat("<", 1000) + "… [500 more characters]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cm := mustNew(t, Config{Tools: []Tool{{Name: "t.fail",
				Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) { return nil, tc.err }}}})
			res := exec(t, mustSession(t, cm), `try { await tools.t.fail({}) } catch (e) { return e.name + ": " + e.message }`, nil)
			var got string
			if !res.OK || json.Unmarshal(res.Result, &got) != nil || got != "ToolError: "+tc.want {
				t.Fatalf("the program got %.80s (%d bytes) %+v, want ToolError: %.80s", got, len(got), res.Error, tc.want)
			}
			if len(res.ToolCalls) != 1 || res.ToolCalls[0].Reason != tc.want {
				t.Errorf("the call's record: %.80s, want %.80s", res.ToolCalls[0].Reason, tc.want)
			}
		})
	}
}

// TestInterceptorMessageCutOnce: an interceptor's long error or denial
// reads, in the program and in the call's record, as the whole message
// would: its first 1,000 characters and the count of all the others, those
// a binding dropped before included (DroppedChars, as a tool's). The
// program's message was cut inside and again around it, and counted only
// what the second cut dropped ("[68 more characters]" of 1,545).
func TestInterceptorMessageCutOnce(t *testing.T) {
	const failed, denied = "call to t.x denied: the interceptor failed (", "call to t.x denied: "
	long := strings.Repeat("<", 1500)
	for _, tc := range []struct {
		name         string
		d            Decision
		err          error
		want, record string
	}{
		{"an error", Decision{}, errors.New(long),
			failed + strings.Repeat("<", 1000-len(failed)) + "… [545 more characters]",
			"interceptor failed: " + strings.Repeat("<", 980) + "… [520 more characters]"},
		{"an error cut already", Decision{}, &droppedError{strings.Repeat("é", 4096), 89995904},
			failed + strings.Repeat("é", 1000-len(failed)) + "… [89999045 more characters]",
			"interceptor failed: " + strings.Repeat("é", 980) + "… [89999020 more characters]"},
		{"a denial", Decision{Reason: long}, nil,
			denied + strings.Repeat("<", 1000-len(denied)) + "… [520 more characters]",
			strings.Repeat("<", 1000) + "… [500 more characters]"},
		{"a denial cut already", Decision{Reason: strings.Repeat("é", 4096), ReasonDropped: 89995904}, nil,
			denied + strings.Repeat("é", 1000-len(denied)) + "… [89999020 more characters]",
			strings.Repeat("é", 1000) + "… [89999000 more characters]"},
		{"a short denial", Decision{Reason: "no"}, nil, denied + "no", "no"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cm := mustNew(t, Config{
				Tools:      []Tool{{Name: "t.x", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) { return nil, nil }}},
				OnToolCall: func(context.Context, ToolCall) (Decision, error) { return tc.d, tc.err },
			})
			res := exec(t, mustSession(t, cm), `try { await tools.t.x({}) } catch (e) { return e.name + ": " + e.message }`, nil)
			var got string
			if !res.OK || json.Unmarshal(res.Result, &got) != nil || got != "ToolError: "+tc.want {
				t.Fatalf("the program got %q %+v, want ToolError: %q", got, res.Error, tc.want)
			}
			if len(res.ToolCalls) != 1 || res.ToolCalls[0].Reason != tc.record {
				t.Errorf("the call's record: %q, want %q", res.ToolCalls[0].Reason, tc.record)
			}
		})
	}
}

// pointerError is an error type whose Error method reads its receiver: a
// nil *pointerError returned as an error is a typed nil.
type pointerError struct{ msg string }

func (e *pointerError) Error() string { return e.msg }

// TestToolErrorTypedNil: a tool that fails with a typed nil error (a nil
// *pointerError, which is a non-nil error whose Error method panics), from
// Execute or from Start's done, fails its call with a ToolError naming the
// error's type, which the program catches, and its record says so. Its
// message panicked on the run's goroutine: the program got the host's
// "host function __cm_call panicked: runtime error: invalid memory
// address or nil pointer dereference" and the record "not finished: the
// run ended", as if the tool had not answered.
func TestToolErrorTypedNil(t *testing.T) {
	const want = "the tool failed with an error of type *codemode.pointerError whose Error method panicked (a nil *codemode.pointerError?): runtime error: invalid memory address or nil pointer dereference"
	typedNil := func() error { var e *pointerError; return e }
	for _, tc := range []struct {
		name   string
		tool   Tool
		reason string
	}{
		{"Execute", Tool{Name: "t.fail", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) { return nil, typedNil() }}, want},
		{"Start", Tool{Name: "t.fail", Execute: okTool, Start: func(_ context.Context, _ json.RawMessage, _ Call, done func(json.RawMessage, error)) {
			done(nil, typedNil())
		}}, want},
		{"a non-nil *pointerError", Tool{Name: "t.fail", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
			return nil, &pointerError{"out of stock"}
		}}, "out of stock"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mustSession(t, mustNew(t, Config{Tools: []Tool{tc.tool}}))
			res := exec(t, s, `try { await tools.t.fail({}); return "no error" } catch (e) { return e.name + ": " + e.message }`, nil)
			if got, _ := json.Marshal("ToolError: " + tc.reason); !res.OK || string(res.Result) != string(got) {
				t.Errorf("the program got %s %+v, want %s", res.Result, res.Error, got)
			}
			if len(res.ToolCalls) != 1 || !res.ToolCalls[0].Allowed || res.ToolCalls[0].OK || res.ToolCalls[0].Reason != tc.reason {
				t.Errorf("record %+v, want allowed, failed, reason %q", res.ToolCalls, tc.reason)
			}
		})
	}
}
