//go:build !js

package sandbox

import (
	"context"
	"testing"
)

// TestFullHeapEndsTheRun: when the cap refuses the heap a small growth, the
// heap is full and QuickJS throws null (it cannot allocate its "out of
// memory" error). A program that caught it went on with that null and
// returned "failed: null" as its result; the run now ends with
// MEMORY_LIMIT at once, and the next run works. (A large block refused,
// which leaves room for the error, stays catchable: the root package's
// TestOutOfMemoryInNormalizeCaught.)
func TestFullHeapEndsTheRun(t *testing.T) {
	e := testEngine(t, Config{MemoryLimit: 32 << 20})
	for _, c := range []struct{ name, code string }{
		{"objects, the catch returning what it caught", `const junk = []; try { for (let i = 0;; i++) junk.push({ i }) } catch (e) { return "failed: " + e }`},
		{"arrays, the catch returning what it caught and how many", `const junk = []; try { for (;;) junk.push(new Array(16)) } catch (e) { return "caught " + String(e) + " after " + junk.length }`},
		{"objects, the catch dropping them and going on", `let junk = [], seen; try { for (let i = 0;; i++) junk.push({ i }) } catch (e) { seen = e; junk = null } return [seen === null, "went on"]`},
	} {
		res, err := e.Run(context.Background(), Program{Code: c.code})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if res.Error == nil || res.Error.Code != CodeMemoryLimit || res.Error.Message != "out of memory" {
			t.Errorf("%s: got %s %+v, want MEMORY_LIMIT", c.name, res.Value, res.Error)
		}
		next, err := e.Run(context.Background(), Program{Code: "return 1 + 1"})
		if err != nil || next.Error != nil || string(next.Value) != "2" {
			t.Errorf("the run after %s: %s %+v %v", c.name, next.Value, next.Error, err)
		}
	}
}
