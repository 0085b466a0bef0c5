//go:build js && wasm

package jsbridge

import (
	"errors"
	"math"
	"slices"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"github.com/interopio/code-mode/sandbox/wasmhost"
)

func ft(params, results []vt) wasmhost.FuncType {
	return wasmhost.FuncType{Params: params, Results: results}
}

var (
	none   = []vt{}
	one32  = []vt{i32}
	two32  = []vt{i32, i32}
	one64  = []vt{i64}
	oneF64 = []vt{f64}
	oneF32 = []vt{f32}
	mixed  = []vt{i32, i64, f64, i32}
)

var errBoom = errors.New("boom sentinel")

// kitchen is a test module that imports env.mem (1 to 4 pages) and a set of
// host functions, and exports functions exercising each of them.
type kitchen struct {
	t    *testing.T
	inst wasmhost.Instance
	mem  wasmhost.Memory

	gotI64   uint64
	void2    [2]uint64
	void2Mem uint32 // memory size seen inside void2
	mixed    [4]uint64
	reenter  func(x uint32) uint32
}

// kitchenModule describes the imports and exports of the kitchen module.
var kitchenModule = func() []byte {
	m := &wmodule{}
	m.importMemory("env", "mem", 1, 4)
	fI64 := m.importFunc("env", "i64", one64, one64)
	fF64 := m.importFunc("env", "f64", oneF64, oneF64)
	fF32 := m.importFunc("env", "f32", oneF32, oneF32)
	fRe := m.importFunc("env", "reenter", one32, one32)
	fBoom := m.importFunc("env", "boom", none, none)
	fBoomR := m.importFunc("env", "boomr", none, one32)
	fVoid2 := m.importFunc("env", "void2", two32, none)
	fMixed := m.importFunc("env", "mixed", mixed, one32)
	fBoomI64 := m.importFunc("env", "boomi64", one64, one64)
	fNegZero := m.importFunc("env", "negzero", none, oneF64)

	m.fn("add", two32, one32, code(localGet(0), localGet(1), []byte{opI32Add})...)
	m.fn("callI64", one64, one64, code(localGet(0), call(fI64))...)
	m.fn("callF64", oneF64, oneF64, code(localGet(0), call(fF64))...)
	m.fn("callF32", oneF32, oneF32, code(localGet(0), call(fF32))...)
	m.fn("double", one32, one32, code(localGet(0), localGet(0), []byte{opI32Add})...)
	m.fn("outer", one32, one32, code(localGet(0), call(fRe), i32Const(1), []byte{opI32Add})...)
	m.fn("trap", none, none, opUnreachable)
	m.fn("callBoom", none, none, call(fBoom)...)
	m.fn("callBoomR", none, one32, call(fBoomR)...)
	m.fn("callVoid2", two32, none, code(localGet(0), localGet(1), call(fVoid2))...)
	m.fn("callMixed", mixed, one32, code(localGet(0), localGet(1), localGet(2), localGet(3), call(fMixed))...)
	m.fn("callBoomI64", one64, one64, code(localGet(0), call(fBoomI64))...)
	m.fn("grow", one32, one32, code(localGet(0), []byte{opMemoryGrow, 0})...)
	m.fn("size", none, one32, opMemorySize, 0)
	m.fn("load", one32, one32, code(localGet(0), []byte{opI32Load, 2, 0})...)
	m.fn("store", two32, none, code(localGet(0), localGet(1), []byte{opI32Store, 2, 0})...)
	m.fn("idI64", one64, one64, localGet(0)...)
	m.fn("storeF64", []vt{i32, f64}, none, code(localGet(0), localGet(1), []byte{opF64Store, 3, 0})...)
	m.fn("storeNegZero", one32, none, code(localGet(0), call(fNegZero), []byte{opF64Store, 3, 0})...)
	// growThenReport grows memory by its argument in WebAssembly, then calls
	// void2, whose Go side reads the memory size.
	m.fn("growThenReport", one32, none, code(localGet(0), []byte{opMemoryGrow, 0, opDrop}, i32Const(7), i32Const(8), call(fVoid2))...)
	return m.bytes()
}()

