// Deep recursion in Chromium: in a fresh Worker (the browser default; each
// factory's own, whose only run before the test's is the warm-up's short
// program, web/src/warm-up.mjs, which the page's first in-thread factory
// runs too: the wasm code the recursion takes may still be in its first
// tier, with the largest frames) and, with CODE_MODE_WORKER=0, on the
// page's thread. A Worker has about half the page thread's stack, and a
// page cannot set it: QuickJS's own limit must still come first, a
// RangeError the program catches, and the instance must run the next
// program. The rows are web/test's. Source nested past the core's limit
// must be its SYNTAX error, in a fresh Worker too (the smallest stack), and
// code at the limit must run.
import { test } from "node:test";
import assert from "node:assert/strict";
import { CHROMIUM, IN_THREAD, usePage } from "./harness.mjs";
import { CAUGHT, FITS, UNCAUGHT } from "../test/recursion-cases.mjs";
import { NESTED, NESTING_LIMIT, nestedMessage } from "../test/nesting-cases.mjs";
import { AT_THE_LIMITS, callAndCatch } from "../test/deep-core-cases.mjs";

// runFresh makes a factory (a new Worker in worker mode), runs code and
// then `return 1` on it, and disposes of it.
const PAGE = `<!doctype html><meta charset="utf-8"><title>recursion</title><script>
const runTwice = async (config, code, setUp) => {
    const { IoCodeModeFactory } = await import("/dist/index.mjs");
    const api = await IoCodeModeFactory({ wasmLocation: "/dist/emscripten-module.wasm", timeout: 60000, ...config });
    try {
        setUp(api);
        await api.ready();
        const exe = api.createSession().getLlmTools().find((t) => t.name === "executeCode");
        const first = await exe.execute({ code, explanation: "recursion" });
        const next = await exe.execute({ code: "return 1", explanation: "the next run" });
        return { first, next };
    } finally {
        api.dispose();
    }
};
window.__runFresh = (worker, code) =>
    runTwice({ worker }, code, (api) => api.registerTool({ name: "t.echo", description: "Returns its input.", inputSchema: { type: "object" }, execute: (input) => input }));
// checkFresh is runFresh with t.x, of the schema, returning "ran" (and
// onToolCall replacing each input with one nested interceptDepth levels,
// if given).
window.__checkFresh = (worker, schema, code, interceptDepth) => {
    const config = { worker };
    if (interceptDepth) {
        config.interceptors = { onToolCall: () => {
            let d = 1;
            for (let i = 0; i < interceptDepth; i++) d = { a: d };
            return { allowed: true, input: { d } };
        } };
    }
    return runTwice(config, code, (api) => api.registerTool({ name: "t.x", inputSchema: schema, execute: () => "ran" }));
};
</script>`;

const held = usePage(PAGE);

const mode = IN_THREAD ? "on the page's thread" : "in a fresh Worker";

test(`deep recursion ${mode} (${CHROMIUM}) is QuickJS's catchable stack overflow; the next run works`, async () => {
    for (const [name, code] of CAUGHT) {
        const { first, next } = await held.page.evaluate(([w, c]) => window.__runFresh(w, c), [!IN_THREAD, code]);
        assert.equal(first.ok, true, `${name}: ${JSON.stringify(first.error)}`);
        assert.deepEqual(first.result, [true, "stack overflow"], name);
        assert.equal(next.result, 1, `${name}: the next run ${JSON.stringify(next.error)}`);
    }
    for (const [name, code, result] of FITS) {
        const { first } = await held.page.evaluate(([w, c]) => window.__runFresh(w, c), [!IN_THREAD, code]);
        assert.deepEqual([first.ok, first.result], [true, result], `${name}: ${JSON.stringify(first.error)}`);
    }
    for (const [name, code, message] of UNCAUGHT) {
        const { first, next } = await held.page.evaluate(([w, c]) => window.__runFresh(w, c), [!IN_THREAD, code]);
        assert.equal(first.error?.code, "RUNTIME", `${name}: ${JSON.stringify(first.error)}`);
        assert.match(first.error.message, message, name);
        assert.equal(next.result, 1, `${name}: the next run ${JSON.stringify(next.error)}`);
    }
    assert.deepEqual(held.problems, []);
});

test(`source nested past the limit ${mode} is a SYNTAX error that says so; at the limit it runs`, async () => {
    for (const [name, code, result, extra] of NESTED) {
        const { first: at } = await held.page.evaluate(([w, c]) => window.__runFresh(w, c), [!IN_THREAD, code(NESTING_LIMIT - extra)]);
        assert.deepEqual([at.ok, at.result], [true, result], `${name} at the limit: ${JSON.stringify(at.error)}`);
        for (const n of [NESTING_LIMIT - extra + 1, 20000]) {
            const { first, next } = await held.page.evaluate(([w, c]) => window.__runFresh(w, c), [!IN_THREAD, code(n)]);
            assert.equal(first.error?.code, "SYNTAX", `${name} nested ${n}: ${JSON.stringify(first.error)}`);
            assert.match(first.error.message, nestedMessage(n + extra), name);
            assert.equal(next.result, 1, `${name}: the next run ${JSON.stringify(next.error)}`);
        }
    }
    assert.deepEqual(held.problems, []);
});

// The Go core's walks nest on this engine's stack (the smallest, a fresh
// Worker's, too): the deepest checks its limits allow must fit, and past
// them the limit must answer, naming itself (web/test/deep-core-cases.mjs).
// An interceptor's replacement input is written with a replacer in Go, a
// call per level: 999 levels (1,000 with the input's object) convert, past
// 1,000 it is refused.
test(`deep input to the Go core ${mode} (${CHROMIUM}): the limits answer before the stack overflows; the next run works`, async () => {
    const rows = [
        ...AT_THE_LIMITS.map(([name, schema, code, want]) => [name, schema, code, want, 0]),
        ["onToolCall's input 1,000 levels deep", { type: "object" }, callAndCatch("{}"), "ran", 999],
        ["onToolCall's input 100,000 levels deep", { type: "object" }, callAndCatch("{}"), "~value is not JSON data: it nests more than 1,000 levels deep", 100000],
    ];
    for (const [name, schema, code, want, depth] of rows) {
        const { first, next } = await held.page.evaluate(([w, s, c, d]) => window.__checkFresh(w, s, c, d), [!IN_THREAD, schema, code, depth]);
        assert.equal(first.ok, true, `${name}: ${JSON.stringify(first.error)}`);
        if (want.startsWith("~")) assert.ok(first.result.includes(want.slice(1)), `${name}: ${first.result.slice(0, 300)}`);
        else assert.equal(first.result, want, name);
        assert.equal(next.result, 1, `${name}: the next run ${JSON.stringify(next.error)}`);
    }
    assert.deepEqual(held.problems, []);
});
