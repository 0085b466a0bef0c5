//go:build !js

// Package wazerohost implements wasmhost with wazero, for native Go. It never
// reaches the GOOS=js bundle: there, wazero could only interpret (about 600x
// slower than the host's own WebAssembly) and would add megabytes.
//
// wazero cannot take an imported memory from a Go host module, so the memory
// import is rewritten into a defined memory with the requested limits; the
// compiled variant is cached per limit. Host functions are shared by all
// instances of a module and dispatch to the calling instance through the
// context.Context that the instance passes to every call.
package wazerohost

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/interopio/code-mode/internal/wasmbin"
	"github.com/interopio/code-mode/sandbox/wasmhost"
)

// cache lets tests and programs that compile the same asset many times pay
// the compiler once per process.
var cache = wazero.NewCompilationCache()

// Backend returns a wazero backend.
func Backend() wasmhost.Backend { return backend{} }

type backend struct{}

func (backend) Compile(b []byte) (wasmhost.Module, error) {
	parsed, err := wasmbin.Parse(b)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler().WithCompilationCache(cache))
	// Validate now, so that a bad module fails at Compile, as it does in JS.
	// Modules with a memory import are compiled again per memory limit.
	if _, err := rt.CompileModule(ctx, b); err != nil {
		rt.Close(ctx)
		return nil, fmt.Errorf("compile: %w", err)
	}
	return &module{bytes: b, parsed: parsed, rt: rt, variants: map[[2]uint32]wazero.CompiledModule{}}, nil
}

type module struct {
	bytes  []byte
	parsed *wasmbin.Module
	rt     wazero.Runtime

	mu       sync.Mutex
	host     api.Module // the Go host module, built on first Instantiate
	hostFor  string
	variants map[[2]uint32]wazero.CompiledModule
}

func (m *module) Imports() []wasmhost.ExternDesc {
	out := make([]wasmhost.ExternDesc, len(m.parsed.Imports))
	for i, imp := range m.parsed.Imports {
		out[i] = wasmhost.ExternDesc{Module: imp.Module, Name: imp.Name, Kind: wasmhost.ExternKind(imp.Kind), Type: imp.Type}
	}
	return out
}

func (m *module) Exports() []wasmhost.ExternDesc {
	out := make([]wasmhost.ExternDesc, len(m.parsed.Exports))
	for i, e := range m.parsed.Exports {
		out[i] = wasmhost.ExternDesc{Name: e.Name, Kind: wasmhost.ExternKind(e.Kind), Type: e.Type}
	}
	return out
}

type instanceKey struct{}

// hostModule builds the shared Go module that serves every function import.
func (m *module) hostModule(ctx context.Context, name string) error {
	if m.host != nil {
		if m.hostFor != name {
			return fmt.Errorf("instantiate: imports come from module %q, earlier instances used %q", name, m.hostFor)
		}
		return nil
	}
	b := m.rt.NewHostModuleBuilder(name)
	for _, imp := range m.parsed.Imports {
		if imp.Kind != wasmbin.KindFunc {
			continue
		}
		fname := imp.Name
		params := valueTypes(imp.Type.Params)
		results := valueTypes(imp.Type.Results)
		b.NewFunctionBuilder().WithGoFunction(api.GoFunc(func(ctx context.Context, stack []uint64) {
			inst := ctx.Value(instanceKey{}).(*instance)
			f := inst.funcs[fname]
			r := f.Call(stack[:len(params)])
			if len(results) > 0 {
				stack[0] = r
			}
		}), params, results).Export(fname)
	}
	host, err := b.Instantiate(ctx)
	if err != nil {
		return err
	}
	m.host, m.hostFor = host, name
	return nil
}

// valueTypes converts to wazero's value types, which use the same codes.
func valueTypes(ts []wasmhost.ValueType) []api.ValueType {
	out := make([]api.ValueType, len(ts))
	for i, t := range ts {
		out[i] = api.ValueType(t)
	}
	return out
}

