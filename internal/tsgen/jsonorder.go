package tsgen

import (
	"encoding/json"
	"strings"

	"github.com/interopio/code-mode/internal/jsondec"
)

// omap is a decoded JSON object that remembers its key order. Signatures
// list properties in the order the tool author wrote them (usually the
// important ones first), which a Go map would shuffle.
type omap = jsondec.Object

// decodeOrdered decodes JSON into *omap, []any, json.Number, string, bool
// and nil.
func decodeOrdered(raw []byte) (any, error) {
	return jsondec.Decode(raw, jsondec.Options{Ordered: true, Numbers: true})
}

// encodeOrdered writes a decoded value back as compact JSON, keeping key order.
func encodeOrdered(sb *strings.Builder, v any) {
	switch v := v.(type) {
	case *omap:
		sb.WriteByte('{')
		for i, k := range v.Keys {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(jsonString(k))
			sb.WriteByte(':')
			encodeOrdered(sb, v.Vals[k])
		}
		sb.WriteByte('}')
	case []any:
		sb.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				sb.WriteByte(',')
			}
			encodeOrdered(sb, e)
		}
		sb.WriteByte(']')
	case string:
		sb.WriteString(jsonString(v))
	default:
		b, err := json.Marshal(v)
		if err != nil {
			sb.WriteString("null")
			return
		}
		sb.Write(b)
	}
}
