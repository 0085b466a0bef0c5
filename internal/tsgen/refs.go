package tsgen

// How a signature follows "$ref": resolved within the document (never
// fetched), the whole schema where it stands before draft 2019-09, and
// inlined unless it refers back to itself, when it becomes a named type
// declared before the signature.

import (
	"net/url"
	"strconv"
	"strings"
)

// refAlone reports whether n's "$ref" is all of n: before 2019-09 the
// validator ignores its siblings.
func (g *sigGen) refAlone(n *omap) bool {
	_, ok := n.Get("$ref")
	return ok && g.doc.draft <= 7
}

// renderRef inlines the referenced schema unless it refers back to itself,
// in which case it becomes a named type declared before the signature.
func (g *sigGen) renderRef(ref, base string, depth, indent int) tsType {
	target, key, name, ok := g.resolve(ref, base)
	if !ok {
		return tsUnknown
	}
	if n, ok := g.named[key]; ok {
		return tsType{n, precPrimary}
	}
	if g.inProgress[key] {
		g.recursive[key] = true
		return tsType{g.nameFor(key, name), precPrimary}
	}
	g.inProgress[key] = true
	t := g.render(target, depth+1, indent)
	delete(g.inProgress, key)
	if !g.recursive[key] {
		return t
	}
	n := g.nameFor(key, name)
	// Declarations start at column 0, so render again at indent 0; the
	// self-references now resolve to the name.
	decl := g.render(target, 0, 0)
	g.decls = append(g.decls, "type "+n+" = "+decl.text+";")
	return tsType{n, precPrimary}
}

// resolve follows a reference met where the base URI is base to a place in
// the document: a resource (the root, or a subschema with an id), a JSON
// pointer in one ("#/$defs/X", "item.json#/properties/a") or an anchor
// ("#name"). Other documents are never fetched.
func (g *sigGen) resolve(ref, base string) (target any, key, name string, ok bool) {
	doc, frag, _ := strings.Cut(ref, "#")
	if doc != "" {
		if base, ok = ResolveURL(base, doc); !ok {
			return nil, "", "", false
		}
	}
	res, found := g.doc.res.byURL[base]
	if !found {
		return nil, "", "", false
	}
	if f, err := url.PathUnescape(frag); err == nil {
		frag = f
	}
	// Both documents (input and output) resolve under docURL: the key
	// tells them apart.
	key = g.doc.rootName + " " + base + "#" + frag
	if frag == "" {
		return res.node, key, res.name, true
	}
	if !strings.HasPrefix(frag, "/") {
		a, found := g.doc.res.byURL[base+"#"+frag]
		return a.node, key, a.name, found
	}
	node, name := res.node, res.name
	for _, tok := range strings.Split(frag[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch n := node.(type) {
		case *omap:
			v, found := n.Get(tok)
			if !found {
				return nil, "", "", false
			}
			node = v
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n) {
				return nil, "", "", false
			}
			node = n[i]
		default:
			return nil, "", "", false
		}
		name = tok
	}
	return node, key, name, true
}

var reservedTypeNames = map[string]bool{
	"Array": true, "Boolean": true, "Date": true, "Function": true, "Number": true,
	"Object": true, "Promise": true, "Record": true, "String": true, "Symbol": true,
}

// nameFor gives a recursive definition a unique identifier derived from its
// last pointer segment.
func (g *sigGen) nameFor(key, hint string) string {
	if n, ok := g.named[key]; ok {
		return n
	}
	var sb strings.Builder
	upper := true
	for _, r := range hint {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '$':
			if upper && r >= 'a' && r <= 'z' {
				r -= 'a' - 'A'
			}
			sb.WriteRune(r)
			upper = false
		default:
			upper = true
		}
	}
	base := sb.String()
	if base == "" || base[0] >= '0' && base[0] <= '9' {
		base = "T" + base
	}
	n := base
	for i := 2; g.taken[n] || reservedTypeNames[n]; i++ {
		n = base + strconv.Itoa(i)
	}
	g.taken[n] = true
	g.named[key] = n
	return n
}
