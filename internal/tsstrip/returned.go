package tsstrip

// maxReturnedChars bounds the returned expression Prepared.Returned
// quotes: a longer one is not quoted (the warning that names it is read
// by a model, within its budget).
const maxReturnedChars = 120

// lastReturned is the text of the expression that the program's last
// statement returns, `return os.lenght`, when that statement stands
// outside every bracket (so outside any function) and it is the only way
// the program can end without a value: "" when any return in the code
// gives nothing (`return;`, `return undefined`, `return void x`), which
// a program that means to return nothing writes, or when the expression
// is longer than maxReturnedChars. A run whose result is undefined then
// says which expression was (the run had no result and no word why).
func lastReturned(src string, toks []token, m []int) string {
	s := &stripper{toks: toks, m: m}
	for j := range toks {
		if toks[j].k == tName && toks[j].v == "return" && !s.is(j-1, ".") && !s.is(j-1, "?.") {
			next := s.tok(j + 1)
			if j+1 >= len(toks) || next.nl || next.k == tPunct && (next.v == ";" || next.v == "}") || next.v == "undefined" || next.v == "void" {
				return "" // a return of nothing, somewhere: the program may mean it
			}
		}
	}
	k, n := s.lastStatement("return")
	if k < 0 || k+1 >= n || !s.oneExpression(k+1, n) {
		return ""
	}
	text := src[toks[k+1].s:toks[n-1].e]
	if len(text) > maxReturnedChars {
		return ""
	}
	return text
}

// lastPath is the property read a program without a top-level return
// ends with, `os.lenght` or `orders[0].name` as its last statement (a
// script's value is its last statement's): "" when that statement is
// anything else. A run whose value is then undefined says which read gave
// it, as for a returned one.
func lastPath(src string, toks []token, m []int) string {
	s := &stripper{toks: toks, m: m}
	n := len(toks)
	if s.is(n-1, ";") {
		n--
	}
	j, members := n-1, 0
reads:
	for j > 0 {
		switch {
		case toks[j].k == tName && (s.is(j-1, ".") || s.is(j-1, "?.")):
			j -= 2
		case s.is(j, "]") && j >= 2 && toks[j-1].k == tNumber && s.is(j-2, "["):
			if j -= 3; s.is(j, "?.") {
				j--
			}
		default:
			break reads
		}
		members++
	}
	if j < 0 || toks[j].k != tName || members == 0 {
		return ""
	}
	if j > 0 && !s.is(j-1, ";") && !s.is(j-1, "}") && !s.breaksAt(j) {
		return ""
	}
	text := src[toks[j].s:toks[n-1].e]
	if len(text) > maxReturnedChars {
		return ""
	}
	return text
}
