package codemode

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestSourcesARunCompiles: QuickJS compiles every source a run asks for
// that is not among sharedSources (those are compiled once per sandbox
// instance, or in every run on an instance without an image), and that is
// most of what a short run costs: api.js alone was ~0.45 ms of CPU under
// V8. A run asks only for what it uses: a tool call or a log line of
// strings builds no part of how a log line shows other values (show.js),
// which api.js held whole.
func TestSourcesARunCompiles(t *testing.T) {
	_, s := newHostile(t, Config{Timeout: 30 * time.Second}, echoTool("orders.get", nil))
	for _, tc := range []struct{ name, code, want string }{
		{"a plain program", `return 1`, ``},
		{"JSON.stringify of an object", `return JSON.stringify({ a: 1 })`, `api`},
		// toolnames twice: `tools`, then the namespace orders on its read.
		{"one tool call", `await tools.orders.get({ id: 1 }); return 1`, `api tools toolnames toolnames`},
		{"a log line of strings", `console.log("a", "b"); return 1`, `api console`},
		{"a tool call and a log line of strings", `const r = await tools.orders.get({ id: 1 }); console.log("got " + r.id); return 1`, `api tools toolnames toolnames console`},
		{"a log line of an object", `console.log({ a: 1 }); return 1`, `api console show`},
		{"a log line of a Map", `console.log(new Map([["a", 1]])); return 1`, `api console show convert`},
		{"a timer's uncaught error", `setTimeout(() => { throw new Error("x") }, 0); await new Promise((r) => setTimeout(r, 5)); return 1`, `api timers show`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var got []string
			ctx := context.WithValue(context.Background(), sourceSpyKey{}, func(key string) {
				mu.Lock()
				got = append(got, key)
				mu.Unlock()
			})
			res, err := s.ExecuteCode(ctx, ExecuteCodeInput{Code: tc.code, Explanation: "test"}, nil)
			if err != nil || !res.OK {
				t.Fatalf("run failed: %v %+v", err, res.Error)
			}
			mu.Lock()
			defer mu.Unlock()
			if g := strings.Join(got, " "); g != tc.want {
				t.Errorf("sources asked for: %q, want %q", g, tc.want)
			}
		})
	}
	// The core a tool call compiles stays small: what only some runs need
	// belongs in a source of its own, built on first use.
	if n := len(apiJS); n > 2600 {
		t.Errorf("api.js compacts to %d bytes, want at most 2,600: every run that calls a tool builds it (and compiles it, without an image)", n)
	}
}

// TestToolsSourceShared: tools.js, which every run that touches `tools`
// builds it from, is the same text whatever the session's tools and the
// code, and is among sharedSources, so an instance compiles it once into
// its image; the run's names come as data (source "toolnames"). It was
// compiled in every such run, its names written into it.
func TestToolsSourceShared(t *testing.T) {
	src := func(r *runState, key string, path ...string) string {
		t.Helper()
		args := []json.RawMessage{json.RawMessage(strconv.Quote(key))}
		for _, p := range path {
			args = append(args, json.RawMessage(strconv.Quote(p)))
		}
		s, err := r.source(args)
		if err != nil {
			t.Fatalf("source %q: %v", key, err)
		}
		return s
	}
	a := &runState{code: `return await tools.orders.get({})`}
	b := &runState{code: `tools.nope.x(); tools["a.b"](); return tools.orders.get({})`}
	for _, n := range []string{"orders.get", "orders.search", "ping"} {
		b.visible = append(b.visible, &toolEntry{info: ToolInfo{Name: n}})
	}
	if src(a, "tools") != src(b, "tools") {
		t.Error("the source of tools differs between runs with different tools and code")
	}
	if !slices.Contains(sharedSources, src(b, "tools")) {
		t.Error("the source of tools is not among sharedSources: every run compiles it")
	}
	for _, tc := range []struct {
		r          *runState
		path, want string
	}{
		// The run has no tools: stand-ins for orders.get (hidden from
		// index 0), under its full name and as the namespace orders.
		{a, "", `[["orders.get","orders.get","orders",0],0,0]`},
		{a, "orders", `[["get","orders.get"],0,0]`},
		// orders, a namespace built on its first read; ping; then the
		// stand-ins: nope.x and a.b as full names, and as namespaces.
		{b, "", `[["orders",0,"ping","ping","nope.x","nope.x","nope",0,"a.b","a.b","a",0],4,0]`},
		{b, "orders", `[["get","orders.get","search","orders.search"],4,0]`},
		{b, "nope", `[["x","nope.x"],0,0]`},
		// A tool's name: its segments, for tools["orders.get"].
		{b, "orders.get", `[[],0,["orders","get"]]`},
		{b, "ping", `[[],0,["ping"]]`},
		{b, "orders.nope", `[[],0,0]`},
		{b, "orders." + strings.Repeat("x", maxNameChars), `[[],0,0]`},
	} {
		if got := src(tc.r, "toolnames", tc.path); got != tc.want {
			t.Errorf("toolnames of %q at %q: %s, want %s", tc.r.code, tc.path, got, tc.want)
		}
	}
}
