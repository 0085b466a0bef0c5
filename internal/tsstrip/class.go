package tsstrip

// class reads a class from its keyword at i: type parameters, type
// arguments of the base class and 'implements' are erased.
func (s *stripper) class(i int) int {
	j := i + 1
	if t := s.tok(j); t.k == tName && t.v != "extends" && t.v != "implements" {
		j++
	}
	j = s.typeParams(j)
	body, derived := s.classBody, s.derived
	defer func() { s.classBody, s.derived = body, derived }()
	s.derived = s.is(j, "extends")
	if s.is(j, "extends") {
		j++
		for j < len(s.toks) && !s.is(j, "{") && !s.is(j, "implements") {
			switch {
			case s.is(j, "(") || s.is(j, "["):
				s.walk(j+1, s.m[j], fExpr)
				j = s.m[j] + 1
			case s.is(j, "<"):
				k, ok := s.angle(j)
				if !ok {
					return j
				}
				s.blank(j, k)
				j = k
			default:
				j++
			}
		}
	}
	if s.is(j, "implements") {
		k, ok := s.toBrace(j+1, len(s.toks))
		if !ok {
			return k
		}
		s.blank(j, k)
		j = k
	}
	if s.is(j, "{") {
		s.classBody = j
		s.walk(j+1, s.m[j], fClass)
		s.exprClose[s.m[j]] = true
		return s.m[j] + 1
	}
	return j
}

// member reads a class member's head from i. It returns where reading goes
// on and whether an initializer (an expression) follows.
func (s *stripper) member(i, end int) (int, bool) {
	start := i
	for s.is(i, "@") { // decorators
		i++
		for s.tok(i).k == tName || s.is(i, ".") {
			i++
		}
		if s.is(i, "(") {
			s.walk(i+1, s.m[i], fExpr)
			i = s.m[i] + 1
		}
	}
	erase := false
	for {
		t, n := s.tok(i), s.tok(i+1)
		if t.k != tName || n.nl || !(n.k == tName || n.k == tString || n.k == tNumber || n.k == tPrivate || n.v == "[" || n.v == "*" || n.v == "{") {
			break
		}
		if t.v == "static" && n.v == "{" {
			s.walk(i+2, s.m[i+1], fBlock)
			return s.m[i+1] + 1, false
		}
		if n.v == "{" {
			break
		}
		switch t.v {
		case "public", "private", "protected", "readonly", "override":
			s.blank(i, i+1)
		case "abstract", "declare":
			erase = true
		case "static", "async", "get", "set", "accessor":
		default:
			return start, false
		}
		i++
	}
	if s.is(i, "[") && s.tok(i+1).k == tName && s.is(i+2, ":") {
		// An index signature.
		j := s.m[i] + 1
		if s.is(j, ":") {
			k, ok := s.typ(j + 1)
			if !ok {
				return start, false
			}
			j = k
		}
		j = s.pastSemi(j)
		s.blankStmt(start, j)
		return j, false
	}
	if s.is(i, "*") {
		i++
	}
	switch t := s.tok(i); {
	case t.v == "[" && t.k == tPunct:
		s.walk(i+1, s.m[i], fExpr)
		i = s.m[i] + 1
	case t.k == tName || t.k == tString || t.k == tNumber || t.k == tPrivate:
		i++
	default:
		return start, false
	}
	if s.is(i, "?") || s.is(i, "!") {
		s.blank(i, i+1)
		i++
	}
	i = s.typeParams(i)
	if s.is(i, "(") {
		mm := s.m[i]
		props, params := s.props, s.ctorParams
		s.props, s.ctorParams = nil, -1
		if n := s.tok(i - 1); n.k == tName && n.v == "constructor" || n.k == tString && s.src[n.s+1:n.e-1] == "constructor" {
			s.ctorParams = i + 1
		}
		s.walk(i+1, mm, fParams)
		mine := s.props
		s.props, s.ctorParams = props, params
		k := mm + 1
		k = s.returnType(k)
		if s.is(k, "{") && !erase {
			s.assignProps(mine, k)
			s.walk(k+1, s.m[k], fBlock)
			return s.m[k] + 1, false
		}
		// An overload or abstract method: no body.
		if s.is(k, "{") {
			k = s.m[k] + 1
		} else if s.is(k, ";") {
			k++
		}
		s.blankStmt(start, k)
		return k, false
	}
	if s.is(i, ":") {
		if k, ok := s.typ(i + 1); ok {
			s.endType(i, k)
			i = k
		}
	}
	if erase {
		for i < end && !s.is(i, ";") && !s.tok(i).nl {
			if s.is(i, "(") || s.is(i, "[") || s.is(i, "{") {
				i = s.m[i]
			}
			i++
		}
		i = s.pastSemi(i)
		s.blankStmt(start, i)
		return i, false
	}
	if s.is(i, "=") {
		return i + 1, true
	}
	return i, false
}

// assignProps writes what tsc emits for a constructor's parameter
// properties (names: their names' tokens), whose body opens at k: a field
// declared at the top of the class for each, as tsc's ES2022 output has,
// and `this.x = x` at the body's start, or after the super(...) call that a
// class that extends another makes at the body's top level.
func (s *stripper) assignProps(names []int, k int) {
	if len(names) == 0 {
		return
	}
	fields, set := "", ""
	for _, n := range names {
		v := s.tok(n).v
		fields += " " + v + ";"
		set += " this." + v + " = " + v + ";"
	}
	s.after(s.classBody, fields)
	at := k
	for j := k + 1; j < s.m[k] && s.derived; j++ {
		if s.is(j, "super") && s.is(j+1, "(") && (s.is(j-1, "{") || s.is(j-1, ";") || s.is(j-1, "}") || s.tok(j).nl) {
			at = s.pastSemi(s.m[j+1]+1) - 1
			break
		}
		if s.m[j] > j {
			j = s.m[j]
		}
	}
	if s.derived && at == k {
		s.fail(k, "a constructor with parameter properties in a class that extends another must call super(...) at the top level of its body, as TypeScript requires")
		return
	}
	if !s.is(at, ";") && at != k {
		set = ";" + set // super(...) ended by a line break
	}
	s.after(at, set)
}
