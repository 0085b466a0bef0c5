package eval

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// outputFiles are the fixtures of output schemas and the catalogs each
// covers: TRAIN's (IDs, tune, and DevIDs, dev), the specs' success
// responses (extract.mjs --outputs); smalltrain's, the servers' own
// (listmcp.mjs --outputs; firecrawl's 29 tools, the others declare none);
// small's and small3's, their servers' own, for search37b's look at them
// (eval/README.md), read only through searcheval -outputs. No other
// blind split has any.
var outputFiles = []struct {
	file string
	ids  []string
}{
	{"outputs.train.json", slices.Concat(IDs, DevIDs)},
	{"outputs.smalltrain.json", SmallTrainIDs},
	{"outputs.small.json", SmallIDs},
	{"outputs.small3.json", Small3IDs},
}

// outputsFile is one fixture: per catalog, its distinct top-level output
// properties (name and schema, as outputs.mjs writes them) and, per tool,
// the positions of its own among them.
type outputsFile map[string]struct {
	Properties [][2]json.RawMessage `json:"properties"`
	Tools      map[string][]int     `json:"tools"`
}

// WithOutputs gives c's tools the output schemas of its fixture (for a
// catalog of several servers, each one's): to measure how a catalog whose
// tools declare what they return ranks (an MCP server's structured
// output). A catalog of no fixture (every blind split's) is an error.
func WithOutputs(c *Catalog) error {
	for _, id := range strings.Split(c.ID, "+") {
		k := slices.IndexFunc(outputFiles, func(f struct {
			file string
			ids  []string
		}) bool {
			return slices.Contains(f.ids, id)
		})
		if k < 0 {
			return fmt.Errorf("eval: %s has no outputs (only TRAIN's, smalltrain's, small's and small3's catalogs have)", id)
		}
		var all outputsFile
		if err := readJSON(outputFiles[k].file, &all); err != nil {
			return err
		}
		if err := withOutputs(c, id, outputFiles[k].file, all[id].Properties, all[id].Tools); err != nil {
			return err
		}
	}
	return nil
}

// withOutputs sets the output schemas of one catalog's tools (id's, of
// file) in c.
func withOutputs(c *Catalog, id, file string, properties [][2]json.RawMessage, tools map[string][]int) error {
	for name, pos := range tools {
		i := slices.IndexFunc(c.Tools, func(t Tool) bool { return t.Name == name })
		if i < 0 {
			return fmt.Errorf("eval: %s: %s has no tool %s", file, id, name)
		}
		props := make(map[string]json.RawMessage, len(pos))
		for _, k := range pos {
			if k < 0 || k >= len(properties) {
				return fmt.Errorf("eval: %s: %s %s: property %d of %d", file, id, name, k, len(properties))
			}
			var prop string
			if err := json.Unmarshal(properties[k][0], &prop); err != nil {
				return fmt.Errorf("eval: %s: %s property %d: name: %w", file, id, k, err)
			}
			props[prop] = properties[k][1]
		}
		raw, err := json.Marshal(map[string]any{"type": "object", "properties": props})
		if err != nil {
			return err
		}
		c.Tools[i].OutputSchema = raw
	}
	return nil
}
