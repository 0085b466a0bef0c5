package codemode

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// The rules of the drafts' meta-schemas that the keyword check of
// schemacheck.go does not make, for an inputSchema (which the validator
// compiles against its draft's meta-schema on the tool's first call): a
// tool list's schema breaking one of them used to register, then fail
// every call with the validator's meta-schema dump, which the model can do
// nothing about. TestSchemaCheckCoversTheMetaSchemas holds the two to each
// other. An outputSchema is held to the same rules (it is enforced too).
// web/src/schemameta.mjs is the same for worker mode.

// metaPatterns are compiled on first use (a schema with "$anchor",
// "$dynamicAnchor" or "$vocabulary"), not at package init, which every
// page pays before its factory resolves (TestCoreInitCompilesNoRegexp).
// (A sync.Once, as sandbox's frameRE: a sync.OnceValue is inlined as
// closures of its own.)
func metaPatterns() *metaRegexps {
	metaOnce.Do(func() {
		metaRx = metaRegexps{
			// The form of "$anchor" and "$dynamicAnchor" (2019-09's and
			// 2020-12's meta-schemas).
			anchorName: regexp.MustCompile(`^[A-Za-z_][-A-Za-z0-9._]*$`),
			// What a "$vocabulary" key must look like: a scheme, then
			// printable ASCII without spaces or percent signs (the
			// validator parses the URI; this is the part of its rule one
			// regular expression says the same in Go and in JavaScript,
			// erring on the side of refusing).
			absoluteURI: regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:[!-$&-~]*$`),
		}
	})
	return &metaRx
}

type metaRegexps struct{ anchorName, absoluteURI *regexp.Regexp }

var (
	metaOnce sync.Once
	metaRx   metaRegexps
)

// from reports whether the walk is in the given draft or a later one (a
// subschema naming its own "$schema", draft 0, is in none for certain).
func (w schemaWalk) from(draft int) bool { return w.draft >= draft }

// checkMetaKeyword makes the meta-schema rules of keyword k; handled is
// true when k is one of the keywords it judges entirely.
func checkMetaKeyword(k string, v any, depth int, w schemaWalk) (err *schemaError, handled bool) {
	switch {
	case k == "items":
		if list, ok := v.([]any); ok && len(list) == 0 && w.draft != 2020 {
			return badf("must be a non-empty list of schemas, got %s", schemaValue(v)), true
		}
	case k == "additionalProperties" || k == "additionalItems":
		// The one place draft-04 takes a boolean.
		if _, ok := v.(bool); ok {
			return nil, true
		}
	case k == "uniqueItems" || (k == "readOnly" || k == "writeOnly") && w.from(7) || k == "deprecated" && w.from(2019) || k == "$recursiveAnchor" && w.draft == 2019:
		if _, ok := v.(bool); !ok {
			return badf("must be a boolean, got %s", schemaValue(v)), true
		}
		return nil, true
	case k == "examples" && w.from(7):
		if _, ok := v.([]any); !ok {
			return badf("must be a list, got %s", schemaKind(v)), true
		}
		return nil, true
	case k == "$comment" && w.from(7) || k == "id" && w.draft == 4:
		if _, ok := v.(string); !ok {
			return badf("must be a string, got %s", schemaValue(v)), true
		}
		return nil, true
	case k == "$vocabulary" && w.from(2019):
		m, ok := v.(map[string]any)
		if !ok {
			return badf("must be an object of booleans, got %s", schemaKind(v)), true
		}
		return eachKey(m, w.sorted, func(name string, x any) *schemaError {
			if !metaPatterns().absoluteURI.MatchString(name) {
				return badf("%q is not an absolute URI (a vocabulary's)", name).in(name)
			}
			if _, ok := x.(bool); !ok {
				return badf("must be a boolean, got %s", schemaValue(x)).in(name)
			}
			return nil
		}), true
	case k == "$anchor" && w.from(2019) || (k == "$dynamicAnchor" || k == "$recursiveAnchor") && w.from(2020):
		// 2020-12 keeps 2019-09's $recursiveAnchor, as an anchor name.
		s, ok := v.(string)
		if !ok {
			return badf("must be a string, got %s", schemaValue(v)), true
		}
		if !metaPatterns().anchorName.MatchString(s) {
			return badf("%q is not an anchor name (a letter or _, then letters, digits, -, _ or .)", s), true
		}
		return nil, true
	case k == "$id" && w.from(2019):
		if s, ok := v.(string); ok && strings.Contains(strings.TrimSuffix(s, "#"), "#") {
			return badf("%q has a fragment, which 2019-09 and 2020-12 do not allow in $id (name a place with $anchor)", s), true
		}
	case k == "$dynamicRef" && w.from(2020) || k == "$recursiveRef" && w.from(2019):
		s, ok := v.(string)
		if !ok {
			return badf("must be a string, got %s", schemaValue(v)), true
		}
		return checkRef(s, w), true
	case k == "dependentRequired" && w.from(2019):
		m, ok := v.(map[string]any)
		if !ok {
			return badf("must be an object of property name lists, got %s", schemaKind(v)), true
		}
		return eachKey(m, w.sorted, func(name string, x any) *schemaError {
			if err := checkNameList(x, w); err != nil {
				return err.in(name)
			}
			return nil
		}), true
	case k == "dependencies":
		m, ok := v.(map[string]any)
		if !ok {
			return badf("must be an object of schemas or property name lists, got %s", schemaKind(v)), true
		}
		return eachKey(m, w.sorted, func(name string, x any) *schemaError {
			var err *schemaError
			if _, ok := x.([]any); ok {
				err = checkNameList(x, w)
			} else {
				err = checkSchemaAt(x, depth+1, w)
			}
			if err != nil {
				return err.in(name)
			}
			return nil
		}), true
	}
	return nil, false
}

// typeListProblem: a list of types names one at least, and none twice.
func typeListProblem(list []any) *schemaError {
	if len(list) == 0 {
		return badf("must name at least one type, got an empty list (no value would be valid)")
	}
	return nameTwice(list, "type")
}

// checkNameList is the rule of "required" (and of a dependency's list):
// property names, none twice, and under draft-04 at least one.
func checkNameList(v any, w schemaWalk) *schemaError {
	list, ok := v.([]any)
	if !ok {
		return badf("must be a list of property names, got %s", schemaKind(v))
	}
	for i, x := range list {
		if _, ok := x.(string); !ok {
			return badf("must be a property name, got %s", schemaValue(x)).in(strconv.Itoa(i))
		}
	}
	if len(list) == 0 && w.draft == 4 {
		return badf("must name at least one property under draft-04, got an empty list (leave the keyword out instead)")
	}
	return nameTwice(list, "property")
}

// nameTwice finds a name listed twice (the meta-schemas' uniqueItems).
func nameTwice(list []any, what string) *schemaError {
	seen := make(map[string]bool, len(list))
	for i, x := range list {
		s, _ := x.(string)
		if seen[s] {
			return badf("must not name a %s twice, got %q again", what, s).in(strconv.Itoa(i))
		}
		seen[s] = true
	}
	return nil
}

// checkDraft4Bounds: under draft-04, "exclusiveMaximum": true modifies
// "maximum", and its meta-schema wants that keyword beside it.
func checkDraft4Bounds(n map[string]any, k string, w schemaWalk) *schemaError {
	if w.draft != 4 || (k != "exclusiveMaximum" && k != "exclusiveMinimum") {
		return nil
	}
	bound := "maximum"
	if k == "exclusiveMinimum" {
		bound = "minimum"
	}
	if _, ok := n[bound]; !ok {
		return badf("needs %q beside it under draft-04 (it makes that bound exclusive)", bound)
	}
	return nil
}
