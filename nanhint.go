package codemode

import (
	"fmt"
	"regexp"
	"strings"
)

// A sum over a field the tool's items do not have (s + o.amount, where
// they have total) is NaN, and the result said only "result.total: NaN,
// converted to the string "NaN"": the model learnt that arithmetic went
// wrong, not where. nanHint names the first read of a property that the
// tool's result type (declared, or inferred from its results) does not
// have, on a name holding the result or one of its items.

// nanWarning is how the sandbox's note of a NaN value ends.
const nanWarning = `: NaN, converted to the string "NaN"`

// arrayMembers are the properties every array has that a program reads:
// os.length is no missing field of a tool's result.
const arrayMembers = " length map filter reduce forEach find findIndex findLast some every slice sort toSorted flatMap flat includes indexOf join concat at push entries keys values reduceRight reverse toReversed splice fill "

// nanHint is what the run adds to a NaN note: "; NaN comes from ..."
// naming the first property read that the tool's result lacks, "" when
// the code reads none the run can tell of.
func (r *runState) nanHint() string {
	for _, ix := range toolBindingRx().FindAllStringSubmatchIndex(r.code, -1) {
		name, tool := r.code[ix[2]:ix[3]], r.code[ix[4]:ix[5]]
		if !isIdentName(name) || !callEndsStatement(r.code, ix[1]-1) {
			continue
		}
		e, ok := r.entry(tool)
		if !ok {
			continue
		}
		out := resultType(r.s.signature(e))
		if out == "" || out == "unknown" || len(out) > maxResultTypeChars {
			continue
		}
		item, isArray := strings.CutSuffix(out, "[]")
		item = strings.TrimSuffix(strings.TrimPrefix(item, "("), ")")
		for _, prop := range propertyReads(r.code, name) {
			if isArray && !hasWord(arrayMembers, prop) || !isArray && !mentionsMember(out, prop) {
				return fmt.Sprintf("; NaN comes from arithmetic on undefined: %s.%s reads a field that what tools.%s gives, %s, does not have%s", name, prop, tool, out, memberSuggestion(out, prop, isArray))
			}
		}
		if !isArray || strings.Contains(item, "[]") {
			continue
		}
		for _, v := range itemNames(r.code, name) {
			for _, prop := range propertyReads(r.code, v) {
				if !mentionsMember(item, prop) {
					return fmt.Sprintf("; NaN comes from arithmetic on undefined: %s.%s reads a field that the items of what tools.%s gives, %s, do not have%s", v, prop, tool, item, memberSuggestion(item, prop, false))
				}
			}
		}
	}
	return ""
}

// propertyReads are the names of the properties the code reads on name
// (name.p, name?.p), in order.
func propertyReads(code, name string) []string {
	var props []string
	for i := 0; ; {
		j := strings.Index(code[i:], name)
		if j < 0 {
			return props
		}
		j += i
		i = j + len(name)
		if j > 0 && (isIdentByte(code[j-1]) || code[j-1] == '.') {
			continue
		}
		rest := strings.TrimPrefix(code[i:], "?")
		if !strings.HasPrefix(rest, ".") {
			continue
		}
		rest = rest[1:]
		n := 0
		for n < len(rest) && isIdentByte(rest[n]) {
			n++
		}
		if p := rest[:n]; isIdentName(p) {
			props = append(props, p)
		}
	}
}

// itemNames are the names the code gives the items of array name: `for
// (const o of name)` and the item parameter of a callback of its methods
// (name.map((o) => ...), name.reduce((s, o) => ...)). Compiled per call:
// only a run whose result holds NaN asks.
func itemNames(code, name string) []string {
	var names []string
	q := regexp.QuoteMeta(name)
	for _, m := range regexp.MustCompile(`for\s*\(\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s+of\s+`+q+`\b`).FindAllStringSubmatch(code, -1) {
		names = append(names, m[1])
	}
	for _, m := range regexp.MustCompile(`\b`+q+`\s*\??\.\s*(reduce|reduceRight|map|forEach|filter|find|findLast|some|every|flatMap)\s*\(\s*(?:async\s*)?\(?\s*([A-Za-z_$][\w$]*)\s*(?:,\s*([A-Za-z_$][\w$]*))?`).FindAllStringSubmatch(code, -1) {
		if strings.HasPrefix(m[1], "reduce") {
			if m[3] != "" {
				names = append(names, m[3])
			}
		} else {
			names = append(names, m[2])
		}
	}
	return names
}
