package wasmbin

import (
	"bytes"
	"fmt"
)

// BodyPatch names a function the module defines (Func counts imported
// functions first, as calls do) and the byte substitutions to make in its
// body: each Old must occur in the body exactly once, so that a body that
// is not the one the patch was written for is refused rather than changed
// somewhere else.
type BodyPatch struct {
	Func    uint32
	Replace []Substitution
}

// Substitution replaces the bytes Old of a function body with New.
type Substitution struct{ Old, New []byte }

// PatchBodies returns a copy of b in which the bodies patches name have
// their substitutions made. Nothing is renumbered and no local is added:
// a New may use only the locals the body has. The code section is written
// again with the bodies' new sizes; every other section is copied.
func PatchBodies(b []byte, patches []BodyPatch) ([]byte, error) {
	m, err := Parse(b)
	if err != nil {
		return nil, err
	}
	nImports := uint32(0)
	for _, imp := range m.Imports {
		if imp.Kind == KindFunc {
			nImports++
		}
	}
	want := map[uint32][]Substitution{}
	for _, p := range patches {
		if p.Func < nImports || p.Func >= uint32(len(m.funcTypes)) {
			return nil, fmt.Errorf("wasm binary: PatchBodies: function %d is not one the module defines (%d imported, %d in all)", p.Func, nImports, len(m.funcTypes))
		}
		want[p.Func-nImports] = p.Replace
	}
	secs, err := sections(b)
	if err != nil {
		return nil, err
	}
	out := append([]byte(nil), b[:8]...)
	for _, s := range secs {
		if s.id != SectionCode {
			out = append(out, b[s.head:s.end]...)
			continue
		}
		r := &reader{b: b[:s.end], pos: s.start}
		n := r.u32()
		code := AppendU32(make([]byte, 0, s.end-s.start+256), n)
		for i := uint32(0); i < n && r.err == nil; i++ {
			body := r.bytes(r.u32())
			subs, ok := want[i]
			if ok {
				delete(want, i)
				if body, err = substitute(body, subs); err != nil {
					return nil, fmt.Errorf("wasm binary: PatchBodies: function %d: %w", i+nImports, err)
				}
			}
			code = append(AppendU32(code, uint32(len(body))), body...)
		}
		if r.err != nil {
			return nil, r.err
		}
		out = AppendSection(out, s.id, code)
	}
	for i := range want {
		return nil, fmt.Errorf("wasm binary: PatchBodies: no body for function %d", i+nImports)
	}
	return out, nil
}

func substitute(body []byte, subs []Substitution) ([]byte, error) {
	for _, s := range subs {
		if n := bytes.Count(body, s.Old); n != 1 {
			return nil, fmt.Errorf("% x occurs %d times in the body, want once", s.Old, n)
		}
		body = bytes.Replace(body, s.Old, s.New, 1)
	}
	return body, nil
}
