//go:build !js

package sandbox

import (
	"context"
	"fmt"
	"testing"
)

// TestCaughtOutOfMemoryReturns: a program that fills its heap with strings
// of 8 KB, catches the "out of memory" its limit throws, drops what it
// held and returns gets its value, wherever the limit falls after the
// program's own data: a padding string of 0 to 8 KB (every 32 bytes)
// moves it as a larger or smaller prelude would. It ended MEMORY_LIMIT,
// uncaught, for about one padding in 40 (the small number string of
// `"x".repeat(8192) + n` refused right after a string that just fit: a
// full heap), and the root package's TestRejectedCallsKeepNoErrors with it
// whenever a change to the prelude moved the limit there.
func TestCaughtOutOfMemoryReturns(t *testing.T) {
	e := testEngine(t, Config{MemoryLimit: 2 << 20})
	bad := 0
	for pad := 0; pad <= 8192; pad += 32 {
		code := fmt.Sprintf(`const pad = "y".repeat(%d); let held = [], n = 0;
try { for (;;) { held.push("x".repeat(8192) + n); n++ } } catch (e) { held = null; return [n > 50, e.name, e.message] }`, pad)
		res, err := e.Run(context.Background(), Program{Code: code})
		if err != nil {
			t.Fatal(err)
		}
		if res.Error != nil || string(res.Value) != `[true,"InternalError","out of memory"]` {
			if bad++; bad <= 3 {
				t.Errorf("padding of %d B: %s %+v, want [true,\"InternalError\",\"out of memory\"]", pad, res.Value, res.Error)
			}
		}
	}
	if bad > 3 {
		t.Errorf("... %d paddings of 257 failed", bad)
	}
}