func newKitchen(t *testing.T) *kitchen {
	t.Helper()
	mod, err := Backend().Compile(kitchenModule)
	if err != nil {
		t.Fatal(err)
	}
	k := &kitchen{t: t}
	k.reenter = func(x uint32) uint32 { return uint32(k.call("double", uint64(x))) }
	funcs := map[string]wasmhost.HostFunc{
		"i64": {Type: ft(one64, one64), Call: func(a []uint64) uint64 { k.gotI64 = a[0]; return a[0] + 1 }},
		"f64": {Type: ft(oneF64, oneF64), Call: func(a []uint64) uint64 {
			return math.Float64bits(math.Float64frombits(a[0]) * 2)
		}},
		"f32": {Type: ft(oneF32, oneF32), Call: func(a []uint64) uint64 {
			return uint64(math.Float32bits(math.Float32frombits(uint32(a[0])) * 2))
		}},
		"reenter": {Type: ft(one32, one32), Call: func(a []uint64) uint64 { return uint64(k.reenter(uint32(a[0]))) }},
		"boom":    {Type: ft(none, none), Call: func([]uint64) uint64 { panic(errBoom) }},
		"boomr":   {Type: ft(none, one32), Call: func([]uint64) uint64 { panic("boom-r string") }},
		"void2": {Type: ft(two32, none), Call: func(a []uint64) uint64 {
			k.void2 = [2]uint64{a[0], a[1]}
			k.void2Mem = k.mem.Size()
			return 0
		}},
		"mixed": {Type: ft(mixed, one32), Call: func(a []uint64) uint64 {
			copy(k.mixed[:], a)
			return a[0] + a[3]
		}},
		"boomi64": {Type: ft(one64, one64), Call: func([]uint64) uint64 { panic("boom-i64") }},
		"negzero": {Type: ft(none, oneF64), Call: func([]uint64) uint64 { return math.Float64bits(math.Copysign(0, -1)) }},
	}
	inst, err := mod.Instantiate(wasmhost.Imports{
		Module: "env",
		Funcs:  funcs,
		Memory: wasmhost.MemorySpec{Name: "mem", MinPages: 1, MaxPages: 4},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inst.Close() })
	k.inst, k.mem = inst, inst.Memory()
	return k
}

var kitchenTypes = map[string]wasmhost.FuncType{
	"add": ft(two32, one32), "callI64": ft(one64, one64), "callF64": ft(oneF64, oneF64),
	"callF32": ft(oneF32, oneF32), "double": ft(one32, one32), "outer": ft(one32, one32),
	"trap": ft(none, none), "callBoom": ft(none, none), "callBoomR": ft(none, one32),
	"callVoid2": ft(two32, none), "callMixed": ft(mixed, one32), "callBoomI64": ft(one64, one64),
	"grow": ft(one32, one32), "size": ft(none, one32), "load": ft(one32, one32),
	"store": ft(two32, none), "idI64": ft(one64, one64), "growThenReport": ft(one32, none),
	"storeF64": ft([]vt{i32, f64}, none), "storeNegZero": ft(one32, none),
}

func (k *kitchen) fn(name string) wasmhost.Func {
	k.t.Helper()
	f, err := k.inst.Func(name, kitchenTypes[name])
	if err != nil {
		k.t.Fatal(err)
	}
	return f
}

func (k *kitchen) try(name string, args ...uint64) (uint64, error) {
	return k.fn(name).Call(args...)
}

func (k *kitchen) call(name string, args ...uint64) uint64 {
	k.t.Helper()
	r, err := k.try(name, args...)
	if err != nil {
		k.t.Fatalf("%s%v: %v", name, args, err)
	}
	return r
}

