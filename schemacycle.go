package codemode

import (
	"fmt"
	"strings"

	"github.com/interopio/code-mode/third_party/jsonschema"
)

// checkRefCycles rejects a schema that applies itself to the same value
// without end: a cycle of in-place applicators ($ref, allOf, anyOf, oneOf,
// not, if/then/else, dependentSchemas). Validation would loop on such a
// schema, so every call of the tool would fail; registration is where the
// author can still fix it. A recursive schema that descends into the value
// first (a tree's "children": {"items": {"$ref": "#"}}) is fine.
//
// Both walks keep their own stacks: a chain of 10,000 "$ref"s, one per
// $defs entry, recursed as deep on the JavaScript engine's stack under
// GOOS=js and the overflow ended the Go program.
//
// stop, if set, is asked every 1,024 steps for its sign of life only
// (sandbox.Beat): 100,000 schemas took 0.2-0.4 s under GOOS=js, and a walk
// stopped would start over (a run too short for it would never end it).
func checkRefCycles(root *jsonschema.Schema, stop func() bool) error {
	const (
		unseen = iota
		onPath
		finished
	)
	inPlace := map[*jsonschema.Schema]int{}
	// walkInPlace follows in-place edges only; a schema met again on the
	// current path (the stack) closes a cycle.
	type step struct {
		s    *jsonschema.Schema
		next []*jsonschema.Schema
	}
	steps := 0
	beat := func() {
		if steps++; steps&1023 == 0 && stop != nil {
			stop()
		}
	}
	walkInPlace := func(from *jsonschema.Schema) error {
		if inPlace[from] != unseen {
			return nil
		}
		inPlace[from] = onPath
		path := []step{{from, inPlaceEdges(from)}}
		for len(path) > 0 {
			beat()
			top := &path[len(path)-1]
			if len(top.next) == 0 {
				inPlace[top.s] = finished
				path = path[:len(path)-1]
				continue
			}
			s := top.next[0]
			top.next = top.next[1:]
			switch inPlace[s] {
			case onPath:
				locs := make([]string, len(path))
				for i, p := range path {
					locs[i] = shortLocation(p.s)
				}
				return fmt.Errorf("the schema refers to itself without descending into the value (%s -> %s): validation would never end", strings.Join(locs, " -> "), shortLocation(s))
			case unseen:
				inPlace[s] = onPath
				path = append(path, step{s, inPlaceEdges(s)})
			}
		}
		return nil
	}
	// Every schema reachable, in the order a recursive walk visits them
	// (children pushed last first), so a schema with several cycles names
	// the one it named before.
	seen := map[*jsonschema.Schema]bool{}
	for todo := []*jsonschema.Schema{root}; len(todo) > 0; {
		s := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if s == nil || seen[s] {
			continue
		}
		seen[s] = true
		beat()
		if err := walkInPlace(s); err != nil {
			return err
		}
		next := append(inPlaceEdges(s), descendingEdges(s)...)
		for i := len(next) - 1; i >= 0; i-- {
			todo = append(todo, next[i])
		}
	}
	return nil
}

// shortLocation drops the made-up base URL from a schema's location.
func shortLocation(s *jsonschema.Schema) string {
	loc := strings.TrimPrefix(s.Location, schemaURL)
	if loc == "" || loc == "#" {
		return "#"
	}
	return loc
}

func inPlaceEdges(s *jsonschema.Schema) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	add := func(ss ...*jsonschema.Schema) {
		for _, x := range ss {
			if x != nil {
				out = append(out, x)
			}
		}
	}
	add(s.Ref, s.RecursiveRef, s.Not, s.If, s.Then, s.Else)
	if s.DynamicRef != nil {
		add(s.DynamicRef.Ref)
	}
	add(s.AllOf...)
	add(s.AnyOf...)
	add(s.OneOf...)
	for _, d := range s.DependentSchemas {
		add(d)
	}
	for _, d := range s.Dependencies {
		if x, ok := d.(*jsonschema.Schema); ok {
			add(x)
		}
	}
	return out
}

func descendingEdges(s *jsonschema.Schema) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	add := func(ss ...*jsonschema.Schema) {
		for _, x := range ss {
			if x != nil {
				out = append(out, x)
			}
		}
	}
	add(s.PropertyNames, s.UnevaluatedProperties, s.Contains, s.Items2020, s.UnevaluatedItems, s.ContentSchema)
	add(s.PrefixItems...)
	for _, p := range s.Properties {
		add(p)
	}
	for _, p := range s.PatternProperties {
		add(p)
	}
	for _, v := range []any{s.AdditionalProperties, s.Items, s.AdditionalItems} {
		switch x := v.(type) {
		case *jsonschema.Schema:
			add(x)
		case []*jsonschema.Schema:
			add(x...)
		}
	}
	return out
}
