package tsstrip

// asyncForEach returns the index of the first `async` that starts the
// first argument of a `.forEach(` call (`async x =>`, `async (x) =>`,
// `async function`), or -1. forEach drops what its callback returns, so
// such a program goes on, and may return, before the callbacks' awaits
// finish, and their errors reach nobody: a sum came back short with no
// hint. A callback named elsewhere (`arr.forEach(save)`) is not looked up.
func asyncForEach(toks []token, m []int) int {
	for i := 1; i+3 < len(toks); i++ {
		if t := toks[i]; t.k != tName || t.v != "forEach" || !isDot(toks[i-1]) {
			continue
		}
		open := openParen(toks, i+1)
		if open < 0 || open+3 >= len(toks) {
			continue
		}
		a, b := toks[open+1], toks[open+2]
		// `async` followed by a line break is a name, as is `async => x`
		// (a parameter called async).
		if a.k != tName || a.v != "async" || b.nl {
			continue
		}
		switch {
		case b.k == tName && b.v == "function":
			return open + 1
		case b.k == tName:
			if isPunct(toks[open+3], "=>") {
				return open + 1
			}
		case isPunct(b, "("):
			if c := m[open+2]; c+1 < len(toks) && isPunct(toks[c+1], "=>") {
				return open + 1
			}
		}
	}
	return -1
}

func isPunct(t token, v string) bool { return t.k == tPunct && t.v == v }