func TestAddI32(t *testing.T) {
	k := newKitchen(t)
	for _, tc := range []struct{ a, b, want uint64 }{
		{1, 2, 3},
		{0xffffffff, 1, 0},                   // -1 + 1
		{0x7fffffff, 1, 0x80000000},          // overflow into the sign bit
		{0x80000000, 0x80000000, 0},          // wraps
		{0xfffffffe, 0xffffffff, 0xfffffffd}, // -2 + -1
	} {
		if got := k.call("add", tc.a, tc.b); got != tc.want {
			t.Errorf("add(%#x, %#x) = %#x, want %#x", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestI64(t *testing.T) {
	k := newKitchen(t)
	for _, v := range []int64{0, 1, -1, 1<<53 + 1, -(1<<53 + 1), math.MaxInt64, math.MinInt64, 0x123456789abcdef} {
		u := uint64(v)
		if got := k.call("idI64", u); got != u {
			t.Errorf("idI64(%d) = %d", v, int64(got))
		}
		if got := k.call("callI64", u); got != u+1 || k.gotI64 != u {
			t.Errorf("callI64(%d) = %d, host saw %d; want %d and %d", v, int64(got), int64(k.gotI64), int64(u+1), v)
		}
	}
}

func TestFloats(t *testing.T) {
	k := newKitchen(t)
	for _, v := range []float64{0, 1.5, -2.25, math.Pi, math.MaxFloat64 / 4, math.SmallestNonzeroFloat64, math.Inf(-1)} {
		if got := math.Float64frombits(k.call("callF64", math.Float64bits(v))); got != v*2 {
			t.Errorf("callF64(%v) = %v, want %v", v, got, v*2)
		}
	}
	if got := math.Float64frombits(k.call("callF64", math.Float64bits(math.NaN()))); !math.IsNaN(got) {
		t.Errorf("callF64(NaN) = %v", got)
	}
	// -0 into WebAssembly keeps its sign, as an argument and as the result
	// of a host import (coming out, syscall/js makes it +0).
	negZero := math.Float64bits(math.Copysign(0, -1))
	k.call("storeF64", 64, negZero)
	k.call("storeNegZero", 72)
	for _, off := range []uint32{64, 72} {
		if b, _ := k.mem.Read(off, 8); string(b) != "\x00\x00\x00\x00\x00\x00\x00\x80" {
			t.Errorf("-0 stored at %d as %x", off, b)
		}
	}
	for _, v := range []float32{0, 1.5, -3.25, math.MaxFloat32 / 4} {
		if got := math.Float32frombits(uint32(k.call("callF32", uint64(math.Float32bits(v))))); got != v*2 {
			t.Errorf("callF32(%v) = %v, want %v", v, got, v*2)
		}
	}
}

func TestMixedAndVoidImports(t *testing.T) {
	k := newKitchen(t)
	k.call("callVoid2", 0xffffffff, 42)
	if k.void2 != [2]uint64{0xffffffff, 42} {
		t.Errorf("void2 saw %#x", k.void2)
	}
	minPlus5 := int64(math.MinInt64 + 5)
	got := k.call("callMixed", 0xfffffffe, uint64(minPlus5), math.Float64bits(-1.5), 3)
	want := [4]uint64{0xfffffffe, uint64(minPlus5), math.Float64bits(-1.5), 3}
	if k.mixed != want || got != 1 {
		t.Errorf("mixed saw %#x and returned %d; want %#x and 1", k.mixed, got, want)
	}
}

func TestReentrantImport(t *testing.T) {
	k := newKitchen(t)
	if got := k.call("outer", 20); got != 41 {
		t.Errorf("outer(20) = %d, want 41", got)
	}
	// A trap in a nested call is returned to the host function, which goes
	// on; the outer call is unaffected.
	var inner error
	k.reenter = func(x uint32) uint32 {
		_, inner = k.try("callBoom")
		return x
	}
	if got := k.call("outer", 5); got != 6 {
		t.Errorf("outer(5) with a failing nested call = %d, want 6", got)
	}
	if !errors.Is(inner, wasmhost.ErrTrap) || !errors.Is(inner, errBoom) {
		t.Errorf("nested call error = %v", inner)
	}
	// A panic that carries the nested trap traps the outer call too.
	k.reenter = func(uint32) uint32 {
		if _, err := k.try("trap"); err != nil {
			panic(err)
		}
		return 0
	}
	_, err := k.try("outer", 1)
	if !errors.Is(err, wasmhost.ErrTrap) || !strings.Contains(err.Error(), "unreachable") || !strings.Contains(err.Error(), "env.reenter") {
		t.Errorf("outer with a panicking nested trap: %v", err)
	}
}

func TestTraps(t *testing.T) {
	k := newKitchen(t)
	for _, tc := range []struct {
		name   string
		args   []uint64
		want   string
		target error
	}{
		{"trap", nil, "unreachable", nil},
		{"callBoom", nil, "host function env.boom panicked: boom sentinel", errBoom},
		{"callBoomR", nil, "host function env.boomr panicked: boom-r string", nil},
		{"callBoomI64", []uint64{7}, "host function env.boomi64 panicked: boom-i64", nil},
		{"load", []uint64{1 << 20}, "out of bounds", nil},
	} {
		_, err := k.try(tc.name, tc.args...)
		if !errors.Is(err, wasmhost.ErrTrap) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want ErrTrap mentioning %q", tc.name, err, tc.want)
		}
		if tc.target != nil && !errors.Is(err, tc.target) {
			t.Errorf("%s: err = %v does not wrap %v", tc.name, err, tc.target)
		}
		// The Go program and the instance are still usable.
		if got := k.call("add", 2, 3); got != 5 {
			t.Fatalf("after %s: add = %d", tc.name, got)
		}
	}
	if p := k.inst.(*instance).pending; p != nil {
		t.Errorf("pending error left behind: %v", p)
	}
}

func TestMemory(t *testing.T) {
	k := newKitchen(t)
	m := k.mem
	if m.Size() != wasmhost.PageSize {
		t.Fatalf("Size = %d", m.Size())
	}
	if !m.WriteUint32(16, 0xdeadbeef) || k.call("load", 16) != 0xdeadbeef {
		t.Error("WriteUint32 not seen by i32.load")
	}
	k.call("store", 32, 0x01020304)
	if v, ok := m.ReadUint32(32); !ok || v != 0x01020304 {
		t.Errorf("ReadUint32 = %#x, %v", v, ok)
	}
	if b, ok := m.Read(32, 4); !ok || string(b) != "\x04\x03\x02\x01" {
		t.Errorf("Read = %x, %v", b, ok)
	}
	if !m.Write(100, []byte("hello")) {
		t.Fatal("Write failed")
	}
	if b, _ := m.Read(100, 5); string(b) != "hello" {
		t.Errorf("Read after Write = %q", b)
	}

	// Grow from Go within the maximum, then beyond it.
	if prev, ok := m.Grow(1); !ok || prev != 1 || m.Size() != 2*wasmhost.PageSize {
		t.Fatalf("Grow(1) = %d, %v; size %d", prev, ok, m.Size())
	}
	if b, _ := m.Read(100, 5); string(b) != "hello" {
		t.Errorf("Read after Grow = %q", b)
	}
	if _, ok := m.Grow(3); ok {
		t.Error("Grow past the maximum succeeded")
	}
	if prev, ok := m.Grow(0); !ok || prev != 2 {
		t.Errorf("Grow(0) = %d, %v", prev, ok)
	}

	// Grow from WebAssembly: the cached view is stale and must be remade.
	if prev := k.call("grow", 1); prev != 2 {
		t.Fatalf("memory.grow(1) = %d", prev)
	}
	if m.Size() != 3*wasmhost.PageSize {
		t.Fatalf("Size after memory.grow = %d", m.Size())
	}
	top := uint32(3*wasmhost.PageSize - 4)
	if !m.WriteUint32(top, 0xcafef00d) || k.call("load", uint64(top)) != 0xcafef00d {
		t.Error("write to the grown page not seen by WebAssembly")
	}
	if !m.Write(top-4, []byte{1, 2, 3, 4}) {
		t.Error("Write to the grown page failed")
	}
	if b, ok := m.Read(top-4, 8); !ok || string(b) != "\x01\x02\x03\x04\x0d\xf0\xfe\xca" {
		t.Errorf("Read of the grown page = %x, %v", b, ok)
	}
	// Zero fills through the view of the grown memory; WebAssembly sees it.
	if !m.Zero(top-2, 4) || k.call("load", uint64(top)) != 0xcafe0000 {
		t.Error("Zero of the grown page not seen by i32.load")
	}
	if b, _ := m.Read(top-4, 4); string(b) != "\x01\x02\x00\x00" {
		t.Errorf("Zero touched bytes before its offset: %x", b)
	}
	if got := int32(k.call("grow", 2)); got != -1 {
		t.Errorf("memory.grow past the maximum = %d, want -1", got)
	}
	// Growth by WebAssembly seen inside a host import.
	k.call("growThenReport", 1)
	if k.void2Mem != 4*wasmhost.PageSize || k.void2 != [2]uint64{7, 8} {
		t.Errorf("host import saw size %d (args %v), want %d", k.void2Mem, k.void2, 4*wasmhost.PageSize)
	}

	// Bounds.
	size := m.Size()
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"Read(size-2, 4)", func() bool { _, ok := m.Read(size-2, 4); return ok }()},
		{"Read(size+1, 0)", func() bool { _, ok := m.Read(size+1, 0); return ok }()},
		{"Read(MaxUint32, 2)", func() bool { _, ok := m.Read(math.MaxUint32, 2); return ok }()},
		{"Write(size-1, 2 bytes)", m.Write(size-1, []byte{1, 2})},
		{"Write(MaxUint32, 1 byte)", m.Write(math.MaxUint32, []byte{1})},
		{"ReadUint32(size-3)", func() bool { _, ok := m.ReadUint32(size - 3); return ok }()},
		{"WriteUint32(size-3)", m.WriteUint32(size-3, 1)},
		{"Zero(size-1, 2)", m.Zero(size-1, 2)},
		{"Zero(MaxUint32, 1)", m.Zero(math.MaxUint32, 1)},
	} {
		if tc.ok {
			t.Errorf("%s succeeded", tc.name)
		}
	}
	if b, ok := m.Read(size, 0); !ok || len(b) != 0 {
		t.Errorf("Read(size, 0) = %v, %v", b, ok)
	}
	if !m.Write(size, nil) {
		t.Error("Write(size, nil) failed")
	}
	if _, ok := m.ReadUint32(size - 4); !ok {
		t.Error("ReadUint32(size-4) failed")
	}
}

func TestCompileErrors(t *testing.T) {
	valid := kitchenModule
	for _, tc := range []struct {
		name string
		wasm []byte
	}{
		{"empty", nil},
		{"garbage", []byte("<html>404 Not Found</html>")},
		{"truncated", valid[:len(valid)/2]},
		{"bad version", []byte{0, 'a', 's', 'm', 2, 0, 0, 0}},
	} {
		_, err := Backend().Compile(tc.wasm)
		if err == nil || !strings.Contains(err.Error(), "CompileError") {
			t.Errorf("%s: err = %v, want a CompileError", tc.name, err)
		}
		var je *Error
		if !errors.As(err, &je) || je.Name != "CompileError" {
			t.Errorf("%s: err = %v does not wrap the JavaScript CompileError", tc.name, err)
		}
		if _, err := CompileAsync(tc.wasm); err == nil || !strings.Contains(err.Error(), "CompileError") {
			t.Errorf("%s: CompileAsync err = %v", tc.name, err)
		}
	}
}

func TestInstantiateErrors(t *testing.T) {
	mod, err := Backend().Compile(kitchenModule)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		imp  wasmhost.Imports
		want string
	}{
		{"no imports", wasmhost.Imports{Module: "env"}, "LinkError"},
		{"max below min", wasmhost.Imports{Module: "env", Memory: wasmhost.MemorySpec{Name: "mem", MinPages: 2, MaxPages: 1}}, "RangeError"},
		{"memory too small", wasmhost.Imports{Module: "env", Memory: wasmhost.MemorySpec{Name: "mem", MinPages: 0, MaxPages: 1}}, "LinkError"},
	} {
		if _, err := mod.Instantiate(tc.imp); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %s", tc.name, err, tc.want)
		}
	}
	mod.Close()
	if _, err := mod.Instantiate(wasmhost.Imports{}); err == nil {
		t.Error("Instantiate after Close succeeded")
	}
}

