package sandbox

import "github.com/interopio/code-mode/sandbox/internal/ffi"

// precompiledSources are the sandbox's own sources that a run compiles
// when it first needs them: the helpers at its first host call, detectJS
// at its first object to convert (a tool's input, the result), and
// describeError at a failure. An instance with an image compiles them
// once, before taking it, so that they are part of what every run starts
// from; a run takes a reference instead of compiling (QuickJS compiles at
// ~0.1 µs a byte under V8: together ~0.2 ms of a run that calls a tool).
// Evaluating each gives a function and does nothing else: what the
// function reads, it reads when called, as before.
var precompiledSources = []string{helpersJS, detectJS, describeError}

// newImage compiles precompiledSources in the instance's fresh runtime and
// context and takes its image, or returns nil when the instance cannot
// have one (its runs make their own runtime and context, and compile).
func (i *instance) newImage(rt ffi.Runtime, ctx ffi.Context) (*ffi.Image, map[string]ffi.Value) {
	q := i.q
	if !q.CanImage() {
		return nil, nil
	}
	compiled := make(map[string]ffi.Value, len(precompiledSources))
	for _, src := range precompiledSources {
		fn, exc := q.Eval(ctx, src, "<sandbox>", ffi.EvalGlobal)
		if exc != 0 {
			q.FreeValue(ctx, exc)
			continue
		}
		compiled[src] = fn
	}
	img := q.TakeImage(rt, ctx)
	if img == nil {
		// The run frees its context: nothing of it may be left.
		for _, fn := range compiled {
			q.FreeValue(ctx, fn)
		}
		return nil, nil
	}
	return img, compiled
}

// precompiled returns an owned reference to the image's compiled src, or
// false (no image, or no memory left for the reference).
func (r *run) precompiled(src string) (ffi.Value, bool) {
	fn, ok := r.compiled[src]
	if !ok {
		return 0, false
	}
	ref := r.q.DupValue(r.ctx, fn.Const())
	return ref, ref != 0
}
