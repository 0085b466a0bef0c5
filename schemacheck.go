package codemode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"

	"github.com/interopio/code-mode/internal/tsgen"
	"github.com/interopio/code-mode/third_party/jsonschema"
)

// checkInputSchema is the registration-time check of a tool's inputSchema
// or outputSchema, both enforced: the keyword mistakes tool authors make (a
// misspelt type, a string where a number belongs, a schema where a list
// belongs, a remote $ref, another draft's form), found in one walk over the
// decoded document. Compiling with the full validator costs about a
// millisecond per tool in the browser, so it waits for the tool's first
// call (or result); a schema this check let through and the compiler
// refused would fail every call with the compiler's message. Its patterns
// must compile as the validator compiles them (Go's RE2 syntax): a pattern
// written for JavaScript with a lookahead or a backreference used to pass
// registration and then fail every call of the tool with a metaschema
// error the model could do nothing about.
func checkInputSchema(node any) error {
	return firstProblem(node, schemaWalk{draft: rootDraft(node), base: schemaURL, refs: &schemaRefs{root: node}})
}

// firstProblem walks a schema twice when it has a problem. Go visits a
// map's keys in random order, so a schema with two problems would get
// either message, one registration to the next; the second walk takes the
// keys in order (code point order: UTF-8 bytes) and reports the first
// problem met, as web/src/schemacheck.mjs does, so both engines say the
// same. A schema that passes is walked once, as before.
func firstProblem(node any, w schemaWalk) error {
	if checkSchemaAt(node, 0, w) == nil {
		return nil
	}
	w.sorted = true
	if err := checkSchemaAt(node, 0, w); err != nil {
		return err
	}
	return nil
}

// checkPattern compiles a pattern as the validator does
// (jsonschema.CompilePattern: Go's regexp.Compile, large counted repeats
// spelled out flat, Go's nesting limit counted after they are).
// A pattern past RE2's limits is told those limits: the lookahead advice
// was for the syntax JavaScript has and RE2 has not, not for x{2000}.
// web/src/schemacheck.mjs patternError says the same.
func checkPattern(p string) *schemaError {
	if _, err := jsonschema.CompilePattern(p); err != nil {
		var se *syntax.Error
		if errors.As(err, &se) && (se.Code == syntax.ErrInvalidRepeatSize || se.Code == syntax.ErrLarge || se.Code == syntax.ErrNestingDepth) {
			return badf("%q cannot be enforced: Go's RE2 syntax takes a counted repeat {n,m} only with n <= m <= 1000, nested counted repeats whose counts multiply to at most 1000, and a pattern whose compiled form stays within its size limit (%v); rewrite it within those limits, or check it in the tool", p, err)
		}
		return badf("%q cannot be enforced: patterns are checked with Go's RE2 syntax, which has no lookahead, lookbehind or backreferences (%v); rewrite it without them, or check it in the tool", p, err)
	}
	return nil
}

// schemaError is a problem found by checkInputSchema and where: the path is
// collected while returning, innermost segment first, so that a walk that
// finds nothing (registration walks every keyword of every schema) builds
// no path at all.
type schemaError struct {
	rev []string
	msg string
}

func badf(format string, args ...any) *schemaError {
	return &schemaError{msg: fmt.Sprintf(format, args...)}
}

// in adds the segment of the schema position the problem is in.
func (e *schemaError) in(seg string) *schemaError {
	e.rev = append(e.rev, seg)
	return e
}

func (e *schemaError) Error() string {
	if len(e.rev) == 0 {
		return "/: " + e.msg
	}
	var b strings.Builder
	for i := len(e.rev) - 1; i >= 0; i-- {
		b.WriteString("/")
		b.WriteString(e.rev[i])
	}
	return b.String() + ": " + e.msg
}

const maxSchemaDepth = 64

