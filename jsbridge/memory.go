//go:build js && wasm

package jsbridge

import (
	"encoding/binary"
	"math"
	"syscall/js"
)

// memory is a WebAssembly.Memory seen through cached views.
//
// Growing a WebAssembly.Memory detaches its ArrayBuffer: views made before
// read as empty. The views are remade when Grow succeeds and, for growth by
// the module itself (memory.grow), when sync finds the cached view empty or
// of another size. sync only looks when WebAssembly code may have run since
// it last did (the instance's epoch changed), so a host import that reads
// memory many times pays one check.
//
// Methods are bound once per view (subarray and the DataView accessors), so
// a call passes no method name for syscall/js to decode.
type memory struct {
	inst  *instance
	obj   js.Value // the WebAssembly.Memory
	grow  js.Value // obj.grow bound to obj
	view  js.Value // Uint8Array over the current buffer
	sub   js.Value // view.subarray bound to view
	fill  js.Value // view.fill bound to view
	get32 js.Value // DataView.getUint32 bound to a DataView of the buffer
	set32 js.Value // DataView.setUint32 bound likewise
	get8  js.Value // DataView.getUint8 bound likewise
	set8  js.Value // DataView.setUint8 bound likewise
	size  uint64   // bytes in the current buffer
	epoch uint64   // inst.epoch when the view was last checked
	gone  bool     // the instance is closed
	// slot is the memory's place in the direct call table (direct.go),
	// or -1: then every access goes through the views above.
	slot int32
}

func newMemory(inst *instance, obj js.Value) *memory {
	m := &memory{inst: inst, obj: obj, slot: -1}
	m.grow = bind(obj.Get("grow"), obj)
	if direct() {
		m.slot = appendTo(directMems, obj)
	}
	m.refresh()
	return m
}

// refresh remakes the views over the memory's current buffer.
func (m *memory) refresh() {
	buf := m.obj.Get("buffer")
	m.view = uint8Array.New(buf)
	m.sub = bind(m.view.Get("subarray"), m.view)
	m.fill = bind(m.view.Get("fill"), m.view)
	dv := dataViewCtor.New(buf)
	m.get32 = bind(dv.Get("getUint32"), dv)
	m.set32 = bind(dv.Get("setUint32"), dv)
	m.get8 = bind(dv.Get("getUint8"), dv)
	m.set8 = bind(dv.Get("setUint8"), dv)
	m.size = uint64(m.view.Length())
	m.epoch = m.inst.epoch
}

// sync makes sure the views are current. It reports false after Close.
func (m *memory) sync() bool {
	if m.gone {
		return false
	}
	if m.epoch != m.inst.epoch {
		m.epoch = m.inst.epoch
		if n := m.currentSize(); n == 0 || n != m.size {
			m.refresh()
		}
	}
	return true
}

// currentSize is the size of the memory's buffer now (the cached view's
// length: 0 once growth detached it).
func (m *memory) currentSize() uint64 {
	if m.slot >= 0 {
		return uint64(directSize(m.slot))
	}
	return uint64(m.view.Length())
}

func (m *memory) drop() {
	m.gone = true
	u := js.Undefined()
	m.obj, m.grow, m.view, m.sub, m.fill, m.get32, m.set32, m.get8, m.set8 = u, u, u, u, u, u, u, u, u
	m.size = 0
}

// Size is the memory's size in bytes (at most math.MaxUint32: a memory of
// the full 65536 pages reports one byte less than its 4 GiB).
func (m *memory) Size() uint32 {
	if !m.sync() {
		return 0
	}
	return uint32(min(m.size, math.MaxUint32))
}

// Grow calls WebAssembly.Memory.prototype.grow; the RangeError for growth
// past the maximum (or past what the engine can allocate) gives false.
func (m *memory) Grow(delta uint32) (previous uint32, ok bool) {
	if m.gone {
		return 0, false
	}
	var prev js.Value
	if catch(func() { prev = m.grow.Invoke(delta) }) != nil {
		return 0, false
	}
	m.refresh() // grow, even by 0, detaches the old buffer
	return uint32(prev.Int()), true
}

