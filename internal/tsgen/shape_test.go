package tsgen

import (
	"fmt"
	"strings"
	"testing"
)

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
	// The race detector's instrumentation allocates, so counts mean
	// nothing there (776 against 777 once).
	if !raceEnabled {
		if small, big := allocs(records(60)), allocs(records(20000)); big != small {
			t.Errorf("Add allocated %v times for 20,000 records, %v for 60: past %d elements nothing should be decoded", big, small, inferMaxElems)
		}
	}
	var s Shape
	s.Add(records(2000))
	want := `tools.t.x(input?: unknown): Promise<{ id: number; name: string; tags: string[]; active: boolean }[]>; // result type inferred from its results`
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
