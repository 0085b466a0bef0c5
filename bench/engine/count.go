//go:build js && wasm

package main

// The "count" mode: a wasmhost.Backend wrapper that counts every crossing of
// the Go <-> JavaScript boundary the engine makes (export calls, import
// callbacks, memory accesses), and a micro-benchmark of what one crossing of
// each kind costs on the real backend. Counts times costs explain where a
// workload's time goes beyond QuickJS's own.

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"time"

	"github.com/interopio/code-mode/sandbox/wasmhost"
)

type countingBackend struct {
	inner   wasmhost.Backend
	exports map[string]int // by export role (QTS_*), or minified name
	imports map[string]int // by import role, or minified name
	memory  map[string]int // Read, Write, ReadUint32, WriteUint32, Grow
	roles   map[string]string
}

func (b *countingBackend) reset() {
	b.exports, b.imports, b.memory = map[string]int{}, map[string]int{}, map[string]int{}
	if b.roles == nil {
		b.roles = loadRoles()
	}
}

func (b *countingBackend) role(kind, name string) string {
	if r, ok := b.roles[kind+":"+name]; ok {
		return r
	}
	return name
}

func (b *countingBackend) snapshot() map[string]any {
	sum := func(m map[string]int) int {
		n := 0
		for _, v := range m {
			n += v
		}
		return n
	}
	return map[string]any{
		"exportCalls": sum(b.exports), "importCalls": sum(b.imports), "memoryOps": sum(b.memory),
		"exports": maps.Clone(b.exports), "imports": maps.Clone(b.imports), "memory": maps.Clone(b.memory),
	}
}

// loadRoles reads the generated name table (sandbox/internal/ffi is internal,
// so its Go values are out of reach; its source is not).
func loadRoles() map[string]string {
	root := os.Getenv("BENCH_ROOT")
	if root == "" {
		root = "."
	}
	src, err := os.ReadFile(filepath.Join(root, "sandbox/internal/ffi/names_gen.go"))
	roles := map[string]string{}
	if err != nil {
		return roles
	}
	section := regexp.MustCompile(`(?s)Imports: map\[string\]asset\{(.*?)\n\t\},.*Exports: map\[string\]asset\{(.*?)\n\t\},`).FindSubmatch(src)
	entry := regexp.MustCompile(`"([\w$]+)":\s*\{"([\w$]+)"`)
	if section == nil {
		return roles
	}
	for i, kind := range []string{"import", "export"} {
		for _, m := range entry.FindAllSubmatch(section[i+1], -1) {
			roles[kind+":"+string(m[2])] = string(m[1])
		}
	}
	return roles
}

func (b *countingBackend) Compile(wasm []byte) (wasmhost.Module, error) {
	if b.exports == nil {
		b.reset()
	}
	m, err := b.inner.Compile(wasm)
	if err != nil {
		return nil, err
	}
	return &countingModule{Module: m, b: b}, nil
}

type countingModule struct {
	wasmhost.Module
	b *countingBackend
}

func (m *countingModule) Instantiate(imports wasmhost.Imports) (wasmhost.Instance, error) {
	funcs := make(map[string]wasmhost.HostFunc, len(imports.Funcs))
	for name, f := range imports.Funcs {
		role, call := m.b.role("import", name), f.Call
		// Keep every other field (Poll: a backend may answer interrupt
		// polls without calling Go; those are then not counted).
		f.Call = func(args []uint64) uint64 {
			m.b.imports[role]++
			return call(args)
		}
		funcs[name] = f
	}
	imports.Funcs = funcs
	inst, err := m.Module.Instantiate(imports)
	if err != nil {
		return nil, err
	}
	return &countingInstance{Instance: inst, b: m.b}, nil
}

type countingInstance struct {
	wasmhost.Instance
	b *countingBackend
}

func (i *countingInstance) Func(name string, t wasmhost.FuncType) (wasmhost.Func, error) {
	f, err := i.Instance.Func(name, t)
	if err != nil {
		return nil, err
	}
	return &countingFunc{Func: f, b: i.b, role: i.b.role("export", name)}, nil
}

func (i *countingInstance) Memory() wasmhost.Memory {
	return &countingMemory{Memory: i.Instance.Memory(), b: i.b}
}

type countingFunc struct {
	wasmhost.Func
	b    *countingBackend
	role string
}

func (f *countingFunc) Call(args ...uint64) (uint64, error) {
	f.b.exports[f.role]++
	return f.Func.Call(args...)
}

type countingMemory struct {
	wasmhost.Memory
	b *countingBackend
}

