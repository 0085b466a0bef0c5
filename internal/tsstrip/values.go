package tsstrip

import "strings"

// Enums and namespaces with values cannot be erased: they become what tsc
// emits for them (isolatedModules), an object that a function called at
// once fills, written on the declaration's own lines so that no later line
// moves. Models write them and meant them to run. The text is written from
// templates (fill): the core is WebAssembly, where each string
// concatenation and call costs code.

// fill is t with each %0 ... %9 replaced by a's string of that index.
//
//go:noinline
func fill(t string, a ...string) string {
	b := make([]byte, 0, len(t)+64)
	for i := 0; i < len(t); i++ {
		if t[i] == '%' {
			i++
			b = append(b, a[t[i]-'0']...)
		} else {
			b = append(b, t[i])
		}
	}
	return string(b)
}

// scratch is the start of the names the rewrites declare (_$v, _$u0x,
// _$e): "_$", or "_$$" and so on when the program has that text. The
// program's own _$v was the rewrite's before: an enum of that name did not
// compile ("invalid redefinition"), and an outer _$v read in a member's
// value was the rewrite's (undefined).
func (s *stripper) scratch() string {
	if s.pre == "" {
		s.pre = "_$"
		for strings.Contains(s.src, s.pre) {
			s.pre += "$"
		}
	}
	return s.pre
}

// iife writes the head of the function that fills the object name over
// tokens [i, j), in the block that ends at end (-1: at the top of another
// such function), and returns the call that closes it; ns is the namespace
// that exports it, "" for none, and more what the function starts with.
// The head declares name ("var name; " at the program's top level, "let
// name; " in a block) unless a function, class, enum or namespace declared
// it earlier in the block, which tsc merges with; then it is ";", so that
// the '(' does not continue the line before.
func (s *stripper) iife(i, j, end int, name, ns, more string) string {
	decl, start := "var %0; ", 0
	if end != len(s.toks) {
		decl, start = "let %0; ", i
	}
	if end >= 0 && end < len(s.toks) {
		start = s.m[end] + 1
	}
	if name == s.ns {
		// Its function's parameter would be declared again in it; tsc
		// renames the outer one, and the body's name then reads the inner.
		s.fail(i, "a namespace or enum named as the namespace it is in ("+name+") is not supported; give it another name")
	}
	for k := start; k < i; k++ {
		if p := s.tok(k - 1).v; s.is(k, name) && !s.is(k-2, "declare") && (p == "function" || p == "class" || p == "enum" ||
			p == "*" && s.is(k-2, "function") || (p == "namespace" || p == "module") && s.is(k+1, "{") && !s.typeOnly(k+2, s.m[k+1])) {
			decl = ";"
		}
		if s.m[k] > k {
			k = s.m[k]
		}
	}
	s.replace(i, j, fill(decl+"(function (%0) {%1", name, more))
	if ns != "" {
		return fill("})(%0 = %1.%0 || (%1.%0 = {}));", name, ns)
	}
	return fill("})(%0 || (%0 = {}));", name)
}

