package codemode

import (
	"encoding/json"
	"sync"
	"weak"

	"github.com/interopio/code-mode/internal/tsgen"
)

// Inferred result types. A tool without an outputSchema leaves the model
// guessing what it returns, which costs it a run to find out; so a
// session learns the shape from the results the tool has returned and
// shows it in the tool's signature, marked as inferred.
//
// The shapes belong to one session: object keys can be data (a map keyed
// by customer name), and one conversation must not learn another's.
const (
	// maxInferSamples: results merged per tool; later ones are not parsed,
	// so a hot tool costs nothing once its shape has settled.
	maxInferSamples = 20
	// maxInferBytes: larger results are not parsed for their shape.
	maxInferBytes = 256 << 10
)

// The shapes are keyed by weak pointers: a tool unregistered, or replaced
// under its name, must not be kept alive by what a session learnt of it
// (its entry holds the host's execute function and, in a page, the tool's
// definition); a session that lived while tools came and went kept every
// one. A key whose tool is gone is dropped when a new tool is learnt.
type resultShapes struct {
	mu    sync.Mutex
	tools map[weak.Pointer[toolEntry]]*resultShape
	// last is the tool observe found last, and its shape: a program
	// calling one tool in a loop finds it by the pointer's Value, without
	// making the entry's weak pointer (a lookup in the runtime's specials,
	// under a lock) and hashing it, each call (about 1% of a tool call).
	last      weak.Pointer[toolEntry]
	lastShape *resultShape
}

type resultShape struct {
	shape tsgen.Shape
	sig   string
	sigN  int // samples when sig was rendered
}

// observe merges a successful call's result into the tool's shape.
func (rs *resultShapes) observe(e *toolEntry, out json.RawMessage) {
	if e.tool.OutputSchema != nil || len(out) == 0 || len(out) > maxInferBytes {
		return
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	s := rs.lastShape
	if s == nil || rs.last.Value() != e {
		if rs.tools == nil {
			rs.tools = map[weak.Pointer[toolEntry]]*resultShape{}
		}
		key := weak.Make(e)
		s = rs.tools[key]
		if s == nil {
			for k := range rs.tools {
				if k.Value() == nil {
					delete(rs.tools, k)
				}
			}
			s = &resultShape{}
			rs.tools[key] = s
		}
		rs.last, rs.lastShape = key, s
	}
	if s.shape.Samples() < maxInferSamples {
		s.shape.AddValid(out) // execute refused a result that is not JSON
	}
}

// signature is the tool's signature as this session shows it: with the
// inferred result type once the tool has returned something.
func (s *Session) signature(e *toolEntry) string {
	if e.tool.OutputSchema != nil {
		return e.signature()
	}
	rs := &s.shapes
	rs.mu.Lock()
	defer rs.mu.Unlock()
	sh := rs.tools[weak.Make(e)]
	if sh == nil || sh.shape.Samples() == 0 {
		return e.signature()
	}
	if sh.sigN != sh.shape.Samples() {
		sh.sig = tsgen.InferredSignature(e.info.Name, e.info.Description, e.tool.InputSchema, &sh.shape)
		sh.sigN = sh.shape.Samples()
	}
	return sh.sig
}
