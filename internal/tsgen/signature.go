// Package tsgen renders a tool's TypeScript declaration from its JSON
// Schemas: the text a model reads in search results and in the
// instructions. Signature is the one entry point.
package tsgen

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/interopio/code-mode/internal/trunc"
)

// Signatures are TypeScript-like declarations written for a model, not for
// tsc: compact, in the author's property order, and shaped like the call the
// model should write:
//
//	/** Search orders by status. */
//	tools.orders.search(input: { status?: "open" | "shipped"; limit: number }): Promise<{ id: string; total: number }[]>;
//
// Recursive $defs become `type X = ...;` lines before the declaration;
// everything else is inlined.

const (
	// sigMaxDepth and sigMaxNodes bound pathological schemas (deep nesting,
	// a $defs DAG that doubles at every level); past them a type is unknown.
	sigMaxDepth = 12
	sigMaxNodes = 400
	// sigInlineWidth is the longest object literal kept on one line.
	sigInlineWidth = 100
	// sigDescMax caps a property's doc comment; the tool description gets
	// DescriptionMax because it is what the author wrote for this purpose.
	sigDescMax = 200
	// sigMaxMembers caps the properties listed of one object and the values
	// of one enum; the real catalogs (internal/search/eval/testdata) have at
	// most 28 properties in an object.
	sigMaxMembers = 200
)

// Descriptions and signatures come from MCP servers and other untrusted
// catalogs and are paid for in every search hit and in the instruction, so
// both are bounded. The longest description in the real catalogs is 2,006
// bytes and the longest signature 5,242 bytes: the caps are far above them.
// Microsoft 365's MCP server (over Graph's request bodies) renders four
// tools at 32-41 KB: signature shortens those to 9-12 KB.
const (
	DescriptionMax = 8 << 10
	SignatureMax   = 32 << 10
)

// Description is a tool description as the model sees it, in a search hit
// and in the signature's doc comment.
func Description(s string) string { return trunc.Words(s, DescriptionMax) }

// Signature renders the declaration of one tool from its name, description
// and JSON Schemas (nil when absent).
func Signature(name, description string, inputSchema, outputSchema json.RawMessage) string {
	return signature(name, description, inputSchema, outputSchema, false)
}

// signature is Signature; outputInferred says the outputSchema was guessed
// from results, whose whole numbers say nothing of the field's type.
//
// A schema that renders past SignatureMax (Microsoft Graph's request
// bodies in an MCP server reach 84 KB) is rendered again with less: first
// without the properties' doc comments, then with fewer nodes each time,
// so that the model still reads a declaration that parses, and a comment
// says what was left out.
func signature(name, description string, inputSchema, outputSchema json.RawMessage, outputInferred bool) string {
	sig := renderSignature(name, description, inputSchema, outputSchema, outputInferred, true, sigMaxNodes, nil)
	if len(sig) <= SignatureMax {
		return sig
	}
	for _, sig = range smaller(name, description, inputSchema, outputSchema, outputInferred) {
		if len(sig) <= SignatureMax {
			return sig
		}
	}
	// What no node budget reaches (a megabyte property name or literal,
	// or the description) is cut here, visibly, at the price of a
	// declaration that no longer parses.
	return trunc.String(sig, SignatureMax)
}

// smaller renders the signature with less, form after form, each shorter
// than the one before: without the properties' doc comments, then with
// half the nodes each time.
func smaller(name, description string, inputSchema, outputSchema json.RawMessage, outputInferred bool) (forms []string) {
	decoded := map[string]*sigDoc{} // the schemas, decoded once for every form
	for nodes := sigMaxNodes; nodes >= 25; nodes /= 2 {
		if sig := renderSignature(name, description, inputSchema, outputSchema, outputInferred, false, nodes, decoded); forms == nil || len(sig) < len(forms[len(forms)-1]) {
			forms = append(forms, sig)
		}
	}
	return forms
}

// Shorter is smaller without the tool's description (a search hit holds
// it beside the signature): the forms a search answer over its budget
// shows in place of a long signature, the largest that fits.
func Shorter(name string, inputSchema, outputSchema json.RawMessage) []string {
	return smaller(name, "", inputSchema, outputSchema, false)
}

