//go:build js && wasm

package jsbridge

import (
	"syscall/js"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox/wasmhost"
)

// benchInstance has one import of each path: env.id (i32 -> i32, a plain
// js.FuncOf) and env.sink (i32 -> nothing, a throwing function), and
// exports that call them.
func benchInstance(b *testing.B) (wasmhost.Instance, map[string]wasmhost.Func) {
	m := &wmodule{}
	m.importMemory("env", "mem", 1, 1)
	fID := m.importFunc("env", "id", one32, one32)
	fSink := m.importFunc("env", "sink", one32, none)
	fI64 := m.importFunc("env", "i64", one64, none)
	m.fn("add", two32, one32, code(localGet(0), localGet(1), []byte{opI32Add})...)
	m.fn("nop", none, none)
	m.fn("callID", one32, one32, code(localGet(0), call(fID))...)
	m.fn("callSink", one32, none, code(localGet(0), call(fSink))...)
	m.fn("callI64", one64, none, code(localGet(0), call(fI64))...)
	mod, err := Backend().Compile(m.bytes())
	if err != nil {
		b.Fatal(err)
	}
	inst, err := mod.Instantiate(wasmhost.Imports{
		Module: "env",
		Funcs: map[string]wasmhost.HostFunc{
			"id":   {Type: ft(one32, one32), Call: func(a []uint64) uint64 { return a[0] }},
			"sink": {Type: ft(one32, none), Call: func([]uint64) uint64 { return 0 }},
			"i64":  {Type: ft(one64, none), Call: func([]uint64) uint64 { return 0 }},
		},
		Memory: wasmhost.MemorySpec{Name: "mem", MinPages: 1, MaxPages: 1},
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { inst.Close() })
	fs := map[string]wasmhost.Func{}
	for name, t := range map[string]wasmhost.FuncType{
		"add": ft(two32, one32), "nop": ft(none, none), "callID": ft(one32, one32),
		"callSink": ft(one32, none), "callI64": ft(one64, none),
	} {
		f, err := inst.Func(name, t)
		if err != nil {
			b.Fatal(err)
		}
		fs[name] = f
	}
	return inst, fs
}

func benchCall(b *testing.B, name string, args ...uint64) {
	_, fs := benchInstance(b)
	f := fs[name]
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.Call(args...); err != nil {
			b.Fatal(err)
		}
	}
}

// Export call, no import.
func BenchmarkExportNop(b *testing.B) { benchCall(b, "nop") }
func BenchmarkExportAdd(b *testing.B) { benchCall(b, "add", 1000, 2000) }

// Export that calls a value-returning host import (js.FuncOf path).
func BenchmarkImportRoundTrip(b *testing.B) { benchCall(b, "callID", 1000) }

// Export that calls a void host import (throwing-function path).
func BenchmarkImportVoidRoundTrip(b *testing.B) { benchCall(b, "callSink", 1000) }

// Export that calls a host import with an i64 parameter (BigInt to text).
func BenchmarkImportI64RoundTrip(b *testing.B) { benchCall(b, "callI64", 1<<40) }

func BenchmarkMemoryReadUint32(b *testing.B) {
	inst, _ := benchInstance(b)
	m := inst.Memory()
	b.ReportAllocs()
	for b.Loop() {
		m.ReadUint32(1000)
	}
}

func BenchmarkMemoryWriteUint32(b *testing.B) {
	inst, _ := benchInstance(b)
	m := inst.Memory()
	b.ReportAllocs()
	for b.Loop() {
		m.WriteUint32(1000, 123456)
	}
}

func BenchmarkMemoryRead64(b *testing.B) {
	inst, _ := benchInstance(b)
	m := inst.Memory()
	b.ReportAllocs()
	for b.Loop() {
		m.Read(1000, 64)
	}
}

func BenchmarkMemoryWrite64(b *testing.B) {
	inst, _ := benchInstance(b)
	m := inst.Memory()
	data := make([]byte, 64)
	b.ReportAllocs()
	for b.Loop() {
		m.Write(1000, data)
	}
}

// Memory read after every export call: the view is rechecked each time.
func BenchmarkMemoryReadUint32AfterCall(b *testing.B) {
	inst, fs := benchInstance(b)
	m, nop := inst.Memory(), fs["nop"]
	b.ReportAllocs()
	for b.Loop() {
		nop.Call()
		m.ReadUint32(1000)
	}
}

// A JavaScript call of a Func (the throwing function) and, for
// comparison, of a plain js.FuncOf.
func BenchmarkFuncCall(b *testing.B) {
	f := Func(func(_ js.Value, args []js.Value) any { return args[0] })
	defer f.Release()
	b.ReportAllocs()
	for b.Loop() {
		f.Invoke(1)
	}
}

func BenchmarkPlainFuncOfCall(b *testing.B) {
	f := js.FuncOf(func(_ js.Value, args []js.Value) any { return args[0] })
	defer f.Release()
	b.ReportAllocs()
	for b.Loop() {
		f.Invoke(1)
	}
}

// NewPromise and Await of it: one goroutine hop and one microtask turn.
func BenchmarkNewPromiseAwait(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Await(NewPromise(func() (js.Value, error) { return js.ValueOf(1), nil })); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkToJSONSmall(b *testing.B) {
	v, _ := FromJSON([]byte(`{"a":1,"b":[true,null,"x"],"c":{"d":2.5}}`))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ToJSON(v); err != nil {
			b.Fatal(err)
		}
	}
}

// An interrupt poll answered in WebAssembly (Date.now, no Go).
func BenchmarkImportPoll(b *testing.B) {
	m := &wmodule{}
	fPoll := m.importFunc("env", "poll", one32, one32)
	m.fn("poll", one32, one32, code(localGet(0), call(fPoll))...)
	mod, err := Backend().Compile(m.bytes())
	if err != nil {
		b.Fatal(err)
	}
	var p wasmhost.Poll
	p.Set(time.Now().Add(time.Hour), false, time.Time{})
	inst, err := mod.Instantiate(wasmhost.Imports{Module: "env", Funcs: map[string]wasmhost.HostFunc{
		"poll": {Type: ft(one32, one32), Call: func([]uint64) uint64 { panic("called Go") }, Poll: &p},
	}})
	if err != nil {
		b.Fatal(err)
	}
	defer inst.Close()
	f, _ := inst.Func("poll", ft(one32, one32))
	b.ReportAllocs()
	for b.Loop() {
		f.Call(1)
	}
}
