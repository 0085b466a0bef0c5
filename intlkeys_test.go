package codemode

import (
	"encoding/json"
	"testing"
	"time"
)

// TestCollationKeysLetGo: prelude/intl.js keeps the collation keys of the
// strings localeCompare and Intl.Collator compared, for the next compare.
// Kept by count (5e4) alone, a run that compared long strings and let go
// of them still held their keys: 150 strings of 20,000 characters compared
// under a 16 MB limit ended MEMORY_LIMIT. The keys kept are bounded by
// their size now (~8 MB): the run holds half its 64 KB strings after.
// Each string is compared with its upper case, which ties at the first
// level, so both keys are built and kept (s with s + "z" no longer builds
// keys: what follows their common beginning decides).
func TestCollationKeysLetGo(t *testing.T) {
	capacity := `const held = []; let n = 0; try { for (;;) { held.push("x".repeat(65536) + n); n++ } } catch (e) { return n }`
	// The 150 compares with s + "z" took ~45 s of a run's time at a load
	// of ~28 on 2 cores (21 s at a load of 9), past the 1 minute this had;
	// these take 7 s at a load of 9 (keys built ~2x faster). The time is
	// room, not the subject.
	s := mustSession(t, newTestCodeMode(t, Config{MemoryLimitMB: 16, Timeout: 10 * time.Minute}))
	var before, after int
	base := exec(t, s, capacity, nil)
	if err := json.Unmarshal(base.Result, &before); err != nil || before < 200 {
		t.Fatalf("capacity alone: %s %+v", base.Result, base.Error)
	}
	res := exec(t, s, `for (let r = 0; r < 150; r++) { const s = "y".repeat(20000) + r; s.localeCompare(s.toUpperCase()) }`+"\n"+capacity, nil)
	if err := json.Unmarshal(res.Result, &after); err != nil || after < before/2 {
		t.Errorf("after 150 compares of 20,000 characters: %s x 64 KB held (%+v), %d before", res.Result, res.Error, before)
	}
}

// TestBigIntToLocaleString: a BigInt of 1e5 digits has 66,667 parts
// (digits and group separators), which intl.js handed on as the arguments
// of one call: a RangeError ("too many arguments in function call (only
// 65534 allowed)") where a browser formats it.
func TestBigIntToLocaleString(t *testing.T) {
	s := mustSession(t, newTestCodeMode(t, Config{}))
	res := exec(t, s, "const s = (10n ** 100000n).toLocaleString(); return [s.length, s.slice(0, 6), new Intl.NumberFormat().formatToParts(10n ** 100000n).length]", nil)
	if string(res.Result) != `[133334,"10,000",66667]` {
		t.Fatalf("got %s (%+v), want [133334,\"10,000\",66667]", res.Result, res.Error)
	}
}
