package tsstrip

import "strings"

// statement erases a TypeScript-only statement at i, or fails on one that
// cannot be erased; it returns i when the statement is JavaScript.
func (s *stripper) statement(i, end int) int {
	t, n := s.tok(i), s.tok(i+1)
	if t.k != tName || s.isProp(i) {
		return i
	}
	sameLineName := (n.k == tName) && !n.nl
	switch t.v {
	case "interface":
		if sameLineName && n.v != "in" && n.v != "instanceof" {
			j, ok := s.toBrace(i+2, end)
			if !ok || j >= end {
				return i
			}
			s.blankStmt(i, s.m[j]+1)
			return s.m[j] + 1
		}
	case "type":
		if sameLineName && (s.is(i+2, "=") || s.is(i+2, "<")) {
			j, ok := s.optional(i+2, "<", s.angle)
			if !ok || !s.is(j, "=") {
				return i
			}
			k, ok := s.typ(j + 1)
			if !ok {
				return i
			}
			k = s.pastSemi(k)
			s.blankStmt(i, k)
			return k
		}
	case "declare":
		if sameLineName {
			if j := s.declaration(i + 1); j > i+1 {
				s.blankStmt(i, j)
				return j
			}
		}
	case "using":
		if sameLineName && n.v != "in" && n.v != "instanceof" && (s.is(i+2, "=") || s.is(i+2, ":")) {
			return s.using(i, i, end, false)
		}
	case "await":
		if n.v == "using" && !n.nl && s.tok(i+2).k == tName && !s.tok(i+2).nl && (s.is(i+3, "=") || s.is(i+3, ":")) {
			return s.using(i, i+1, end, true)
		}
	case "abstract":
		if n.v == "class" && !n.nl {
			s.blank(i, i+1)
			return i + 1
		}
	case "enum":
		if sameLineName && s.is(i+2, "{") {
			return s.enum(i, i, end, s.exported())
		}
	case "const":
		if n.v == "enum" && s.tok(i+2).k == tName && s.is(i+3, "{") {
			return s.enum(i, i+1, end, s.exported())
		}
	case "namespace", "module":
		if (sameLineName || t.v == "module" && n.k == tString && !n.nl) && n.v != "in" {
			j := i + 2
			for s.is(j, ".") && s.tok(j+1).k == tName {
				j += 2
			}
			if !s.is(j, "{") {
				return i
			}
			if !s.typeOnly(j+1, s.m[j]) {
				if n.k == tString {
					s.fail(i, "TypeScript module \"...\" with values is not supported: the sandbox has no modules; use a namespace or a plain object")
					return i
				}
				return s.namespace(i, j, end, s.exported())
			}
			s.blankStmt(i, s.m[j]+1)
			return s.m[j] + 1
		}
	case "import":
		if n.v == "type" && (s.tok(i+2).k == tName || s.is(i+2, "{") || s.is(i+2, "*")) {
			j := i + 2
			for j < end && s.tok(j).k != tString {
				j++
			}
			j++
			j = s.pastSemi(j)
			s.blankStmt(i, j)
			return j
		}
		// import { type A, type B } from "m" imports types only, as
		// import type does (a value import among them stays an error).
		if n.v == "{" && s.typeSpecifiers(i+1) && s.is(s.m[i+1]+1, "from") && s.tok(s.m[i+1]+2).k == tString {
			j := s.m[i+1] + 3
			j = s.pastSemi(j)
			s.blankStmt(i, j)
			return j
		}
		// import { tools } from "tools", import * as tools from "./tools":
		// the sandbox's own globals, as if a module gave them.
		if j := s.globalsImport(i + 1); j > 0 && !s.module {
			j = s.pastSemi(j)
			s.blankStmt(i, j)
			return j
		}
		if n.v != "(" && n.v != "." {
			if s.module {
				return s.moduleStatement(i + 1)
			}
			// import json, import numpy as np: Python's, names to the
			// line's end (JavaScript's has from and a string, or braces;
			// TypeScript's import fs = require("fs") an =).
			py := n.k == tName
			for j := i + 2; py && j < len(s.toks) && !s.toks[j].nl; j++ {
				py = !strings.Contains(" from = { * ", " "+s.toks[j].v+" ")
			}
			if py {
				s.fail(i, "import "+n.v+" is Python, not JavaScript: "+jsOnly)
			}
			s.fail(i, "import is not available: the sandbox has no modules; use the tools you are given instead")
		}
	case "export":
		// export {}: TypeScript's module marker (a script with a top-level
		// await needs it under tsc), which exports nothing, as type
		// specifiers export no value; a module keeps it, as JavaScript.
		if n.v == "type" && s.is(i+2, "{") || n.v == "{" && (s.typeSpecifiers(i+1) || !s.module && s.is(i+2, "}") && !s.is(i+3, "from")) {
			j := s.m[s.skip(i+1, "type")] + 1
			if s.is(j, "from") {
				j += 2
			}
			j = s.pastSemi(j)
			s.blankStmt(i, j)
			return j
		}
		// What follows export is judged as without it: a type erased, an
		// enum or a namespace rewritten (into the namespace exporting it).
		if n.v == "type" || n.v == "interface" || n.v == "declare" || n.v == "enum" || n.v == "namespace" || n.v == "module" ||
			n.v == "const" && s.is(i+2, "enum") {
			s.exportTo = s.ns
			j := s.statement(i+1, end)
			s.exportTo = ""
			if j > i+1 {
				s.blank(i, i+1)
				return j
			}
			if s.err != nil {
				return i
			}
		}
		if s.ns != "" {
			return s.export(i)
		}
		if s.module {
			if n.v == "{" || n.v == "*" {
				return s.moduleStatement(i + 1)
			}
			if n.v == "default" {
				return i + 2
			}
			return i + 1
		}
		// Models used to modules write their program as one: `export
		// default async function main() {...}`, `export async function
		// main()`, `export default async () => {...}`. Without the export
		// these are the whole-program forms Program calls, and so is
		// `export const main = async () => {...}`; other exports (another
		// const, an anonymous function) stay an error that says why.
		if k := s.exportedMain(i); k > i {
			s.blank(i, k)
			return k
		}
		if s.is(i+1, "default") && s.is(i+2, "{") {
			// export default { async run() {...} }: which method is the
			// program would be a guess.
			s.fail(i, "export default { ... } is not available: the code is the body of a function, not a module; send the body of the object's method as the program, and return the result")
		}
		s.fail(i, "export is not available: the code is the body of a function; return the result instead")
	}
	return i
}

