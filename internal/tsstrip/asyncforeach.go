package tsstrip

// asyncForEach returns the index (and the method) of the first `async` that starts the
// first argument of a `.forEach(` call (`async x =>`, `async (x) =>`,
// `async function`), or -1. forEach drops what its callback returns, so
// such a program goes on, and may return, before the callbacks' awaits
// finish, and their errors reach nobody: a sum came back short with no
// hint. A callback named elsewhere (`arr.forEach(save)`) is not looked up.
// Or of a `.filter(`, `.find(`, `.some(`, ... call (the first of either):
// each test gives a Promise, which is truthy, so every item passed (a
// filter(async) kept all, a find(async) gave the first) with no word why.
func asyncForEach(toks []token, m []int) (int, string) {
	s := &stripper{toks: toks, m: m}
	for i := 1; i < len(toks); i++ {
		if toks[i].k != tName || !isDot(toks[i-1]) {
			continue
		}
		switch toks[i].v {
		case "forEach", "filter", "find", "findIndex", "findLast", "findLastIndex", "some", "every":
		default:
			continue
		}
		if open := openParen(toks, i+1); open >= 0 && s.asyncCallback(open+1) {
			return open + 1, toks[i].v
		}
	}
	return -1, ""
}

// asyncCallback says whether the argument at i is an async function:
// `async x =>`, `async (x) =>` or `async function`. `async` followed by a
// line break is a name, as is `async => x` (a parameter called async).
func (s *stripper) asyncCallback(i int) bool {
	if !s.is(i, "async") || s.tok(i+1).nl {
		return false
	}
	b := s.tok(i + 1)
	return s.is(i+1, "function") || b.k == tName && s.is(i+2, "=>") || s.is(i+1, "(") && s.is(s.m[i+1]+1, "=>")
}

// awaitedMap returns the index of the first `await` of a `.map(` call
// whose callback is async or calls a tool (`await ids.map(async (id) =>
// ...)`, `await ids.map((id) => tools.orders.get({ id }))`), or -1: the
// await gives the array of promises at once, not their results, and the
// program read each promise as a result (undefined fields, calls cut off at
// its end) with no word of Promise.all.
func awaitedMap(toks []token, m []int) int {
	s := &stripper{toks: toks, m: m}
	for i := 0; i < len(toks); i++ {
		if !s.is(i, "await") {
			continue
		}
		// A member chain (a.b.c, a?.b) to .map(, then nothing chained after its call.
		j := i + 1
		for s.tok(j).k == tName && isDot(s.tok(j+1)) {
			j += 2
		}
		if j == i+1 || !s.is(j, "map") {
			continue
		}
		if open := openParen(toks, j+1); open >= 0 && m[open] > open && (s.asyncCallback(open+1) || s.callsTool(open+1, m[open])) && !isDot(s.tok(m[open]+1)) {
			return i
		}
	}
	return -1
}

// callsTool says whether toks[i:end] call a tool: `tools.` or `tools[`,
// or `tool_call(`.
func (s *stripper) callsTool(i, end int) bool {
	for ; i < end; i++ {
		if s.is(i, "tools") && (isDot(s.tok(i+1)) || s.is(i+1, "[")) || s.is(i, "tool_call") && s.is(i+1, "(") {
			return true
		}
	}
	return false
}
