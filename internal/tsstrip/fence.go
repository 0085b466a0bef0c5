package tsstrip

// Markdown fences around a model's program: the first JavaScript or
// TypeScript block is the program, the prose around it becomes empty lines
// (positions still count from the top of what the model wrote), and a later
// block is reported, not run.

import "strings"

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
		if closing(lines[i], marker) {
			break
		}
	}
	for i++; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		for _, mk := range []string{"```", "~~~"} {
			if info := strings.TrimLeft(t, mk[:1]); strings.HasPrefix(t, mk) && info != "" && fenceLang(lang(info)) {
				return i + 1
			}
		}
	}
	return 0
}

// fenceLang says whether l (lang of a fence's info string) marks a block
// taken as code: none, or the names and aliases GitHub's linguist gives
// JavaScript and TypeScript (```node is JavaScript there) and their files'
// extensions. A text of names, not a map literal, whose statement per name
// was code of the core's own.
func fenceLang(l string) bool {
	return l == "" || strings.Contains(" js javascript ts typescript mjs jsx tsx node cjs mts cts es6 ", " "+l+" ")
}

// jsOnly is what a program in another language is told.
const jsOnly = "executeCode runs JavaScript or TypeScript (the body of an async function); send the program in JavaScript, bare or in a ```js block"

