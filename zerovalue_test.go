package codemode

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/interopio/code-mode/sandbox"
	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

// TestZeroValues: a CodeMode or Session that New or NewSession did not make
// (a zero value, a nil pointer: defer cm.Close() before New's error was
// checked) panics nowhere. A method that returns an error gives one that
// wraps ErrClosed and says how to make one; the others give nothing.
// Before, every row but NewSession on a zero CodeMode panicked (nil
// pointer), and that one returned a Session whose use panicked.
// NewWithEngine on a nil or zero sandbox.Engine gives an error wrapping
// ErrNilEngine (a zero Engine was taken, and every run failed with ErrClosed).
func TestZeroValues(t *testing.T) {
	var zeroCM CodeMode
	var nilCM *CodeMode
	var zeroS Session
	var nilS *Session
	ctx := context.Background()
	tool := Tool{Name: "t", Execute: noopToolExecute}
	for _, tc := range []struct {
		name string
		// call returns the method's error, and a description of what
		// it gave that it should not have ("" for nothing).
		call func() (gave string, err error)
		want string // in the error; "" for a method with no error to give
	}{
		{"zero CodeMode NewSession", func() (string, error) { _, err := zeroCM.NewSession(); return "", err }, "make one with New"},
		{"nil CodeMode NewSession", func() (string, error) { _, err := nilCM.NewSession(); return "", err }, "make one with New"},
		{"zero CodeMode RegisterTools", func() (string, error) { _, err := zeroCM.RegisterTools(tool); return "", err }, "make one with New"},
		{"nil CodeMode RegisterTools", func() (string, error) { _, err := nilCM.RegisterTools(tool); return "", err }, "make one with New"},
		{"zero CodeMode ListTools", func() (string, error) { return nonEmpty(zeroCM.ListTools()), nil }, ""},
		{"nil CodeMode ListTools", func() (string, error) { return nonEmpty(nilCM.ListTools()), nil }, ""},
		{"zero CodeMode Close", func() (string, error) { return "", zeroCM.Close() }, ""},
		{"nil CodeMode Close", func() (string, error) { return "", nilCM.Close() }, ""},
		{"zero Session ExecuteCode", func() (string, error) {
			_, err := zeroS.ExecuteCode(ctx, ExecuteCodeInput{Code: "1"}, nil)
			return "", err
		}, "make one with CodeMode.NewSession"},
		{"nil Session ExecuteCode", func() (string, error) {
			_, err := nilS.ExecuteCode(ctx, ExecuteCodeInput{Code: "1"}, nil)
			return "", err
		}, "make one with CodeMode.NewSession"},
		{"zero Session Search", func() (string, error) { _, err := zeroS.Search(ctx, SearchRequest{Query: "x"}); return "", err }, "make one with CodeMode.NewSession"},
		{"nil Session SearchTools", func() (string, error) { _, err := nilS.SearchTools("x", 1); return "", err }, "make one with CodeMode.NewSession"},
		{"zero Session SystemInstruction", func() (string, error) { return zeroS.SystemInstruction(), nil }, ""},
		{"nil Session LLMTools", func() (string, error) { return nonEmpty(nilS.LLMTools()), nil }, ""},
		{"zero Session Close", func() (string, error) { return "", zeroS.Close() }, ""},
		{"nil Session Close", func() (string, error) { return "", nilS.Close() }, ""},
		{"NewWithEngine(nil)", func() (string, error) { _, err := NewWithEngine(nil, Config{}); return "", err }, "engine must not be nil"},
		{"NewWithEngine(zero Engine)", func() (string, error) { _, err := NewWithEngine(&sandbox.Engine{}, Config{}); return "", err }, "engine must not be nil or a zero sandbox.Engine"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			var gave string
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("panicked: %v", p)
					}
				}()
				gave, err = tc.call()
			}()
			if gave != "" {
				t.Errorf("gave %s, want nothing", gave)
			}
			if tc.want == "" {
				if err != nil {
					t.Errorf("err = %v, want nil", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one saying %q", err, tc.want)
			}
			want := ErrClosed
			if strings.HasPrefix(tc.name, "NewWithEngine") {
				want = ErrNilEngine
			}
			if !errors.Is(err, want) {
				t.Errorf("errors.Is(%v, %v) = false", err, want)
			}
		})
	}
}

// nonEmpty describes a slice that is not nil, "" for nil.
func nonEmpty[T any](s []T) string {
	if s == nil {
		return ""
	}
	return fmt.Sprintf("%d items", len(s))
}

// TestNewWithEngine: NewWithEngine owns the engine it is given, and
// closes it when it fails (a bad Config, a bad Config.Tools, a memory
// limit other than the engine's): the caller has nothing left to close.
// Config.MemoryLimitMB 0 takes the engine's limit, which the model is then
// told. Before, a limit other than the engine's was taken as given: the
// instructions said 128 MB where the engine enforced 64 MiB.
func TestNewWithEngine(t *testing.T) {
	for _, tc := range []struct {
		name   string
		engine int64 // the engine's MemoryLimit, bytes (0: the default)
		cfg    Config
		want   error  // nil: made
		say    string // in the error, or in the instructions
	}{
		{"bad config", 0, Config{Timeout: -1}, ErrInvalidConfig, "Timeout"},
		{"bad tool", 0, Config{Tools: []Tool{{Name: "t.x"}}}, ErrInvalidTool, "Execute"},
		{"limit not the engine's", 64 << 20, Config{MemoryLimitMB: 128}, ErrInvalidConfig,
			"MemoryLimitMB: must be the engine's memory limit, 64 MiB (sandbox.Config.MemoryLimit), or 0 to take it from the engine; got 128"},
		{"limit not whole MiB", 64<<20 + 1, Config{MemoryLimitMB: 64}, ErrInvalidConfig, "67108865 bytes"},
		{"limit of the engine", 64 << 20, Config{MemoryLimitMB: 64}, nil, "64 MB"},
		{"limit taken from the engine", 64 << 20, Config{}, nil, "64 MB"},
		{"default limit taken", 0, Config{}, nil, "128 MB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			engine, err := sandbox.NewEngine(sandboxtest.Asset(t), sandbox.Config{MemoryLimit: tc.engine})
			if err != nil {
				t.Fatal(err)
			}
			defer engine.Close()
			cm, err := NewWithEngine(engine, tc.cfg)
			if tc.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				defer cm.Close()
				s := mustSession(t, cm)
				if got := s.SystemInstruction(); !strings.Contains(got, tc.say) {
					t.Errorf("the instructions do not say %q: %s", tc.say, got)
				}
				return
			}
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.say) {
				t.Fatalf("err = %v, want one wrapping %v and saying %q", err, tc.want, tc.say)
			}
			if _, err := engine.Run(context.Background(), sandbox.Program{Code: "1"}); !errors.Is(err, sandbox.ErrClosed) {
				t.Errorf("a run of the engine after NewWithEngine failed: err = %v, want sandbox.ErrClosed", err)
			}
		})
	}
}
