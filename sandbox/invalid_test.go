//go:build !js

package sandbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/interopio/code-mode/sandbox"
	"github.com/interopio/code-mode/sandbox/sandboxtest"
)

// TestInvalidConfigAndProgram: the caller's own mistakes are told apart
// with errors.Is (ErrInvalidConfig from NewEngine, ErrInvalidProgram from
// Run), and each message names the field and what it must be. Before,
// they were bare texts that only a string match could recognise.
func TestInvalidConfigAndProgram(t *testing.T) {
	asset := sandboxtest.Asset(t)
	for _, tc := range []struct {
		name  string
		limit int64
		want  string
	}{
		{"negative memory limit", -1, "sandbox: invalid config: Config.MemoryLimit: must be between 1 byte and 1016 MiB"},
		{"memory limit past the asset's", sandbox.MaxMemoryLimit + 1, "sandbox: invalid config: Config.MemoryLimit: must be between 1 byte and 1016 MiB"},
	} {
		e, err := sandbox.NewEngine(asset, sandbox.Config{MemoryLimit: tc.limit})
		if e != nil {
			e.Close()
		}
		if !errors.Is(err, sandbox.ErrInvalidConfig) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want ErrInvalidConfig starting %q", tc.name, err, tc.want)
		}
	}

	e := mustEngine(t, sandbox.Config{})
	noop := func([]json.RawMessage) (json.RawMessage, error) { return nil, nil }
	for _, tc := range []struct {
		name string
		p    sandbox.Program
		want string
	}{
		{"a Func with none set", sandbox.Program{Code: "1", Funcs: map[string]sandbox.Func{"f": {}}},
			`sandbox: invalid program: Program.Funcs["f"]: exactly one of Async, Sync, Bytes and Source must be set, got 0`},
		{"a Func with two set", sandbox.Program{Code: "1", Funcs: map[string]sandbox.Func{"g": {Sync: noop, Bytes: func([]json.RawMessage) ([]byte, error) { return nil, nil }}}},
			`sandbox: invalid program: Program.Funcs["g"]: exactly one of Async, Sync, Bytes and Source must be set, got 2`},
		{"Hidden without a Prelude", sandbox.Program{Code: "1", Hidden: true},
			"sandbox: invalid program: Program.Hidden needs a Prelude"},
		{"a Prelude that throws", sandbox.Program{Code: "1", Prelude: `throw new TypeError("no")`},
			"sandbox: invalid program: Program.Prelude threw: TypeError: no"},
	} {
		res, err := e.Run(context.Background(), tc.p)
		if !errors.Is(err, sandbox.ErrInvalidProgram) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: err = %v (result %+v), want ErrInvalidProgram starting %q", tc.name, err, res, tc.want)
		}
	}
	// The engine is left as it was: the next run works.
	if res, err := e.Run(context.Background(), sandbox.Program{Code: "return 1"}); err != nil || res.Error != nil || string(res.Value) != "1" {
		t.Fatalf("the next run: %+v, %v", res, err)
	}
}

// TestNoInstance: a run whose instance cannot be made fails with an error
// wrapping ErrNoInstance and the backend's cause, and ran nothing.
func TestNoInstance(t *testing.T) {
	cause := errors.New("no memory for another instance")
	e := sandboxtest.EngineWithoutInstances(t, cause)
	called := false
	res, err := e.Run(context.Background(), sandbox.Program{Code: "f()", Funcs: map[string]sandbox.Func{"f": {Sync: func([]json.RawMessage) (json.RawMessage, error) {
		called = true
		return nil, nil
	}}}})
	if res != nil || !errors.Is(err, sandbox.ErrNoInstance) || !errors.Is(err, cause) || called {
		t.Fatalf("result %+v, err = %v, called %v; want no result, an error wrapping ErrNoInstance and %q, nothing called", res, err, called, cause)
	}
	if want := "sandbox: cannot make an instance: " + cause.Error(); err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
}