func TestImportsExports(t *testing.T) {
	mod, err := Backend().Compile(kitchenModule)
	if err != nil {
		t.Fatal(err)
	}
	imps := mod.Imports()
	if len(imps) != 11 || imps[0] != (wasmhost.ExternDesc{Module: "env", Name: "mem", Kind: wasmhost.KindMemory}) ||
		imps[1] != (wasmhost.ExternDesc{Module: "env", Name: "i64", Kind: wasmhost.KindFunc}) {
		t.Errorf("Imports = %+v", imps)
	}
	exps := mod.Exports()
	if len(exps) != len(kitchenTypes) || exps[0] != (wasmhost.ExternDesc{Name: "add", Kind: wasmhost.KindFunc}) {
		t.Errorf("Exports = %+v", exps)
	}
}

func TestFuncLookup(t *testing.T) {
	k := newKitchen(t)
	if _, err := k.inst.Func("nope", ft(none, none)); err == nil {
		t.Error("Func of a missing export succeeded")
	}
	if _, err := k.inst.Func("add", ft(one32, one32)); err == nil {
		t.Error("Func with the wrong parameter count succeeded")
	}
	f := k.fn("add")
	if _, err := f.Call(1); err == nil {
		t.Error("Call with too few arguments succeeded")
	}
}

