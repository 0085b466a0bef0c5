package codemode

import (
	"testing"

	"github.com/interopio/code-mode/internal/search/eval"
)

// benchCatalog is make bench's api-register-1000 catalog (eval.BenchCatalog)
// as tools.
func benchCatalog(t testing.TB, n int) []Tool {
	t.Helper()
	cat, err := eval.BenchCatalog(n)
	if err != nil {
		t.Fatal(err)
	}
	tools := make([]Tool, len(cat))
	for i, c := range cat {
		tools[i] = Tool{Name: c.Name, Description: c.Description, InputSchema: c.InputSchema, Execute: noopToolExecute}
	}
	return tools
}

// BenchmarkRegister1000: registering the 1,000 tools of make bench's
// api-register-1000 (bench/api.mjs) in the core, natively: what the page
// pays after its own conversion (wasm/api.go toolsAtOnce), less the cost
// of running as WebAssembly. The search index's word cache is
// process-wide, so every iteration after the first finds the catalog's
// words known, as a second factory in a page would not; search's
// BenchmarkNewDoc1000 measures the index with the cache empty.
// go test -bench Register1000 -run '^$' -cpuprofile cpu.out .
func BenchmarkRegister1000(b *testing.B) {
	tools := benchCatalog(b, 1000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := newRegistry().add(tools...); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRegister1000PageChecked is BenchmarkRegister1000 as the JS
// package's worker registers: every schema walked on its page already.
func BenchmarkRegister1000PageChecked(b *testing.B) {
	tools := benchCatalog(b, 1000)
	for i := range tools {
		tools[i].Source = pageChecked{}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := newRegistry().add(tools...); err != nil {
			b.Fatal(err)
		}
	}
}