func (m *countingMemory) Size() uint32 { m.b.memory["Size"]++; return m.Memory.Size() }
func (m *countingMemory) Grow(d uint32) (uint32, bool) {
	m.b.memory["Grow"]++
	return m.Memory.Grow(d)
}
func (m *countingMemory) Read(o, l uint32) ([]byte, bool) {
	m.b.memory["Read"]++
	return m.Memory.Read(o, l)
}
func (m *countingMemory) Write(o uint32, d []byte) bool {
	m.b.memory["Write"]++
	return m.Memory.Write(o, d)
}
func (m *countingMemory) ReadUint32(o uint32) (uint32, bool) {
	m.b.memory["ReadUint32"]++
	return m.Memory.ReadUint32(o)
}
func (m *countingMemory) WriteUint32(o, v uint32) bool {
	m.b.memory["WriteUint32"]++
	return m.Memory.WriteUint32(o, v)
}
func (m *countingMemory) Zero(o, l uint32) bool {
	m.b.memory["Zero"]++
	return m.Memory.Zero(o, l)
}

// probeWasm is a hand-assembled module: it imports memory a.a and a function
// a.f (i32)->i32, and exports nop (i32)->i32 (returns its argument) and
// loop (i32)->i32 (calls f n times).
var probeWasm = []byte{
	0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
	// type: (i32) -> i32
	0x01, 0x06, 0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f,
	// import a.a memory (min 1), a.f func 0
	0x02, 0x0e, 0x02,
	0x01, 'a', 0x01, 'a', 0x02, 0x00, 0x01,
	0x01, 'a', 0x01, 'f', 0x00, 0x00,
	// functions: nop, loop
	0x03, 0x03, 0x02, 0x00, 0x00,
	// exports
	0x07, 0x0e, 0x02,
	0x03, 'n', 'o', 'p', 0x00, 0x01,
	0x04, 'l', 'o', 'o', 'p', 0x00, 0x02,
	// code
	0x0a, 0x2a, 0x02,
	0x04, 0x00, 0x20, 0x00, 0x0b,
	0x23, 0x01, 0x01, 0x7f,
	0x02, 0x40, 0x03, 0x40,
	0x20, 0x00, 0x45, 0x0d, 0x01,
	0x20, 0x00, 0x10, 0x00, 0x20, 0x01, 0x6a, 0x21, 0x01,
	0x20, 0x00, 0x41, 0x01, 0x6b, 0x21, 0x00,
	0x0c, 0x00, 0x0b, 0x0b,
	0x20, 0x01, 0x0b,
}

// crossingCosts measures, in nanoseconds, one export call (Go -> JS ->
// wasm), one import callback (wasm -> JS -> Go), and one 4-byte memory read
// and write, on the real backend.
func crossingCosts(backend wasmhost.Backend) map[string]any {
	out := map[string]any{}
	mod, err := backend.Compile(probeWasm)
	if err != nil {
		out["error"] = err.Error()
		return out
	}
	defer mod.Close()
	inst, err := mod.Instantiate(wasmhost.Imports{
		Module: "a",
		Funcs: map[string]wasmhost.HostFunc{"f": {
			Type: wasmhost.FuncType{Params: []wasmhost.ValueType{wasmhost.I32}, Results: []wasmhost.ValueType{wasmhost.I32}},
			Call: func(a []uint64) uint64 { return a[0] & 1 },
		}},
		Memory: wasmhost.MemorySpec{Name: "a", MinPages: 1, MaxPages: 1},
	})
	if err != nil {
		out["error"] = err.Error()
		return out
	}
	defer inst.Close()
	t := wasmhost.FuncType{Params: []wasmhost.ValueType{wasmhost.I32}, Results: []wasmhost.ValueType{wasmhost.I32}}
	nop, err1 := inst.Func("nop", t)
	loop, err2 := inst.Func("loop", t)
	if err1 != nil || err2 != nil {
		out["error"] = "probe exports missing"
		return out
	}
	mem := inst.Memory()
	const n = 200000
	best := func(f func()) float64 {
		var s []float64
		for r := 0; r < 7; r++ {
			t0 := time.Now()
			f()
			s = append(s, float64(time.Since(t0).Nanoseconds())/n)
		}
		sort.Float64s(s)
		return s[len(s)/2]
	}
	out["exportCallNs"] = best(func() {
		for i := 0; i < n; i++ {
			nop.Call(uint64(i))
		}
	})
	out["importCallNs"] = best(func() { loop.Call(n) })
	out["readUint32Ns"] = best(func() {
		for i := 0; i < n; i++ {
			mem.ReadUint32(uint32(i%1000) * 4)
		}
	})
	out["writeUint32Ns"] = best(func() {
		for i := 0; i < n; i++ {
			mem.WriteUint32(uint32(i%1000)*4, uint32(i))
		}
	})
	out["read64BytesNs"] = best(func() {
		for i := 0; i < n; i++ {
			mem.Read(uint32(i%1000)*4, 64)
		}
	})
	out["timeNowNs"] = best(func() {
		for i := 0; i < n; i++ {
			time.Now()
		}
	})
	return out
}
