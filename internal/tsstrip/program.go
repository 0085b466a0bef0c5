package tsstrip

import (
	"iter"
	"strings"
	"unicode/utf8"
)

// Program prepares a model's program for the sandbox: the first fenced
// block is taken out of the prose around it, TypeScript is erased, and a
// whole-program function is unwrapped so that its body is the program.
// Every step keeps lines and columns where the model wrote them.
func Program(src string) (string, *Error) {
	p, err := Prepare(src)
	return p.Code, err
}

// Prepared is a program ready for the sandbox.
type Prepared struct {
	Code string
	// Body says that Code returns outside any function and that every
	// bracket it closes was opened in it (CheckBody passes): it is the
	// body of a function, to be compiled as one at once, not first tried
	// as a script.
	Body bool
	// AsyncForEachLine is the 1-based line of the first `.forEach(async`
	// callback in Code (see asyncForEach), 0 when there is none.
	AsyncForEachLine int
	// AwaitedMapLine is the 1-based line of the first `await x.map(async
	// ...)` in Code (see awaitedMap), 0 when there is none.
	AwaitedMapLine int
	// AsyncTestLine is the 1-based line of the first async callback of
	// AsyncTest, a filter, find, some, ... call (see asyncForEach), 0 when
	// there is none.
	AsyncTestLine int
	AsyncTest     string
	// LaterFenceLine is the 1-based line of a JavaScript or TypeScript
	// fence after the block that is the program (Unfence runs the first
	// only), 0 when there is none: a model that split its program into
	// blocks got the first block's result and no word about the rest.
	LaterFenceLine int
	// ObjectBlock says that Code is one block whose first statement has a
	// label: `{ a: 1 }`, which JavaScript reads as a block (its value 1),
	// not the object the model meant (see objectBlock).
	ObjectBlock bool
	// Unawaited lists the statements that call an async function the
	// program declares and drop its promise (see unawaitedCalls).
	Unawaited []UnawaitedCall
	// Uncalled is a function with parameters that the program declares
	// and never calls, where it is all the program would run: the whole
	// program (any name), or main beside other code (see uncalledMain).
	// Line is 0 when there is none.
	Uncalled UnawaitedCall
	// Functions are the names of the functions the program declares when
	// that is all it does, two or more and none called (see onlyFunctions).
	Functions []string
	// Declared is the name that the program's last statement declares,
	// `const ids = orders.map(...)`, when nothing at its top level
	// returns: its value is the declaration's, undefined, and the model
	// meant the name (see lastDeclaration). Line is 0 when there is none.
	Declared UnawaitedCall
	// Returned is the expression the program's last statement returns,
	// outside any function, when no return in it gives nothing (see
	// lastReturned): "" when there is none.
	Returned string
	// LastPath is the property read a program without a top-level return
	// ends with (see lastPath), "" when it ends otherwise.
	LastPath string
}

// Prepare is Program, and says whether the result is a function body.
// Plain JavaScript is tokenized once for all of it.
func Prepare(src string) (Prepared, *Error) { return prepareFrom(src, maxTypesBlocks) }

// Beat, when set, is called after the two longest passes of Prepare over
// a large program (beatBytes or more): the tokenizer's (~40% of its time)
// and the erasure's walk, and along the tokenizer and the nesting check,
// every beatBytes of source or tokens, naming no run (0). The GOOS=js
// core's host shows life with it: a worker's page replaces a worker silent
// for 5 s while it stops a run (the run may hold it), and a ~900 KB
// program's preparation, silent, once took longer on a loaded machine
// (wasm/main.go); at load ~25 on 2 cores the tokenizer of a 900 KB array
// literal (450,000 numbers) alone still did (~4 s).
var Beat func(owner float64)

const beatBytes = 64 << 10

// beat calls Beat when size (a program's, or how far a pass has got) is
// beatBytes or more.
//
//go:noinline
func beat(size int) {
	if Beat != nil && size >= beatBytes {
		Beat(0)
	}
}

// maxTypesBlocks is how many blocks of types only Prepare passes over to
// the next block. Each pass reads the whole text again: a model's answer
// holds one or two such blocks, and 4,000 of them held the thread 3 s
// before a run's timeout starts (8,000: 12 s).
const maxTypesBlocks = 4

// prepareFrom is Prepare, passing over at most hops blocks of types only.
func prepareFrom(src string, hops int) (Prepared, *Error) {
	kept, err := Unfence(src)
	if err != nil {
		return Prepared{}, err
	}
	p, err := prepare(kept)
	if err == nil {
		p.LaterFenceLine = laterFence(src, kept)
		// A block of types only (```ts interface Order {...}```, the
		// program in the next block) runs nothing: the next block is the
		// program, its lines where they were.
		if l := p.LaterFenceLine; l > 0 && hops > 0 && strings.Trim(p.Code, " \t\r\n;") == "" {
			at := 0
			for range l - 1 {
				at += strings.IndexByte(src[at:], '\n') + 1
			}
			return prepareFrom(strings.Repeat("\n", l-1)+src[at:], hops-1)
		}
	}
	return p, err
}

