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
}

// Prepare is Program, and says whether the result is a function body.
// Plain JavaScript is tokenized once for all of it.
func Prepare(src string) (Prepared, *Error) {
	kept, err := Unfence(src)
	if err != nil {
		return Prepared{}, err
	}
	p, err := prepare(kept)
	if err == nil {
		p.LaterFenceLine = laterFence(src, kept)
	}
	return p, err
}

// laterFence returns the 1-based line of the first JavaScript or
// TypeScript fence of src that opens after the block Unfence kept (kept),
// or 0.
func laterFence(src, kept string) int {
	if kept == src {
		return 0
	}
	lines := strings.SplitAfter(src, "\n")
	// Unfence empties the lines up to the opening fence, and the block's
	// own empty lines follow it: the fence is the last non-empty line of
	// the source before what the kept text starts with.
	first := len(kept) - len(strings.TrimLeft(kept, "\n")) - 1
	if first < 0 || first >= len(lines) {
		return 0
	}
	for first > 0 && strings.TrimSpace(lines[first]) == "" {
		first--
	}
	t := strings.TrimSpace(lines[first])
	if len(t) < 3 {
		return 0
	}
	marker := t[:3]
	i := first + 1
	for ; i < len(lines); i++ { // the block's closing fence
		if t := strings.TrimSpace(lines[i]); strings.HasPrefix(t, marker) && strings.Trim(t, marker[:1]) == "" {
			break
		}
	}
	for i++; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		for _, mk := range []string{"```", "~~~"} {
			if info := strings.TrimLeft(t, mk[:1]); strings.HasPrefix(t, mk) && info != "" && fenceLangs[lang(info)] {
				return i + 1
			}
		}
	}
	return 0
}

