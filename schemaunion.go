package codemode

import (
	"cmp"

	"github.com/interopio/code-mode/third_party/jsonschema"
	"github.com/interopio/code-mode/third_party/jsonschema/kind"
)

// closestBranches is the causes of a failed node, and of a failed anyOf or
// oneOf only the alternatives that came closest: those with the fewest
// failures, of those the ones whose failures lie deepest in the value, and
// of those the ones with fewer const or enum mismatches (in a tagged union,
// the branch whose tag matched). A union of 40 objects each requiring its
// own key, given the 40th with a wrong value, said `missing "k0"`,
// `missing "k1"` ... and 36 more, never the one rule the input broke.
//
// reach memoizes each node's reach: a node's is needed by its parent's
// closestBranches and again inside its own, and without the memo a union
// nested in a union computed its subtree's twice per level, 2^depth times
// (an input 30 levels deep, invalid at the bottom, against a recursive
// {"anyOf": [{"$ref": "#"}, ...]} held the page's thread for minutes).
func (reach unionReach) closestBranches(e *jsonschema.ValidationError) []*jsonschema.ValidationError {
	switch e.ErrorKind.(type) {
	case *kind.AnyOf, *kind.OneOf:
	default:
		return e.Causes
	}
	var best []*jsonschema.ValidationError
	var bestReach branchReach
	for i, c := range e.Causes {
		r := reach.of(c)
		switch d := r.compare(bestReach); {
		case i == 0 || d > 0:
			best, bestReach = []*jsonschema.ValidationError{c}, r
		case d == 0:
			best = append(best, c)
		}
	}
	return best
}

// branchReach is how close a failed alternative came to the value.
type branchReach struct {
	failures, depth, tags int
}

// compare is > 0 when r came closer than o.
func (r branchReach) compare(o branchReach) int {
	if c := cmp.Compare(o.failures, r.failures); c != 0 {
		return c
	}
	if c := cmp.Compare(r.depth, o.depth); c != 0 {
		return c
	}
	return cmp.Compare(o.tags, r.tags)
}

// unionReach is the reach of each node of one error tree met so far.
type unionReach map[*jsonschema.ValidationError]branchReach

// of counts an alternative's failures (its closest ones, for a union
// inside it), the depth in the value of the deepest, and its const or enum
// mismatches.
func (reach unionReach) of(e *jsonschema.ValidationError) branchReach {
	if r, ok := reach[e]; ok {
		return r
	}
	r := reach.count(e)
	reach[e] = r
	return r
}

func (reach unionReach) count(e *jsonschema.ValidationError) branchReach {
	if len(e.Causes) == 0 {
		r := branchReach{failures: 1, depth: len(e.InstanceLocation)}
		switch e.ErrorKind.(type) {
		case *kind.Const, *kind.Enum:
			r.tags = 1
		}
		return r
	}
	r := branchReach{depth: -1}
	for _, c := range reach.closestBranches(e) {
		x := reach.of(c)
		r.failures += x.failures
		r.depth = max(r.depth, x.depth)
		r.tags += x.tags
	}
	return r
}