var (
	typeNames = keywordSet("null", "boolean", "object", "array", "number", "string", "integer")
	// keywords whose value is one schema
	oneSchemaKeywords = keywordSet("items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else",
		"additionalItems", "unevaluatedItems", "unevaluatedProperties", "contentSchema")
	// keywords whose value maps names to schemas
	schemaMapKeywords = keywordSet("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
	// keywords whose value is a non-empty list of schemas
	schemaListKeywords = keywordSet("allOf", "anyOf", "oneOf", "prefixItems")
	numberKeywords     = keywordSet("minimum", "maximum", "multipleOf")
	countKeywords      = keywordSet("minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains", "maxContains")
	stringKeywords     = keywordSet("pattern", "format", "$ref", "$id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$schema", "title", "description", "contentEncoding", "contentMediaType")
)

// schemaDraft is the draft a "$schema" URL selects (tsgen.Draft, which
// signatures read too): registration and the plain path both ask here, so
// neither refuses or misreads a spelling the validator accepts.
func schemaDraft(url string) int { return tsgen.Draft(url) }

// keywordSet is not inlined: the package's init calls it for each set
// (TestCoreInitInlinesNoLoop says why).
//
//go:noinline
func keywordSet(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// schemaWalk is what the check knows of the schema it walks.
type schemaWalk struct {
	// draft is the root "$schema"'s (see schemaDraft), 2020 without one;
	// 0 below a subschema naming its own, which the validator honours only
	// beside an $id: there the check is as lenient as either draft.
	draft int
	// sorted: objects' keys are visited in order (firstProblem).
	sorted bool
	// base is the base URI references resolve against where the walk is
	// (the compiler's schemaURL at the root), refs the document's places.
	base string
	refs *schemaRefs
}

// eachKey calls f for each key of m, in order when sorted, stopping at the
// first problem.
func eachKey(m map[string]any, sorted bool, f func(k string, v any) *schemaError) *schemaError {
	if !sorted {
		for k, v := range m {
			if err := f(k, v); err != nil {
				return err
			}
		}
		return nil
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if err := f(k, m[k]); err != nil {
			return err
		}
	}
	return nil
}

// rootDraft is the draft a schema document is read in: 2020-12 unless its
// "$schema" names another (an unknown one is refused by its own check).
func rootDraft(node any) int {
	m, _ := node.(map[string]any)
	if s, ok := m["$schema"].(string); ok {
		return schemaDraft(s)
	}
	return 2020
}

func checkSchemaAt(node any, depth int, w schemaWalk) *schemaError {
	if depth > maxSchemaDepth {
		return badf("nested more than %d levels", maxSchemaDepth)
	}
	switch n := node.(type) {
	case bool:
		if w.draft == 4 {
			return badf("must be a schema object under draft-04, got a boolean (boolean schemas came with draft-06)")
		}
		return nil
	case map[string]any:
		if _, ok := n["$schema"]; ok && depth > 0 {
			w.draft = 0
		}
		w.base = resourceBase(n, w.base, w.draft)
		return eachKey(n, w.sorted, func(k string, v any) *schemaError {
			if err := checkKeyword(k, v, depth, w); err != nil {
				return err.in(k)
			}
			if err := checkDraft4Bounds(n, k, w); err != nil {
				return err.in(k)
			}
			return nil
		})
	}
	return badf("must be a schema (an object or a boolean), got %s", schemaKind(node))
}

// itemsListError is the words for a list in "items" under 2020-12, the
// same in web/src/schemacheck.mjs.
const itemsListError = `must be a schema under 2020-12, got a list: a tuple is "prefixItems" there (a list in "items" is the form of 2019-09 and older, which needs "$schema": "http://json-schema.org/draft-07/schema#")`

func checkKeyword(k string, v any, depth int, w schemaWalk) *schemaError {
	if !w.inDraft(k) {
		return nil
	}
	if err, handled := checkMetaKeyword(k, v, depth, w); err != nil || handled {
		return err
	}
	switch {
	case k == "type":
		switch t := v.(type) {
		case string:
			if !typeNames[t] {
				return badf("%q is not a type (null, boolean, object, array, number, string or integer)", t)
			}
		case []any:
			for i, x := range t {
				if s, ok := x.(string); !ok || !typeNames[s] {
					return badf("must be a type name, got %s", schemaValue(x)).in(strconv.Itoa(i))
				}
			}
			return typeListProblem(t)
		default:
			return badf("must be a type name or a list of them, got %s", schemaKind(v))
		}
	case k == "items":
		// a schema, or (2019-09 and older) a list of schemas: 2020-12's
		// meta-schema refuses the list, so every call of the tool would fail.
		if list, ok := v.([]any); ok {
			if w.draft == 2020 {
				return badf("%s", itemsListError)
			}
			for i, s := range list {
				if err := checkSchemaAt(s, depth+1, w); err != nil {
					return err.in(strconv.Itoa(i))
				}
			}
			return nil
		}
		return checkSchemaAt(v, depth+1, w)
	case oneSchemaKeywords[k]:
		return checkSchemaAt(v, depth+1, w)
	case schemaMapKeywords[k]:
		m, ok := v.(map[string]any)
		if !ok {
			return badf("must be an object of schemas, got %s", schemaKind(v))
		}
		return eachKey(m, w.sorted, func(name string, s any) *schemaError {
			if k == "patternProperties" {
				if err := checkPattern(name); err != nil {
					return err.in(name)
				}
			}
			if err := checkSchemaAt(s, depth+1, w); err != nil {
				return err.in(name)
			}
			return nil
		})
	case schemaListKeywords[k]:
		list, ok := v.([]any)
		if !ok || len(list) == 0 {
			return badf("must be a non-empty list of schemas, got %s", schemaValue(v))
		}
		for i, s := range list {
			if err := checkSchemaAt(s, depth+1, w); err != nil {
				return err.in(strconv.Itoa(i))
			}
		}
	case k == "required":
		return checkNameList(v, w)
	case k == "enum":
		list, ok := v.([]any)
		if !ok {
			return badf("must be a list, got %s", schemaKind(v))
		}
		if w.draft == 4 || w.draft == 6 || w.draft == 7 {
			return checkOldEnum(list, w.draft)
		}
	case numberKeywords[k]:
		f, ok := v.(float64)
		if !ok {
			return badf("must be a number, got %s", schemaValue(v))
		}
		if k == "multipleOf" && f <= 0 {
			return badf("must be greater than 0, got %v", f)
		}
	case k == "exclusiveMinimum" || k == "exclusiveMaximum":
		// The bound itself since draft-06; in draft-04 a boolean making
		// minimum or maximum exclusive. The other draft's form fails the
		// meta-schema, so every call of the tool would fail.
		bound := "maximum"
		if k == "exclusiveMinimum" {
			bound = "minimum"
		}
		switch v.(type) {
		case float64:
			if w.draft == 4 {
				return badf("must be a boolean under draft-04 (true makes %s exclusive), got %s", bound, schemaValue(v))
			}
		case bool:
			if w.draft != 4 && w.draft != 0 {
				return badf("must be a number (the bound itself, excluded), got a boolean: that is draft-04's form, which needs \"$schema\": \"http://json-schema.org/draft-04/schema#\"")
			}
		default:
			return badf("must be a number, got %s", schemaValue(v))
		}
	case countKeywords[k]:
		f, ok := v.(float64)
		if !ok || f < 0 || f != math.Trunc(f) {
			return badf("must be a non-negative integer, got %s", schemaValue(v))
		}
	case stringKeywords[k]:
		s, ok := v.(string)
		if !ok {
			return badf("must be a string, got %s", schemaValue(v))
		}
		if k == "$ref" {
			return checkRef(s, w)
		}
		if k == "$schema" && schemaDraft(s) == 0 {
			return badf("unknown $schema %q (2020-12, 2019-09, draft-07, -06 or -04)", s)
		}
		if k == "pattern" {
			return checkPattern(s)
		}
	}
	return nil
}

// checkOldEnum holds an enum to the meta-schema of draft-04, -06 and -07,
// which wants at least one value and no value twice (2019-09 and 2020-12
// allow both): the validator refuses the schema otherwise, so every call
// of the tool would fail. A server that fills an enum at start-up from
// the network lists an empty one when offline.
func checkOldEnum(list []any, draft int) *schemaError {
	if len(list) == 0 {
		return badf("must hold at least one value under draft-0%d, got an empty list (no input could be valid)", draft)
	}
	seen := make(map[any]bool, len(list))
	for i, x := range list {
		dup := false
		switch x.(type) {
		case map[string]any, []any:
			// Composite values are compared with every earlier one.
			for _, y := range list[:i] {
				dup = dup || reflect.DeepEqual(x, y)
			}
		default:
			dup = seen[x]
			seen[x] = true
		}
		if dup {
			return badf("must not hold a value twice under draft-0%d, got %s again", draft, schemaValue(x)).in(strconv.Itoa(i))
		}
	}
	return nil
}

func schemaKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func schemaValue(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("the string %q", x)
	case float64:
		return fmt.Sprintf("the number %v", x)
	}
	return schemaKind(v)
}

// compilesEagerly reports whether a schema must compile at registration:
// whether it holds a reference or names a place (hasRef, namesPlaces).
// Those keywords all start with "$" (draft-04's "id" counts only in a
// document whose "$schema" names draft-04), and JSON text writes "$" only
// as itself or as a \u escape: the text of most schemas has neither, and
// walking every registered schema twice was a good share of registering a
// catalog. root gives the decoded schema, decoded for this only when the
// text may hold one of them.
func compilesEagerly(raw json.RawMessage, root func() any) bool {
	if bytes.IndexByte(raw, '$') < 0 && !bytes.Contains(raw, []byte(`\u`)) {
		return false
	}
	return hasRef(root()) || namesPlaces(root())
}

// hasRef reports whether a decoded schema holds a "$ref", "$dynamicRef" or
// "$recursiveRef" anywhere (data keywords included: erring on the side of
// compiling).
func hasRef(node any) bool { return hasKeyword(node, "$ref", "$dynamicRef", "$recursiveRef") }

// namesPlaces reports whether a decoded schema holds an "$id", "$anchor" or
// "$dynamicAnchor" anywhere (draft-04's "id" in a draft-04 document, where
// a property named id also counts): the compiler refuses one it cannot
// parse or that another place of the schema also claims.
func namesPlaces(node any) bool {
	if rootDraft(node) == 4 {
		return hasKeyword(node, "$id", "$anchor", "$dynamicAnchor", "id")
	}
	return hasKeyword(node, "$id", "$anchor", "$dynamicAnchor")
}

func hasKeyword(node any, keys ...string) bool {
	switch n := node.(type) {
	case map[string]any:
		for k, v := range n {
			if slices.Contains(keys, k) || hasKeyword(v, keys...) {
				return true
			}
		}
	case []any:
		for _, v := range n {
			if hasKeyword(v, keys...) {
				return true
			}
		}
	}
	return false
}
