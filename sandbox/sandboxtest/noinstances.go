//go:build !js

package sandboxtest

import (
	"testing"

	"github.com/interopio/code-mode/sandbox"
	"github.com/interopio/code-mode/sandbox/internal/wazerohost"
	"github.com/interopio/code-mode/sandbox/wasmhost"
)

// EngineWithoutInstances returns an engine on the pinned asset (natively,
// on wazero) that can make no instance: each one's instantiation fails with
// err, as when the host has no memory left for it. A test of what a caller
// does with a run that cannot start uses it; the engine is closed when the
// test ends.
func EngineWithoutInstances(t testing.TB, err error) *sandbox.Engine {
	t.Helper()
	e, nerr := sandbox.NewEngine(Asset(t), sandbox.Config{Backend: noInstances{wazerohost.Backend(), err}})
	if nerr != nil {
		t.Fatal(nerr)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

type noInstances struct {
	wasmhost.Backend
	err error
}

func (b noInstances) Compile(wasm []byte) (wasmhost.Module, error) {
	m, err := b.Backend.Compile(wasm)
	if err != nil {
		return nil, err
	}
	return noInstancesModule{m, b.err}, nil
}

type noInstancesModule struct {
	wasmhost.Module
	err error
}

func (m noInstancesModule) Instantiate(wasmhost.Imports) (wasmhost.Instance, error) {
	return nil, m.err
}
