package tsgen

import (
	"fmt"
	"strings"
	"testing"
)

func TestInferredSignature(t *testing.T) {
	var wide []string
	for i := range 40 {
		wide = append(wide, fmt.Sprintf(`"user%d": {"n": %d}`, i, i))
	}
	for _, tc := range []struct {
		name    string
		samples []string
		want    string // the text after "tools.t.x(input?: unknown): "
	}{
		{"array of objects", []string{`[{"id":"a","total":1},{"id":"b","total":2.5}]`},
			`Promise<{ id: string; total: number }[]>; // result type inferred from its results`},
		{"merging samples: optional keys and unions", []string{`{"id":"a","total":1}`, `{"id":"b","total":null,"note":"x"}`},
			`Promise<{ id: string; total: number | null; note?: string }>; // result type inferred from its results`},
		{"key order as written", []string{`{"zeta":1,"alpha":true}`}, `Promise<{ zeta: number; alpha: boolean }>; // result type inferred from its results`},
		{"scalars", []string{`"ok"`, `3`}, `Promise<string | number>; // result type inferred from its results`},
		{"empty array", []string{`[]`}, `Promise<unknown[]>; // result type inferred from its results`},
		{"elements merged", []string{`[1, "a", null]`}, `Promise<(string | number | null)[]>; // result type inferred from its results`},
		{"nested", []string{`{"rows":[{"tags":["x"]}]}`}, `Promise<{ rows: { tags: string[] }[] }>; // result type inferred from its results`},
		{"dictionary keys are data, not fields", []string{"{" + strings.Join(wide, ",") + "}"},
			`Promise<Record<string, { n: number }>>; // result type inferred from its results`},
		{"invalid JSON is ignored", []string{`{nope`}, `Promise<unknown>;`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s Shape
			for _, x := range tc.samples {
				s.Add([]byte(x))
			}
			got := InferredSignature("t.x", "", nil, &s)
			if want := "tools.t.x(input?: unknown): " + tc.want; got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}
