package codemode

import (
	"sort"
	"strconv"
	"strings"
)

// toolOps is the source of what prelude/tools.js builds one object of
// `tools` from (source "toolnames"): `tools` itself when path is "", else
// the namespace (or the tool that is also a namespace) of that path. tools.js
// asks for a namespace when the program first reads it, so a run pays for
// the namespaces it uses, not for the catalog: building all of `tools` took
// 20-40 ms of a run with 1,000-3,000 tools, most of it QuickJS making a
// function and two keys per tool.
//
// It is [members, hidden, segments]. members is a flat array of pairs
// [key, v]: v is a tool's name (a function calling it), 0 (a namespace,
// built on its first read) or [name] (a tool that is also a namespace, such
// as "a" beside "a.b"). Pairs from index hidden on are stand-ins for paths
// the code calls that no tool has (unknownCalls), not enumerable: `tools`
// gets one per dotted path, under the full name, and one per path, through
// namespaces that are objects (a tool's own namespaces get none). segments
// is the path's segments when path is a visible tool's name, for
// tools["orders.get"] to read tools.orders.get, else 0. The order of the
// keys is the one of a walk over the sorted names.
func (r *runState) toolOps(path string) string {
	prefix := ""
	if path != "" {
		prefix = path + "."
	}
	type member struct {
		key  string
		tool string // the tool's name, if key is one
		ns   bool   // key holds names of its own
	}
	var members []member
	index := map[string]int{}
	add := func(m member) {
		i, ok := index[m.key]
		if !ok {
			index[m.key] = len(members)
			members = append(members, m)
			return
		}
		if m.tool != "" {
			members[i].tool = m.tool
		}
		members[i].ns = members[i].ns || m.ns
	}
	v := r.visible
	for i := sort.Search(len(v), func(i int) bool { return v[i].info.Name >= prefix }); i < len(v) && strings.HasPrefix(v[i].info.Name, prefix); i++ {
		name := v[i].info.Name
		if key, _, dotted := strings.Cut(name[len(prefix):], "."); dotted {
			add(member{key: key, ns: true})
		} else {
			add(member{key: key, tool: name})
		}
	}
	visible := len(members)
	// Stand-ins go into objects only: none below a visible tool.
	standIns := true
	for p := path; p != ""; {
		if _, ok := r.entry(p); ok {
			standIns = false
			break
		}
		p, _, _ = cutLast(p)
	}
	for _, name := range r.calledUnknown() {
		if !standIns || !strings.HasPrefix(name, prefix) {
			continue
		}
		if path == "" && strings.Contains(name, ".") {
			// tools["nope.x"]() as well as tools.nope.x().
			add(member{key: name, tool: name})
		}
		if key, _, dotted := strings.Cut(name[len(prefix):], "."); !dotted {
			if _, ok := index[key]; !ok {
				add(member{key: key, tool: name})
			}
		} else if _, ok := index[key]; !ok {
			add(member{key: key, ns: true})
		}
	}
	// Names hold only isNameByte's bytes (a called path, isIdentByte's, '.'
	// and '-'), none of which a JavaScript string escapes: quotes do.
	b := make([]byte, 0, 64+32*len(members))
	b = append(b, "[["...)
	for i, m := range members {
		if i > 0 {
			b = append(b, ',')
		}
		b = quote(b, m.key)
		b = append(b, ',')
		switch {
		case m.tool == "":
			b = append(b, '0')
		case m.ns:
			b = append(b, '[')
			b = quote(b, m.tool)
			b = append(b, ']')
		default:
			b = quote(b, m.tool)
		}
	}
	b = append(b, "],"...)
	b = strconv.AppendInt(b, int64(2*visible), 10)
	b = append(b, ',')
	if _, ok := r.entry(path); ok && path != "" {
		b = append(b, '[')
		for i, s := range strings.Split(path, ".") {
			if i > 0 {
				b = append(b, ',')
			}
			b = quote(b, s)
		}
		b = append(b, ']')
	} else {
		b = append(b, '0')
	}
	return string(append(b, ']'))
}

func quote(b []byte, s string) []byte {
	b = append(b, '"')
	return append(append(b, s...), '"')
}

// cutLast splits a dotted path before its last segment.
func cutLast(p string) (string, string, bool) {
	i := strings.LastIndexByte(p, '.')
	if i < 0 {
		return "", p, false
	}
	return p[:i], p[i+1:], true
}

// calledUnknown is unknownCalls of the run's program, found on its first
// asking. Only the run's JavaScript thread asks (source "toolnames").
func (r *runState) calledUnknown() []string {
	if !r.unknownRead {
		r.unknown, r.unknownRead = r.unknownCalls(r.code), true
	}
	return r.unknown
}