// renderSignature renders the declaration; decoded, when not nil, keeps
// the schemas decoded from one call to the next.
func renderSignature(name, description string, inputSchema, outputSchema json.RawMessage, outputInferred, docs bool, maxNodes int, decoded map[string]*sigDoc) string {
	g := &sigGen{named: map[string]string{}, inProgress: map[string]bool{}, recursive: map[string]bool{}, taken: map[string]bool{}, docs: docs, maxNodes: maxNodes, decoded: decoded}
	in := "input?: unknown"
	if inputSchema != nil {
		g.markIntegers, g.limits = true, true
		in = "input: " + g.document(inputSchema, "Input").text
		g.limits = false
	}
	out := "unknown"
	if outputSchema != nil {
		g.markIntegers = !outputInferred
		out = g.document(outputSchema, "Output").text
	}
	var sb strings.Builder
	for _, d := range g.decls {
		sb.WriteString(d)
		sb.WriteByte('\n')
	}
	desc := Description(description)
	if !docs {
		left := "the properties' descriptions are"
		if maxNodes < sigMaxNodes {
			left = "the properties' descriptions, the innermost types (written unknown) and some optional properties are"
		}
		desc = strings.TrimSpace(desc + "\n\n(Shortened to fit: " + left + " left out.)")
	}
	writeDocComment(&sb, desc, "")
	fmt.Fprintf(&sb, "%s(%s): Promise<%s>;", ToolPath(name), in, out)
	return sb.String()
}

// ToolPath is the expression that reaches a tool from sandbox code.
func ToolPath(name string) string {
	var sb strings.Builder
	sb.WriteString("tools")
	for _, seg := range strings.Split(name, ".") {
		if IsIdent(seg) {
			sb.WriteByte('.')
			sb.WriteString(seg)
		} else {
			sb.WriteString("[" + jsonString(seg) + "]")
		}
	}
	return sb.String()
}

type sigDoc struct {
	root     any
	rootName string
	// draft is the root "$schema"'s (2020 without one): what a keyword
	// means, or whether it means anything, is the draft's (a $ref's
	// siblings before 2019-09, prefixItems before 2020-12).
	draft int
	res   *resources
}

// Draft is the draft a "$schema" URL selects (4, 6, 7, 2019 or
// 2020), read as the validator reads it (jsonschema's draftFromURL): http
// or https, with or without an empty fragment, json-schema.org/schema
// being the latest; 0 for a URL it does not know, which it would try to
// load.
func Draft(url string) int {
	u, frag, _ := strings.Cut(url, "#")
	if frag != "" {
		return 0
	}
	u, ok := strings.CutPrefix(u, "http://")
	if !ok {
		u, _ = strings.CutPrefix(u, "https://")
	}
	switch u {
	case "json-schema.org/schema", "json-schema.org/draft/2020-12/schema":
		return 2020
	case "json-schema.org/draft/2019-09/schema":
		return 2019
	case "json-schema.org/draft-07/schema":
		return 7
	case "json-schema.org/draft-06/schema":
		return 6
	case "json-schema.org/draft-04/schema":
		return 4
	}
	return 0
}

// docDraft is the draft a decoded schema document is read in.
func docDraft(root any) int {
	if m, ok := root.(*omap); ok {
		if s, ok := m.Get("$schema"); ok {
			if d := Draft(fmt.Sprint(s)); d != 0 {
				return d
			}
		}
	}
	return 2020
}

type sigGen struct {
	doc        *sigDoc
	nodes      int
	decls      []string
	named      map[string]string // ref key -> declared type name
	inProgress map[string]bool   // ref keys on the current inlining path
	recursive  map[string]bool   // ref keys found to refer to themselves
	taken      map[string]bool   // type names in use
	// markIntegers writes "integer" types as number /* integer */:
	// TypeScript has no integer type, and a model that reads only number
	// passes 2.5 where the tool refuses it.
	markIntegers bool
	// limits writes an input's bounds after its type (limitsOf): a model
	// that read only number sent limit: 500 to a tool with maximum 100.
	limits bool
	// docs writes the properties' doc comments; maxNodes bounds the nodes
	// rendered (sigMaxNodes, less when a signature is shortened to fit).
	docs     bool
	decoded  map[string]*sigDoc // by root name (renderSignature)
	maxNodes int
}

func (g *sigGen) document(raw json.RawMessage, rootName string) tsType {
	if g.doc = g.decoded[rootName]; g.doc == nil {
		root, err := decodeOrdered(raw)
		if err != nil {
			return tsUnknown
		}
		draft := docDraft(root)
		g.doc = &sigDoc{root: root, rootName: rootName, draft: draft, res: indexResources(root, rootName, draft)}
		if g.decoded != nil {
			g.decoded[rootName] = g.doc
		}
	}
	// Going through the reference path names the root when it refers to
	// itself ("$ref": "#"), instead of inlining it once.
	return g.renderRef("#", docURL, 0, 0)
}

