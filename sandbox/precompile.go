package sandbox

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/interopio/code-mode/sandbox/internal/ffi"
)

// precompiledSources are the sandbox's own sources that a run compiles
// when it first needs them: the helpers at its first host call, detectJS
// at its first object to convert (a tool's input, the result), and
// describeError at a failure, and the setup of a run with a Hidden
// prelude at every such run. An instance with an image compiles them
// once, before taking it, so that they are part of what every run starts
// from; a run takes a reference instead of compiling (QuickJS compiles at
// ~0.1 µs a byte under V8: together ~0.2 ms of a run that calls a tool).
// Evaluating each gives a function and does nothing else: what the
// function reads, it reads when called, as before. The caller's
// Program.Sources join them the same way, and so does a Hidden prelude
// (Program.hiddenPrelude), compiled at every run before: ~1 KB of
// codemode's prelude was a third of the main thread's CPU of a run that
// returns 1+1 through the public API.
var precompiledSources = []string{helpersJS, detectJS, describeError, hiddenSetupJS, hiddenParseSetupJS}

// maxSources bounds the caller's sources an instance keeps in its image:
// a caller that named new ones in every run would grow it (and the copy
// written back after each run) for ever.
const maxSources = 16

// sourceFile is the file name of the caller's sources in stacks: an
// indirect eval's, as when a run without the image evaluates them.
const sourceFile = "<input>"

// precompile brings the instance's image up to date with the run about to
// start in rt and ctx (fresh, or the image just written back): at its
// first run (or Engine.Prepare), it compiles precompiledSources and takes
// the image; afterwards it compiles the sources the image lacks (p's
// Sources and Hidden prelude) and takes it again. A run calls it before
// its clock starts: a first run that compiled what it used inside its
// timeout took 50-210 ms of it in WebKit's JavaScriptCore on a loaded
// machine (later runs 1-2 ms), and a 1 s timeout failed a first tool call
// there. An instance that cannot have an image is left without one (its
// runs make their own runtime and context, and compile). untaken says it
// compiled into rt and ctx but took no image (no memory for it).
func (i *instance) precompile(rt ffi.Runtime, ctx ffi.Context, p *Program) (untaken bool) {
	q := i.q
	if !q.CanImage() || i.noImage {
		return false
	}
	var add []string
	if i.img == nil {
		add = append(add, precompiledSources...)
	}
	sources, prelude := p.Sources, p.hiddenPrelude()
	if prelude != "" {
		sources = append(slices.Clip(sources), prelude)
	}
	kept := -1 // the caller's sources in the image, counted on a miss
	for _, src := range sources {
		if _, ok := i.compiled[src]; ok || slices.Contains(add, src) {
			continue
		}
		if kept < 0 {
			kept = 0
			for s := range i.compiled {
				if !slices.Contains(precompiledSources, s) {
					kept++
				}
			}
		}
		if kept < maxSources {
			add = append(add, src)
			kept++
		}
	}
	if len(add) == 0 {
		return false
	}
	compiled := maps.Clone(i.compiled)
	if compiled == nil {
		compiled = make(map[string]ffi.Value, len(add))
	}
	var made []ffi.Value
	for _, src := range add {
		name := sourceFile
		switch {
		case slices.Contains(precompiledSources, src):
			name = "<sandbox>"
		case src == prelude:
			name = preludeFile
		}
		fn, exc := q.Eval(ctx, src, name, ffi.EvalGlobal)
		if exc != 0 {
			q.FreeValue(ctx, exc)
			continue
		}
		compiled[src] = fn
		made = append(made, fn)
	}
	img := q.TakeImage(rt, ctx)
	if img == nil {
		// Nothing holds them: a run without an image frees its context,
		// and one with an image frees all it made under the leak check
		// (teardown), where these would be reported.
		for _, fn := range made {
			q.FreeValue(ctx, fn)
		}
		return true
	}
	i.img, i.compiled, i.blank = img, compiled, nil
	return false
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

// evalSource is the value of src (Func.Source) as the call's result: the
// image's, or evaluated now with the context's own eval.
func (r *run) evalSource(src string) ffi.Value {
	return r.valueOrThrow(r.compile(src, sourceFile))
}

// Prepare readies an instance for programs like p (its Sources and Hidden
// prelude; Code and Funcs are not looked at) before any run asks for one:
// an idle instance, or a new one when none is alive, gets its image with
// the sandbox's sources and p's compiled (precompile), so that the next
// run starts as later runs do, without the instance's making or the
// compile (both outside a run's clock already, but in its durationMs). It
// runs no program and never waits: with every instance running it does
// nothing. Its compile has p.Timeout (or DefaultTimeout) on a clock of
// its own. A host calls it when idle (the JS package right after a
// factory is made); it is never needed for a run to be correct.
func (e *Engine) Prepare(p Program) error {
	if e == nil || e.asset == nil {
		return fmt.Errorf("%w: a zero or nil Engine is not usable: make one with NewEngine", ErrClosed)
	}
	i, err := e.leaseIdle()
	if i == nil {
		return err
	}
	defer e.release(i)
	return i.prepare(&p, e.limit)
}

// prepare is Prepare on the leased instance i. A trap discards i.
func (i *instance) prepare(p *Program, limit int64) (err error) {
	q := i.q
	if !q.CanImage() || i.noImage {
		return nil
	}
	defer func() {
		if rec := recover(); rec != nil {
			trap, ok := rec.(*ffi.Trap)
			if !ok {
				panic(rec)
			}
			q.Close()
			err = fmt.Errorf("%w: %w", ErrNoInstance, trap)
		}
	}()
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	deadline := time.Now().Add(timeout)
	q.Poll.SetOwner(0)
	q.Poll.Set(deadline, false, deadline.Add(loopCheckGrace))
	// Stopped, as a run's teardown leaves it.
	defer q.Poll.Set(deadline, true, time.Time{})
	if img := i.img; img != nil {
		if i.precompile(img.Runtime(), img.Context(), p) {
			// Back to the image kept, as a run ends.
			q.Restore(img)
		}
		return nil
	}
	rt, ctx, ok := newRuntime(q, limit)
	if ok {
		i.precompile(rt, ctx, p)
	}
	if i.img == nil {
		// As a run without an image ends (teardown).
		q.FreeContext(ctx)
		q.FreeRuntime(rt)
		if i.blank != nil {
			q.Restore(i.blank)
		}
	}
	return nil
}
