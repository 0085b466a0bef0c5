package tsstrip

import "fmt"

// The type grammar, just enough to find where a type ends. Each reader
// takes the index of a type's first token and returns the index after it;
// ok is false when no type starts there (the code is then left alone).

// typ reads a type, conditional types included.
func (s *stripper) typ(i int) (int, bool) { return s.nested(i, s.conditional) }

// nested reads what read reads, one level deeper. Every recursion of the
// type readers passes through it (typ, keyof ...), some with no bracket
// that nesting counts (keyof keyof ..., A extends B ? C : A extends ...):
// past MaxNesting levels it fails the program, as a Go recursion that deep
// overflowed the host's stack under GOOS=js and ended the engine.
func (s *stripper) nested(i int, read func(int) (int, bool)) (int, bool) {
	if s.typeDepth >= MaxNesting {
		line, _ := position(s.src, s.tok(i).s)
		s.fail(i, fmt.Sprintf("code nested too deeply: a type nests more than %d levels at line %d; the limit is %d", MaxNesting, line, MaxNesting))
		return i, false
	}
	s.typeDepth++
	j, ok := read(i)
	s.typeDepth--
	return j, ok
}

// conditional is typ's reading.
func (s *stripper) conditional(i int) (int, bool) {
	j, ok := s.union(i)
	if !ok {
		return i, false
	}
	if s.is(j, "extends") && !s.tok(j).nl {
		k, ok := s.union(j + 1)
		if !ok || !s.is(k, "?") {
			return j, true
		}
		if k, ok = s.typ(k + 1); !ok || !s.is(k, ":") {
			return i, false
		}
		return s.typ(k + 1)
	}
	return j, true
}

// union reads A | B & C, with an optional leading operator.
func (s *stripper) union(i int) (int, bool) {
	if s.is(i, "|") || s.is(i, "&") {
		i++
	}
	j, ok := s.unary(i)
	if !ok {
		return i, false
	}
	for s.is(j, "|") || s.is(j, "&") {
		if j, ok = s.unary(j + 1); !ok {
			return i, false
		}
	}
	return j, true
}

// unary reads type operators, a primary type and its postfixes.
func (s *stripper) unary(i int) (int, bool) {
	t := s.tok(i)
	if t.k == tName {
		switch t.v {
		case "keyof", "unique", "readonly":
			if n := s.tok(i + 1); n.k != tPunct || n.v == "(" || n.v == "[" || n.v == "{" {
				return s.nested(i+1, s.unary)
			}
		case "infer":
			if s.tok(i+1).k == tName {
				j := i + 2
				if s.is(j, "extends") {
					// infer X extends C: the constraint, not a conditional.
					k, ok := s.union(j + 1)
					if ok && !s.is(k, "?") {
						return k, true
					}
				}
				return j, true
			}
		case "new":
			return s.fnType(i + 1)
		case "abstract":
			if s.is(i+1, "new") {
				return s.fnType(i + 2)
			}
		case "asserts":
			if n := s.tok(i + 1); n.k == tName && !n.nl {
				j := i + 2
				if s.is(j, "is") {
					return s.typ(j + 1)
				}
				return j, true
			}
		}
	}
	j, ok := s.primary(i)
	if !ok {
		return i, false
	}
	for s.is(j, "[") && !s.tok(j).nl {
		j = s.m[j] + 1 // T[] and T[K]
	}
	return j, true
}

// fnType reads (params) => T or <T>(params) => T.
func (s *stripper) fnType(i int) (int, bool) {
	if s.is(i, "<") {
		j, ok := s.angle(i)
		if !ok {
			return i, false
		}
		i = j
	}
	if !s.is(i, "(") || !s.is(s.m[i]+1, "=>") {
		return i, false
	}
	return s.typ(s.m[i] + 2)
}