// Unfence returns the code of the first markdown fence (``` or ~~~, with
// no language or a JavaScript or TypeScript one) when src has one: the
// lines before it become empty, so line numbers still count from the top
// of what the model wrote, and everything after the closing fence is
// dropped. A fence line inside a template literal of the code is code.
// Fences of other languages only (a model that wrote Python, or data as
// ```json) are an error at the first: as JavaScript, their backticks are
// template literals, and the program failed with "not a function".
func Unfence(src string) (string, *Error) {
	src = unthink(untail(src))
	if !strings.Contains(src, "```") && !strings.Contains(src, "~~~") {
		return untag(src), nil
	}
	lines := strings.SplitAfter(src, "\n")
	open, marker, other, seen := -1, "", "", false
	var firstOther *Error
	off := 0
	for i, l := range lines {
		// A BOM before the fence (copied text) is white space to JavaScript.
		t := strings.TrimSpace(strings.TrimPrefix(l, "\ufeff"))
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
			case fenceLang(lang(info)):
				if !seen && inCode(src, off) {
					return src, nil // the code writes markdown itself
				}
				open, marker = i, mk
			default:
				if !seen && inCode(src, off) {
					return src, nil
				}
				other = mk
				if firstOther == nil {
					firstOther = &Error{Line: i + 1, Column: 1, Message: mk + lang(info) + " is not JavaScript: " + jsOnly}
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
	// A bare fence with nothing after it, below code: the closing fence of
	// a block whose opening fence was left out ("return 1;\n```"). As an
	// opening one, the program was its empty block, and the run gave
	// nothing, with no word of why.
	if before := src[:off]; strings.TrimSpace(before) != "" && strings.Trim(strings.TrimSpace(lines[open]), marker[:1]) == "" &&
		strings.TrimSpace(strings.Join(lines[open+1:], "")) == "" {
		return before, nil
	}
	var b strings.Builder
	for range open + 1 {
		b.WriteByte('\n')
	}
	for _, l := range lines[open+1:] {
		if closing(l, marker) {
			return b.String(), nil
		}
		b.WriteString(l)
	}
	// No line closes the block: the marker at the end of a line of it
	// ("return a;```", prose after) is the fence when, as code, it opens
	// a template literal (the run failed with "unexpected end of
	// string"): not when it ends one, nor in a comment or a string.
	// Each line weighed scans the code above it: the first
	// maxTrailingFences that end with the marker are (a model writes one),
	// so that a program of thousands of such lines ("a``````") is not
	// scanned thousands of times (8,000 lines held the page 16 s).
	code := b.String()
	b.Reset()
	tries := 0
	for _, l := range strings.SplitAfter(code, "\n") {
		t := strings.TrimRight(l, " \t\r\n")
		// (~~~ leaves a template literal's state as it is: it closes
		// the block outside one.)
		if body, ok := strings.CutSuffix(t, marker); ok && tries < maxTrailingFences {
			tries++
			if inTemplate(b.String()+t) == (marker == "```") {
				return b.String() + body + "\n", nil
			}
		}
		b.WriteString(l)
	}
	return code, nil
}

// unthink blanks a reasoning model's <think>...</think> before the code
// (DeepSeek-R1, Qwen3 write their thought so): its lines become empty, as
// the prose around a fence does. As code, <think> is JSX, which the
// sandbox does not run.
func unthink(src string) string {
	i := strings.Index(src, "</think>")
	if i < 0 || !strings.HasPrefix(strings.TrimSpace(src[:i]), "<think>") {
		return src
	}
	return strings.Repeat("\n", strings.Count(src[:i], "\n")) + src[i+len("</think>"):]
}

// untail drops an end of sequence token at the very end of src that a
// model's server left in: </s> (Llama 2's, Mistral's), or one special
// token, the only one of src (gpt-oss's <|return|>, DeepSeek's
// <｜end▁of▁sentence｜>). As code, its < was a syntax error on the
// program's last line; a program that runs ends with none (a comment's
// text aside). Template tokens the code begins with (<|python_start|>)
// leave the end alone.
func untail(src string) string {
	t := strings.TrimRight(src, " \t\r\n")
	if s, ok := strings.CutSuffix(t, "</s>"); ok {
		return s
	}
	for _, open := range []string{"<|", "<｜"} {
		i := strings.Index(t, open)
		if i >= 0 && i == strings.LastIndex(t, open) && strings.HasSuffix(t, open[1:]+">") && !strings.ContainsAny(t[i:], " \n") {
			return t[:i]
		}
	}
	return src
}

// maxTrailingFences is how many lines of a block no line closes Unfence
// weighs as ending with its closing fence.
const maxTrailingFences = 8

// closing says whether line l closes a block opened with marker: the
// marker alone, or followed by a tag: smolagents' <end_code>
// (```<end_code>), which models trained on its agents write on the
// fence's line, or a chat template's end of turn (<|im_end|>, <|eot_id|>,
// <end_of_turn>, </s>) that a small model's server left in.
func closing(l, marker string) bool {
	t := strings.TrimSpace(l)
	if !strings.HasPrefix(t, marker) {
		return false
	}
	rest := strings.TrimLeft(t, marker[:1])
	return rest == "" || rest[0] == '<'
}

// untag returns the code between a line <code> (with attributes or none)
// and a line </code> of src, or <execute> and </execute> (CodeAct's)
// (smolagents' newer format, which models trained on its agents write
// around a program), or a line <script> (with attributes or none) and a
// line </script> (a model writing for a page): the lines before become
// empty, the rest is dropped. As code, such a line is JSX, which the
// sandbox does not run, so no program that ran before changes meaning.
func untag(src string) string {
	if !strings.Contains(src, "<code") && !strings.Contains(src, "<script") && !strings.Contains(src, "<execute") {
		return src
	}
	lines := strings.SplitAfter(src, "\n")
	off := 0
	for i, l := range lines {
		off += len(l)
		closeTag := openTag(strings.TrimSpace(l))
		// A tag line inside a template literal is the markup a program
		// writes (`<script>` in a page it builds), not a wrapper.
		if closeTag == "" || inCode(src, off-len(l)) {
			continue
		}
		var b strings.Builder
		for range i + 1 {
			b.WriteByte('\n')
		}
		for _, l := range lines[i+1:] {
			if strings.HasPrefix(strings.TrimSpace(l), closeTag) {
				return b.String()
			}
			b.WriteString(l)
		}
		return src // never closed: left to the syntax error's words
	}
	return src
}

// openTag returns the closing tag of a line t that is only an opening
// <code ...> or <script ...> tag (with attributes or none: <code
// class="language-javascript">, as a page writes it), else "".
func openTag(t string) string {
	for _, tag := range []string{"code", "script", "execute"} {
		if rest, ok := strings.CutPrefix(t, "<"+tag); ok && strings.HasSuffix(rest, ">") && (rest == ">" || rest[0] == ' ') && !strings.ContainsAny(rest[:len(rest)-1], "<>") {
			return "</" + tag + ">"
		}
	}
	return ""
}

// lang is a fence's language: the first word of its info string, up to
// a colon (```typescript:run.ts names its file so).
func lang(info string) string {
	if f := strings.Fields(info); len(f) > 0 {
		l, _, _ := strings.Cut(f[0], ":")
		return strings.ToLower(l)
	}
	return ""
}

// TemplateFence returns the 1-based line, at most upto, of the first line
// of src that begins with ``` inside a template literal (a program writing
// markdown, whose fence's first backtick ends its literal), or 0.
func TemplateFence(src string, upto int) int {
	off := 0
	for i, l := range strings.SplitAfter(src, "\n") {
		if i >= upto {
			break
		}
		if strings.HasPrefix(strings.TrimLeft(l, " \t"), "```") && inTemplate(src[:off]) {
			return i + 1
		}
		off += len(l)
	}
	return 0
}

// inCode says whether src[:off] ends inside a template literal or a block
// comment of the code: a fence or tag line after it is the code's text,
// not a wrapper around the program. (A ```js block in a comment ran in
// place of the program around it, and a ```json one refused it.) A
// comment opened after a name or a number ("x = 1 /*") is the code's when
// src closes it after off (prose's "rm -rf /*" does not), and its line
// reads as code: two words side by side ("The pattern a /* b", "Step 1
// /*") are prose's, whose fenced program's own "*/" closes nothing.
func inCode(src string, off int) bool {
	s := &scanner{src: src[:off]}
	s.run()
	return s.openTemplate || s.openComment || s.midComment && strings.Contains(src[off:], "*/") && !s.proseLine()
}

// proseLine says whether the scanned text's last line holds two words
// (names, numbers or strings) side by side where code puts an operator
// between them: neither is a keyword that takes a word after it ("let x",
// "return 1", "x of y", "type T"). A joining word the line ends on, before
// the /*, joins nothing: "Files in /*tmp" is prose's, where "x in y" is code.
func (s *scanner) proseLine() bool {
	last := len(s.toks) - 1
	for i := last; i > 0 && !s.toks[i].nl; i-- {
		a, b := s.toks[i-1], s.toks[i]
		if isWord(a) && isWord(b) && !expectsMore[a.v] && !joins[a.v] && (!joins[b.v] || i == last) {
			return true
		}
	}
	return false
}

func isWord(t token) bool { return t.k == tName || t.k == tNumber || t.k == tString }

// joins lists the words that stand beside another in code (x of y, x as
// T) or TypeScript's that take a word after them.
var joins = words("for break continue in of instanceof as satisfies from extends implements is keyof infer type interface enum declare namespace module abstract readonly public private protected static get set override accessor using asserts unique")

// inTemplate says whether src ends inside a template literal: a fence
// line after it is part of the code's string.
func inTemplate(src string) bool {
	s := &scanner{src: src}
	s.run()
	return s.openTemplate
}
