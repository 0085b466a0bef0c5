package tsstrip

import (
	"fmt"
	"strings"
	"testing"
)

// Programs as models write them, for the per-run cost of Program.
var benchPrograms = map[string]string{
	"tiny":  "return 1+1",
	"js":    "const open = await tools.orders.search({ status: \"open\", limit: 20 });\nconst totals = open.map((o) => ({ id: o.id, total: o.items.reduce((s, i) => s + i.price * i.qty, 0) }));\nconsole.log(`found ${totals.length}`);\nreturn totals.filter((t) => t.total > 100).sort((a, b) => b.total - a.total).slice(0, 5);",
	"ts":    "interface Order { id: string; total: number }\nconst open: Order[] = await tools.orders.search({ status: \"open\" }) as Order[];\nconst big = open.filter((o): boolean => o.total > 100);\nreturn big.map((o) => o.id!);",
	"fence": "Here is the code:\n```ts\nconst x: number = 1;\nreturn x;\n```\nDone.",
}

// A long program (20 KB: 40 helper functions of the kind a model writes
// for a report, then the calls), for the per-run cost of what Program does
// on every token, such as the nesting check.
func init() {
	var sb strings.Builder
	for i := 0; sb.Len() < 20000; i++ {
		fmt.Fprintf(&sb, "async function report%d(status: string, limit = 20): Promise<{ id: string; total: number }[]> {\n"+
			"  const open = await tools.orders.search({ status, limit, page: %d });\n"+
			"  const totals = open.map((o) => ({ id: o.id, total: o.items.reduce((s, i) => s + i.price * i.qty, 0) }));\n"+
			"  if (totals.length === 0) { console.log(`page %d: nothing ${status}`); return []; }\n"+
			"  return totals.filter((t) => t.total > %d).sort((a, b) => b.total - a.total).slice(0, 5);\n}\n", i, i, i, i*10)
	}
	sb.WriteString("return await Promise.all([report0(\"open\"), report1(\"closed\")]);")
	benchPrograms["20kb"] = sb.String()
}

func BenchmarkProgram(b *testing.B) {
	for name, src := range benchPrograms {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Program(src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkScan(b *testing.B) {
	src := benchPrograms["js"]
	for b.Loop() {
		scan(src)
	}
}

// BenchmarkNesting is the nesting check alone on the 20 KB program's
// tokens: what every run pays for it.
func BenchmarkNesting(b *testing.B) {
	src := benchPrograms["20kb"]
	toks, _ := scan(src)
	for b.Loop() {
		if err := checkNesting(src, toks); err != nil {
			b.Fatal(err)
		}
	}
}