func TestClose(t *testing.T) {
	k := newKitchen(t)
	add := k.fn("add")
	inst := k.inst.(*instance)
	// Each import is a js.Func to release or a fast import's slot to free.
	if n := len(inst.releasers) + inst.fastN; n != 10 {
		t.Errorf("%d host functions to release, want 10", n)
	}
	if err := k.inst.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := add.Call(1, 2); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("Call after Close: %v", err)
	}
	if _, err := k.inst.Func("add", kitchenTypes["add"]); err == nil {
		t.Error("Func after Close succeeded")
	}
	if k.mem.Size() != 0 || k.mem.Write(0, []byte{1}) {
		t.Error("memory still usable after Close")
	}
	if _, ok := k.mem.Grow(1); ok {
		t.Error("Grow after Close succeeded")
	}
	if inst.releasers != nil || inst.fastN != 0 {
		t.Error("host functions not released")
	}
	if err := k.inst.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestOwnMemoryAndNoMemory(t *testing.T) {
	m := &wmodule{memory: &[2]uint32{2, 3}}
	m.fn("size", none, one32, opMemorySize, 0)
	m.exports = append(m.exports, wexport{"memory", 2, 0})
	mod, err := Backend().Compile(m.bytes())
	if err != nil {
		t.Fatal(err)
	}
	inst, err := mod.Instantiate(wasmhost.Imports{})
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Close()
	if mem := inst.Memory(); mem == nil || mem.Size() != 2*wasmhost.PageSize {
		t.Fatalf("exported memory: %v", mem)
	}
	if _, ok := inst.Memory().Grow(2); ok {
		t.Error("exported memory grew past its maximum")
	}

	n := &wmodule{}
	n.fn("f", none, none)
	mod, err = Backend().Compile(n.bytes())
	if err != nil {
		t.Fatal(err)
	}
	inst2, err := mod.Instantiate(wasmhost.Imports{})
	if err != nil {
		t.Fatal(err)
	}
	defer inst2.Close()
	if inst2.Memory() != nil {
		t.Error("Memory of a module without memory is not nil")
	}
}