// prepare is Prepare on the program Unfence kept.
func prepare(src string) (Prepared, *Error) {
	src = blankHashbang(src)
	toks, ok := scan(src)
	beat(len(src))
	// Before anything reads the tokens recursively (walk), and before
	// QuickJS parses what the tokenizer could not read.
	if err := checkNesting(src, toks); err != nil {
		return Prepared{}, err
	}
	if !ok {
		return Prepared{Code: src}, nil // left to QuickJS, which reports the error
	}
	m, bad := match(toks)
	if bad >= 0 {
		return Prepared{Code: src}, nil
	}
	s := &stripper{src: src, toks: toks, m: m, exprClose: map[int]bool{}}
	s.walk(0, len(toks), fBlock)
	if s.err != nil {
		return Prepared{}, s.err
	}
	beat(len(src))
	out := s.output()
	if out != src {
		// TypeScript erased: the JavaScript's tokens are src's less the
		// erased ones, at the same offsets.
		if toks, ok = s.tokens(out); !ok {
			return Prepared{Code: out}, nil
		}
		if m, bad = match(toks); bad >= 0 {
			return Prepared{Code: out}, nil
		}
	}
	if unwrapped, utoks, ok := unwrapMain(out, toks, m); unwrapped != out {
		out, toks = unwrapped, utoks
		if !ok {
			return Prepared{Code: out}, nil
		}
		if m, bad = match(toks); bad >= 0 {
			return Prepared{Code: out}, nil
		}
	}
	var line, mapLine int
	var test Prepared
	if a, name := asyncForEach(toks, m); a >= 0 {
		if line, _ = position(out, toks[a].s); name != "forEach" {
			test.AsyncTestLine, test.AsyncTest, line = line, name, 0
		}
	}
	if a := awaitedMap(toks, m); a >= 0 {
		mapLine, _ = position(out, toks[a].s)
	}
	body := topLevelReturn(toks)
	uncalled := -1
	if !body {
		call, params := uncalledMain(toks, m)
		if call == "" && params < 0 {
			call, params = loneConst(toks, m)
		}
		if call != "" {
			// Appended: every position of the model's text stays where it was.
			return Prepared{Code: out + call, Body: true, AsyncForEachLine: line, AwaitedMapLine: mapLine, AsyncTestLine: test.AsyncTestLine, AsyncTest: test.AsyncTest, Unawaited: unawaitedCalls(out, toks, m, true)}, nil
		}
		if uncalled = params; uncalled < 0 {
			uncalled = loneFunction(toks, m)
		}
	}
	p := Prepared{Code: out, Body: body, AsyncForEachLine: line, AwaitedMapLine: mapLine, AsyncTestLine: test.AsyncTestLine, AsyncTest: test.AsyncTest, ObjectBlock: objectBlock(toks, m), Unawaited: unawaitedCalls(out, toks, m, body)}
	if !body && uncalled < 0 {
		p.Functions = onlyFunctions(toks, m)
	}
	if body {
		p.Returned = lastReturned(out, toks, m)
	} else {
		p.LastPath = lastPath(out, toks, m)
	}
	if uncalled >= 0 {
		p.Uncalled.Line, _ = position(out, toks[uncalled].s)
		p.Uncalled.Name = toks[uncalled].v
	} else if d := lastDeclaration(toks, m); !body && d >= 0 {
		p.Declared.Line, _ = position(out, toks[d].s)
		p.Declared.Name = toks[d].v
	}
	return p, nil
}

// ObjectBlock is objectBlock on src's tokens: false when they do not scan
// or their brackets do not match.
func ObjectBlock(src string) bool {
	toks, ok := scan(src)
	if !ok {
		return false
	}
	m, bad := match(toks)
	return bad < 0 && objectBlock(toks, m)
}

// objectBlock says whether toks (m: their matched brackets) are one block,
// `{` to its `}` and at most a `;`, that starts with a name, a string or a
// number and a colon: an object literal as a program. JavaScript reads it
// as a block whose first statement has a label, so `{ a: 1 }` gives 1 and
// `{ a: 1, b: 2 }` is a syntax error at the second colon. A label before
// a loop or a switch (`{ outer: for (...) ... }`) is a real label.
func objectBlock(toks []token, m []int) bool {
	n := len(toks)
	if n > 0 && toks[n-1].k == tPunct && toks[n-1].v == ";" {
		n--
	}
	s := &stripper{toks: toks}
	if n < 4 || !s.is(0, "{") || m[0] != n-1 || !s.is(2, ":") {
		return false
	}
	if k := toks[1].k; k != tName && k != tString && k != tNumber {
		return false
	}
	for _, kw := range []string{"for", "while", "do", "switch"} {
		if s.is(3, kw) {
			return false
		}
	}
	return true
}

// topLevelReturn says whether a return statement stands outside every
// bracket, hence outside any function (a function body is always in
// braces). A return inside blocks is not looked for: the script attempt
// finds it.
func topLevelReturn(toks []token) bool {
	for i, depth := range nameDepths(toks) {
		if depth == 0 && toks[i].v == "return" && (i == 0 || toks[i-1].v != "." && toks[i-1].v != "?.") {
			return true
		}
	}
	return false
}

// nameDepths yields the index of each name token and how many brackets
// (and template substitutions) enclose it.
func nameDepths(toks []token) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		depth := 0
		for i, t := range toks {
			switch t.k {
			case tPunct:
				switch t.v {
				case "(", "[", "{":
					depth++
				case ")", "]", "}":
					depth--
				}
			case tTemplateHead:
				depth++
			case tTemplateTail:
				depth--
			case tName:
				if !yield(i, depth) {
					return
				}
			}
		}
	}
}

// blankHashbang overwrites a first line that is a hashbang (#!/usr/bin/env
// node), which a script may start with, with spaces: the program is the
// body of a function, where QuickJS refuses it. The lines Unfence emptied
// before a fenced block come first, and empty lines a model sent with
// Windows line ends.
func blankHashbang(src string) string {
	start := len(src) - len(strings.TrimLeft(src, "\r\n"))
	if !strings.HasPrefix(src[start:], "#!") {
		return src
	}
	end := strings.IndexAny(src[start:], "\r\n")
	if end < 0 {
		end = len(src) - start
	}
	end += start
	return src[:start] + strings.Repeat(" ", utf8.RuneCountInString(src[start:end])) + src[end:]
}
