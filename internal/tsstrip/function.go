package tsstrip

import "strings"

// typeParams erases type parameters <...> at j, if any, and returns where
// the code goes on.
func (s *stripper) typeParams(j int) int { return s.eraseOptional(j, "<", s.angle) }

// returnType erases a return type ': T' at j, if any, and returns where the
// code goes on.
func (s *stripper) returnType(j int) int { return s.eraseOptional(j, ":", s.annotation) }

// eraseOptional erases the piece at j that token v starts, if read can
// read it (see optional), and returns where the code goes on.
func (s *stripper) eraseOptional(j int, v string, read func(int) (int, bool)) int {
	k, ok := s.optional(j, v, read)
	if !ok {
		return j
	}
	s.blank(j, k)
	return k
}

// afterParams erases a return type after a parameter list's ')' and reads
// the body; it returns where reading goes on.
func (s *stripper) afterParams(j int) int {
	if s.is(j, ":") {
		if k, ok := s.typ(j + 1); ok {
			s.blank(j, k)
			if s.is(k, "=>") && !s.tok(k).nl && strings.ContainsAny(s.src[s.toks[j].s:s.toks[k-1].e], "\n\r\u2028\u2029") {
				// JavaScript allows no line break between an arrow's
				// parameters and its '=>': the ')' moves down to the last
				// character of the erased return type, before the '=>'.
				s.blank(j-1, j)
				s.writes = append(s.writes, write{s.toks[k-1].e - 1, ')'})
			}
			j = k
		}
	}
	if s.is(j, "=>") {
		j++
	}
	if s.is(j, "{") {
		s.walk(j+1, s.m[j], fBlock)
		return s.m[j] + 1
	}
	return j
}

// function reads a function from its keyword at i.
func (s *stripper) function(i int, f frame) int {
	start := i
	if s.is(i-1, "async") {
		start = i - 1
	}
	j := i + 1
	if s.is(j, "*") {
		j++
	}
	if s.tok(j).k == tName {
		j++
	}
	j = s.typeParams(j)
	if !s.is(j, "(") {
		return i + 1
	}
	mm := s.m[j]
	s.walk(j+1, mm, fParams)
	k := mm + 1
	k = s.returnType(k)
	if s.is(k, "{") {
		s.walk(k+1, s.m[k], fBlock)
		return s.m[k] + 1
	}
	if f == fBlock && (s.is(k, ";") || k >= len(s.toks) || s.tok(k).nl) {
		// An overload signature: a declaration without a body.
		k = s.pastSemi(k)
		s.blankStmt(start, k)
	}
	return k
}