// exportedMain returns the index of the function after `export` or `export
// default` at i when it is a named function declaration, (after `default`)
// an arrow or parenthesized expression, or (without it) a declaration of
// main, else i.
func (s *stripper) exportedMain(i int) int {
	k := i + 1
	isDefault := s.is(k, "default")
	if isDefault {
		k++
	}
	f := k
	if s.is(f, "async") && !s.tok(f+1).nl {
		f++
	}
	if s.is(f, "function") && (s.tok(f+1).k == tName || s.is(f+1, "*") && s.tok(f+2).k == tName) {
		return k
	}
	if isDefault && (s.is(f, "(") || f > k && s.tok(f).k == tName && s.is(f+1, "=>")) {
		return k
	}
	// `export default [async] function () {...}` as the whole program
	// (or of tools, or { tools }: toolsArgs): without its export, the
	// anonymous function UnwrapMain unwraps. Anywhere else (even after a
	// type UnwrapMain would see as a ';') it would not parse without a
	// name, so it stays the error that says why.
	if _, ok := s.toolsArgs(f + 1); ok && isDefault && i == 0 && s.is(f, "function") && s.is(s.m[f+1]+1, "{") &&
		s.pastSemi(s.m[s.m[f+1]+1]+1) == len(s.toks) {
		return k
	}
	// `export const main = async () => {...}`: the never-called main that
	// Program calls, once its export is gone.
	if !isDefault && (s.is(k, "const") || s.is(k, "let") || s.is(k, "var")) && s.is(k+1, "main") && s.is(k+2, "=") {
		return k
	}
	return i
}

// moduleStatement skips an import or export clause from i: its bindings
// ({ a as b }, * as ns, a default name) up to and with its module string.
func (s *stripper) moduleStatement(i int) int {
	for i < len(s.toks) && s.tok(i).k != tString && !s.is(i, ";") && !(s.tok(i).nl && !s.is(i-1, ",") && !s.is(i-1, "{") && !s.is(i, "from") && !s.is(i, "}")) {
		if s.is(i, "{") {
			i = s.m[i]
		}
		i++
	}
	if s.tok(i).k == tString {
		i++
	}
	return i
}

