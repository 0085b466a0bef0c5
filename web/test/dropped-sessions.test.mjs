// A session the page drops without dispose() is let go of by its factory
// once nothing of it is left and no run of it is in flight (lifetime.mjs),
// in both modes: the factory kept every one until it went (USAGE.md,
// "Cleaning up": 5,000 dropped sessions, 151 MB on the calling thread, now
// 55 MB). The cases need
// --expose-gc, so they run in a child process (fixtures/dropped-sessions.mjs),
// in the suite's mode.
import { test } from "node:test";
import assert from "node:assert/strict";
import { inGcChild } from "./helpers.mjs";

test("sessions dropped without dispose() are let go of; the factory and its other sessions work on", () => {
    // Four sessions dropped (idle, given their LLM tools, after a run, after
    // a run of a tool of its own that refers to it), one kept: the dropped
    // ones' tools and what those close over are freed.
    assert.deepEqual(inGcChild("dropped-sessions.mjs", "dropped"), { released: true, alive: 2, kept: 1000, next: 1 });
});

test("a session's method or LLM tool's execute kept, or a run of it in flight, keeps it", () => {
    assert.deepEqual(inGcChild("dropped-sessions.mjs", "kept"), {
        // Two sessions, each with a tool and its state.
        aliveWhileKept: 4,
        method: 1000,
        execute: 1000,
        // The run's tool waited through collections, then a call of the
        // session's tool after it still worked.
        inFlight: 2001,
        released: true,
        alive: 0,
    });
});
