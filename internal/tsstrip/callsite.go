package tsstrip

import "strings"

// CallSite finds where src calls the tool name directly: the '(' of
// `tools.<namespace>.<name>(` (with '.' or '?.') or of
// `tool_call("<name>", ...)`. It returns that 1-based line and column when
// there is exactly one such call, and 0, 0 when there is none (a call
// through an alias or a computed name) or several (it cannot tell which).
// A tool's error that reaches the run's end through a returned promise was
// thrown through no frame of the program, so this is the only position
// there is for it; finding it here costs nothing until a run fails so.
func CallSite(src, name string) (line, col int) {
	if name == "" {
		return 0, 0
	}
	parts := strings.Split(name, ".")
	return site(src, func(toks []token, i int) int {
		switch toks[i].v {
		case "tools":
			return calledPath(toks, i+1, parts)
		case "tool_call":
			return calledByName(src, toks, i+1, name)
		}
		return -1
	})
}

// SearchSite finds the '(' of `tool_search(` as CallSite finds a tool's:
// tool_search's error (a bad limit) is thrown after its await, through no
// frame of the program either.
func SearchSite(src string) (line, col int) {
	return site(src, func(toks []token, i int) int {
		if toks[i].v != "tool_search" {
			return -1
		}
		return openParen(toks, i+1)
	})
}

// site is the position of the one call that at matches (at gets a name
// token that is no property of something else and returns the index of its
// '(' or -1), or 0, 0 when none or several do.
func site(src string, at func(toks []token, i int) int) (line, col int) {
	toks, ok := scan(src)
	if !ok {
		return 0, 0
	}
	open, n := -1, 0
	for i, t := range toks {
		if t.k != tName || i > 0 && isDot(toks[i-1]) {
			continue
		}
		if o := at(toks, i); o >= 0 {
			open, n = o, n+1
		}
	}
	if n != 1 {
		return 0, 0
	}
	return position(src, toks[open].s)
}

// calledPath matches `.a.b(` (each '.' may be '?.', and '?.' may come
// before the '(') from toks[i], and returns the index of the '(' or -1.
func calledPath(toks []token, i int, parts []string) int {
	for _, p := range parts {
		if i+1 >= len(toks) || !isDot(toks[i]) || toks[i+1].k != tName || toks[i+1].v != p {
			return -1
		}
		i += 2
	}
	return openParen(toks, i)
}

// calledByName matches `("name"` from toks[i] (a string or a template
// without substitutions), and returns the index of the '(' or -1.
func calledByName(src string, toks []token, i int, name string) int {
	open := openParen(toks, i)
	if open < 0 || open+1 >= len(toks) {
		return -1
	}
	a := toks[open+1]
	if (a.k != tString && a.k != tTemplate) || src[a.s+1:a.e-1] != name {
		return -1
	}
	return open
}

// openParen returns i when toks[i] is '(', i+1 when it is '?.' then '(',
// else -1.
func openParen(toks []token, i int) int {
	if i < len(toks) && toks[i].k == tPunct && toks[i].v == "?." {
		i++
	}
	if i < len(toks) && toks[i].k == tPunct && toks[i].v == "(" {
		return i
	}
	return -1
}

func isDot(t token) bool { return t.k == tPunct && (t.v == "." || t.v == "?.") }