// declaration finds the end of what follows 'declare' at i.
func (s *stripper) declaration(i int) int {
	if s.is(i, "const") && s.is(i+1, "enum") {
		i++ // declare const enum E { ... }: all of it, as an enum's
	}
	switch s.tok(i).v {
	case "const", "let", "var":
		j := i + 1
		for {
			if s.is(j, "{") || s.is(j, "[") {
				j = s.m[j] + 1
			} else if s.tok(j).k == tName {
				j++
			} else {
				return i
			}
			var ok bool
			if j, ok = s.optional(j, ":", s.annotation); !ok {
				return i
			}
			if !s.is(j, ",") {
				break
			}
			j++
		}
		return s.pastSemi(j)
	case "async", "function":
		j := i + 1
		if s.tok(i).v == "async" {
			j++
		}
		if s.tok(j).k == tName {
			j++
		}
		j, ok := s.optional(j, "<", s.angle)
		if !ok || !s.is(j, "(") {
			return i
		}
		if j, ok = s.optional(s.m[j]+1, ":", s.annotation); !ok {
			return i
		}
		return s.pastSemi(j)
	case "type", "interface":
		if j := s.statement(i, len(s.toks)); j > i {
			return j
		}
		return i
	case "class", "abstract", "global", "module", "namespace", "enum":
		j := i + 1
		for j < len(s.toks) && !s.is(j, "{") && !s.is(j, ";") {
			j++
		}
		if s.is(j, "{") {
			return s.m[j] + 1
		}
		return i
	}
	return i
}

// exported is the namespace that exports the enum or namespace being
// read ("" for none), once.
func (s *stripper) exported() string {
	ns := s.exportTo
	s.exportTo = ""
	return ns
}

// typeOnly says whether a namespace body declares types only.
func (s *stripper) typeOnly(i, end int) bool {
	for ; i < end; i++ {
		if s.is(i, "{") || s.is(i, "(") || s.is(i, "[") {
			i = s.m[i]
			continue
		}
		if t := s.tok(i); t.k == tName && !s.isProp(i) {
			switch t.v {
			case "const", "let", "var", "function", "class", "enum":
				return false
			case "namespace", "module":
				// A nested namespace of types only is still types.
				j := i + 1
				for s.tok(j).k == tName || s.tok(j).k == tString || s.is(j, ".") {
					j++
				}
				if !s.is(j, "{") || !s.typeOnly(j+1, s.m[j]) {
					return false
				}
				i = s.m[j]
			case "declare":
				// declare const x: T declares no value the program has.
				if d := s.declaration(i + 1); d > i+1 {
					i = d - 1
				}
			}
		}
	}
	return true
}

// skip returns i+1 when token i is the name v, else i.
func (s *stripper) skip(i int, v string) int {
	if s.is(i, v) {
		return i + 1
	}
	return i
}

// globalsImport is the index past the module name of an import at i of
// the sandbox's globals alone (tools, tool_search, tool_call: a default,
// a namespace or named ones, not renamed), 0 for any other.
func (s *stripper) globalsImport(i int) int {
	names := 0
	for ; !s.is(i, "from"); i++ {
		switch t := s.tok(i); t.v {
		case "tools", "tool_search", "tool_call":
			names++
		case "as":
			if !s.is(i-1, "*") {
				return 0
			}
		case "type":
			// import { tools, type Tools } from "tools": a type beside them.
			if s.tok(i+1).k != tName {
				return 0
			}
			i++
		case "{", "}", ",", "*":
		default:
			return 0
		}
	}
	if names == 0 || names > 1 && !s.is(i-1, "}") || s.tok(i+1).k != tString {
		return 0
	}
	return i + 2
}

// typeSpecifiers says whether the braces at i hold one or more import or
// export specifiers, each marked type (type A, type A as B).
func (s *stripper) typeSpecifiers(i int) bool {
	if !s.is(i, "{") {
		return false
	}
	end, j := s.m[i], i+1
	if j == end {
		return false
	}
	for j < end {
		// type as B imports a value named type.
		if !s.is(j, "type") || s.tok(j+1).k != tName && s.tok(j+1).k != tString || s.is(j+1, "as") && !s.is(j+2, "as") {
			return false
		}
		j += 2
		if s.is(j, "as") {
			j += 2
		}
		if s.is(j, ",") {
			j++
		} else if j != end {
			return false
		}
	}
	return true
}
