package tsstrip

import "testing"

// Programs as models write them, for the per-run cost of Program.
var benchPrograms = map[string]string{
	"tiny":  "return 1+1",
	"js":    "const open = await tools.orders.search({ status: \"open\", limit: 20 });\nconst totals = open.map((o) => ({ id: o.id, total: o.items.reduce((s, i) => s + i.price * i.qty, 0) }));\nconsole.log(`found ${totals.length}`);\nreturn totals.filter((t) => t.total > 100).sort((a, b) => b.total - a.total).slice(0, 5);",
	"ts":    "interface Order { id: string; total: number }\nconst open: Order[] = await tools.orders.search({ status: \"open\" }) as Order[];\nconst big = open.filter((o): boolean => o.total > 100);\nreturn big.map((o) => o.id!);",
	"fence": "Here is the code:\n```ts\nconst x: number = 1;\nreturn x;\n```\nDone.",
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
