// Fake timers installed AFTER the package and its MCP adapter are imported
// (vi.useFakeTimers() / jest.useFakeTimers() in a test's beforeEach):
// fromMcpClient's listing of more than 2,048 tools pauses for a task
// between batches, and that pause took the page's setTimeout of the moment,
// the fake one: the listing waited until the test advanced the fake clock,
// for ever in a test that awaits it first. The pause takes the timers the
// adapter found at load, as the core's registration slices do. Its own
// process (node --test runs each file in one): the fakes are global. Both
// engine modes (CODE_MODE_WORKER=1).
import { after, test } from "node:test";
import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { assetPath, llmTools, loadFactory, within } from "./helpers.mjs";
import { loadAdapter } from "./adapter-helpers.mjs";
import { serverWith } from "./mcp-server.mjs";

const IoCodeModeFactory = await loadFactory();
const mcp = await loadAdapter("mcp");
const N = 5000;
const list = Array.from({ length: N }, (_, i) => ({ name: `t${i}`, description: `tool number ${i}`, inputSchema: { type: "object" } }));
const { client } = await serverWith("big", () => ({ tools: list }), (req) => ({ content: [{ type: "text", text: JSON.stringify(req.params.name) }] }));
after(() => client.close());

// As vitest's useFakeTimers() does: all but nextTick and queueMicrotask.
const clock = FakeTimers.install({ toFake: Object.keys(FakeTimers.timers).filter((k) => k !== "nextTick" && k !== "queueMicrotask") });
after(() => clock.uninstall());
// Something real keeps the process alive while the listing waits.
const keep = clock._setInterval(() => {}, 1000);
after(() => clock._clearInterval(keep));

test(`fake timers installed after the import: fromMcpClient lists ${N} tools (past 2,048: a pause between batches) without the fake clock moving`, async () => {
    const start = clock.now;
    const source = await within(mcp.fromMcpClient(client), 30_000);
    assert.notEqual(source, "hung", "the listing never ended: its pause between 2,048-tool batches waits on the page's fake setTimeout");
    try {
        assert.equal(source.tools.length, N);
        const api = await within(IoCodeModeFactory({ wasmLocation: assetPath, timeout: 20_000 }), 30_000);
        assert.notEqual(api, "hung", "the factory never started");
        try {
            await within(source.registerTools(api), 30_000);
            assert.notEqual(await within(api.ready(), 30_000), "hung", "ready() never settled");
            const r = await within(llmTools(api.createSession()).executeCode.execute({ code: `return await tools.big.t${N - 1}({})`, explanation: "test" }), 30_000);
            assert.equal(r.result, `t${N - 1}`, JSON.stringify(r));
        } finally {
            api.dispose();
        }
        assert.equal(clock.now, start, "the page's fake clock moved");
    } finally {
        source.close();
    }
});