func TestModuleFromJS(t *testing.T) {
	m := &wmodule{}
	m.fn("add", two32, one32, code(localGet(0), localGet(1), []byte{opI32Add})...)
	jsMod := webAssembly.Get("Module").New(bytesToJS(m.bytes()))
	inst, err := ModuleFromJS(jsMod).Instantiate(wasmhost.Imports{})
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Close()
	f, err := inst.Func("add", ft(two32, one32))
	if err != nil {
		t.Fatal(err)
	}
	if r, err := f.Call(40, 2); err != nil || r != 42 {
		t.Errorf("add = %d, %v", r, err)
	}

	bad := ModuleFromJS(js.ValueOf(3))
	if bad.Imports() != nil || bad.Exports() != nil {
		t.Error("Imports/Exports of a non-module are not nil")
	}
	if _, err := bad.Instantiate(wasmhost.Imports{}); err == nil || !strings.Contains(err.Error(), "TypeError") {
		t.Errorf("Instantiate of a non-module: %v", err)
	}

	mod, err := CompileAsync(m.bytes())
	if err != nil {
		t.Fatal(err)
	}
	if got := mod.Exports(); len(got) != 1 || got[0].Name != "add" {
		t.Errorf("CompileAsync module exports %v", got)
	}
}

// TestMemoryCopyPaths checks Read and Write on both paths (DataView words
// up to smallCopy bytes, a subarray beyond) at every small size and
// alignment, against each other and at the end of memory.
func TestMemoryCopyPaths(t *testing.T) {
	k := newKitchen(t)
	m := k.mem
	size := m.Size()
	pattern := func(n int, seed byte) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = seed + byte(i*7)
		}
		return b
	}
	for n := 0; n <= int(smallCopy)+9; n++ {
		for _, off := range []uint32{1000, 1001, 1002, 1003, size - uint32(n)} {
			// Surround the target with a known background, written and read
			// through the subarray path.
			bgOff := min(off-8, size-uint32(n)-16)
			bg := pattern(n+16, 0xa0)
			if !m.Write(bgOff, bg) {
				t.Fatalf("background write at %d", bgOff)
			}
			want := append([]byte(nil), bg...)
			data := pattern(n, byte(n))
			copy(want[off-bgOff:], data)
			if !m.Write(off, data) {
				t.Fatalf("Write(%d, %d bytes) failed", off, n)
			}
			if got, ok := m.Read(off, uint32(n)); !ok || string(got) != string(data) {
				t.Fatalf("Read(%d, %d) = %x, want %x", off, n, got, data)
			}
			if got, _ := m.Read(bgOff, uint32(len(bg))); string(got) != string(want) {
				t.Fatalf("after Write(%d, %d bytes): memory around it is %x, want %x", off, n, got, want)
			}
		}
	}
	if _, ok := m.Read(size-3, 4); ok {
		t.Error("small Read past the end succeeded")
	}
	if m.Write(size-3, []byte{1, 2, 3, 4}) {
		t.Error("small Write past the end succeeded")
	}
}

