package eval

import (
	"encoding/json"
	"fmt"
	"slices"
)

// OutputIDs are the catalogs of testdata/outputs.train.json: TRAIN's (IDs,
// tune, and DevIDs, dev), none of a blind split's.
var OutputIDs = slices.Concat(IDs, DevIDs)

// outputsFile is each TRAIN catalog's operations' success responses, as an
// output schema holds them (extract.mjs -outputs): per catalog, its
// distinct top-level properties (name and schema) and, per tool, the
// positions of its own among them.
type outputsFile map[string]struct {
	Properties [][2]json.RawMessage `json:"properties"`
	Tools      map[string][]int     `json:"tools"`
}

// WithOutputs gives c's tools the output schemas of
// testdata/outputs.train.json: the specs' success responses, which the
// catalogs leave out, to measure how a catalog whose tools declare what
// they return ranks (an MCP server's structured output). A catalog not of
// OutputIDs is an error: no blind split is measured with them.
func WithOutputs(c *Catalog) error {
	if !slices.Contains(OutputIDs, c.ID) {
		return fmt.Errorf("eval: %s has no outputs (outputs.train.json holds TRAIN's catalogs: %v)", c.ID, OutputIDs)
	}
	var all outputsFile
	if err := readJSON("outputs.train.json", &all); err != nil {
		return err
	}
	f := all[c.ID]
	for i, t := range c.Tools {
		pos, ok := f.Tools[t.Name]
		if !ok {
			continue
		}
		props := make(map[string]json.RawMessage, len(pos))
		for _, k := range pos {
			if k < 0 || k >= len(f.Properties) {
				return fmt.Errorf("eval: outputs.train.json: %s %s: property %d of %d", c.ID, t.Name, k, len(f.Properties))
			}
			var name string
			if err := json.Unmarshal(f.Properties[k][0], &name); err != nil {
				return fmt.Errorf("eval: outputs.train.json: %s property %d: name: %w", c.ID, k, err)
			}
			props[name] = f.Properties[k][1]
		}
		raw, err := json.Marshal(map[string]any{"type": "object", "properties": props})
		if err != nil {
			return err
		}
		c.Tools[i].OutputSchema = raw
	}
	for name := range f.Tools {
		if !slices.ContainsFunc(c.Tools, func(t Tool) bool { return t.Name == name }) {
			return fmt.Errorf("eval: outputs.train.json: %s has no tool %s", c.ID, name)
		}
	}
	return nil
}
