package codemode

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"sync/atomic"
	"testing"
	"time"
)

// TestAfterClose pins what the methods without an error give once the
// session or its CodeMode is closed: what they gave before (Close
// unregisters nothing), so that a host handing SystemInstruction and
// LLMTools to the model hears of the close from the tools' Execute. That
// Execute fails with ErrClosed whatever the arguments: before, arguments
// the model got wrong gave an INVALID_INPUT result, hiding the close.
func TestAfterClose(t *testing.T) {
	for _, closeWhat := range []string{"session", "CodeMode"} {
		t.Run(closeWhat, func(t *testing.T) {
			cm := newTestCodeMode(t, Config{})
			s := mustSession(t, cm, Tool{Name: "mine.only", Description: "The session's own.", Execute: okTool})
			instruction, listed, llm := s.SystemInstruction(), cm.ListTools(), s.LLMTools()
			if closeWhat == "session" {
				s.Close()
			} else {
				cm.Close()
			}
			if got := s.SystemInstruction(); got != instruction {
				t.Errorf("SystemInstruction after Close: %q, want what it gave before (%d bytes)", got, len(instruction))
			}
			if got := cm.ListTools(); !reflect.DeepEqual(names(got), names(listed)) {
				t.Errorf("ListTools after Close: %v, want %v", names(got), names(listed))
			}
			after := s.LLMTools()
			if len(after) != len(llm) {
				t.Fatalf("LLMTools after Close: %d tools, want %d", len(after), len(llm))
			}
			for i, tool := range after {
				if tool.Name != llm[i].Name || tool.Description != llm[i].Description {
					t.Errorf("LLMTools()[%d] after Close: %q, want %q as before", i, tool.Name, llm[i].Name)
				}
				for _, args := range []string{`{"code":"return 1","query":"orders"}`, `{"code":"return 1"}`, `{"query":"orders"}`, `not json`, `[1]`, `{"limit":"many"}`} {
					for _, exec := range []func(context.Context, json.RawMessage, any) (json.RawMessage, error){tool.Execute, llm[i].Execute} {
						out, err := exec(context.Background(), json.RawMessage(args), nil)
						if !errors.Is(err, ErrClosed) {
							t.Errorf("%s.Execute(%s) after Close: %s, %v; want ErrClosed", tool.Name, args, out, err)
						}
					}
				}
			}
		})
	}
}

func names(list []ToolInfo) []string {
	var out []string
	for _, t := range list {
		out = append(out, t.Name)
	}
	return out
}

// TestCloseDoesNotWait: Close (of the session, or of its CodeMode) ends a
// run awaiting a tool that ignores its ctx without waiting for that tool:
// Close returns nil at once, and so does ExecuteCode, with ErrClosed,
// while the tool is still running (the host's to end). Closing again
// returns nil too. The tool's fallback only keeps a broken Close from
// hanging the test: it asserts no time.
func TestCloseDoesNotWait(t *testing.T) {
	for _, closeWhat := range []string{"session", "CodeMode"} {
		t.Run(closeWhat, func(t *testing.T) {
			started, release := make(chan struct{}), make(chan struct{})
			var running atomic.Bool
			stubborn := Tool{Name: "stubborn", Execute: func(context.Context, json.RawMessage, Call) (json.RawMessage, error) {
				running.Store(true)
				defer running.Store(false)
				close(started)
				select {
				case <-release:
				case <-time.After(time.Minute):
				}
				return nil, nil
			}}
			cm := newTestCodeMode(t, Config{Tools: []Tool{stubborn}})
			s := mustSession(t, cm)
			closer := map[string]func() error{"session": s.Close, "CodeMode": cm.Close}[closeWhat]
			ran := make(chan error, 1)
			go func() {
				res, err := s.ExecuteCode(context.Background(), ExecuteCodeInput{Code: `console.log(1); return await tools.stubborn({})`}, nil)
				if res != nil {
					t.Errorf("ExecuteCode's result with an error: %+v, want nil", res)
				}
				ran <- err
			}()
			select {
			case <-started:
			case err := <-ran:
				t.Fatalf("the run ended before its tool started: %v", err)
			}
			if err := closer(); err != nil {
				t.Errorf("Close: %v, want nil", err)
			}
			if err := <-ran; !errors.Is(err, ErrClosed) {
				t.Errorf("ExecuteCode of a run closed in a tool call: %v, want ErrClosed", err)
			}
			if !running.Load() {
				t.Error("Close or ExecuteCode waited for the tool that ignores its ctx")
			}
			if err := closer(); err != nil {
				t.Errorf("Close again: %v, want nil", err)
			}
			close(release)
		})
	}
}
