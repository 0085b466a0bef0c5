package sandbox

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/interopio/code-mode/internal/jsoncut"
	"github.com/interopio/code-mode/internal/trunc"
	"github.com/interopio/code-mode/sandbox/internal/ffi"
)

// Bounds of the strings an exception gives out. They are applied inside the
// sandbox, before anything is encoded: a program can set e.name to 90 MB of
// '<', which JSON escaping on the host side would grow past the longest
// string the host's JavaScript engine can hold.
const (
	MaxNameChars    = 128
	MaxMessageChars = 4000
)

// describeError is evaluated per failure only; it reads an exception
// defensively and cuts every string to its bound before JSON.stringify.
// An AggregateError's errors and an Error's cause chain (3 levels) follow
// its message ("; errors: ...", "; cause: ..."), as prelude/api.js's text
// writes them in logs: a rethrow as new Error("...", { cause: e }) hid the
// tool's own error from the model, and Promise.any's rejection said
// nothing at all. Whatever can be read is kept: a name getter that throws
// leaves the constructor's name (else "Error") and the message; a message
// getter that throws is reported as such; a value that throws on every
// read (a Proxy whose traps throw) is described, with what its read threw;
// a Proxy whose getPrototypeOf trap throws is read as a non-Error value.
// A thrown object JSON cannot write (a cycle, a BigInt, nesting past
// 1,000 levels) is String's "[object Object]" and why it is not JSON.
// An array longer than cap (a.length = 1e9 costs nothing) is written as
// its first cap elements and how many more, and String never joins one:
// either took the run to its timeout (prelude/show.js, the same rule).
// A string is read as it is, not through String, which the program may
// have replaced.
// The envelope is an array literal, [name, message, stack], that Go reads
// element by element: its elements are its own, so nothing the program
// put on Array.prototype or Object.prototype runs, and no stringify the
// program replaced writes it (an error thrown after JSON.stringify was
// replaced, or a getter defined on Array.prototype[0], which QuickJS's own
// JSON.stringify reads, was "unknown error"). A string cut short ends
// with the marker jsoncut.MoreChars writes.
var describeError = `(e) => {
  const nMore = ` + moreJS + `;
  const cut = (s, n) => s.length > n ? s.slice(0, n) + "… [" + nMore(s.length - n, "character", "characters") + "]" : s;
  const cap = ` + shownArrayLen + `, isArr = Array.isArray;
  const head = (x) => { const out = []; for (let i = 0; i < cap; i++) out[i] = x[i]; out[cap] = "… " + nMore(x.length - cap, "item", "items"); return out; };
  const capped = (k, x) => isArr(x) && x.length > cap ? head(x) : x;
  const tooLong = (x) => { const n = typeof x === "object" && x !== null ? x.length : undefined; return typeof n === "number" && n > cap ? "[an array of " + n + " elements]" : undefined; };
  let why;
  const str = (f, n) => { try { const x = f(); return cut(typeof x === "string" ? x : tooLong(x) ?? String(x), n); } catch (x) { why = x; return undefined; } };
  const threw = () => { const m = str(() => why instanceof Error ? why.message : why, 200); return m ? ": " + m : ""; };
  const out = (name, message, stack) => [name, message, stack];
  const related = (e) => {
    const one = (v) => {
      let isE = false;
      try { isE = v instanceof Error; } catch (_) {}
      return isE ? (str(() => v.name, 128) || "Error") + ": " + (str(() => v.message, 500) ?? "") : str(() => typeof v === "object" && v !== null ? JSON.stringify(v, capped) : v, 500);
    };
    let s = "";
    try {
      const list = e.errors;
      if (Array.isArray(list) && list.length) s += "; errors: " + list.slice(0, 5).map(one).join(", ") + (list.length > 5 ? " (and " + (list.length - 5) + " more)" : "");
    } catch (_) {}
    try {
      for (let c = e, i = 0; i < 3 && "cause" in c; i++) {
        c = c.cause;
        s += "; cause: " + one(c);
        if (!(c instanceof Error)) break;
      }
    } catch (_) {}
    return s;
  };
  try {
    let isError = false;
    try { isError = e instanceof Error; } catch (_) {}
    // The engine's own errors (new TypeError) of a program that replaced
    // Error: their class says so.
    if (!isError) try { isError = ({}).toString.call(e) === "[object Error]"; } catch (_) {}
    if (isError) {
      let name = str(() => e.name, ` + strconv.Itoa(MaxNameChars) + `);
      if (!name) name = str(() => e.constructor.name, ` + strconv.Itoa(MaxNameChars) + `) || "Error";
      let message = str(() => e.message, ` + strconv.Itoa(MaxMessageChars) + `);
      if (message === undefined) message = "(its message cannot be read: reading it threw" + threw() + ")";
      const more = related(e);
      if (more) message = cut(message ? message + more : more.slice(2), ` + strconv.Itoa(MaxMessageChars) + `);
      return out(name, message, str(() => e.stack || "", ` + strconv.Itoa(MaxMessageChars) + `) || "");
    }
    let m = str(() => {
      try { return typeof e === "object" && e !== null ? JSON.stringify(e, capped) : e; } catch (x) {
        let w = "";
        try { w = cut(String(x instanceof Error ? x.message : x), 200); } catch (_) {}
        return (tooLong(e) ?? String(e)) + " (not shown as JSON" + (w ? ": " + w : "") + ")";
      }
    }, ` + strconv.Itoa(MaxMessageChars) + `);
    if (m === undefined) m = (typeof e === "function" ? "a function" : "an object") + " that cannot be read or converted to text (reading it threw" + threw() + ")";
    return out("Error", "a non-Error value was thrown: " + m, "");
  } catch (_) { return ""; }
}`