// enum rewrites the enum from i (its `const` or `enum`) whose keyword is
// at kw, in the block that ends at end; ns is the namespace exporting it.
// Each member becomes `E[k] = _$v = v; if (typeof _$v != "string") E[_$v]
// = k;`: a member without a value is the one before plus one (0 first), a
// member's name in a value reads the member, and every value that is not
// a string gets the name back (reverse mapping), as tsc's enums do. The
// value is kept in _$v, not read back: a member named __proto__ reads
// back as the object's prototype.
func (s *stripper) enum(i, kw, end int, ns string) int {
	name, open := s.tok(kw+1).v, kw+2
	close := s.m[open]
	// The closing replacement is made after the members' edits: the last
	// member's tail goes right after its last token, which is where the
	// '}' starts when nothing is between them (`enum E {A}`), and edits at
	// one offset apply in the order they were made (the tail went after
	// the IIFE's end, outside it: "'_$v' is not defined").
	tv := s.scratch() + "v"
	closing := s.iife(i, open+1, end, name, ns, " let "+tv+";")
	members := map[string]bool{}
	for j := open + 1; j < close; j++ {
		if s.is(j-1, "{") || s.is(j-1, ",") {
			members[s.tok(j).v] = true
		}
		if s.m[j] > j {
			j = s.m[j]
		}
	}
	for j := open + 1; j < close && s.err == nil; {
		key := s.tok(j)
		k := s.src[key.s:key.e]
		if key.k == tName {
			k = `"` + k + `"`
		} else if key.k != tString {
			s.fail(j, "an enum member's name must be a name or a string")
		}
		e, lhs, v := j+1, j+1, " "+tv+" + 1"
		if j == open+1 {
			v = " 0"
		}
		if s.is(e, "=") {
			e, lhs, v = s.valueEnd(e+1, close), j+2, ""
			s.walk(j+2, e, fExpr)
			for r := j + 2; r < e; r++ {
				if t := s.tok(r); t.k == tName && members[t.v] && !s.isProp(r) {
					s.replace(r, r+1, name+"."+t.v)
				}
			}
		}
		s.replace(j, lhs, fill("%0[%1] = %3 =%2", name, k, v, tv))
		tail := fill(`; if (typeof %2 != "string") %0[%2] = %1;`, name, k, tv)
		if s.is(e, ",") {
			s.replace(e, e+1, tail)
			e++
		} else if e == close {
			s.after(e-1, tail)
		} else {
			s.fail(e, "expected ',' or '}' after an enum member")
		}
		j = e
	}
	s.replace(close, close+1, closing)
	return close + 1
}

// valueEnd is where the expression from i ends: at a ',' or ';' outside
// brackets, at a line break where a statement ends (breaksAt), or at end.
func (s *stripper) valueEnd(i, end int) int {
	for j := i; j < end; j++ {
		if s.is(j, ",") || s.is(j, ";") || j > i && s.breaksAt(j) {
			return j
		}
		if s.m[j] > j {
			j = s.m[j]
		}
	}
	return end
}

// namespace rewrites the namespace (or module) from its keyword at i, of
// dotted names up to its body's '{' at open, in the block that ends at
// end; ns is the namespace exporting it. A.B is A's function holding B's,
// as `namespace A { export namespace B { ... } }` is. What the body exports
// is assigned to the namespace's object (export).
func (s *stripper) namespace(i, open, end int, ns string) int {
	outer, call := s.ns, ""
	for j := i + 1; j < open; j += 2 {
		e, more := j+1, " " // before the next name's head
		if e == open {
			e, more = e+1, ""
		}
		call = s.iife(j-1, e, end, s.tok(j).v, ns, more) + " " + call
		ns, end = s.tok(j).v, -1
		s.ns = ns
	}
	s.walk(open+1, s.m[open], fBlock)
	s.ns = outer
	s.replace(s.m[open], s.m[open]+1, call)
	return s.m[open] + 1
}

// export reads `export` at i in a namespace's body (enum, namespace and
// types are statement's): a function's or a class's name is assigned to
// the namespace after it, a variable's as it is declared (`const a = N.a
// = 1`: the body reads a, as tsc's N.a, which only differs once the
// namespace's code assigns an exported let again).
func (s *stripper) export(i int) int {
	s.blank(i, i+1)
	j := s.skip(i+1, "abstract")
	s.blank(i+1, j)
	f, end, n := s.skip(j, "async"), 0, j+1
	switch s.tok(j).v {
	case "function", "async":
		if s.is(f+1, "*") {
			n = f + 2
		} else {
			n = f + 1
		}
		end = s.function(f, fBlock)
	case "class":
		end = s.class(j)
	case "const", "let", "var":
		for k := j + 1; s.err == nil; k++ {
			if s.tok(k).k != tName {
				s.fail(k, "a namespace's export must declare plain names (export const a = ..., b = ...), not a pattern")
			}
			name := s.tok(k).v
			k = s.skip(k+1, "!")
			if s.is(k, ":") {
				k, _ = s.typ(k + 1)
			}
			if s.is(k, "=") {
				s.after(k, fill(" %0.%1 =", s.ns, name))
				k = s.valueEnd(k+1, len(s.toks))
			}
			if !s.is(k, ",") {
				break
			}
		}
		return j
	default:
		s.fail(i, "this export is not supported in a namespace: export a function, class, variable, enum or namespace")
		return i
	}
	if s.is(end-1, "}") { // not an overload, which has no body
		s.after(end-1, fill(" %0.%1 = %1;", s.ns, s.tok(n).v))
	}
	return end
}