// render turns one schema node into a type. indent is the nesting level of
// the line the type starts on, used when an object spans several lines.
func (g *sigGen) render(node any, depth, indent int) tsType {
	g.nodes++
	if depth > sigMaxDepth || g.nodes > g.maxNodes {
		return tsUnknown
	}
	switch n := node.(type) {
	case bool:
		if n {
			return tsUnknown
		}
		return tsNever
	case *omap:
		t := g.renderObject(n, depth, indent)
		// OpenAPI 3.0's nullable, where the validator reads it too
		// (schemanullable.go): beside a type or an enum.
		_, typed := n.Get("type")
		_, enum := n.Get("enum")
		if b, _ := n.Get("nullable"); b == true && (typed || enum) && !g.refAlone(n) {
			t = union([]tsType{t, {"null", precPrimary}})
		}
		return t
	default:
		return tsUnknown
	}
}

func (g *sigGen) renderObject(n *omap, depth, indent int) tsType {
	if g.refAlone(n) {
		return g.renderRef(n.Str("$ref"), g.baseOf(n), depth, indent)
	}
	if c, ok := n.Get("const"); ok && g.doc.draft >= 6 {
		return literal(c)
	}
	if e, ok := n.Get("enum"); ok {
		if vals, ok := e.([]any); ok {
			parts := make([]tsType, min(len(vals), sigMaxMembers))
			for i := range parts {
				parts[i] = literal(vals[i])
			}
			if more := len(vals) - len(parts); more > 0 {
				parts[len(parts)-1].text += " /* " + trunc.Mark + " and " + trunc.More(more, "value", "values") + " */"
			}
			return union(parts)
		}
	}
	var parts []tsType
	if ref := n.Str("$ref"); ref != "" {
		parts = append(parts, g.renderRef(ref, g.baseOf(n), depth, indent))
	}
	if base, ok := g.renderBase(n, depth, indent); ok {
		parts = append(parts, base)
	}
	if all, ok := n.Get("allOf"); ok {
		for _, s := range asList(all) {
			parts = append(parts, g.render(s, depth+1, indent))
		}
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		if alts, ok := n.Get(kw); ok {
			var u []tsType
			for _, s := range asList(alts) {
				u = append(u, g.render(s, depth+1, indent))
			}
			parts = append(parts, union(u))
		}
	}
	return intersection(parts)
}

// renderBase covers "type" and, when it is missing, the type implied by the
// keywords present. ok is false when the node says nothing about its shape.
func (g *sigGen) renderBase(n *omap, depth, indent int) (tsType, bool) {
	var types []string
	switch t, _ := n.Get("type"); t := t.(type) {
	case string:
		types = []string{t}
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok {
				types = append(types, s)
			}
		}
	default:
		// "required" alone does not make a shape: in a oneOf it only says
		// which of the parent's properties must be present.
		for _, kw := range []string{"properties", "additionalProperties", "patternProperties"} {
			if _, ok := n.Get(kw); ok {
				types = []string{"object"}
				break
			}
		}
		if _, ok := n.Get("items"); ok && types == nil {
			types = []string{"array"}
		}
		if _, ok := n.Get("prefixItems"); ok && types == nil && g.doc.draft == 2020 {
			types = []string{"array"}
		}
	}
	if len(types) == 0 {
		return tsType{}, false
	}
	var u []tsType
	for _, t := range types {
		var notes []string
		if t == "integer" && g.markIntegers && !slices.Contains(types, "number") {
			notes = append(notes, "integer")
		}
		if g.limits {
			notes = append(notes, limitsOf(n, t, g.doc.draft)...)
		}
		var typ tsType
		switch t {
		case "string", "boolean", "null":
			typ = tsType{t, precPrimary}
		case "integer", "number":
			typ = tsType{"number", precPrimary}
		case "object":
			typ = g.renderProps(n, depth, indent)
		case "array":
			typ = g.renderArray(n, depth, indent)
		default:
			typ = tsUnknown
		}
		if len(notes) > 0 {
			typ.text += " /* " + strings.Join(notes, ", ") + " */"
		}
		u = append(u, typ)
	}
	return union(u), true
}

