// What a disposed session leaves behind: nothing of the page's. On the
// calling thread the core's JavaScript values (a session's options, its
// tool list, the loader's wrappers of its tools) stay in syscall/js's
// table until Go's collector finalizes them, and Go's pacer, seeing only
// its own small heap, may not run for thousands of sessions: each
// disposed session kept its own tools, their execute functions and what
// they close over. Counted with WeakRefs after gc(), never by heap size;
// in a child process (fixtures/disposed-sessions.mjs), in the suite's mode.
import { test } from "node:test";
import assert from "node:assert/strict";
import { inGcChild } from "./helpers.mjs";

/** @param {string} scenario */
const inChild = (scenario) => inGcChild("disposed-sessions.mjs", scenario);

for (const [scenario, what] of [
    ["idle", "made and given their LLM tools"],
    ["run", "after a run that called their tool"],
    ["in-flight", "disposed while their tool's call was in flight"],
]) {
    test(`disposed sessions ${what} keep nothing of their own tools or what those close over`, () => {
        // Three sessions: WeakRefs to each one's tool definition and to the
        // state its execute closes over, all cleared; the factory works on.
        assert.deepEqual(inChild(scenario), { refs: 6, alive: 0, next: 1 });
    });
}
