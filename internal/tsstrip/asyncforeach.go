package tsstrip

// asyncForEach returns the index of the first `async` that starts the
// first argument of a `.forEach(` call (`async x =>`, `async (x) =>`,
// `async function`), or -1. forEach drops what its callback returns, so
// such a program goes on, and may return, before the callbacks' awaits
// finish, and their errors reach nobody: a sum came back short with no
// hint. A callback named elsewhere (`arr.forEach(save)`) is not looked up.
func asyncForEach(toks []token, m []int) int {
	s := &stripper{toks: toks, m: m}
	for i := 1; i < len(toks); i++ {
		if toks[i].k != tName || toks[i].v != "forEach" || !isDot(toks[i-1]) {
			continue
		}
		open := openParen(toks, i+1)
		// `async` followed by a line break is a name, as is `async => x`
		// (a parameter called async).
		if open < 0 || !s.is(open+1, "async") || s.tok(open+2).nl {
			continue
		}
		switch b := s.tok(open + 2); {
		case s.is(open+2, "function"),
			b.k == tName && s.is(open+3, "=>"),
			s.is(open+2, "(") && s.is(m[open+2]+1, "=>"):
			return open + 1
		}
	}
	return -1
}
