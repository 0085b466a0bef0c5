package tsgen

import (
	"net/url"
	"strings"
)

// docURL is the base URI a schema document's references resolve against
// when its root names none: the compiler's (schema.go's schemaURL), so a
// relative "$id" and a reference to it meet at the URL the validator
// gives both.
const docURL = "mem:///codemode/schema.json"

// Keywords whose value holds subschemas, in any draft (schemacheck.go's
// sets): the places an "$id" or an "$anchor" names a schema. A schema the
// validator accepted uses them as its draft says; the signature needs only
// to find what its references name.
var (
	oneSchemaKeywords = map[string]bool{"items": true, "additionalProperties": true, "not": true, "contains": true,
		"propertyNames": true, "if": true, "then": true, "else": true, "additionalItems": true,
		"unevaluatedItems": true, "unevaluatedProperties": true, "contentSchema": true}
	schemaMapKeywords  = map[string]bool{"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true, "dependencies": true}
	schemaListKeywords = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true}
)

// place is a schema a reference can name, and the name its type takes if
// it turns out recursive (where it sits: its $defs entry).
type place struct {
	node any
	name string
}

// resources is what a document's references can name: each resource (the
// root and each subschema with an id) by its absolute URL, each anchor by
// its resource's URL + "#" + name, and the base URI each schema node's own
// references resolve against.
type resources struct {
	byURL map[string]place
	base  map[*omap]string
}

func indexResources(root any, rootName string, draft int) *resources {
	r := &resources{byURL: map[string]place{docURL: {root, rootName}}, base: map[*omap]string{}}
	r.walk(root, docURL, rootName, draft, 0)
	return r
}

// walk records node (its parent's base URI being base) and the schemas
// below it.
func (r *resources) walk(node any, base, name string, draft, depth int) {
	n, ok := node.(*omap)
	if !ok || depth > sigMaxDepth*4 {
		return
	}
	if s, ok := n.Get("$schema"); ok && depth > 0 {
		if d := Draft(fmtString(s)); d != 0 {
			draft = d
		}
	}
	idKey := "$id"
	if draft == 4 {
		idKey = "id"
	}
	_, hasRef := n.Get("$ref")
	// Before 2019-09 a "$ref" makes the validator ignore its siblings, an
	// id among them.
	if id, ok := n.Get(idKey); ok && !(hasRef && draft <= 7) {
		if id, ok := id.(string); ok {
			doc, frag, _ := strings.Cut(id, "#")
			if doc != "" {
				if u, ok := ResolveURL(base, doc); ok {
					base = u
					r.byURL[base] = place{n, name}
				}
			}
			// Before 2019-09 an id's fragment was what "$anchor" is now.
			if frag != "" && draft <= 7 {
				r.byURL[base+"#"+frag] = place{n, frag}
			}
		}
	}
	for _, k := range []string{"$anchor", "$dynamicAnchor"} {
		if a := n.Str(k); a != "" {
			r.byURL[base+"#"+a] = place{n, a}
		}
	}
	r.base[n] = base
	for _, k := range n.Keys {
		v := n.Vals[k]
		switch {
		case oneSchemaKeywords[k] || schemaListKeywords[k]:
			if list, ok := v.([]any); ok {
				for _, s := range list {
					r.walk(s, base, k, draft, depth+1)
				}
			} else {
				r.walk(v, base, k, draft, depth+1)
			}
		case schemaMapKeywords[k]:
			if m, ok := v.(*omap); ok {
				for _, p := range m.Keys {
					r.walk(m.Vals[p], base, p, draft, depth+1)
				}
			}
		}
	}
}

// baseOf is the base URI n's references resolve against.
func (g *sigGen) baseOf(n *omap) string {
	if b, ok := g.doc.res.base[n]; ok {
		return b
	}
	return docURL
}

// resolveURL resolves ref against base, without its fragment.
func ResolveURL(base, ref string) (string, bool) {
	b, err := url.Parse(base)
	if err != nil {
		return "", false
	}
	r, err := url.Parse(ref)
	if err != nil {
		return "", false
	}
	u := b.ResolveReference(r)
	u.Fragment, u.RawFragment = "", ""
	return u.String(), true
}

func fmtString(v any) string {
	s, _ := v.(string)
	return s
}
