package tsgen

import (
	"bytes"
	"encoding/json"
	"strings"
)

// The TypeScript text building blocks of signatures: rendered types with
// their precedence, unions, intersections, literals and doc comments.

// Precedence of a rendered type, so unions get parenthesised inside
// intersections and arrays and nowhere else.
const (
	precUnion = iota
	precIntersection
	precPrimary
)

type tsType struct {
	text string
	prec int
}

// anyObject is an object about which nothing more is known.
const anyObject = "Record<string, unknown>"

var (
	tsUnknown = tsType{"unknown", precPrimary}
	tsNever   = tsType{"never", precPrimary}
)

// writeDocComment writes text as a /** */ comment at the given indentation,
// on one line when it fits on one.
func writeDocComment(sb *strings.Builder, text, pad string) {
	text = strings.TrimSpace(strings.ReplaceAll(text, "*/", "*\\/"))
	if text == "" {
		return
	}
	lines := strings.Split(text, "\n")
	if len(lines) == 1 {
		sb.WriteString(pad + "/** " + text + " */\n")
		return
	}
	sb.WriteString(pad + "/**\n")
	for _, l := range lines {
		l = strings.TrimRight(l, " \t\r")
		if l == "" {
			sb.WriteString(pad + " *\n")
		} else {
			sb.WriteString(pad + " * " + l + "\n")
		}
	}
	sb.WriteString(pad + " */\n")
}

func propertyKey(k string) string {
	if IsIdent(k) {
		return k
	}
	return jsonString(k)
}

func literal(v any) tsType {
	var sb strings.Builder
	encodeOrdered(&sb, v)
	return tsType{sb.String(), precPrimary}
}

// union joins alternatives. unknown absorbs everything (any value is
// allowed), never disappears, duplicates are dropped.
func union(ts []tsType) tsType {
	var out []tsType
	seen := map[string]bool{}
	for _, t := range ts {
		if t.text == "unknown" {
			return tsUnknown
		}
		if t.text == "never" || seen[t.text] {
			continue
		}
		seen[t.text] = true
		out = append(out, t)
	}
	switch len(out) {
	case 0:
		return tsNever
	case 1:
		return out[0]
	}
	parts := make([]string, len(out))
	for i, t := range out {
		parts[i] = t.text
	}
	return tsType{strings.Join(parts, " | "), precUnion}
}

// intersection joins constraints that all apply. Parts that say nothing
// about the shape (unknown, or any object beside a more precise one) are
// dropped, so {"type":"object", "oneOf": [{"required":["a"]}, ...]} stays
// the plain object.
func intersection(ts []tsType) tsType {
	var out []tsType
	seen := map[string]bool{}
	for _, t := range ts {
		if t.text == "never" {
			return tsNever
		}
		if t.text == "unknown" || t.text == anyObject && len(ts) > 1 || seen[t.text] {
			continue
		}
		seen[t.text] = true
		out = append(out, t)
	}
	switch len(out) {
	case 0:
		return tsUnknown
	case 1:
		return out[0]
	}
	parts := make([]string, len(out))
	for i, t := range out {
		parts[i] = t.text
		if t.prec < precIntersection {
			parts[i] = "(" + t.text + ")"
		}
	}
	return tsType{strings.Join(parts, " & "), precIntersection}
}

func arrayOf(t tsType) tsType {
	if t.prec < precPrimary {
		return tsType{"(" + t.text + ")[]", precPrimary}
	}
	return tsType{t.text + "[]", precPrimary}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// jsonString quotes s as a JSON (and so JavaScript) string literal without
// the HTML escaping of encoding/json, which would turn "<" into \u003c.
func jsonString(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(buf.String(), "\n")
}

// IsIdent reports whether s is a JavaScript identifier of ASCII letters,
// digits, _ and $ (a regexp here would be compiled at start-up).
func IsIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c == '_' || c == '$' || (c|0x20 >= 'a' && c|0x20 <= 'z')
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return s != ""
}