// prepare is Prepare on the program Unfence kept.
func prepare(src string) (Prepared, *Error) {
	src = blankHashbang(src)
	toks, ok := scan(src)
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
	var line int
	if a := asyncForEach(toks, m); a >= 0 {
		line, _ = position(out, toks[a].s)
	}
	body := topLevelReturn(toks)
	if !body {
		if call := uncalledMain(toks, m); call != "" {
			// Appended: every position of the model's text stays where it was.
			return Prepared{Code: out + call, Body: true, AsyncForEachLine: line, Unawaited: unawaitedCalls(out, toks, m, true)}, nil
		}
	}
	return Prepared{Code: out, Body: body, AsyncForEachLine: line, ObjectBlock: objectBlock(toks, m), Unawaited: unawaitedCalls(out, toks, m, body)}, nil
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

// callMain is appended to a program that declares main() and never calls
// it; callMainTools to one that declares main(tools), the sandbox's
// global being what such a main expects.
const (
	callMain      = "\n;return await main();"
	callMainTools = "\n;return await main(tools);"
)

// uncalledMain returns the call to append when the program declares
// `[async] function main()` (no parameters, or the one parameter `tools`)
// at its top level, or assigns such a function to main (`const main =
// async () => {...}`, `let main = async function () {...}`), beside other
// code such as helper functions or alone, and never names main outside
// that declaration: models write both shapes and mean main to run, and
// without the call the run would end with no result and no hint why. A
// main that calls itself (recursion, a retry) is still never called by
// the program, so names inside main's own body do not count. Otherwise it
// returns "". m holds toks' matched brackets.
func uncalledMain(toks []token, m []int) string {
	s := &stripper{toks: toks, m: m}
	call, names, skipTo := "", 0, -1
	for i, depth := range nameDepths(toks) {
		if i <= skipTo || toks[i].v != "main" {
			continue
		}
		names++
		if depth != 0 || i == 0 || toks[i-1].k != tName {
			continue
		}
		open, arrow := -1, false
		switch toks[i-1].v {
		case "function":
			open = i + 1
		case "const", "let", "var":
			// = [async] (params) =>  or  = [async] function [name] (params)
			j := i + 2
			if !s.is(i+1, "=") {
				continue
			}
			if s.is(j, "async") && !s.is(j+1, "=>") {
				j++
			}
			if s.is(j, "function") {
				if j++; j < len(toks) && toks[j].k == tName {
					j++ // the function expression's own name, main or not
				}
			} else {
				arrow = true
			}
			open = j
		}
		if !s.is(open, "(") || m[open] <= open {
			continue
		}
		switch {
		case s.is(open+1, ")"):
			call = callMain
		case open+2 < len(toks) && toks[open+1].k == tName && toks[open+1].v == "tools" && s.is(open+2, ")"):
			call = callMainTools
		default:
			continue
		}
		b := m[open] + 1
		if arrow {
			if !s.is(b, "=>") {
				call = ""
				continue
			}
			b++
		}
		if s.is(b, "{") && m[b] > b {
			skipTo = m[b]
		} else if !arrow {
			call = ""
		} else {
			skipTo = i + 1
		}
	}
	if names != 1 {
		return ""
	}
	return call
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

// fenceLangs are the info strings of a fence whose block is taken as code.
var fenceLangs = map[string]bool{
	"": true, "js": true, "javascript": true, "ts": true, "typescript": true, "mjs": true, "jsx": true, "tsx": true,
}

// Unfence returns the code of the first markdown fence (``` or ~~~, with
// no language or a JavaScript or TypeScript one) when src has one: the
// lines before it become empty, so line numbers still count from the top
// of what the model wrote, and everything after the closing fence is
// dropped. A fence line inside a template literal of the code is code.
// Fences of other languages only (a model that wrote Python, or data as
// ```json) are an error at the first: as JavaScript, their backticks are
// template literals, and the program failed with "not a function".
func Unfence(src string) (string, *Error) {
	if !strings.Contains(src, "```") && !strings.Contains(src, "~~~") {
		return src, nil
	}
	lines := strings.SplitAfter(src, "\n")
	open, marker, other, seen := -1, "", "", false
	var firstOther *Error
	off := 0
	for i, l := range lines {
		t := strings.TrimSpace(l)
		for _, mk := range []string{"```", "~~~"} {
			if !strings.HasPrefix(t, mk) {
				continue
			}
			info := strings.TrimLeft(t, mk[:1])
			switch {
			case other != "":
				if other == mk && info == "" {
					other = "" // the end of another language's block
				}
			case fenceLangs[lang(info)]:
				if !seen && inTemplate(src[:off]) {
					return src, nil // the code writes markdown itself
				}
				open, marker = i, mk
			default:
				if !seen && inTemplate(src[:off]) {
					return src, nil
				}
				other = mk
				if firstOther == nil {
					firstOther = &Error{Line: i + 1, Column: 1, Message: mk + lang(info) + " is not JavaScript: executeCode runs JavaScript or TypeScript (the body of an async function); send the program in JavaScript, bare or in a ```js block"}
				}
			}
			seen = true
			break
		}
		if open >= 0 {
			break
		}
		off += len(l)
	}
	if open < 0 {
		if firstOther != nil {
			return "", firstOther
		}
		return src, nil
	}
	var b strings.Builder
	for range open + 1 {
		b.WriteByte('\n')
	}
	for _, l := range lines[open+1:] {
		if strings.HasPrefix(strings.TrimSpace(l), marker) && strings.Trim(strings.TrimSpace(l), marker[:1]) == "" {
			break
		}
		b.WriteString(l)
	}
	return b.String(), nil
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

// lang is a fence's language: the first word of its info string.
func lang(info string) string {
	if f := strings.Fields(info); len(f) > 0 {
		return strings.ToLower(f[0])
	}
	return ""
}

// inTemplate says whether src ends inside a template literal: a fence
// line after it is part of the code's string.
func inTemplate(src string) bool {
	s := &scanner{src: src}
	s.run()
	return s.openTemplate
}

// UnwrapMain makes a program that is one function with no parameters into
// that function's body, so what it returns is the result:
//
//	async () => { ... }            async () => expr
//	(async () => { ... })()        async function main() { ... }  [main() | await main()]
//	() => { ... }                  () => expr
//	function main() { ... }
//
// A function that names itself in its body keeps its name (and the
// program stays as written).
//
// The function's head and tail become spaces (an expression body gets
// 'return' in place of its head), so positions do not move. Anything else
// comes back unchanged.
func UnwrapMain(src string) string {
	toks, ok := scan(src)
	if !ok {
		return src
	}
	m, bad := match(toks)
	if bad >= 0 {
		return src
	}
	out, _, _ := unwrapMain(src, toks, m)
	return out
}

// unwrapMain is UnwrapMain on src's tokens and their matched brackets; it
// also returns the tokens of what it returns (toks when that is src), ok
// false if they could not be read (see stripper.tokens).
func unwrapMain(src string, toks []token, m []int) (string, []token, bool) {
	out, s, extra := unwrapEdits(src, toks, m)
	if out == src {
		return src, toks, true
	}
	utoks, ok := s.tokens(out, extra...)
	return out, utoks, ok
}

// unwrapEdits is unwrapMain's text, with the stripper that erased and the
// token it wrote ("return"), if any, when the text changed.
func unwrapEdits(src string, toks []token, m []int) (string, *stripper, []token) {
	if len(toks) < 5 {
		return src, nil, nil
	}
	s := &stripper{src: src, toks: toks, m: m}
	n := len(toks)
	if s.is(n-1, ";") {
		n--
	}
	i, end := 0, n // the function is toks[i:end]
	iife := false
	if s.is(0, "(") && m[0]+3 == n && s.is(m[0]+1, "(") && s.is(m[0]+2, ")") {
		i, end, iife = 1, m[0], true
	}
	head := i
	// A function that is the whole program is its main, async or not: as a
	// script its value would be the function, not a result. A plain
	// function declaration and a call of it is a program of its own
	// (function f() { ... } f()), which the script already runs.
	async := s.is(i, "async")
	if async {
		i++
	}
	name := ""
	arrow := false
	switch {
	case s.is(i, "function"):
		i++
		if s.tok(i).k == tName {
			name = s.tok(i).v
			i++
		}
		if !s.is(i, "(") || !s.is(i+1, ")") || !s.is(i+2, "{") {
			return src, nil, nil
		}
		i += 2
	case s.is(i, "(") && s.is(i+1, ")") && s.is(i+2, "=>"):
		i += 3
		arrow = true
	default:
		return src, nil, nil
	}
	if !s.is(i, "{") {
		// An arrow with an expression body: 'return' replaces its head.
		if !arrow || iife && end != n-3 {
			return src, nil, nil
		}
		if !iife && s.hasTopLevel(i, end) {
			return src, nil, nil
		}
		if !async && !iife {
			// `() => expr`: the head becomes spaces, and the expression,
			// now the program's last statement, is its value (awaited when
			// a Promise). Its head may be too short to hold 'return '. An
			// expression that would read as a declaration stays.
			switch s.tok(i).v {
			case "function", "class", "let", "async":
				return src, nil, nil
			}
			s.blank(head, i)
			return s.output(), s, nil
		}
		if s.tok(i).nl {
			return src, nil, nil
		}
		start := head
		if iife {
			start = 0
			s.blank(end, len(toks))
		}
		p := toks[start].s
		if h := src[p:toks[i].s]; len(h) < len("return ") || strings.ContainsAny(h, "\n\r") {
			return src, nil, nil
		}
		s.blank(start, i)
		out := s.output()
		return out[:p] + "return" + out[p+len("return"):], s, []token{{k: tName, s: p, e: p + len("return"), v: "return"}}
	}
	body := m[i]
	rest := body + 1
	if name != "" {
		for j := i + 1; j < body; j++ {
			if s.is(j, name) && !s.isProp(j) {
				return src, nil, nil // it calls itself: it needs its name
			}
		}
	}
	if !iife {
		// Only a call of the named async function may follow.
		switch {
		case rest == end:
		case async && name != "" && s.isCall(rest, end, name):
		default:
			return src, nil, nil
		}
	}
	s.blank(0, i+1)
	s.blank(body, len(toks))
	return s.output(), s, nil
}

// isCall says whether toks[i:end] is `name()`, `await name()` or `return
// [await] name()`, with an optional ';'.
func (s *stripper) isCall(i, end int, name string) bool {
	if s.is(i, "return") {
		i++
	}
	if s.is(i, "await") {
		i++
	}
	if !s.is(i, name) || !s.is(i+1, "(") || !s.is(i+2, ")") {
		return false
	}
	i += 3
	if i < end && s.is(i, ";") {
		i++
	}
	return i == end
}

// hasTopLevel says whether a ',' or ';' at the top level of toks[i:end]
// ends the arrow's expression body before the program does.
func (s *stripper) hasTopLevel(i, end int) bool {
	for ; i < end; i++ {
		if s.m[i] > i {
			i = s.m[i]
			continue
		}
		if s.is(i, ",") || s.is(i, ";") {
			return true
		}
	}
	return false
}
