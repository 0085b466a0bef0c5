// Fake timers installed BEFORE the package is imported, as a test file that
// calls jest.useFakeTimers() (or vitest's, or sinon's) at its top and then
// imports Code Mode does: the real @sinonjs/fake-timers, which those use.
// Code Mode keeps the page's real timers and clock, as it does for fakes
// installed after the import (page-globals.test): the factory starts, a
// run's timeout is real time, tools and a program's timers work, and
// nothing of Code Mode's is scheduled on the fake clock (a test's
// runAllTimers() must not fire it). Its own process (node --test runs each
// file in one), both engine modes (CODE_MODE_WORKER=1).
import { after, test } from "node:test";
import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { assetPath, llmTools, loadFactory, tool, within } from "./helpers.mjs";

// Installed before anything imports dist/index.mjs (loadFactory imports it):
// every timer, Date, performance and queueMicrotask, as jest and sinon do by
// default, but not process.nextTick, which node:test's own runner, in this
// process, needs (jest's runs outside the test's globals).
const clock = FakeTimers.install({ toFake: Object.keys(FakeTimers.timers).filter((k) => k !== "nextTick") });
after(() => clock.uninstall());
// Something real keeps the process alive while runs wait.
const keep = clock._setInterval(() => {}, 1000);
after(() => clock._clearInterval(keep));

const exec = (session, code) => llmTools(session).executeCode.execute({ code, explanation: "test" });

test("fake timers installed before the import: the factory starts, a run's timeout is real time, tools and timers work, the fake clock is left alone", async () => {
    const start = clock.now;
    const IoCodeModeFactory = await loadFactory();
    const api = await within(
        IoCodeModeFactory({
            wasmLocation: assetPath,
            // Room for a first run's warm-up on a loaded machine (300 ms
            // timed the first tool run out once); the run awaiting a tool
            // that never settles still ends TIMEOUT, by the real clock.
            timeout: 3000,
            tools: [tool("t.never", () => new Promise(() => {})), tool("t.x", () => 1)],
        }).catch((e) => ({ failed: String(e) })),
        30_000,
    );
    assert.notEqual(api, "hung", "the factory never started");
    assert.ok(!("failed" in api), api.failed);
    try {
        const s = api.createSession();
        const works = await within(exec(s, "await new Promise((r) => setTimeout(r, 20)); return await tools.t.x({}) + 1"), 20_000);
        assert.notEqual(works, "hung", "the run with a tool call and a timer never ended");
        assert.equal(works.result, 2, JSON.stringify(works));
        const running = exec(s, "return await tools.t.never({})");
        // While it waits: no timer of the run's (its timeout, worker mode's
        // backstop) is on the fake clock.
        await within(new Promise(() => {}), 100);
        assert.equal(clock.countTimers(), 0, "a timer of the run in flight is on the page's fake clock");
        const never = await within(running, 20_000);
        assert.notEqual(never, "hung", "the run awaiting the tool never ended");
        assert.equal(never.error?.code, "TIMEOUT", JSON.stringify(never));
        assert.equal(clock.now, start, "the page's fake clock moved");
        assert.equal(clock.countTimers(), 0, "a timer of Code Mode's is on the page's fake clock");
    } finally {
        api.dispose();
    }
});
