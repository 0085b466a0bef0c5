//go:build !js

package ffi

import "testing"

// TestGCThreshold: after each collection, QuickJS's GC threshold
// (rt->malloc_gc_threshold) is max(1.5 x what the runtime holds,
// min(limit/4, 16 MiB)), but no more than halfway from what it holds to
// the limit while more than limit/16 is left, and the floor again once
// what is held drops below 7/8 of the limit after that (gcRearm). Without gcThresholdPatch it is 1.5 x what is held: 1.3 MB
// after a collection that left 0.9 MB, and 72 MB under a 64 MB limit
// after one that left 48. The interrupt poll collects by the same rule
// (gcPollPatch): without it a run that made only strings kept the floor.
func TestGCThreshold(t *testing.T) {
	a := instrumentedAsset(t)
	// objects holds 10,000 objects (~0.6 MB), past the first threshold
	// (256 KiB): QuickJS collects on the way, and sets the threshold.
	const objects = `for (let i = 0; i < 10000; i++) h.push({ i });`
	for _, c := range []struct {
		name  string
		limit uint32
		hold  string
		// rule: the threshold is the floor, 1.5 x what is held, or
		// halfway to the limit.
		rule string
	}{
		{"64 MB limit, 0.6 MB held", 64 << 20, objects, "floor"},
		{"8 MB limit, 0.6 MB held", 8 << 20, objects, "floor"},
		{"512 MB limit: 16 MiB at most", 512 << 20, objects, "floor"},
		{"64 MB limit, 20 MB held", 64 << 20, `for (let i = 0; i < 20; i++) h.push("x".repeat(1 << 20) + i);` + objects, "1.5x"},
		// Strings only, no object made: the loop's interrupt poll collects
		// (gcPollPatch), past the floor; the threshold stayed QuickJS's
		// first, 256 KiB, with nothing collected.
		{"64 MB limit, 20 MB of strings held, no object made", 64 << 20, `for (let i = 0; i < 20; i++) h.push("x".repeat(1 << 20) + i);`, "collected"},
		{"64 MB limit, 48 MB held", 64 << 20, `for (let i = 0; i < 48; i++) h.push("x".repeat(1 << 20) + i);` + objects, "halfway"},
		// Less than limit/16 left: no bound (gcCap), QuickJS's own rule.
		{"64 MB limit, 62 MB held", 64 << 20, `for (let i = 0; i < 62; i++) h.push("x".repeat(1 << 20) + i); for (let i = 0; i < 100; i++) h.push({ i });`, "uncapped"},
		// Then let go of: the threshold is the floor again from the free
		// that takes what is held below 7/8 of it (gcRearm); it stayed past
		// the limit, and cyclic garbage was never collected again.
		{"64 MB limit, 62 MB held, then let go of", 64 << 20, `for (let i = 0; i < 62; i++) h.push("x".repeat(1 << 20) + i); for (let i = 0; i < 100; i++) h.push({ i }); h.length = 0;`, "rearmed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			q, err := a.NewInstance(4096, noCallbacks{})
			if err != nil {
				t.Fatal(err)
			}
			defer q.Close()
			rt := q.NewRuntime()
			q.SetMemoryLimit(rt, c.limit)
			ctx := q.NewContext(rt)
			q.FreeValue(ctx, evalExpr(t, q, ctx, `globalThis.h = []; `+c.hold+` 0`))
			if c.rule != "rearmed" && c.rule != "collected" {
				// A collection now, with all of it held: the poll collects
				// on the way too, and the threshold was set from less.
				q.mem.WriteUint32(uint32(rt)+rtGCThreshold, 0)
				q.FreeValue(ctx, evalExpr(t, q, ctx, `[{}].length`))
			}
			got, _ := q.mem.ReadUint32(uint32(rt) + rtGCThreshold)
			held := mallocSize(t, q, rt)
			floor := min(c.limit>>gcFloorShift, gcFloorMax)
			t.Logf("threshold %d, held %d, floor %d", got, held, floor)
			// What is held now is about what the last collection left,
			// which the threshold was set from (a few bytes of the
			// collecting eval's more or less: slack).
			halfway, slack := held+(c.limit-held)/2, held/1024
			switch {
			case c.rule == "floor" && got != floor:
				t.Errorf("threshold %d, want the floor min(limit/4, 16 MiB) = %d (held %d)", got, floor, held)
			case c.rule == "1.5x" && (got < floor || got > held+held/2+slack || got < held+held/4 || got > halfway+slack):
				t.Errorf("threshold %d, want about 1.5 x %d held, more than the floor %d, under halfway to the limit %d", got, held, floor, halfway)
			case c.rule == "uncapped" && (got < held+held/4 || got > held+held/2+slack):
				t.Errorf("threshold %d, want about 1.5 x %d held (less than limit/16 left to the limit %d)", got, held, c.limit)
			case c.rule == "rearmed" && got != floor:
				t.Errorf("threshold %d, want the floor %d again (held %d, limit %d)", got, floor, held, c.limit)
			case c.rule == "collected" && got <= floor:
				t.Errorf("threshold %d, want past the floor %d: a collection with %d held sets it to about 1.5 x that", got, floor, held)
			case c.rule == "halfway" && (got > halfway+slack || got < halfway-halfway/16):
				t.Errorf("threshold %d, want about %d, halfway from %d held to the limit %d", got, halfway, held, c.limit)
			}
		})
	}
}

