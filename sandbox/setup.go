package sandbox

// The run's setup: the host functions and the caller's prelude, and the
// engine's JavaScript helpers (the result's stringify, the tracking of host
// calls' promises), captured before the program runs and built only when
// first needed, so that a run pays for none it does not use.

import (
	"fmt"
	"sort"

	"github.com/interopio/code-mode/sandbox/internal/ffi"
)

// enginePrelude gives, as its first element, the engine's stringify for a
// run without host functions or prelude whose result needs more than the
// native JSON.stringify (engineStringify): helpersJS over captureBody's
// captures, taken after the program ran. Its stringify writes BigInt as a
// decimal string; values JSON cannot hold are found and converted by
// helpers compiled on demand (convert.go).
const enginePrelude = "(" + helpersJS + ")((() => {\n" + captureBody + "})())"

// captureBody is the engine's part of the setup script in runs with host
// functions or a prelude: it only captures, before the program runs, what
// the helpers will need (the program may replace any of it), and defines
// no function: compiling functions is what a run's setup pays for.
// helpersJS builds the helpers from the captures when a host call or a
// conversion first needs them (loadHelpers): out, the stringify (out(_, 1)
// hands the intrinsics detectJS needs, convert.go; a symbol gives 0, to
// convert), and track, for runs with async host functions. track gives
// each host-call promise an own "constructor" getter: await, then, catch,
// Promise.all/race/allSettled and returning the promise all read it, so it
// tells which promises somebody observed, and a rejection nobody observed
// is reported instead of lost (Go reads the marks, the captured array at
// index 8, only then, each call's own element: see warnings). Each mark is
// defined as 0 first (defineProperty: no setter of Array.prototype runs),
// so that reading it finds an own property and runs no code. Call ids
// start at 1: element 0 is defined too, so that each call's mark is the
// next element of a fast array (8 bytes); the array went sparse at id 1,
// ~38 bytes a call for the rest of the run (TestRejectedCallsKeepNoErrors). The
// descriptors have no prototype: they are made after the program ran, and
// one that inherited its Object.prototype.get or .value was refused. The
// promise stays native, so awaiting it stays on the fast path. helpersJS reads no global: it runs after the program has
// started. TypeError and RangeError (indices 9 and 10) make the host's
// errors of those names (newError).
const captureBody = "return [JSON.stringify, JSON.parse, eval, Object.getPrototypeOf, Object.prototype, Array.isArray, Promise, Object.defineProperty, [], TypeError, RangeError];\n"

// The elements of captureBody's array that Go reads; its order and these
// must agree. capturedNativeParse is put after the captures by
// hiddenParseSetupJS, and the context's own JSON.stringify (index 12, which
// helpersJS reads) by both Hidden setups: the conversion (detectJS) checks
// depth in its own replacer, and a prelude's stringify would run a replacer
// of its own beside it on every value.
const (
	capturedStringify   = 0
	capturedParse       = 1
	capturedEval        = 2
	capturedMarks       = 8
	capturedTypeError   = 9
	capturedRangeError  = 10
	capturedNativeParse = 11
)

const helpersJS = `(c) => {
const S = c[0], rep = (k, v) => typeof v === "bigint" ? v.toString() : v;
const I = [c.length > 12 ? c[12] : S, c[3], c[4], c[5], c[2], c[10]];
const out = (v, w) => w === 1 ? I : typeof v === "symbol" ? 0 : S(v, rep);
const P = c[6], def = c[7], seen = c[8], mark = (id) => def(seen, id, { __proto__: null, value: 0, writable: true, enumerable: true, configurable: true });
mark(0);
const track = (p, id) => {
  mark(id);
  def(p, "constructor", { __proto__: null, get() { seen[id] = 1; return P; }, configurable: true });
  return p;
};
return [out, track];
}`

// setup installs the host functions, then evaluates the caller's prelude
// and the engine's in one script (one compile): the caller's first, and the
// engine's last, handing its helpers to Go. With Program.Hidden the script
// is a function, called with the host functions, which then never become
// globals.
func (r *run) setup(p Program) error {
	q, ctx := r.q, r.ctx
	var fns []ffi.Value
	if len(p.Funcs) > 0 {
		names := make([]string, 0, len(p.Funcs))
		for n, f := range p.Funcs {
			set := 0
			for _, given := range []bool{f.Async != nil, f.Sync != nil, f.Bytes != nil, f.Source != nil} {
				if given {
					set++
				}
			}
			if set != 1 {
				return fmt.Errorf("%w: Program.Funcs[%q]: exactly one of Async, Sync, Bytes and Source must be set, got %d", ErrInvalidProgram, n, set)
			}
			if f.Async != nil {
				r.tracked = true
			}
			names = append(names, n)
		}
		sort.Strings(names)
		fns = make([]ffi.Value, len(names))
		for id, n := range names {
			r.funcs, r.names = append(r.funcs, p.Funcs[n]), append(r.names, n)
			fns[id] = q.NewFunction(ctx, n, uint32(id+1))
		}
		defer func() {
			for _, fn := range fns {
				q.FreeValue(ctx, fn)
			}
		}()
	}
	if p.Hidden && p.Prelude == "" {
		return fmt.Errorf("%w: Program.Hidden needs a Prelude (a function expression that takes the Funcs)", ErrInvalidProgram)
	}
	if !p.Hidden && len(fns) > 0 {
		global := q.Global(ctx)
		for i, fn := range fns {
			q.SetProp(ctx, global.Const(), r.names[i], fn.Const())
		}
		q.FreeValue(ctx, global)
	}
	if len(p.Funcs) == 0 && p.Prelude == "" {
		// Nothing to compile: a plain program needs only JSON.stringify for
		// its result (BigInt support is compiled if the result needs it).
		global := q.Global(ctx)
		j := q.GetProp(ctx, global.Const(), "JSON")
		r.stringify = q.GetProp(ctx, j.Const(), "stringify")
		q.FreeValue(ctx, j)
		q.FreeValue(ctx, global)
		r.native = true
		return nil
	}
	var helpers, exc ffi.Value
	switch {
	case p.Hidden && p.NativeParse != nil:
		r.parseOK = p.NativeParse
		helpers, exc = r.hiddenSetup(hiddenParseSetupJS, p.hiddenPrelude(), fns)
	case p.Hidden:
		helpers, exc = r.hiddenSetup(hiddenSetupJS, p.hiddenPrelude(), fns)
	case p.Prelude != "":
		helpers, exc = q.Eval(ctx, p.Prelude+"\n;(() => {\n"+captureBody+"})()", preludeFile, ffi.EvalGlobal)
	default:
		helpers, exc = q.Eval(ctx, "(() => {\n"+captureBody+"})()", preludeFile, ffi.EvalGlobal)
	}
	if exc != 0 {
		e := r.toError(exc.Const())
		q.FreeValue(ctx, exc)
		return fmt.Errorf("%w: Program.Prelude threw: %s: %s", ErrInvalidProgram, e.Name, e.Message)
	}
	r.helpers = helpers
	return nil
}