func (s *stripper) primary(i int) (int, bool) {
	t := s.tok(i)
	switch t.k {
	case tString, tNumber, tTemplate:
		return i + 1, true
	case tTemplateHead:
		j := i
		for s.tok(j).k != tTemplateTail {
			if s.m[j] <= j || s.m[j] >= len(s.toks) {
				return i, false
			}
			j = s.m[j]
		}
		return j + 1, true
	case tName:
		switch t.v {
		case "typeof":
			j := i + 1
			if s.is(j, "import") {
				return s.primary(j)
			}
			if s.tok(j).k != tName {
				return i, false
			}
			j++
			for (s.is(j, ".") || s.is(j, "?.")) && (s.tok(j+1).k == tName || s.tok(j+1).k == tPrivate) {
				j += 2
			}
			if s.is(j, "<") && !s.tok(j).nl {
				if k, ok := s.angle(j); ok {
					j = k
				}
			}
			return j, true
		case "import":
			if !s.is(i+1, "(") {
				return i, false
			}
			j := s.m[i+1] + 1
			for s.is(j, ".") && s.tok(j+1).k == tName {
				j += 2
			}
			if s.is(j, "<") {
				if k, ok := s.angle(j); ok {
					j = k
				}
			}
			return j, true
		}
		j := i + 1
		for s.is(j, ".") && s.tok(j+1).k == tName {
			j += 2
		}
		if s.is(j, "<") && !s.tok(j).nl {
			k, ok := s.angle(j)
			if !ok {
				return i, false
			}
			j = k
		}
		if s.is(j, "is") && !s.tok(j).nl && j == i+1 {
			return s.typ(j + 1) // a type predicate: x is T
		}
		return j, true
	case tPunct:
		switch t.v {
		case "(":
			if s.is(s.m[i]+1, "=>") {
				return s.typ(s.m[i] + 2)
			}
			return s.m[i] + 1, true
		case "<":
			return s.fnType(i)
		case "{", "[":
			return s.m[i] + 1, true
		case "-":
			if s.tok(i+1).k == tNumber {
				return i + 2, true
			}
		}
	}
	return i, false
}

// angle reads <...> from the '<' at i and returns the index after its '>'.
// It fails on anything a type list cannot hold, which is how a comparison
// (a < b && c > d) is told from type arguments.
func (s *stripper) angle(i int) (int, bool) {
	depth := 0
	// cond[d] counts the conditional types open at depth d: only after
	// 'extends' may '?' and ':' appear in a type list (a < b ? c : d > e
	// is a comparison).
	cond := []int{0}
	for j := i; j < len(s.toks); j++ {
		t := s.toks[j]
		switch t.k {
		case tName, tString, tNumber, tTemplate:
			switch t.v {
			case "const", "in":
				// Modifiers of a type parameter: <const T>, <in out T>;
				// and <const>x, the old-style form of x as const.
				if t.v == "const" && j == i+1 && s.is(j+1, ">") {
					continue
				}
				if !(s.is(j-1, "<") || s.is(j-1, ",") || s.is(j-1, "in")) || s.tok(j+1).k != tName {
					return i, false
				}
			case "return", "let", "var", "if", "for", "while", "function", "class", "new", "await", "yield", "throw", "delete", "instanceof":
				return i, false
			case "extends":
				cond[len(cond)-1]++
			}
			continue
		case tTemplateHead:
			if s.m[j] > j {
				for s.tok(j).k != tTemplateTail && s.m[j] > j && s.m[j] < len(s.toks) {
					j = s.m[j]
				}
			}
			continue
		case tPunct:
		default:
			return i, false
		}
		switch t.v {
		case "<":
			depth++
			cond = append(cond, 0)
		case ">":
			depth--
			if depth == 0 {
				return j + 1, true
			}
			cond = cond[:len(cond)-1]
		case "?", ":":
			if cond[len(cond)-1] == 0 {
				return i, false
			}
			if t.v == ":" {
				cond[len(cond)-1]--
			}
			continue
		case "(", "[", "{":
			if s.m[j] >= len(s.toks) {
				return i, false
			}
			j = s.m[j]
		case ",", ".", "|", "&", "=", "=>", "...", "-":
		default:
			return i, false
		}
	}
	return i, false
}

// optional reads the piece at j that token v starts, if any, with read
// (type parameters: "<" and angle; an annotation: ":" and annotation). It
// returns j when there is none, and false when one starts but read cannot
// read it: the code is then left alone.
func (s *stripper) optional(j int, v string, read func(int) (int, bool)) (int, bool) {
	if !s.is(j, v) {
		return j, true
	}
	return read(j)
}

// annotation reads ': T' from the ':' at i.
func (s *stripper) annotation(i int) (int, bool) { return s.typ(i + 1) }

// toBrace reads a heading from j to the '{' that opens its body, reading
// type arguments on the way ("interface A<T> extends B<T> {", "implements
// C<T> {"), and returns that '{' (end when there is none). It returns
// false, with the '<', when type arguments cannot be read.
func (s *stripper) toBrace(j, end int) (int, bool) {
	for j < end && !s.is(j, "{") {
		if s.is(j, "<") {
			k, ok := s.angle(j)
			if !ok {
				return j, false
			}
			j = k
			continue
		}
		j++
	}
	return j, true
}
