package codemode

import (
	"fmt"
	"strings"
	"testing"
)

// TestUnknownCalls: the paths `tools.a.b(` that no visible tool has, the
// ones prelude/tools.js gives stand-ins.
func TestUnknownCalls(t *testing.T) {
	r := &runState{}
	for _, n := range []string{"orders.get", "orders.search", "ping"} {
		r.visible = append(r.visible, &toolEntry{info: ToolInfo{Name: n}})
	}
	for _, tc := range []struct{ code, want string }{
		{`await tools.orders.search({})`, `[]`},
		{`await tools.nope.x({})`, `[nope.x]`},
		{`await tools.nope.x ({}); await tools.nope.x(1); tools.ping(); tools.pong()`, `[nope.x pong]`},
		{`tools.orders.serch({}); tools.a.b.c_1.$d()`, `[orders.serch a.b.c_1.$d]`},
		{`const f = tools.nope.x; tools.nope?.y(); tools["nope"].z(); tools.1a()`, `[]`},
		{`mytools.nope.x(); a.tools.nope.x(); _tools.q()`, `[]`},
		{`tools["nope.x"]({}); tools['orders.get'](); tools [ "a.b" ] (); tools["orders.serch"] ({})`, `[nope.x a.b orders.serch]`},
		{`tools["a" + "b"](); tools["a.b"]; tools["a\"b"](); tools[` + "`a.b`" + `](); tools["a b"](); tools["a.b"`, `[]`},
		{`tools.`, `[]`},
		{`tools.x`, `[]`},
		{`tools.x.`, `[]`},
		{strings.Repeat("tools.n"+"x(); ", 3), `[nx]`},
	} {
		if got := fmt.Sprint(r.unknownCalls(tc.code)); got != tc.want {
			t.Errorf("%q: %s, want %s", tc.code, got, tc.want)
		}
	}
	var many strings.Builder
	for i := 0; i < 2*maxCalledPaths; i++ {
		fmt.Fprintf(&many, "tools.n%d();", i)
	}
	if got := len(r.unknownCalls(many.String())); got != maxCalledPaths {
		t.Errorf("%d paths, want at most %d", got, maxCalledPaths)
	}
	if got := r.unknownCalls("tools." + strings.Repeat("a", maxNameChars+1) + "()"); len(got) != 0 {
		t.Errorf("a path longer than any tool name: %q", got)
	}
}

// BenchmarkUnknownCalls: what building `tools` pays for the scan, on the
// api-toolcall workload's code (bench/api-workloads.json).
func BenchmarkUnknownCalls(b *testing.B) {
	r := &runState{visible: []*toolEntry{{info: ToolInfo{Name: "bench.echo"}}}}
	code := "for (let i = 0; i < 200; i++) await tools.bench.echo({ i });\nreturn 200;"
	for i := 0; i < b.N; i++ {
		r.unknownCalls(code)
	}
}
