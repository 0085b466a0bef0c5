package tsgen

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// bounded is what Shape.add reads of a fully decoded value: arrays cut to
// inferMaxElems, containers at inferMaxDepth empty.
func bounded(v any, depth int) any {
	switch x := v.(type) {
	case []any:
		out := []any{}
		if depth >= inferMaxDepth {
			return out
		}
		for i, e := range x {
			if i == inferMaxElems {
				break
			}
			out = append(out, bounded(e, depth+1))
		}
		return out
	case *omap:
		out := &omap{vals: map[string]any{}}
		if depth >= inferMaxDepth {
			return out
		}
		for _, k := range x.keys {
			out.keys = append(out.keys, k)
			out.vals[k] = bounded(x.vals[k], depth+1)
		}
		return out
	}
	return v
}

func TestDecodeShape(t *testing.T) {
	nest := func(n int, open, leaf, close string) string {
		return strings.Repeat(open, n) + leaf + strings.Repeat(close, n)
	}
	var long, objs []string
	for i := range 120 {
		long = append(long, fmt.Sprintf(`"s%d ]}[{ \" \\"`, i), fmt.Sprint(i), `{"k":[1,{"x":"]"}],"e":1e-3}`, "true", "null", "[]")
		objs = append(objs, fmt.Sprintf(`{"id":%d,"name":"item-%d","tags":["a","b"],"n":{"deep":[[[[[[1]]]]]]}}`, i, i))
	}
	for _, raw := range []string{
		`1`, `-12.5e+3`, `"plain"`, `"esc \" \\ \/ \n \u00e9 \ud83d\ude00"`, `true`, `false`, `null`, `[]`, `{}`,
		" \n\t{ \"a\" : [ 1 , 2 ] , \"b\" : { } } \r\n",
		`{"dup":1,"other":2,"dup":"x"}`,
		`{"k\"ey":1,"caf\u00e9":2,"":3}`,
		"[" + strings.Join(long, ",") + "]",
		"[" + strings.Join(objs, ",") + "]",
		"[ " + strings.Join(objs, " ,\n ") + " ]",
		nest(10, "[", "1", "]"),
		nest(10, `{"a":`, `"x"`, "}"),
		nest(5, "[", "[1,2,[3]]", "]"),
		nest(5, `{"a":`, `{"b":[1]}`, "}"),
		`{"rows":[` + strings.Repeat(`{"v":"]}"},`, 60) + `{"v":1}],"after":[1]}`,
	} {
		t.Run(raw[:min(len(raw), 40)], func(t *testing.T) {
			if !json.Valid([]byte(raw)) {
				t.Fatalf("test input is not JSON: %s", raw)
			}
			full, err := decodeOrdered([]byte(raw))
			if err != nil {
				t.Fatal(err)
			}
			var got, want strings.Builder
			encodeOrdered(&got, decodeShape([]byte(raw)))
			encodeOrdered(&want, bounded(full, 0))
			if got.String() != want.String() {
				t.Errorf("got  %s\nwant %s", got.String(), want.String())
			}
		})
	}
}

// A list tool's result costs the first 50 elements' decoding, however
// long the list: Add decoded every element before (136,000 allocations
// for 2,000 records).
func TestShapeAddAllocs(t *testing.T) {
	records := func(n int) []byte {
		var b strings.Builder
		b.WriteByte('[')
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"id":%d,"name":"item-%d","tags":["a","b"],"active":%v}`, i, i, i%2 == 0)
		}
		b.WriteByte(']')
		return []byte(b.String())
	}
	allocs := func(raw []byte) float64 {
		return testing.AllocsPerRun(5, func() {
			var s Shape
			s.Add(raw)
		})
	}
	small, big := allocs(records(60)), allocs(records(20000))
	if big != small {
		t.Errorf("Add allocated %v times for 20,000 records, %v for 60: past %d elements nothing should be decoded", big, small, inferMaxElems)
	}
	var s Shape
	s.Add(records(2000))
	want := `tools.t.x(input?: unknown): Promise<{ id: number; name: string; tags: string[]; active: boolean }[]>; // result type inferred from 1 result`
	if got := InferredSignature("t.x", "", nil, &s); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// BenchmarkShapeAdd is one sample of a list tool's result: 2,000 records,
// 123 KB.
func BenchmarkShapeAdd(b *testing.B) {
	var sb strings.Builder
	sb.WriteByte('[')
	for i := range 2000 {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"id":%d,"name":"item-%d","tags":["a","b"],"active":%v}`, i, i, i%2 == 0)
	}
	sb.WriteByte(']')
	raw := []byte(sb.String())
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		var s Shape
		s.Add(raw)
	}
}
