package codemode

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/interopio/code-mode/internal/tsstrip"
)

// Code built at run time (new Function) reaches QuickJS's parser as the
// program does, and text nested deeper than the host's stack can take
// ("[".repeat(1e5)) overflowed it: the whole run ended, uncatchably,
// "Maximum call stack size exceeded". The program's own code is checked
// before it runs (tsstrip's nesting limit); constructorGuardJS checks such
// text the same way before it is parsed, and throws a SyntaxError the
// program can catch (as QuickJS's own "stack overflow" is). Text longer
// than a program may be (maxCodeBytes, counted in characters here) is
// refused first: QuickJS's parser never checks the time, and the check
// of 10 MB built with 'a+=1;'.repeat(2e6) and its parse held a page's
// thread 5 s for a run with a 1 s timeout.
//
// It is added to the prelude of code that mentions Function or
// constructor (the way to the AsyncFunction and GeneratorFunction
// constructors, and to Function from any function); code that builds
// those names at run time is not served, as for the built-ins. It
// replaces the four function constructors, which keep their prototypes
// (instanceof and .constructor hold); their body and their parameters are
// checked apart, so a line number is the body's. Arguments are made
// strings once, as the constructor would (a toString runs once). A text
// of at most MaxNesting characters cannot nest deeper and is not sent to
// the host. %d is the host function's index in more.
//
// eval is left alone: a wrapper makes every eval indirect (QuickJS's
// direct eval is only the intrinsic's), so eval("x + 1") would no longer
// see the caller's x, and code that works in every JavaScript engine
// would throw a ReferenceError. eval of text nested past the host's stack
// ends the run with that clear error, as before, and the next run works.
var constructorGuardJS = `{
const syntax = more[%d], construct = Reflect.construct, SE = SyntaxError;
const check = (what, text) => { if (text.length > ` + strconv.Itoa(tsstrip.MaxNesting) + `) { if (text.length > ` + strconv.Itoa(maxCodeBytes) + `) throw new SE(what + ": the code is " + text.length + " characters, more than the ` + strconv.Itoa(maxCodeBytes) + ` (1 MiB) a program may have"); const m = syntax(text); if (m !== null) throw new SE(what + ": " + m); } };
const gp = O.getPrototypeOf;
for (const [C, name] of [[Function, "Function"], [gp(async function () {}).constructor, "AsyncFunction"], [gp(function* () {}).constructor, "GeneratorFunction"], [gp(async function* () {}).constructor, "AsyncGeneratorFunction"]]) {
  const W = function (...args) {
    let params = "";
    for (let i = 0; i < args.length; i++) { args[i] = ` + "`${args[i]}`" + `; if (i < args.length - 1) params += args[i] + ","; }
    check(name, params);
    if (args.length) check(name, args[args.length - 1]);
    return new.target ? construct(C, args, new.target) : apply(C, undefined, args);
  };
  O.defineProperty(W, "name", { value: name });
  O.defineProperty(W, "length", { value: 1 });
  O.defineProperty(W, "prototype", { value: C.prototype, writable: false });
  O.setPrototypeOf(W, gp(C));
  O.defineProperty(C.prototype, "constructor", { value: W });
  if (name === "Function") O.defineProperty(g, "Function", { value: W, writable: true, configurable: true });
}
}
`

// constructorNames are the words that add constructorGuardJS to a run's prelude.
var constructorNames = []string{"Function", "constructor"}

// usesFunctionConstructors says whether code mentions one of constructorNames.
func usesFunctionConstructors(code string) bool {
	for _, n := range constructorNames {
		if strings.Contains(code, n) {
			return true
		}
	}
	return false
}

// syntaxHost is the host function __cm_syntax: for its one argument, code
// as text, null when it nests within tsstrip.MaxNesting, else the message
// a program nested as deep gets.
func syntaxHost(args []json.RawMessage) (json.RawMessage, error) {
	var text string
	if len(args) != 1 || json.Unmarshal(args[0], &text) != nil {
		return nil, errors.New("__cm_syntax: expected one string")
	}
	if e := tsstrip.CheckNesting(text); e != nil {
		return json.Marshal(e.Message)
	}
	return json.RawMessage("null"), nil
}