// TestPollNamesItsOwner: the poll hands its clock the run it is for
// (wasmhost.PollState.Owner), which the worker's clock names to its page;
// a Set of the deadline keeps it, and a compiling owner (negative) is the
// run's after the interpreter's first poll.
func TestPollNamesItsOwner(t *testing.T) {
	m := &wmodule{}
	fPoll := m.importFunc("env", "poll", one32, one32)
	m.fn("poll", one32, one32, code(localGet(0), call(fPoll))...)
	mod, err := Backend().Compile(m.bytes())
	if err != nil {
		t.Fatal(err)
	}
	date := js.Global().Get("Date")
	realNow := date.Get("now")
	var owners []float64
	record := js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) == 0 {
			owners = append(owners, -1)
		} else {
			owners = append(owners, args[0].Float())
		}
		return realNow.Call("call", date)
	})
	defer record.Release()
	date.Set("now", record)
	var p wasmhost.Poll
	inst, err := mod.Instantiate(wasmhost.Imports{Module: "env", Funcs: map[string]wasmhost.HostFunc{
		"poll": {Type: ft(one32, one32), Call: func([]uint64) uint64 { panic("called Go") }, Poll: &p},
	}})
	date.Set("now", realNow)
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Close()
	poll, _ := inst.Func("poll", ft(one32, one32))
	p.Set(time.Now().Add(time.Hour), false, time.Now().Add(time.Hour))
	p.SetOwner(7)
	_, _ = poll.Call(1)
	_, _ = poll.Call(0) // a loop check
	p.Set(time.Now().Add(time.Hour), true, time.Now().Add(time.Hour))
	_, _ = poll.Call(0)
	p.SetOwner(9)
	_, _ = poll.Call(0)
	// A compiling owner (a script's compile, sandbox/run.go): the loop
	// checks name it so, and the interpreter's first poll (the script's
	// first step) too, after which the polls name the run.
	p.Set(time.Now().Add(time.Hour), false, time.Now().Add(time.Hour))
	p.SetOwner(-5)
	_, _ = poll.Call(0)
	_, _ = poll.Call(1)
	_, _ = poll.Call(0)
	_, _ = poll.Call(1)
	if want := []float64{7, 7, 7, 9, -5, -5, 5, 5}; !slices.Equal(owners, want) {
		t.Errorf("the clock was asked for owners %v, want %v", owners, want)
	}
}

