//go:build !js

package sandbox

import (
	"context"
	"testing"
)

// TestIdleKeptForWaiterTrimmedWhenItLeaves: an instance a finished run
// gives back past MaxIdleInstances is kept while runs wait for one
// (release); a waiting run whose context ends without taking it leaves it
// idle, and it was kept until the engine closed. Three waiters keep three
// instances; as they give up, the idle ones come back down to
// MaxIdleInstances, and their slots are free again.
func TestIdleKeptForWaiterTrimmedWhenItLeaves(t *testing.T) {
	e := testEngine(t, Config{MaxInstances: 3, MaxIdleInstances: 1})
	var leased []*instance
	for range 3 {
		i, err := e.lease(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		leased = append(leased, i)
	}
	// Three runs wait (as lease counts them) while the three in flight end.
	e.waiting.Add(3)
	for _, i := range leased {
		e.release(i)
	}
	if s := e.Stats(); s.Idle != 3 {
		t.Fatalf("with 3 runs waiting: Stats %+v, want the 3 given back kept idle", s)
	}
	e.stopWaiting()
	if s := e.Stats(); s.Idle != 2 {
		t.Errorf("one waiter gone, two waiting: Stats %+v, want 2 idle", s)
	}
	e.stopWaiting()
	e.stopWaiting()
	if s := e.Stats(); s.Idle != 1 || s.Waiting != 0 {
		t.Errorf("no run waiting: Stats %+v, want 1 idle (MaxIdleInstances)", s)
	}
	// The freed instances' slots are free again: three leases that will not
	// wait (their context has ended) get the idle one and two new ones.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for n := range 3 {
		if _, err := e.lease(ctx); err != nil {
			t.Fatalf("lease %d of 3 with one idle and two slots free: %v", n+1, err)
		}
	}
}