func (m *module) Instantiate(imp wasmhost.Imports) (wasmhost.Instance, error) {
	ctx := context.Background()
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, i := range m.parsed.Imports {
		if i.Kind == wasmbin.KindFunc {
			if i.Module != imp.Module {
				return nil, fmt.Errorf("instantiate: import %s.%s is not from module %q", i.Module, i.Name, imp.Module)
			}
			if _, ok := imp.Funcs[i.Name]; !ok {
				return nil, fmt.Errorf("instantiate: no host function for import %s.%s", i.Module, i.Name)
			}
		}
	}
	if err := m.hostModule(ctx, imp.Module); err != nil {
		return nil, err
	}
	key := [2]uint32{imp.Memory.MinPages, imp.Memory.MaxPages}
	compiled, ok := m.variants[key]
	if !ok {
		b := m.bytes
		if imp.Memory.Name != "" {
			var err error
			b, err = wasmbin.DefineImportedMemory(m.bytes, imp.Module, imp.Memory.Name, imp.Memory.MinPages, imp.Memory.MaxPages)
			if err != nil {
				return nil, err
			}
		}
		var err error
		if compiled, err = m.rt.CompileModule(ctx, b); err != nil {
			return nil, fmt.Errorf("compile: %w", err)
		}
		m.variants[key] = compiled
	}
	inst := &instance{funcs: imp.Funcs}
	inst.ctx = context.WithValue(ctx, instanceKey{}, inst)
	mod, err := m.rt.InstantiateModule(inst.ctx, compiled, wazero.NewModuleConfig().WithName("").WithStartFunctions())
	if err != nil {
		return nil, fmt.Errorf("instantiate: %w", err)
	}
	inst.mod = mod
	return inst, nil
}

func (m *module) Close() error {
	return m.rt.Close(context.Background())
}

type instance struct {
	ctx   context.Context
	mod   api.Module
	funcs map[string]wasmhost.HostFunc
}

func (i *instance) Func(name string, t wasmhost.FuncType) (wasmhost.Func, error) {
	f := i.mod.ExportedFunction(name)
	if f == nil {
		return nil, fmt.Errorf("no exported function %q", name)
	}
	def := f.Definition()
	if !sameTypes(def.ParamTypes(), t.Params) || !sameTypes(def.ResultTypes(), t.Results) {
		return nil, fmt.Errorf("exported function %q has type %v -> %v, want %v -> %v", name, def.ParamTypes(), def.ResultTypes(), t.Params, t.Results)
	}
	n := max(len(t.Params), len(t.Results), 1)
	return &fn{inst: i, name: name, f: f, stack: make([]uint64, n)}, nil
}

func sameTypes(a []api.ValueType, b []wasmhost.ValueType) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != api.ValueType(b[i]) {
			return false
		}
	}
	return true
}

func (i *instance) Memory() wasmhost.Memory { return memory{i.mod.Memory()} }

func (i *instance) Close() error { return i.mod.Close(context.Background()) }

type fn struct {
	inst  *instance
	name  string
	f     api.Function
	stack []uint64
	// busy says f is in a call. A wazero api.Function keeps its call state
	// (its own stack) and must not be re-entered: a call of the same export
	// from a host function inside f's call (QTS_Call from a getter that a
	// QTS_Call ran, say) would run on f's live stack and crash the process.
	// It goes to nested, an api.Function of its own, made once.
	busy   bool
	nested *fn
}

// Call reuses one stack per export to avoid an allocation per call.
func (f *fn) Call(args ...uint64) (uint64, error) {
	if f.busy {
		if f.nested == nil {
			f.nested = &fn{inst: f.inst, name: f.name, f: f.inst.mod.ExportedFunction(f.name), stack: make([]uint64, len(f.stack))}
		}
		return f.nested.Call(args...)
	}
	f.busy = true
	defer func() { f.busy = false }()
	stack := f.stack
	copy(stack, args)
	if err := f.f.CallWithStack(f.inst.ctx, stack); err != nil {
		return 0, errors.Join(wasmhost.ErrTrap, err)
	}
	if len(stack) == 0 {
		return 0, nil
	}
	return stack[0], nil
}

type memory struct{ m api.Memory }

func (m memory) Size() uint32 { return m.m.Size() }

func (m memory) Grow(delta uint32) (uint32, bool) { return m.m.Grow(delta) }

func (m memory) Read(off, n uint32) ([]byte, bool) {
	b, ok := m.m.Read(off, n)
	if !ok {
		return nil, false
	}
	return append([]byte(nil), b...), true
}

func (m memory) Write(off uint32, data []byte) bool { return m.m.Write(off, data) }

func (m memory) ReadUint32(off uint32) (uint32, bool) { return m.m.ReadUint32Le(off) }

func (m memory) WriteUint32(off, v uint32) bool { return m.m.WriteUint32Le(off, v) }

// Zero clears wazero's view of the bytes (Read returns the memory itself,
// not a copy).
func (m memory) Zero(off, n uint32) bool {
	b, ok := m.m.Read(off, n)
	if ok {
		clear(b)
	}
	return ok
}
