package codemode

// What a failed validation says: an input's or a result's violations, one
// line each (the failed rule's path, its keyword, the value sent and the
// one wanted), and the hints meant for a model's own input (a bare value,
// a number or JSON written as a string, a null for a field to leave out,
// a field's name guessed wrong).

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/interopio/code-mode/internal/decimal"
	"github.com/interopio/code-mode/internal/trunc"
	"github.com/interopio/code-mode/internal/tsgen"
	"github.com/interopio/code-mode/third_party/jsonschema"
	"github.com/interopio/code-mode/third_party/jsonschema/kind"
	"github.com/interopio/code-mode/third_party/jsonschema/message"
)

// maxViolations bounds the lines of a validation error: the model needs the
// first few problems to fix its call, not an essay.
const maxViolations = 5

// bareValueHint follows "/: type: got string, want object" when the input
// is a bare value: tools.orders.get("o1"), positional as in most APIs, for
// a tool whose input is { id }. It names the fields to wrap the value in
// (the required ones, else every property), with the value when there is
// one field: "pass { id: "o1" }".
func bareValueHint(doc, inst any) string {
	switch inst.(type) {
	case string, json.Number, bool:
	default:
		return ""
	}
	schema, _ := doc.(map[string]any)
	var fields []string
	if req, ok := schema["required"].([]any); ok {
		for _, f := range req {
			if name, ok := f.(string); ok {
				fields = append(fields, name)
			}
		}
	}
	if props, ok := schema["properties"].(map[string]any); ok && len(fields) == 0 {
		fields = slices.Sorted(maps.Keys(props))
		// A value that one property's enum holds is that property's:
		// tools.orders.search("open") for { status: "open" }.
		var holds []string
		for _, f := range fields {
			p, _ := props[f].(map[string]any)
			if e, _ := p["enum"].([]any); slices.ContainsFunc(e, func(x any) bool { return sameJSON(x, inst) }) {
				holds = append(holds, f)
			}
		}
		if len(holds) == 1 {
			fields = holds
		}
	}
	const head = " (the input is one object of named fields, not a bare value"
	if len(fields) == 0 {
		return head + ")"
	}
	if len(fields) == 1 {
		value, _ := json.Marshal(inst)
		return head + ": pass { " + jsKey(fields[0]) + ": " + string(value) + " })"
	}
	if len(fields) > 5 {
		fields = fields[:5]
	}
	for i, f := range fields {
		fields[i] = jsKey(f) + ": ..."
	}
	return head + ": pass { " + strings.Join(fields, ", ") + " })"
}

// sameJSON says whether a and b write the same JSON.
func sameJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// jsKey writes a property name as object literals take it.
func jsKey(name string) string {
	if tsgen.IsIdent(name) {
		return name
	}
	q, _ := json.Marshal(name)
	return string(q)
}

// isJSONContainer reports whether s is the JSON text of an object or array.
func isJSONContainer(s string) bool {
	t := strings.TrimSpace(s)
	return t != "" && (t[0] == '{' || t[0] == '[') && json.Valid([]byte(t))
}

// validationError lists the violations of one input, one per line.
type validationError struct {
	lines []string
}

func (e *validationError) Error() string {
	if len(e.lines) == 1 {
		return "invalid input: " + e.lines[0]
	}
	return "invalid input:\n" + strings.Join(e.lines, "\n")
}

func (e *validationError) Unwrap() error { return errInvalidInput }

// resultError lists the violations of one result of a tool: the call
// fails with it, naming the tool, each path and the rule.
type resultError struct {
	tool  string
	lines []string
}

func (e *resultError) Error() string {
	head := e.tool + ": the tool's result does not match its outputSchema:"
	if len(e.lines) == 1 {
		return head + " " + e.lines[0]
	}
	return head + "\n" + strings.Join(e.lines, "\n")
}

