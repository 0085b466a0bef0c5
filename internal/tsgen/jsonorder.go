package tsgen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// omap is a decoded JSON object that remembers its key order. Signatures
// list properties in the order the tool author wrote them (usually the
// important ones first), which a Go map would shuffle.
type omap struct {
	keys []string
	vals map[string]any
}

func (m *omap) get(k string) (any, bool) {
	if m == nil {
		return nil, false
	}
	v, ok := m.vals[k]
	return v, ok
}

func (m *omap) str(k string) string {
	v, _ := m.get(k)
	s, _ := v.(string)
	return s
}

// decodeOrdered decodes JSON into *omap, []any, json.Number, string, bool
// and nil.
func decodeOrdered(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("trailing data after JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			m := &omap{vals: map[string]any{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				if _, dup := m.vals[k]; !dup {
					m.keys = append(m.keys, k)
				}
				m.vals[k] = v
			}
			_, err := dec.Token() // '}'
			return m, err
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			_, err := dec.Token() // ']'
			return arr, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return tok, nil
	}
}

// encodeOrdered writes a decoded value back as compact JSON, keeping key order.
func encodeOrdered(sb *strings.Builder, v any) {
	switch v := v.(type) {
	case *omap:
		sb.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(jsonString(k))
			sb.WriteByte(':')
			encodeOrdered(sb, v.vals[k])
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
