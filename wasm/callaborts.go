//go:build js && wasm

package main

import (
	"context"
	"sync"
)

// runAborts holds, per run context, the aborts of the page calls of that
// run still in flight: one context.AfterFunc per run calls them when the
// run ends, instead of one per call. Each call's own AfterFunc (made, then
// stopped when the answer came) was ~10% of the CPU of a run of awaited
// calls (api-toolcall). Slices, searched: a run's calls are few enough,
// and maps (or a sync.Map) of these types added 9-17 KB to the core.
var runAborts struct {
	mu   sync.Mutex
	runs []*callAborts
}

// callAborts are one run's page calls: fns[i] is call i's abort, nil once
// stopped or called.
type callAborts struct {
	ctx context.Context
	fns []func()
}

// onDone calls abort on a goroutine of its own once ctx is done, as
// context.AfterFunc(ctx, abort) does (soon, if it already is), unless
// stop is called first; stop reports whether it stopped abort.
func onDone(ctx context.Context, abort func()) (stop func() bool) {
	if ctx.Done() == nil {
		// Never done: nothing to keep an entry for.
		return context.AfterFunc(ctx, abort)
	}
	ra := &runAborts
	ra.mu.Lock()
	var a *callAborts
	for _, r := range ra.runs {
		if r.ctx == ctx {
			a = r
			break
		}
	}
	if a == nil {
		a = &callAborts{ctx: ctx}
		ra.runs = append(ra.runs, a)
		// Its function runs on a goroutine of its own, even for a ctx
		// already done, so registering under the lock is safe.
		context.AfterFunc(ctx, func() {
			ra.mu.Lock()
			for i, r := range ra.runs {
				if r == a {
					ra.runs = append(ra.runs[:i], ra.runs[i+1:]...)
					break
				}
			}
			due := a.fns
			a.fns = nil // stop finds them gone: they are running
			ra.mu.Unlock()
			for _, f := range due {
				if f != nil {
					go f()
				}
			}
		})
	}
	i := len(a.fns)
	a.fns = append(a.fns, abort)
	ra.mu.Unlock()
	return func() bool {
		ra.mu.Lock()
		defer ra.mu.Unlock()
		if i >= len(a.fns) || a.fns[i] == nil {
			return false
		}
		a.fns[i] = nil
		return true
	}
}