// violationLines flattens the error tree to its leaves, which are the rules
// that actually failed; inner nodes ("allOf failed", "$ref failed") only
// repeat them. Duplicates are dropped and the list is capped. With the
// schema (doc), each line gains the hint meant for a model's own input;
// nil for none.
func violationLines(root *jsonschema.ValidationError, inst, doc any) []string {
	var leaves []string
	seen := map[string]bool{}
	reach := unionReach{}
	// Failed alternatives of unions the validator kept no errors of (past
	// its first 1,000 failed ones): "... and 996 more" alone read as if
	// 1,000 of an anyOf's 100,000 had failed.
	unkept := 0
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			best := reach.closestBranches(e)
			if len(best) == len(e.Causes) {
				unkept += e.Unkept
			}
			for _, c := range best {
				walk(c)
			}
			return
		}
		line := violationLine(e)
		if doc != nil {
			line += valueHint(e, inst, doc) + requiredHint(e, inst, doc) + envelopeHint(e, inst)
		}
		if !seen[line] {
			seen[line] = true
			leaves = append(leaves, line)
		}
	}
	walk(root)
	if len(leaves) == 0 {
		leaves = []string{violationLine(root)}
	}
	// The library visits properties in map order; sorting by path makes the
	// message stable and reads top to bottom like the input.
	sort.SliceStable(leaves, func(i, j int) bool { return comparePaths(leaves[i], leaves[j]) < 0 })
	if len(leaves) > maxViolations {
		extra := len(leaves) - (maxViolations - 1)
		leaves = append(leaves[:maxViolations-1], fmt.Sprintf("... and %d more", extra))
	}
	if unkept > 0 {
		leaves = append(leaves, fmt.Sprintf("... and %d more alternatives that fail", unkept))
	}
	return leaves
}