// TestGCRearmWritesOnlyARuntime: gcRearm stores to the threshold's offset
// from the state js_def_free is given, which is a runtime's own but for
// JS_FreeRuntime's last free, of the runtime itself, through a copy of its
// state on the C stack: that offset is then past the stack's top, in the
// heap's first bytes. It must write nothing there. The limit, set just
// before the runtime is freed (nothing more is allocated), is small and
// the unused (zero) words before the runtime are set past it, so that the
// rearm's conditions hold at that free (nothing is left held), and its
// floor (limit/4) is a value to look for. Before the heap-base guard, the
// floor was written 76 bytes past the heap's base.
func TestGCRearmWritesOnlyARuntime(t *testing.T) {
	a := instrumentedAsset(t)
	const limit = 0x1A2B3 * 4
	q, err := a.NewInstance(4096, noCallbacks{})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	rt := q.NewRuntime()
	ctx := q.NewContext(rt)
	q.FreeValue(ctx, evalExpr(t, q, ctx, `globalThis.h = [1, 2, 3]; 0`))
	q.FreeContext(ctx)
	q.SetMemoryLimit(rt, limit)
	for at := uint32(layoutHeapBase); at < uint32(rt); at += 4 {
		if v, _ := q.mem.ReadUint32(at); v == 0 {
			q.mem.WriteUint32(at, 0xFFFFFFF0)
		}
	}
	lo, hi := uint32(layoutHeapBase-4096), uint32(layoutHeapBase+4096)
	before, _ := q.mem.Read(lo, hi-lo)
	before = append([]byte(nil), before...)
	q.FreeRuntime(rt)
	after, _ := q.mem.Read(lo, hi-lo)
	for i := 0; i+4 <= len(after); i += 4 {
		at := lo + uint32(i)
		v := uint32(after[i]) | uint32(after[i+1])<<8 | uint32(after[i+2])<<16 | uint32(after[i+3])<<24
		w := uint32(before[i]) | uint32(before[i+1])<<8 | uint32(before[i+2])<<16 | uint32(before[i+3])<<24
		if v == limit>>2 && w != v && at != uint32(rt)+rtGCThreshold {
			t.Errorf("the rearm's floor %d was written at %d (heap base %d, runtime %d)", v, at, layoutHeapBase, rt)
		}
	}
}
