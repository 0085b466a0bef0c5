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
func checkRefCycles(root *jsonschema.Schema) error {
	const (
		unseen = iota
		onPath
		finished
	)
	inPlace := map[*jsonschema.Schema]int{}
	var path []string
	// walkInPlace follows in-place edges only; a schema met again on the
	// current path closes a cycle.
	var walkInPlace func(s *jsonschema.Schema) error
	walkInPlace = func(s *jsonschema.Schema) error {
		switch inPlace[s] {
		case onPath:
			return fmt.Errorf("the schema refers to itself without descending into the value (%s -> %s): validation would never end", strings.Join(path, " -> "), shortLocation(s))
		case finished:
			return nil
		}
		inPlace[s] = onPath
		path = append(path, shortLocation(s))
		for _, next := range inPlaceEdges(s) {
			if err := walkInPlace(next); err != nil {
				return err
			}
		}
		path = path[:len(path)-1]
		inPlace[s] = finished
		return nil
	}
	seen := map[*jsonschema.Schema]bool{}
	var walkAll func(s *jsonschema.Schema) error
	walkAll = func(s *jsonschema.Schema) error {
		if s == nil || seen[s] {
			return nil
		}
		seen[s] = true
		if err := walkInPlace(s); err != nil {
			return err
		}
		for _, next := range append(inPlaceEdges(s), descendingEdges(s)...) {
			if err := walkAll(next); err != nil {
				return err
			}
		}
		return nil
	}
	return walkAll(root)
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
