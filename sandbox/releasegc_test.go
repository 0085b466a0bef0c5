//go:build !js

package sandbox

import (
	"context"
	"runtime"
	"testing"
	"time"
)

// TestOutgrownInstanceMemoryIsReturned: natively too, an instance freed for
// having outgrown keepMemoryBytes gives its memory back once its run
// returns (release collects): the collector's pacing left it in use, 573
// MB after the last of 12 such runs where the collection leaves 4 MB.
func TestOutgrownInstanceMemoryIsReturned(t *testing.T) {
	e := testEngine(t, Config{MemoryLimit: 512 << 20})
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.HeapInuse
	// 200 MB of strings: past keepMemoryBytes, so the instance is freed.
	res, err := e.Run(context.Background(), Program{Code: "const a = []; for (let i = 0; i < 40; i++) a.push('x'.repeat(5 << 20) + i); return a.length", Timeout: time.Minute})
	if err != nil || res.Error != nil {
		t.Fatalf("run: %+v, %v", res, err)
	}
	// The collection runs on a goroutine of its own: wait for it (at most
	// 20 s), allocating nothing that would start one.
	for i := 0; i < 400; i++ {
		runtime.ReadMemStats(&ms)
		if ms.HeapInuse < before+64<<20 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Errorf("heap in use %d MB after the run, %d MB before: the freed instance's memory was kept", ms.HeapInuse>>20, before>>20)
}