// limitsOf is what an input's value of type t must keep to, for the
// comment after its type: a number's range (1..100, >= 0, < 1), a
// string's format, length and pattern, an array's item count. They are
// what validation refuses most that a type does not say, in a few bytes:
// 4,244,937 bytes of signatures in the eval catalogs grew by (see the
// commit). A minLength of 1 alone, or a minimum count of 0, says nothing a
// model would break; numbers longer than 12 characters (int64's limits)
// and a pattern over 40 characters, or one that would end the comment,
// are left out.
func limitsOf(n *omap, t string, draft int) []string {
	num := func(k string) string {
		if v, ok := n.Get(k); ok {
			if x, ok := v.(json.Number); ok && len(x) <= 12 {
				return string(x)
			}
		}
		return ""
	}
	// span is lo..hi (lo when they are one), >= lo or <= hi; lo is left
	// out when it is skip.
	span := func(lo, hi, skip string) string {
		switch {
		case lo != "" && lo == hi:
			return lo
		case lo != "" && hi != "":
			return lo + ".." + hi
		case hi != "":
			return "<= " + hi
		case lo != "" && lo != skip:
			return ">= " + lo
		}
		return ""
	}
	var out []string
	switch t {
	case "integer", "number":
		lo, hi := num("minimum"), num("maximum")
		loOp, hiOp := ">= ", "<= "
		// Draft 4's exclusive bounds are booleans beside minimum and
		// maximum, and the validator reads them so in any draft (OpenAPI
		// 3.0 writes them); from draft 6 they are bounds of their own.
		if b, _ := n.Get("exclusiveMinimum"); b == true && lo != "" {
			loOp = "> "
		} else if x := num("exclusiveMinimum"); x != "" && draft != 4 {
			lo, loOp = x, "> "
		}
		if b, _ := n.Get("exclusiveMaximum"); b == true && hi != "" {
			hiOp = "< "
		} else if x := num("exclusiveMaximum"); x != "" && draft != 4 {
			hi, hiOp = x, "< "
		}
		if lo != "" && hi != "" && loOp == ">= " && hiOp == "<= " {
			out = append(out, lo+".."+hi)
			break
		}
		if lo != "" {
			out = append(out, loOp+lo)
		}
		if hi != "" {
			out = append(out, hiOp+hi)
		}
	case "string":
		if f := n.Str("format"); f != "" && len(f) <= 20 && IsIdent(strings.ReplaceAll(f, "-", "_")) {
			out = append(out, f)
		}
		if r := span(num("minLength"), num("maxLength"), "1"); r != "" {
			out = append(out, "length "+r)
		}
		if p := n.Str("pattern"); p != "" && len(p) <= 40 && !strings.Contains(p, "*/") && !strings.ContainsAny(p, "\n\r\u2028\u2029") {
			out = append(out, "pattern /"+p+"/")
		}
	case "array":
		if r := span(num("minItems"), num("maxItems"), "0"); r != "" {
			out = append(out, r+" items")
		}
	}
	return out
}

type sigProp struct {
	key, doc string
	optional bool
	typ      tsType
}

func (g *sigGen) renderProps(n *omap, depth, indent int) tsType {
	required := map[string]bool{}
	var requiredOrder []string
	for _, r := range asList(n.Vals["required"]) {
		if s, ok := r.(string); ok && !required[s] {
			required[s] = true
			requiredOrder = append(requiredOrder, s)
		}
	}
	var props []sigProp
	more := 0
	propsMap, hasProps := n.Vals["properties"].(*omap)
	if hasProps {
		keys := propsMap.Keys
		if len(keys) > sigMaxMembers {
			keys, more = keys[:sigMaxMembers], len(keys)-sigMaxMembers
		}
		for _, k := range keys {
			// Shortened to fit, an optional property past the node budget
			// goes (counted in more): listed, each would still cost its
			// name. A required one stays, unknown, since a call without it
			// fails.
			if g.maxNodes < sigMaxNodes && g.nodes >= g.maxNodes && !required[k] {
				more++
				continue
			}
			ps := propsMap.Vals[k]
			props = append(props, sigProp{
				key:      propertyKey(k),
				doc:      g.propertyDoc(ps),
				optional: !required[k],
				typ:      g.render(ps, depth+1, indent+1),
			})
		}
	}
	var index []tsType
	if ap, ok := n.Get("additionalProperties"); ok {
		if _, isBool := ap.(bool); !isBool {
			index = append(index, g.render(ap, depth+1, indent+1))
		}
	}
	if pp, ok := n.Vals["patternProperties"].(*omap); ok {
		for _, k := range pp.Keys {
			index = append(index, g.render(pp.Vals[k], depth+1, indent+1))
		}
	}
	// A required name no property describes is still required (catalogs
	// list such names: a property renamed, or described only in prose):
	// left out, the signature would lead the model to a call that every
	// time fails with missing "name".
	absentType := tsUnknown
	if len(index) > 0 {
		absentType = union(index)
	}
	for _, r := range requiredOrder {
		if hasProps {
			if _, described := propsMap.Vals[r]; described {
				continue
			}
		}
		if len(props) >= sigMaxMembers {
			more++
			continue
		}
		props = append(props, sigProp{key: propertyKey(r), typ: absentType})
	}
	if len(props) == 0 {
		if len(index) > 0 {
			return tsType{"Record<string, " + union(index).text + ">", precPrimary}
		}
		if ap, _ := n.Get("additionalProperties"); ap == false && hasProps {
			return tsType{"{}", precPrimary}
		}
		return tsType{anyObject, precPrimary}
	}
	if len(index) > 0 {
		props = append(props, sigProp{key: "[key: string]", typ: union(index)})
	}
	return tsType{formatObject(props, more, indent), precPrimary}
}

