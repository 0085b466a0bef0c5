package codemode

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/interopio/code-mode/internal/tsgen"
)

// keywordDrafts are the drafts a keyword belongs to, first and last (0:
// still in 2020-12), for the keywords that are not in every draft. Outside
// them the validator ignores the keyword whatever its value (it is not in
// that draft's meta-schema, and what it holds is not a schema): so does the
// check, and a "$id" under such a keyword names no resource. A draft-07
// schema's "$defs" or "prefixItems", a 2020-12 schema's "additionalItems",
// used to be held to the rules of the drafts that define them.
var keywordDrafts = draftsOf("6 0 $id contains propertyNames\n" +
	"7 0 if then else contentEncoding contentMediaType\n" +
	"2019 0 $anchor $defs contentSchema dependentSchemas minContains maxContains unevaluatedItems unevaluatedProperties\n" +
	"2020 0 $dynamicAnchor $dynamicRef prefixItems\n" +
	"4 2019 additionalItems")

// draftsOf is keywordDrafts of its text, a line per first and last draft
// and their keywords: not a map literal, whose statement per keyword was
// code of the core's own. Not inlined into the package's init
// (TestCoreInitInlinesNoLoop says why).
//
//go:noinline
func draftsOf(text string) map[string][2]int {
	m := map[string][2]int{}
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		first, _ := strconv.Atoi(f[0])
		last, _ := strconv.Atoi(f[1])
		for _, k := range f[2:] {
			m[k] = [2]int{first, last}
		}
	}
	return m
}

// inDraft reports whether keyword k means something in the walk's draft (a
// subschema naming its own "$schema", draft 0, is checked as any draft).
func (w schemaWalk) inDraft(k string) bool {
	d, ok := keywordDrafts[k]
	return !ok || w.draft == 0 || w.draft >= d[0] && (d[1] == 0 || w.draft <= d[1])
}

// schemaRefs is what the check knows of the places a schema document names:
// the resources it embeds (its root and each subschema with an "$id",
// "id" under draft-04), found on the first reference that is not a
// fragment ("item.json" beside a "$defs" entry with "$id": "item.json"),
// which the validator resolves in the document.
type schemaRefs struct {
	root      any
	resources map[string]bool // absolute URLs without fragment
}

// idKeyword is the keyword that names a resource in a draft.
func idKeyword(draft int) string {
	if draft == 4 {
		return "id"
	}
	return "$id"
}

// resourceBase is the base URI of schema n, whose parent's is base: its id
// resolved against base, or base. Before 2019-09 a "$ref" makes the
// validator ignore its siblings, an id among them.
func resourceBase(n map[string]any, base string, draft int) string {
	id, ok := n[idKeyword(draft)].(string)
	if !ok {
		return base
	}
	if _, ref := n["$ref"]; ref && draft != 0 && draft <= 7 {
		return base
	}
	if u, ok := tsgen.ResolveURL(base, id); ok {
		return u
	}
	return base
}

// embeds reports whether a reference met where the base URI is base is to
// a place in the document: a fragment, or a URL one of its resources has.
func (r *schemaRefs) embeds(base, ref string) bool {
	if strings.HasPrefix(ref, "#") {
		return true
	}
	u, ok := tsgen.ResolveURL(base, ref)
	if !ok {
		return false
	}
	if r.resources == nil {
		r.resources = map[string]bool{schemaURL: true}
		collectResources(r.root, schemaURL, rootDraft(r.root), 0, r.resources)
	}
	return r.resources[u]
}

// collectResources adds the base URI of each schema below node (node's
// parent's being base) to into, walking the keywords that hold schemas in
// the draft as the check walks them.
func collectResources(node any, base string, draft, depth int, into map[string]bool) {
	n, ok := node.(map[string]any)
	if !ok || depth > maxSchemaDepth {
		return
	}
	if _, ok := n["$schema"]; ok && depth > 0 {
		draft = 0
	}
	base = resourceBase(n, base, draft)
	into[base] = true
	w := schemaWalk{draft: draft}
	for k, v := range n {
		if !w.inDraft(k) {
			continue
		}
		switch {
		case k == "items" || oneSchemaKeywords[k] || schemaListKeywords[k]:
			if list, ok := v.([]any); ok {
				for _, s := range list {
					collectResources(s, base, draft, depth+1, into)
				}
			} else {
				collectResources(v, base, draft, depth+1, into)
			}
		case schemaMapKeywords[k] || k == "dependencies":
			if m, ok := v.(map[string]any); ok {
				for _, s := range m {
					collectResources(s, base, draft, depth+1, into)
				}
			}
		}
	}
}

// checkRef is the rule of a reference ("$ref", "$dynamicRef",
// "$recursiveRef"): to a place in the document, never one to load.
func checkRef(s string, w schemaWalk) *schemaError {
	if !w.refs.embeds(w.base, s) {
		return badf("remote $ref %q is not allowed: put the definition under $defs", s)
	}
	return checkRefURI(s, w.draft)
}

// checkRefURI holds a reference to a place in the document to the rule of
// the meta-schemas of draft-06 and later, which give references the format
// uri-reference (jsonschema's validateURIReference: no "\", and what
// url.Parse takes). The validator refused such a schema at its first
// compile with a dump of the meta-schema's verdict, which named no path,
// and in worker mode the page let it through to be refused a message
// later. Draft-04's meta-schema has no such rule (its compiler refuses a
// reference it cannot parse only where validation reaches it), nor is one
// known below a subschema naming its own "$schema" (draft 0): those are
// left to the compiler. A reference the walk found local parses but for
// its fragment (tsgen.ResolveURL parses the rest), whose one failure is a
// "%" that starts no escape. web/src/schemacheck.mjs refURIProblem says
// the same.
func checkRefURI(s string, draft int) *schemaError {
	if draft < 6 {
		return nil
	}
	if strings.Contains(s, `\`) {
		return badf(`%q is not a URI reference: a "\" is written "%%5C" in one`, s)
	}
	if _, err := url.Parse(s); err != nil {
		return badf(`%q is not a URI reference: a "%%" must start an escape of two hex digits (a "%%" itself is written "%%25")`, s)
	}
	return nil
}