// comparePaths orders "/items/2: ..." before "/items/10: ...".
func comparePaths(a, b string) int {
	pa, _, _ := strings.Cut(a, ": ")
	pb, _, _ := strings.Cut(b, ": ")
	sa, sb := strings.Split(pa, "/"), strings.Split(pb, "/")
	for i := 0; i < len(sa) && i < len(sb); i++ {
		if sa[i] == sb[i] {
			continue
		}
		na, errA := strconv.Atoi(sa[i])
		nb, errB := strconv.Atoi(sb[i])
		if errA == nil && errB == nil {
			return cmp.Compare(na, nb)
		}
		return strings.Compare(sa[i], sb[i])
	}
	if c := cmp.Compare(len(sa), len(sb)); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

func violationLine(e *jsonschema.ValidationError) string {
	path := "/"
	if len(e.InstanceLocation) > 0 {
		var sb strings.Builder
		for _, tok := range e.InstanceLocation {
			sb.WriteByte('/')
			sb.WriteString(strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1"))
		}
		path = sb.String()
	}
	return path + ": " + describeKind(e.ErrorKind)
}

// valueHint follows a "type: got X, want Y" that a model's habit explains
// with what to send instead: a number or a boolean as a string (limit:
// "5", read from text), a property's value as JSON text (ids:
// '["a","b"]'), a list as one string (ids: "a,b"), and null for a field it meant to leave out (note: null, as
// strict function-calling schemas teach models to send).
func valueHint(e *jsonschema.ValidationError, inst, doc any) string {
	k, ok := e.ErrorKind.(*kind.Type)
	if !ok {
		return ""
	}
	v, schema, inObject, ok := at(e, inst, doc)
	if !ok {
		return ""
	}
	if k.Got != "string" && k.Got != "null" {
		// ids: 5, one value where a property wants a list of them.
		if inObject && slices.Contains(k.Want, "array") && k.Got != "object" && k.Got != "array" {
			return " (one value: pass an array of the values, " + listOf(fmt.Sprint(v), schema) + ")"
		}
		return ""
	}
	if k.Got == "null" {
		if !inObject {
			return ""
		}
		kinds := make([]string, len(k.Want))
		for i, w := range k.Want {
			kinds[i] = "a " + w
			if w != "" && strings.ContainsRune("aeiou", rune(w[0])) {
				kinds[i] = "an " + w
			}
		}
		return fmt.Sprintf(" (null is not a value here: send %s, or leave the field out if it is optional)", strings.Join(kinds, " or "))
	}
	str, _ := v.(string)
	for _, w := range k.Want {
		switch {
		case (w == "number" || w == "integer") && isNumberText(str, w == "integer"):
			return fmt.Sprintf(" (the string %q: pass the number %s, without quotes)", str, str)
		case w == "integer" && isNumberText(str, false):
			// "2.0", an integer written with a fraction: pass 2.
			if f, _ := strconv.ParseFloat(str, 64); f == float64(int64(f)) {
				return fmt.Sprintf(" (the string %q: pass the number %d, without quotes)", str, int64(f))
			}
		case (w == "number" || w == "integer") && (str == "NaN" || str == "Infinity" || str == "-Infinity"):
			// The program's own NaN, which a tool input holds as a string
			// (JSON has no NaN): "got string" read as a quoting mistake.
			return fmt.Sprintf(" (the string %q: the program passed %s, which is no JSON number; check what computed it, e.g. Number() of text that is not a number)", str, str)
		case w == "boolean" && (str == "true" || str == "false"):
			return fmt.Sprintf(" (the string %q: pass %s, without quotes)", str, str)
		case (w == "object" || w == "array") && len(e.InstanceLocation) > 0 && isJSONContainer(str):
			// The whole input as JSON text has a line of its own (validate).
			return " (the string is JSON text: pass the " + w + " itself, not JSON.stringify(...) of it)"
		case w == "array" && inObject && str != "" && len(str) <= 200:
			// ids: "a,b", a list read from text: ["a,b"] would pass the
			// schema and be one wrong id.
			return " (one string: pass an array of the values, " + listOf(str, schema) + ")"
		}
	}
	return ""
}

// listOf writes the comma-separated values of s as an array literal, each a
// number where the array's items are numbers, else a string.
func listOf(s string, schema map[string]any) string {
	items, _ := schema["items"].(map[string]any)
	parts := strings.Split(s, ",")
	for i, p := range parts {
		p = strings.TrimSpace(p)
		parts[i] = strconv.Quote(p)
		if (items["type"] == "integer" || items["type"] == "number") && isNumberText(p, false) {
			parts[i] = p
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// at follows e's instance location down the input (inst) and its schema
// (doc) through properties and items: the value there, its schema (nil
// where properties and items do not say; $ref and combinators are not
// followed), and whether it is an object's property. ok is false when the
// location leaves the input.
func at(e *jsonschema.ValidationError, inst, doc any) (v any, schema map[string]any, inObject, ok bool) {
	v = inst
	schema, _ = doc.(map[string]any)
	for _, tok := range e.InstanceLocation {
		switch c := v.(type) {
		case map[string]any:
			props, _ := schema["properties"].(map[string]any)
			v, inObject = c[tok], true
			schema, _ = props[tok].(map[string]any)
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, nil, false, false
			}
			v, inObject = c[i], false
			schema, _ = schema["items"].(map[string]any)
		default:
			return nil, nil, false, false
		}
	}
	return v, schema, inObject, true
}

// envelopeHint follows "additionalProperties: "arguments" not allowed" when
// that one key holds an object: the input wrapped as other APIs send it,
// tools.orders.search({ arguments: { status: "open" } }).
func envelopeHint(e *jsonschema.ValidationError, inst any) string {
	k, ok := e.ErrorKind.(*kind.AdditionalProperties)
	obj, _ := inst.(map[string]any)
	if !ok || len(e.InstanceLocation) > 0 || len(k.Properties) != 1 || len(obj) != 1 {
		return ""
	}
	name := k.Properties[0]
	if _, ok := obj[name].(map[string]any); !ok {
		return ""
	}
	held := ""
	if b, _ := json.Marshal(obj[name]); len(b) <= 120 {
		held = ", " + string(b)
	}
	return fmt.Sprintf(" (the input is the tool's fields themselves: pass what %s holds%s, not { %s: {...} })", name, held, jsKey(name))
}

// requiredHint follows "required: missing "id"" when the object holds keys
// its schema does not name (tools.orders.get({ orderId }) for { id }): a
// model that guessed a field's name reads only what is missing, not that
// the name it sent is the wrong one. It names those keys and the
// properties there are. The schema is followed from the root through
// properties and items; anything else ($ref, combinators) gives no hint.
func requiredHint(e *jsonschema.ValidationError, inst, doc any) string {
	if _, ok := e.ErrorKind.(*kind.Required); !ok {
		return ""
	}
	v, sm, _, _ := at(e, inst, doc)
	obj, _ := v.(map[string]any)
	props, _ := sm["properties"].(map[string]any)
	if len(obj) == 0 || len(props) == 0 {
		return ""
	}
	var unknown []string
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if _, ok := props[k]; !ok {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return ""
	}
	sent := quoteList(unknown[:min(len(unknown), 5)])
	if len(unknown) > 5 {
		sent += fmt.Sprintf(" and %d more", len(unknown)-5)
	}
	names := slices.Sorted(maps.Keys(props))
	if len(names) > 8 {
		names = append(names[:8], "...")
	}
	what := "is not a property"
	if len(unknown) > 1 {
		what = "are not properties"
	}
	return fmt.Sprintf(" (the input has %s, which %s of this object; its properties are %s)", sent, what, strings.Join(names, ", "))
}

// isNumberText says whether s is a number written as text: all of it
// matches -?\d+(\.\d+)?([eE][+-]?\d+)? (-?\d+ for an integer), ASCII digits.
// By hand, not a package-level regexp: compiling one at init brought
// regexp's parser and compiler into every page's start-up
// (TestCoreInitCompilesNoRegexp), for a hint few failures need.
func isNumberText(s string, integer bool) bool {
	s, ok := cutDigits(strings.TrimPrefix(s, "-"))
	if !ok || integer {
		return ok && s == ""
	}
	if rest, dot := strings.CutPrefix(s, "."); dot {
		if s, ok = cutDigits(rest); !ok {
			return false
		}
	}
	if s != "" && (s[0] == 'e' || s[0] == 'E') {
		s = s[1:]
		if s != "" && (s[0] == '+' || s[0] == '-') {
			s = s[1:]
		}
		if s, ok = cutDigits(s); !ok {
			return false
		}
	}
	return s == ""
}

// cutDigits drops the ASCII digits s starts with; ok says there was one.
func cutDigits(s string) (rest string, ok bool) {
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return s[i:], i > 0
}

// describeKind words a failed rule as "<keyword>: got X, want Y" where that
// shape fits, so the model sees both the rule and its own value.
func describeKind(k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Type:
		return fmt.Sprintf("type: got %s, want %s", k.Got, strings.Join(k.Want, " or "))
	case *kind.Required:
		return fmt.Sprintf("required: missing %s", quoteList(k.Missing))
	case *kind.AdditionalProperties:
		return fmt.Sprintf("additionalProperties: %s not allowed", quoteList(k.Properties))
	case *kind.Enum:
		if len(k.Want) == 0 {
			// 2019-09 and 2020-12 allow an empty enum (a server that fills
			// it from the network at start-up lists one when offline).
			return fmt.Sprintf("enum: got %s, but the schema's enum is empty: it accepts no value", displayJSON(k.Got))
		}
		return fmt.Sprintf("enum: got %s, want one of %s", displayJSON(k.Got), displayList(k.Want))
	case *kind.Const:
		return fmt.Sprintf("const: got %s, want %s", displayJSON(k.Got), displayJSON(k.Want))
	case *kind.Minimum:
		return fmt.Sprintf("minimum: got %s, want >= %s", ratString(k.Got), ratString(k.Want))
	case *kind.Maximum:
		return fmt.Sprintf("maximum: got %s, want <= %s", ratString(k.Got), ratString(k.Want))
	case *kind.ExclusiveMinimum:
		return fmt.Sprintf("exclusiveMinimum: got %s, want > %s", ratString(k.Got), ratString(k.Want))
	case *kind.ExclusiveMaximum:
		return fmt.Sprintf("exclusiveMaximum: got %s, want < %s", ratString(k.Got), ratString(k.Want))
	case *kind.MultipleOf:
		return fmt.Sprintf("multipleOf: got %s, want a multiple of %s", ratString(k.Got), ratString(k.Want))
	case *kind.MinLength:
		return fmt.Sprintf("minLength: got %d characters, want >= %d", k.Got, k.Want)
	case *kind.MaxLength:
		return fmt.Sprintf("maxLength: got %d characters, want <= %d", k.Got, k.Want)
	case *kind.MinItems:
		return fmt.Sprintf("minItems: got %d items, want >= %d", k.Got, k.Want)
	case *kind.MaxItems:
		return fmt.Sprintf("maxItems: got %d items, want <= %d", k.Got, k.Want)
	case *kind.MinProperties:
		return fmt.Sprintf("minProperties: got %d, want >= %d", k.Got, k.Want)
	case *kind.MaxProperties:
		return fmt.Sprintf("maxProperties: got %d, want <= %d", k.Got, k.Want)
	case *kind.Pattern:
		return fmt.Sprintf("pattern: %s does not match %s", displayJSON(k.Got), displayJSON(k.Want))
	case *kind.Format:
		return fmt.Sprintf("format: %s is not a valid %s", displayJSON(k.Got), k.Want)
	case *kind.FalseSchema:
		return "not allowed here"
	case *kind.OneOf:
		if len(k.Subschemas) > 1 {
			return fmt.Sprintf("oneOf: matches alternatives %d and %d, want exactly one", k.Subschemas[0], k.Subschemas[1])
		}
		return "oneOf: matches none of the alternatives"
	case *kind.AnyOf:
		return "anyOf: matches none of the alternatives"
	case *kind.Not:
		return "not: must not match the schema"
	default:
		kw := strings.Join(k.KeywordPath(), "/")
		msg := k.LocalizedString(message.English)
		if kw == "" || strings.HasPrefix(msg, kw) {
			return msg
		}
		return kw + ": " + msg
	}
}

func ratString(r *decimal.Number) string {
	if r == nil {
		return "?"
	}
	return r.Text(messageDigits)
}

// messageDigits caps the significant digits a message shows of a number:
// 1e999999 is a million digits written out, and a model needs the first
// few to see its value.
const messageDigits = 40

// displayJSON renders a value the way the model wrote it, shortened so one
// huge string cannot flood the error.
func displayJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return trunc.String(string(b), 60)
}

func displayList(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = displayJSON(v)
	}
	return strings.Join(parts, ", ")
}

func quoteList(ss []string) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(parts, ", ")
}