func TestPoll(t *testing.T) {
	m := &wmodule{}
	fPoll := m.importFunc("env", "poll", one32, one32)
	fPoll64 := m.importFunc("env", "poll64", []vt{i64, i32}, one32)
	fPollF := m.importFunc("env", "pollf", one32, oneF64)
	m.fn("poll", one32, one32, code(localGet(0), call(fPoll))...)
	m.fn("poll64", []vt{i64, i32}, one32, code(localGet(0), localGet(1), call(fPoll64))...)
	m.fn("pollf", one32, oneF64, code(localGet(0), call(fPollF))...)
	mod, err := Backend().Compile(m.bytes())
	if err != nil {
		t.Fatal(err)
	}
	var p wasmhost.Poll
	goCalls := 0
	goCall := func([]uint64) uint64 { goCalls++; return 7 }
	inst, err := mod.Instantiate(wasmhost.Imports{Module: "env", Funcs: map[string]wasmhost.HostFunc{
		"poll":   {Type: ft(one32, one32), Call: goCall, Poll: &p},
		"poll64": {Type: ft([]vt{i64, i32}, one32), Call: goCall, Poll: &p},
		"pollf":  {Type: ft(one32, oneF64), Call: goCall, Poll: &p}, // not an i32 result: Go answers
	}})
	if err != nil {
		t.Fatal(err)
	}
	poll, _ := inst.Func("poll", ft(one32, one32))
	poll64, _ := inst.Func("poll64", ft([]vt{i64, i32}, one32))
	check := func(label string, want uint64) {
		t.Helper()
		for _, f := range []wasmhost.Func{poll, poll64} {
			args := []uint64{5}
			if f == poll64 {
				args = []uint64{1 << 40, 5}
			}
			if got, err := f.Call(args...); err != nil || got != want {
				t.Errorf("%s: poll = %d, %v; want %d", label, got, err, want)
			}
		}
	}
	check("initially", 0)
	p.Set(time.Now().Add(time.Hour), false, time.Time{})
	check("deadline ahead", 0)
	p.Set(time.Now().Add(-time.Millisecond), false, time.Time{})
	check("deadline passed", 1)
	p.Set(time.Now().Add(time.Hour), true, time.Time{})
	check("stopped", 1)
	p.Set(time.Time{}, false, time.Time{})
	check("cleared", 0)
	// Soon, but not so soon that a loaded machine passes it between Set
	// and the check (30 ms was).
	soon := time.Now().Add(300 * time.Millisecond)
	p.Set(soon, false, time.Time{})
	check("deadline soon", 0)
	time.Sleep(time.Until(soon) + 10*time.Millisecond)
	check("deadline reached while waiting", 1)
	// A loop check (first argument 0) answers by the hard limit alone.
	loopCheck := func(label string, want uint64) {
		t.Helper()
		if got, err := poll.Call(0); err != nil || got != want {
			t.Errorf("%s: loop check = %d, %v; want %d", label, got, err, want)
		}
	}
	p.Set(time.Now().Add(-time.Millisecond), true, time.Time{})
	loopCheck("stopped and past the deadline, no hard limit", 0)
	p.Set(time.Now().Add(-time.Millisecond), true, time.Now().Add(time.Hour))
	loopCheck("hard limit ahead", 0)
	check("hard limit ahead, poll", 1)
	p.Set(time.Now().Add(time.Hour), false, time.Now().Add(-time.Millisecond))
	loopCheck("hard limit passed", 1)
	check("hard limit passed, deadline ahead, poll", 0)
	if goCalls != 0 {
		t.Errorf("Go answered %d polls", goCalls)
	}
	pollf, _ := inst.Func("pollf", ft(one32, oneF64))
	if r, err := pollf.Call(1); err != nil || math.Float64frombits(r) != math.Float64frombits(7) || goCalls != 1 {
		t.Errorf("poll with an f64 result: %v, %v, %d Go calls", r, err, goCalls)
	}
	inst.Close()
	p.Set(time.Now(), true, time.Time{}) // watchers of a closed instance do nothing
}