// bound cuts s to n characters as describeError does, unless it is within
// n and describeError's marker. describeError runs after the program and
// calls the globals it finds (String, slice): a program that replaced
// them gives the strings it likes, and a 90 MB name grew past the longest
// string the host's JavaScript engine can hold (the engine's Go program
// died with the run, and its factory with it).
func bound(s string, n int) string {
	const marker = 40 // "… [" + the count + " more characters]"
	if len(s) <= n+marker || utf8.RuneCountInString(s) <= n+marker {
		return s
	}
	i, k := 0, 0
	for i = range s {
		if k == n {
			break
		}
		k++
	}
	return s[:i] + jsoncut.MoreChars(utf8.RuneCountInString(s[i:]))
}

// outOfMemory is the error of a run that reached its memory limit.
func outOfMemory() *Error {
	return &Error{Code: CodeMemoryLimit, Name: "InternalError", Message: "out of memory"}
}

// nullThrown is toError's message for a thrown null.
const nullThrown = "a non-Error value was thrown: null"

// toError reads an exception value (borrowed).
func (r *run) toError(exc ffi.ValueConst) *Error {
	q, ctx := r.q, r.ctx
	e := &Error{Code: CodeRuntime, Name: "Error", Message: "unknown error"}
	if q.IsUninitialized(exc) {
		// QuickJS's normalize and localeCompare (NFC of both strings)
		// allocate through the runtime's realloc, which fails silently at
		// the memory limit: they return an exception without setting one,
		// and the program's error read "a non-Error value was thrown:
		// [unsupported type]" (RUNTIME) for what is the memory limit.
		e.Name, e.Message = "InternalError", "out of memory"
		return e
	}
	fn, fexc, ok := ffi.Value(0), ffi.Value(0), false
	if fn, ok = r.precompiled(describeError); !ok {
		fn, fexc = q.Eval(ctx, describeError, "<sandbox>", ffi.EvalGlobal)
	}
	if fexc != 0 {
		// Likely out of memory: even the helper could not be compiled.
		q.FreeValue(ctx, fexc)
		e.Name, e.Message = "InternalError", "out of memory"
		return e
	}
	defer q.FreeValue(ctx, fn)
	s, sexc := q.Call(ctx, fn.Const(), q.Undefined.Const(), exc)
	if sexc != 0 {
		q.FreeValue(ctx, sexc)
		e.Name, e.Message = "InternalError", "out of memory"
		return e
	}
	defer q.FreeValue(ctx, s)
	var d [3]string
	if q.IsObject(s.Const()) {
		for i := range d {
			v := q.GetIndex(ctx, s.Const(), uint32(i))
			if q.IsString(v.Const()) {
				d[i] = q.GetString(ctx, v.Const())
			}
			q.FreeValue(ctx, v)
		}
	}
	if d[0] != "" {
		e.Name, e.Message, e.Stack = bound(d[0], MaxNameChars), bound(d[1], MaxMessageChars), bound(d[2], MaxMessageChars)
	} else if q.HeapGrowFailed {
		// The description was made but its text could not be (no memory
		// left for the copy): the memory limit's doing, as above.
		e.Name, e.Message = "InternalError", "out of memory"
	}
	// QuickJS's stack overflow is an InternalError; V8's, and ours when
	// the host's stack overflows first, a RangeError: one name for both.
	if e.Name == "InternalError" && e.Message == "stack overflow" {
		e.Name = "RangeError"
	}
	return e
}