// formatObject keeps small, undocumented objects on one line and spreads the
// rest over several, one property per line. more is the number of
// properties left out, said in a comment line.
func formatObject(props []sigProp, more, indent int) string {
	multi := more > 0
	for _, p := range props {
		if p.doc != "" || strings.Contains(p.typ.text, "\n") {
			multi = true
		}
	}
	if !multi {
		parts := make([]string, len(props))
		for i, p := range props {
			parts[i] = p.member()
		}
		s := "{ " + strings.Join(parts, "; ") + " }"
		if len(s) <= sigInlineWidth {
			return s
		}
	}
	pad := strings.Repeat("  ", indent+1)
	var sb strings.Builder
	sb.WriteString("{\n")
	for _, p := range props {
		writeDocComment(&sb, p.doc, pad)
		sb.WriteString(pad + p.member() + ";\n")
	}
	if more > 0 {
		fmt.Fprintf(&sb, "%s// %s and %s\n", pad, trunc.Mark, trunc.More(more, "property", "properties"))
	}
	sb.WriteString(strings.Repeat("  ", indent) + "}")
	return sb.String()
}

func (p sigProp) member() string {
	opt := ""
	if p.optional {
		opt = "?"
	}
	return p.key + opt + ": " + p.typ.text
}

func (g *sigGen) renderArray(n *omap, depth, indent int) tsType {
	items, hasItems := n.Get("items")
	prefix, isTuple := n.Vals["prefixItems"].([]any)
	isTuple = isTuple && g.doc.draft == 2020
	rest, hasRest := items, hasItems
	if !isTuple {
		// Before 2020-12 a tuple was "items": [...] plus "additionalItems".
		if arr, ok := items.([]any); ok {
			prefix, isTuple = arr, true
			rest, hasRest = n.Get("additionalItems")
		}
	}
	if !isTuple {
		if !hasItems {
			return tsType{"unknown[]", precPrimary}
		}
		return arrayOf(g.render(items, depth+1, indent))
	}
	parts := make([]string, 0, len(prefix)+1)
	for _, s := range prefix {
		parts = append(parts, g.render(s, depth+1, indent).text)
	}
	if hasRest && rest != false {
		parts = append(parts, "..."+arrayOf(g.render(rest, depth+1, indent)).text)
	}
	return tsType{"[" + strings.Join(parts, ", ") + "]", precPrimary}
}

// propertyDoc is the doc comment of a property: its description (or that of
// the definition it references) plus its default value.
func (g *sigGen) propertyDoc(ps any) string {
	n, ok := ps.(*omap)
	if !ok || !g.docs {
		return ""
	}
	desc := n.Str("description")
	if desc == "" {
		if ref := n.Str("$ref"); ref != "" {
			if t, _, _, ok := g.resolve(ref, g.baseOf(n)); ok {
				if tn, ok := t.(*omap); ok {
					desc = tn.Str("description")
				}
			}
		}
	}
	desc = strings.Join(strings.Fields(desc), " ")
	desc = trunc.Words(desc, sigDescMax)
	if d, ok := n.Get("default"); ok {
		var sb strings.Builder
		encodeOrdered(&sb, d)
		if sb.Len() <= 40 {
			if desc != "" && !strings.HasSuffix(desc, ".") {
				desc += "."
			}
			desc = strings.TrimSpace(desc + " Default: " + sb.String() + ".")
		}
	}
	return desc
}
