package codemode

import (
	"encoding/json"
	"sync"

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

type resultShapes struct {
	mu    sync.Mutex
	tools map[*toolEntry]*resultShape
}

type resultShape struct {
	shape tsgen.Shape
	sig   string
	sigN  int // samples when sig was rendered
}

// observe merges a successful call's result into the tool's shape.
func (rs *resultShapes) observe(e *toolEntry, out json.RawMessage) {
	if e.info.OutputSchema != nil || len(out) == 0 || len(out) > maxInferBytes {
		return
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.tools == nil {
		rs.tools = map[*toolEntry]*resultShape{}
	}
	s := rs.tools[e]
	if s == nil {
		s = &resultShape{}
		rs.tools[e] = s
	}
	if s.shape.Samples() < maxInferSamples {
		s.shape.AddValid(out) // execute refused a result that is not JSON
	}
}

// signature is the tool's signature as this session shows it: with the
// inferred result type once the tool has returned something.
func (s *Session) signature(e *toolEntry) string {
	if e.info.OutputSchema != nil {
		return e.signature()
	}
	rs := &s.shapes
	rs.mu.Lock()
	defer rs.mu.Unlock()
	sh := rs.tools[e]
	if sh == nil || sh.shape.Samples() == 0 {
		return e.signature()
	}
	if sh.sigN != sh.shape.Samples() {
		sh.sig = tsgen.InferredSignature(e.info.Name, e.info.Description, e.info.InputSchema, &sh.shape)
		sh.sigN = sh.shape.Samples()
	}
	return sh.sig
}