// isTopLevelReturn tells the one syntax error that means "this is a function
// body": a return outside a function.
func (r *run) isTopLevelReturn(exc ffi.ValueConst) bool {
	q, ctx := r.q, r.ctx
	if !q.IsObject(exc) {
		return false
	}
	m := q.GetProp(ctx, exc, "message")
	defer q.FreeValue(ctx, m)
	return q.IsString(m.Const()) && q.GetString(ctx, m.Const()) == "return not in a function"
}

// fail builds the failed result for exception exc (owned).
// A compile error (syntax) is an exception of the evaluation itself: with
// async evaluation everything the code throws at run time rejects instead.
func (r *run) fail(exc ffi.Value, code string, wrapped, compile bool) *Result {
	r.finished = true
	e := r.toError(exc.Const())
	call := r.rejectedBy(exc.Const())
	r.q.FreeValue(r.ctx, exc)
	if res := r.stopped(); res != nil {
		return res
	}
	if c := r.limitCode(e); c != "" {
		e.Code = c
		e.Stack = ""
		return &Result{Error: e}
	}
	if compile {
		e.Code = CodeSyntax
	}
	e.Stack, e.Line, e.Column = cleanStack(e.Stack, code, wrapped)
	if e.Line == 0 && !compile {
		e.Call = call
	}
	if compile && e.Message == "unexpected token in expression: ''" {
		// QuickJS names the end of the code as an empty token: a block
		// left open ("function f() {" and no "}") read as a stray ''.
		e.Message = "unexpected end of input"
	}
	if compile && e.Line == 0 && compilerFailed(e.Message) {
		// QuickJS's check of the bytecode it made, not the parser: valid
		// code it compiles wrongly (bellard/quickjs#488: a for-of over a
		// yield in a generator, "stack underflow (op=110, pc=7)"). It has
		// no position, and "unexpected end of input" was not true.
		e.Message = "QuickJS could not compile this code: its compiler failed (" + e.Message + "), a bug of QuickJS's, not of the code; write the statement it fails on another way" + compilerTip(code)
		e.Stack = ""
		return &Result{Error: e}
	}
	if compile && e.Line == 0 {
		// Past the code's end, in the wrapper: the code left something
		// open. Point at its end instead of naming the wrapper's tokens.
		e.Line, e.Column = endOf(code)
		e.Message = "unexpected end of input"
		e.Stack = fmt.Sprintf("    at %s:%d:%d", codeFile, e.Line, e.Column)
	}
	return &Result{Error: e}
}