// in reports whether [off, off+n) is inside the memory, syncing first.
func (m *memory) in(off, n uint32) bool {
	return m.sync() && uint64(off)+uint64(n) <= m.size
}

// smallCopy is the size up to which Read and Write move bytes with bound
// DataView calls, a word at a time, rather than through a subarray. Every
// JavaScript object handed to Go (the subarray) costs a reference and a
// finalizer, about 2 µs under Node, as much as 16 to 20 DataView calls,
// which return plain numbers (measured crossover: 64 to 96 bytes).
var smallCopy = uint32(64)

// directCopy is smallCopy for a memory with direct access, whose word
// costs a WebAssembly call of a JavaScript function, a tenth of a
// syscall/js call.
var directCopy = uint32(256)

func (m *memory) Read(off, n uint32) ([]byte, bool) {
	if !m.in(off, n) {
		return nil, false
	}
	b := make([]byte, n)
	switch {
	case n == 0:
	case m.slot >= 0 && n <= directCopy:
		i := uint32(0)
		for ; i+4 <= n; i += 4 {
			binary.LittleEndian.PutUint32(b[i:], uint32(directGet32(m.slot, float64(off+i))))
		}
		for ; i < n; i++ {
			b[i] = byte(directGet8(m.slot, float64(off+i)))
		}
	case n <= smallCopy:
		i := uint32(0)
		for ; i+4 <= n; i += 4 {
			binary.LittleEndian.PutUint32(b[i:], uint32(m.get32.Invoke(off+i, true).Float()))
		}
		for ; i < n; i++ {
			b[i] = byte(m.get8.Invoke(off + i).Float())
		}
	default:
		js.CopyBytesToGo(b, m.sub.Invoke(off, off+n))
	}
	return b, true
}

func (m *memory) Write(off uint32, data []byte) bool {
	if uint64(len(data)) > math.MaxUint32 || !m.in(off, uint32(len(data))) {
		return false
	}
	n := uint32(len(data))
	switch {
	case n == 0:
	case m.slot >= 0 && n <= directCopy:
		i := uint32(0)
		for ; i+4 <= n; i += 4 {
			directSet32(m.slot, float64(off+i), float64(binary.LittleEndian.Uint32(data[i:])))
		}
		for ; i < n; i++ {
			directSet8(m.slot, float64(off+i), float64(data[i]))
		}
	case n <= smallCopy:
		i := uint32(0)
		for ; i+4 <= n; i += 4 {
			m.set32.Invoke(off+i, binary.LittleEndian.Uint32(data[i:]), true)
		}
		for ; i < n; i++ {
			m.set8.Invoke(off+i, data[i])
		}
	default:
		js.CopyBytesToJS(m.sub.Invoke(off, off+n), data)
	}
	return true
}

// Zero is one call of the view's fill: the host's memset, where Write
// would copy a Go buffer of zeros across.
func (m *memory) Zero(off, n uint32) bool {
	if !m.in(off, n) {
		return false
	}
	if n > 0 {
		m.fill.Invoke(0, off, off+n)
	}
	return true
}

func (m *memory) ReadUint32(off uint32) (uint32, bool) {
	if !m.in(off, 4) {
		return 0, false
	}
	if m.slot >= 0 {
		return uint32(directGet32(m.slot, float64(off))), true
	}
	return uint32(m.get32.Invoke(off, true).Float()), true
}

func (m *memory) WriteUint32(off, v uint32) bool {
	if !m.in(off, 4) {
		return false
	}
	if m.slot >= 0 {
		directSet32(m.slot, float64(off), float64(v))
		return true
	}
	m.set32.Invoke(off, v, true)
	return true
}