// The setup of a run with Program.Hidden, called with the prelude's
// function and then the host functions: it applies the prelude and returns
// the captures, and the context's own JSON.stringify, taken before the
// prelude can replace it (index 12). With NativeParse, the context's own
// JSON.parse likewise (index 11).
// Both are among the sandbox's precompiled sources and the prelude among
// the image's (hiddenPrelude): a run on an image compiles none of them.
const (
	hiddenSetupJS      = "(prelude, ...host) => {\nconst s = JSON.stringify;\nprelude(...host);\nconst c = (() => {\n" + captureBody + "})();\nc[12] = s;\nreturn c;\n}"
	hiddenParseSetupJS = "(prelude, ...host) => {\nconst parse = JSON.parse, s = JSON.stringify;\nprelude(...host);\nconst c = (() => {\n" + captureBody + "})();\nc[11] = parse;\nc[12] = s;\nreturn c;\n}"
)

// preludeFile is the file name of the prelude and the setup in stacks.
const preludeFile = "<prelude>"

// hiddenPrelude is the source of a Hidden prelude as an expression (a
// function declaration would evaluate to nothing), which the image
// compiles as it does Program.Sources: evaluating it only makes the
// function. "" when the prelude is not Hidden.
func (p *Program) hiddenPrelude() string {
	if !p.Hidden || p.Prelude == "" {
		return ""
	}
	return "(" + p.Prelude + "\n)"
}

// hiddenSetup applies the Hidden prelude (its source as hiddenPrelude
// gives it) through setup, one of the wrappers above, and returns the
// captures.
func (r *run) hiddenSetup(setup, prelude string, fns []ffi.Value) (helpers, exc ffi.Value) {
	q, ctx := r.q, r.ctx
	wrapper, exc := r.compileWith(setup, preludeFile)
	if exc != 0 {
		return 0, exc
	}
	defer q.FreeValue(ctx, wrapper)
	fn, exc := r.compileWith(prelude, preludeFile)
	if exc != 0 {
		return 0, exc
	}
	defer q.FreeValue(ctx, fn)
	args := make([]ffi.ValueConst, 0, len(fns)+1)
	args = append(args, fn.Const())
	for _, f := range fns {
		args = append(args, f.Const())
	}
	return q.Call(ctx, wrapper.Const(), q.Undefined.Const(), args...)
}

// loadHelpers builds the engine's helpers from the setup's captures, once
// (see captureBody): a run that makes no host call and converts nothing
// compiles none of them. It returns the owned exception when building
// failed (out of memory, interrupted); the next need tries again.
func (r *run) loadHelpers() (exc ffi.Value) {
	if r.loaded || r.helpers == 0 {
		return 0
	}
	q, ctx, h := r.q, r.ctx, r.helpers.Const()
	if r.parse == 0 {
		r.parse = q.GetIndex(ctx, h, capturedParse)
		if r.parseOK != nil {
			r.nativeParse = q.GetIndex(ctx, h, capturedNativeParse)
		}
		if len(r.funcs) > 0 {
			r.eval = q.GetIndex(ctx, h, capturedEval)
		}
	}
	factory, exc := r.compileWith(helpersJS, "<helpers>")
	if exc != 0 {
		return exc
	}
	built, exc := q.Call(ctx, factory.Const(), q.Undefined.Const(), h)
	q.FreeValue(ctx, factory)
	if exc != 0 {
		return exc
	}
	r.stringify = q.GetIndex(ctx, built.Const(), 0)
	if r.tracked {
		r.track, r.report = q.GetIndex(ctx, built.Const(), 1), q.GetIndex(ctx, h, capturedMarks)
	}
	q.FreeValue(ctx, built)
	r.loaded = true
	return 0
}

// engineStringify replaces the native JSON.stringify of a run without host
// functions or prelude with the engine prelude's, which writes BigInt and
// hands detectJS its intrinsics (taken now, after the program ran).
func (r *run) engineStringify() (exc ffi.Value) {
	q, ctx := r.q, r.ctx
	helpers, exc := q.Eval(ctx, enginePrelude, preludeFile, ffi.EvalGlobal)
	if exc != 0 {
		return exc
	}
	q.FreeValue(ctx, r.stringify)
	r.stringify, r.native, r.lateStringify = q.GetIndex(ctx, helpers.Const(), 0), false, true
	q.FreeValue(ctx, helpers)
	return 0
}
