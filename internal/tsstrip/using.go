package tsstrip

import "strconv"

// using rewrites a `using` (or `await using`, async) declaration from i,
// whose keyword is at kw, in the block that ends at end: QuickJS has
// neither. Each name becomes a const whose dispose method is read at once
// (a value that is neither null nor undefined and has none is a
// TypeError), and the rest of the block runs in a try whose finally calls
// it, the last declared first; an error of a dispose method while another
// is thrown is thrown as a SuppressedError (an Error named so: QuickJS has
// no such class) of both, as the proposal's DisposableStack does.
func (s *stripper) using(i, kw, end int, async bool) int {
	if end < len(s.toks) {
		if o := s.m[end]; s.is(o-1, ")") && s.is(s.m[o-1]-1, "switch") {
			s.fail(i, "using is not supported directly in a switch's case; put the case's code in a block { ... }")
			return i
		}
	}
	aw := ""
	if async {
		aw = "await "
	}
	s.replace(i, kw+1, "const")
	j := kw + 1
	for s.err == nil {
		if s.tok(j).k != tName || s.isProp(j) {
			s.fail(j, "using declares a name (using x = ...), not a pattern")
			return j
		}
		name, id, te := s.tok(j).v, s.scratch()+"u"+strconv.Itoa(s.uses), s.scratch()+"e"
		s.uses++
		if j++; s.is(j, ":") {
			k, ok := s.typ(j + 1)
			if !ok {
				return j
			}
			s.blank(j, k)
			j = k
		}
		if !s.is(j, "=") {
			s.fail(j, "using needs a value: using "+name+" = ...")
			return j
		}
		e := s.valueEnd(j+1, end)
		s.walk(j+1, e, fExpr)
		m, what := name+"[Symbol.dispose]", "[Symbol.dispose]()"
		if async {
			m, what = name+"[Symbol.asyncDispose] ?? "+m, "[Symbol.asyncDispose]() or "+what
		}
		reg := " const " + id + "m = " + name + " == null ? void 0 : " + m + "; if (" + name + " != null && typeof " + id +
			`m != "function") throw new TypeError("using: ` + name + ` has no ` + what + ` method"); let ` + id + "x; try {"
		tail := "} catch (" + te + ") { " + id + "x = [" + te + "] } finally { try { " + aw + id + "m?.call(" + name + ") } catch (" + te + ") { " + id + "x = [" + id +
			`x ? Object.assign(new Error("An error was suppressed during disposal."), { name: "SuppressedError", error: ` + te + `, suppressed: ` + id +
			"x[0] }) : " + te + "] } if (" + id + "x) throw " + id + "x[0] }"
		at := len(s.src)
		if end < len(s.toks) {
			at = s.toks[end].s
		} else if end > 0 {
			at = s.toks[end-1].e
		}
		s.edits = append(s.edits, edit{s: at, e: at, prio: -s.uses, text: tail})
		switch {
		case s.is(e, ","):
			s.replace(e, e+1, ";"+reg+" const")
			j = e + 1
			continue
		case s.is(e, ";"):
			s.replace(e, e+1, ";"+reg)
			return e + 1
		}
		// Before the tails when nothing stands between the declaration
		// and the block's end (`{using a = f()}`, a program's last line).
		o := s.toks[e-1].e
		s.edits = append(s.edits, edit{s: o, e: o, prio: -1 << 30, text: ";" + reg})
		return e
	}
	return j
}