// compilerFailed tells the errors of QuickJS's check of the bytecode it
// compiled (compute_stack_size), which say the compiler went wrong.
func compilerFailed(msg string) bool {
	for _, p := range []string{"stack underflow (op=", "stack overflow (op=", "inconsistent stack size: ", "invalid opcode (op="} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// compilerTip names the rewrite of the construct known to fail.
func compilerTip(code string) string {
	if strings.Contains(code, "of yield") || strings.Contains(code, "of (yield") {
		return " (here, it seems, a for...of over a yield: take the yield out first, const it = yield x; for (const v of it) ...)"
	}
	return ""
}

// limitCode says whether e is the memory limit's doing.
func (r *run) limitCode(e *Error) ErrorCode {
	if e.Name == "InternalError" && strings.Contains(e.Message, "out of memory") {
		return CodeMemoryLimit
	}
	if r.q.HeapGrowFailed && (e.Name == "InternalError" || e.Name == "RangeError") {
		return CodeMemoryLimit
	}
	// QuickJS throws null when it cannot allocate even the error it is
	// throwing. With the heap refused more memory in this run (an instance
	// that hit the cap is never reused), a null is that, not the program's.
	if r.q.HeapGrowFailed && e.Name == "Error" && e.Message == nullThrown {
		e.Name, e.Message = "InternalError", "out of memory"
		return CodeMemoryLimit
	}
	return ""
}

func (r *run) trapError(t *ffi.Trap) *Error {
	if r.q.HeapGrowFailed {
		return outOfMemory()
	}
	switch r.why() {
	case interruptTimeout:
		// As stopped() says it: the time went to a host function's Start
		// (startLate), though the loop checks' trap ended the run.
		if r.takingIn != nil || r.startLate {
			return r.awaitedTimeout(r.takingIn, r.takingInSize).Error
		}
		return r.timeoutResult().Error
	}
	// QuickJS checks its own stack, but some of its C recursion (its
	// parser above all: brackets nested 243 to 376 deep in a fresh
	// Chromium Worker) uses little of it and much of the host engine's
	// native stack, which can overflow first: the host's RangeError
	// unwinds through QuickJS and the instance is discarded. That is the
	// program's doing, not a crash. (codemode refuses a program nested
	// past tsstrip.MaxNesting before it runs; code it builds and evals is
	// parsed unchecked.)
	if hostStackOverflow(t.Error()) {
		code := CodeRuntime
		if r.converting {
			code = CodeNotSerializable
		}
		return &Error{Code: code, Name: "RangeError", Message: "Maximum call stack size exceeded: the code, the data or the recursion nests too deeply (keep data under 1,000 levels and brackets in code under 100 deep)"}
	}
	return &Error{Code: CodeRuntime, Name: "InternalError", Message: "the sandbox crashed and was reset: " + t.Error()}
}

// hostStackOverflow tells the host engine's own stack overflow in a trap's
// text, in each engine's words: V8's and JavaScriptCore's "Maximum call
// stack size exceeded", SpiderMonkey's "too much recursion" (Firefox's
// InternalError, which was reported as a crash), "stack overflow" natively.
func hostStackOverflow(msg string) bool {
	for _, s := range []string{"Maximum call stack size exceeded", "too much recursion", "stack overflow"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// maxFrames bounds a stack (deep recursion would give thousands of frames).
const maxFrames = 10

// frameRE is compiled on first use, not at start-up. (A sync.Once, not a
// sync.OnceValue: that is inlined as closures of its own, ~4.8 KB of the
// GOOS=js core.)
func frameRE() *regexp.Regexp {
	frameOnce.Do(func() {
		frameRx = regexp.MustCompile(`^(\s*at .*?)` + regexp.QuoteMeta(codeFile) + `:(\d+):(\d+)(.*)$`)
	})
	return frameRx
}

var (
	frameOnce sync.Once
	frameRx   *regexp.Regexp
)

// cleanStack keeps the frames of the model's code (and native ones), maps
// positions back to the model's code (the wrapper's or the script's prefix
// shifts its first line), and returns the position of the first frame.
func cleanStack(stack, code string, wrapped bool) (string, int, int) {
	lines := strings.Count(code, "\n") + 1
	var out []string
	line, col := 0, 0
	prefix := len(scriptPrefix)
	if wrapped {
		prefix = len(wrapPrefix)
	}
	for _, f := range strings.Split(strings.TrimRight(stack, "\n"), "\n") {
		m := frameRE().FindStringSubmatch(f)
		if m == nil {
			if strings.Contains(f, "(native)") {
				out = append(out, f)
			}
			continue
		}
		l, _ := strconv.Atoi(m[2])
		c, _ := strconv.Atoi(m[3])
		if l > lines {
			continue // past the code: none since the host calls the wrapper (callBody), and none may show
		}
		if l == 1 {
			c -= prefix
			if c < 1 {
				// The wrapper's or the script's own start, in its prefix:
				// QuickJS gives an error with no position of its own (a
				// destructuring or a spread of what is not iterable) its
				// function's start. Where in the code it was is unknown:
				// 1:-12 (or 1:1 for an error on line 5) named none.
				out = append(out, m[1]+codeFile+m[4])
				continue
			}
		}
		if line == 0 {
			line, col = l, c
		}
		out = append(out, m[1]+codeFile+":"+strconv.Itoa(l)+":"+strconv.Itoa(c)+m[4])
	}
	if len(out) == 0 {
		return "", line, col
	}
	if len(out) > maxFrames {
		out = append(out[:maxFrames], "    ... "+trunc.More(len(out)-maxFrames, "frame", "frames"))
	}
	return strings.Join(out, "\n"), line, col
}

// endOf is the 1-based line and column just past the code's last character.
func endOf(code string) (int, int) {
	last := code[strings.LastIndexByte(code, '\n')+1:]
	return strings.Count(code, "\n") + 1, utf8.RuneCountInString(last) + 1
}
