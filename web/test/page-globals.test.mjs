// A page that replaces its globals after the package loaded: fake timers
// (jest's and sinon's, installed after import, as test suites do), a stubbed
// AbortController, a deleted queueMicrotask, a throwing
// Function.prototype.call, broken iteration. The host keeps control of its
// runs: each either works or fails with a clear error for that run only,
// and the next run on the restored page works. Both engine modes
// (CODE_MODE_WORKER=1).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { WORKER, assetPath, indexURL, llmTools, loadFactory, run, tool, withFactory } from "./helpers.mjs";

// The test's own clock and iteration, taken before any row replaces them.
const realSetTimeout = setTimeout;
const realClearTimeout = clearTimeout;
const realSetInterval = setInterval;
const realClearInterval = clearInterval;
const realArrayIterator = Array.prototype[Symbol.iterator];
const realThen = Promise.prototype.then;
const realApply = Reflect.apply;

/**
 * `p`'s outcome (or that of the call `p`, which may throw), boxed ({ value } or { error }), or { hung: true } after
 * `ms` of the real clock. Neither races nor iterates nor calls p.then: rows break those.
 * @param {Promise<unknown> | (() => Promise<unknown>)} p @param {number} ms
 */
function settled(p, ms) {
    if (typeof p === "function") {
        try {
            p = p();
        } catch (error) {
            return Promise.resolve({ error });
        }
    }
    return new Promise((resolve) => {
        const timer = realSetTimeout(() => resolve({ hung: true }), ms);
        realApply(realThen, p, [
            (value) => { realClearTimeout(timer); resolve({ value }); },
            (error) => { realClearTimeout(timer); resolve({ error }); },
        ]);
    });
}

/**
 * Replaces owner[key] with value; returns the undo.
 * @param {any} owner @param {string | symbol} key @param {unknown} value
 */
function replace(owner, key, value) {
    const had = Object.getOwnPropertyDescriptor(owner, key);
    Object.defineProperty(owner, key, { value, writable: true, configurable: true });
    return () => (had ? Object.defineProperty(owner, key, had) : delete owner[key]);
}

/**
 * Runs `code` in `s` while owner[key] is `value`, restores it, and gives the
 * run's outcome as settled() boxes it; fails the test if the run never ended.
 * @param {any} s @param {any} owner @param {string | symbol} key @param {unknown} value @param {string} code
 */
async function runWhileReplaced(s, owner, key, value, code) {
    const undo = replace(owner, key, value);
    let got;
    try {
        got = await settled(() => run(s, code), 20_000);
    } finally {
        undo();
    }
    assert.ok(!("hung" in got), "the run never ended");
    return got;
}

/** A settled() outcome as a failure message: the run's result, or what it threw. @param {any} got */
const outcome = (got) => JSON.stringify(got.value ?? String(got.error?.message ?? got.error));

/** The next run of `s` works. */
async function nextRunWorks(s) {
    const r = await run(s, "return await tools.t.x({}) + 1");
    assert.equal(r.ok, true, JSON.stringify(r.error));
    assert.equal(r.result, 2);
}

// The package destructures, spreads and for-of's arrays of its own on a
// run's and a factory's paths: with the page's Array iterator of the moment,
// a run rejected with `undefined` (both modes), a factory made then failed
// with "Cannot read properties of undefined (reading 'status')" (in-thread)
// or "config.tools[0].name: expected a string, got undefined" (worker mode),
// and an iterator that throws made execute() throw synchronously.
describe("a page whose Array iteration breaks after load", () => {
    const ITERATORS = [
        ["emptied", function () { return realArrayIterator.call([]); }],
        // Node.js's own events.js iterates with the page's iterator too
        // (removeAllListeners, as an earlier row's worker exits): that is
        // Node's, not the package's, and the stub spares it.
        ["replaced by one that throws", function () {
            if (/\(node:|at node:/.test(new Error().stack.split("\n")[2] ?? "")) return realArrayIterator.call(this);
            throw new Error("Array iterator stubbed");
        }],
    ];
    const PROGRAM = "console.log('hi'); const a = await tools.t.x({}); const [b, c] = await Promise.all([tools.t.x({}), tools.t.obj({ n: [2] })]); return { sum: a + b, c }";
    const WANT = { sum: 2, c: { got: { n: [2] }, list: [1, 2] } };
    const config = (events) => ({
        wasmLocation: assetPath,
        timeout: 10_000,
        toolFilter: () => true,
        interceptors: { onToolCall: () => ({ allowed: true }) },
        onEvent: (e) => events.push(e.type),
        tools: [tool("t.x", () => 1), tool("t.obj", (i) => ({ got: i, list: [1, 2] }), { inputSchema: { type: "object", properties: { n: { type: "array", items: { type: "number" } } } } })],
    });
    for (const [name, stub] of ITERATORS) {
        test(`Array.prototype[Symbol.iterator] ${name}: a run with tool calls, a filter, an interceptor and observers works; so does the next run on the restored page`, async (t) => {
            const events = [];
            const api = await withFactory(t, config(events));
            const s = api.createSession();
            await nextRunWorks(s);
            const { executeCode, searchTools } = llmTools(s);
            events.length = 0;
            const undo = replace(Array.prototype, Symbol.iterator, stub);
            let got, found;
            try {
                got = await settled(() => executeCode.execute({ explanation: "", code: PROGRAM }), 15_000);
                found = await settled(() => searchTools.execute({ query: "obj" }), 15_000);
            } finally {
                undo();
            }
            assert.ok(!("hung" in got), "the run never settled");
            assert.deepEqual(got.value?.result, WANT, outcome(got));
            assert.deepEqual(got.value.logs, [{ level: "log", message: "hi" }]);
            const count = (type) => events.filter((e) => e === type).length;
            assert.deepEqual([count("run-start"), count("console"), count("tool-call"), count("tool-result"), count("run-end")], [1, 1, 3, 3, 1], JSON.stringify(events));
            assert.ok(!("hung" in found) && "value" in found, String(found.error?.message ?? found.error));
            await nextRunWorks(s);
        });

        test(`Array.prototype[Symbol.iterator] ${name}: a factory made then is made from its config, and its runs work`, async (t) => {
            await loadFactory(); // the package is imported before the page replaces anything
            const events = [];
            const undo = replace(Array.prototype, Symbol.iterator, stub);
            let api, got;
            try {
                api = await settled(() => withFactory(t, config(events)), 30_000);
                if (api.value) got = await settled(() => run(api.value.createSession(), PROGRAM), 15_000);
            } finally {
                undo();
            }
            assert.ok(!("hung" in api), "the factory never settled");
            assert.ok(api.value, String(api.error?.stack ?? api.error));
            assert.ok(!("hung" in got), "the run never settled");
            assert.deepEqual(got.value?.result, WANT, outcome(got));
            await nextRunWorks(api.value.createSession());
        });
    }
});

describe("fake timers installed after import (sinon's, which jest uses)", () => {
    test("a run awaiting a tool that never settles still ends TIMEOUT; tools and a program's timers work; the fake clock is left alone", async (t) => {
        const FakeTimers = (await import("@sinonjs/fake-timers")).default;
        // The timeout is what ends the run awaiting t.never, whatever its
        // length; the other runs must finish within it, so it has the margin
        // the other rows use (200 ms failed them on a loaded machine).
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            timeout: 5000,
            tools: [tool("t.never", () => new Promise(() => {})), tool("t.x", () => 1)],
        });
        const s = api.createSession();
        await nextRunWorks(s);
        // As jest.useFakeTimers() and sinon.useFakeTimers() do by default:
        // every timer, Date, performance, queueMicrotask, nextTick.
        const clock = FakeTimers.install();
        const start = clock.now;
        // Something real keeps the process alive while the runs wait.
        const keep = realSetInterval(() => {}, 1000);
        let never, works;
        try {
            never = await settled(run(s, "return await tools.t.never({})"), 20_000);
            works = await settled(run(s, "await new Promise((r) => setTimeout(r, 20)); return await tools.t.x({}) + 1"), 20_000);
            assert.equal(clock.now, start, "the page's fake clock moved");
            assert.equal(clock.countTimers(), 0, "a timer was left on the page's fake clock");
        } finally {
            clock.uninstall();
            realClearInterval(keep);
        }
        assert.ok(!("hung" in never), "the run awaiting the tool never ended");
        assert.equal(never.value?.error?.code, "TIMEOUT", JSON.stringify(never));
        assert.ok(!("hung" in works), "the run with a tool call and a timer never ended");
        assert.equal(works.value?.result, 2, JSON.stringify(works));
        await nextRunWorks(s);
    });
});

describe("builtins a run needs, replaced after load", () => {
    const RealAbortSignal = AbortSignal;

    test("AbortController and AbortSignal replaced by stubs: a tool's signal is a real AbortSignal, aborted when the run times out", async (t) => {
        const signals = [];
        // As above: any timeout ends t.never's run; 5000 ms leaves the
        // runs that must work room on a loaded machine.
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            timeout: 5000,
            tools: [tool("t.never", (_, o) => { signals.push(o.signal); return new Promise(() => {}); }), tool("t.x", () => 1)],
        });
        const s = api.createSession();
        await nextRunWorks(s);
        class StubController { signal = { aborted: false, addEventListener() {}, removeEventListener() {} }; abort() {} }
        const undo = [replace(globalThis, "AbortController", StubController), replace(globalThis, "AbortSignal", function AbortSignal() {})];
        let got;
        try {
            got = await settled(run(s, "return await tools.t.never({})"), 20_000);
        } finally {
            undo[1]();
            undo[0]();
        }
        assert.ok(!("hung" in got), "the run never ended");
        assert.equal(got.value?.error?.code, "TIMEOUT", JSON.stringify(got));
        assert.equal(signals.length, 1);
        assert.ok(signals[0] instanceof RealAbortSignal, "the tool's signal is not an AbortSignal");
        assert.equal(signals[0].aborted, true);
        await nextRunWorks(s);
    });

    for (const [name, value] of [["deleted", undefined], ["replaced by one that throws", () => { throw new Error("queueMicrotask stubbed"); }], ["replaced by one that never runs its callback", () => {}]]) {
        test(`queueMicrotask ${name}: runs with tool calls work; the next run on the restored page works`, async (t) => {
            const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", () => 1)] });
            const s = api.createSession();
            await nextRunWorks(s);
            const undo = value === undefined ? (() => { const had = queueMicrotask; delete globalThis.queueMicrotask; return () => { globalThis.queueMicrotask = had; }; })() : replace(globalThis, "queueMicrotask", value);
            let got;
            try {
                got = await settled(run(s, "const a = await tools.t.x({}); const [b, c] = await Promise.all([tools.t.x({}), tools.t.x({})]); return a + b + c"), 20_000);
            } finally {
                undo();
            }
            assert.ok(!("hung" in got), "the run never ended");
            assert.equal(got.value?.result, 3, JSON.stringify(got));
            await nextRunWorks(s);
        });
    }

    for (const key of ["call", "apply", "bind"]) {
        test(`Function.prototype.${key} that throws: a run with a tool call works, and so does the next run on the restored page`, async (t) => {
            const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", () => 1)] });
            const s = api.createSession();
            await nextRunWorks(s);
            const got = await runWhileReplaced(s, Function.prototype, key, function () { throw new Error(`Function.prototype.${key} stubbed`); }, "return await tools.t.x({}) + 1");
            assert.equal(got.value?.result, 2, outcome(got));
            await nextRunWorks(s);
        });
    }
});

// In-thread the Go runtime's glue (wasm_exec.js) and the core's direct
// imports (direct.mjs) call Map (the ids of the JS values Go holds),
// DataView (Go's and QuickJS's memory) and Reflect at every crossing. Worker
// mode runs them in the worker's realm; the rows hold there too.
describe("the Go runtime's builtins replaced after load", () => {
    const ROWS = [
        // Go got an object for a value's id: "Code Mode's engine stopped:
        // ... Reflect.get called on non-object", for good.
        ["Map.prototype.get gives a stand-in", Map.prototype, "get", function () { return { id: 1 }; }, false],
        // Go read zeros from memory: the run failed with "unknown error".
        ["DataView.prototype.getUint32 gives 0", DataView.prototype, "getUint32", function () { return 0; }, true],
        ["DataView.prototype.setUint32 a no-op", DataView.prototype, "setUint32", function () {}, true],
        ["Reflect.get gives undefined", Reflect, "get", function () { return undefined; }, true],
        ["Reflect.apply throws", Reflect, "apply", function () { throw new Error("Reflect.apply stubbed"); }, true],
    ];
    for (const [name, owner, key, value, works] of ROWS) {
        test(`${name}: the run ${works ? "works" : "ends"}, and the same factory's next run works on the restored page`, async (t) => {
            const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", () => 1)] });
            const s = api.createSession();
            await nextRunWorks(s);
            const got = await runWhileReplaced(s, owner, key, value, "await new Promise((r) => setTimeout(r, 5)); return await tools.t.x({}) + 1");
            if (works) assert.equal(got.value?.result, 2, outcome(got));
            await nextRunWorks(s);
        });
    }
});

// A run after one that broke its sandbox (MEMORY_LIMIT) gets a new
// WebAssembly instance and memory. In-thread the Go core made them with the
// page's WebAssembly of the moment: a WebAssembly.Instance or Memory that
// threw then escaped the engine as an uncaught "codemode: the run did not
// start: sandbox: instantiate: ..." (Node.js exited).
describe("WebAssembly replaced after load, when a run needs a new sandbox instance", () => {
    for (const key of ["Instance", "Memory"]) {
        test(`WebAssembly.${key} throws: the run works, and so does the next one on the restored page`, async (t) => {
            const api = await withFactory(t, { wasmLocation: assetPath, memoryLimit: 16, tools: [tool("t.x", () => 1)] });
            const s = api.createSession();
            await nextRunWorks(s);
            const broke = await run(s, "const a = []; while (true) a.push('x'.repeat(1e5))");
            assert.equal(broke.error?.code, "MEMORY_LIMIT", JSON.stringify(broke.error));
            const got = await runWhileReplaced(s, WebAssembly, key, function () { throw new Error(`WebAssembly.${key} stubbed`); }, "return await tools.t.x({}) + 1");
            assert.equal(got.value?.result, 2, outcome(got));
            await nextRunWorks(s);
        });
    }
});

// The page side's bookkeeping and conversions use the builtins as they were
// at load: each of these, replaced after load, left a run with a tool call
// never settling (in-thread: Set.prototype.add, Map.prototype.set and
// Array.prototype.push no-ops, Map.prototype.has always false; worker mode:
// Map.prototype.set; both: Promise.prototype.then calling nothing), or
// changed its data (JSON.parse giving {} became the run's whole result; JSON.stringify giving "[]" emptied each tool result
// and made the run's arguments a list).
describe("the page's bookkeeping builtins replaced after load", () => {
    const ROWS = [
        ["Set.prototype.add a no-op", Set.prototype, "add", function () { return this; }],
        ["Map.prototype.set a no-op", Map.prototype, "set", function () { return this; }],
        ["Map.prototype.has always false", Map.prototype, "has", function () { return false; }],
        ["Map.prototype.get gives undefined", Map.prototype, "get", function () { return undefined; }],
        ["Array.prototype.push a no-op", Array.prototype, "push", function () { return this.length; }],
        ["JSON.parse gives {}", JSON, "parse", function () { return {}; }],
        ["JSON.stringify gives \"[]\"", JSON, "stringify", function () { return "[]"; }],
        // The run never ended, its timeout included, in both modes.
        ["Promise.prototype.then calls nothing", Promise.prototype, "then", function () { return this; }],
    ];
    for (const [name, owner, key, value] of ROWS) {
        test(`${name}: a run with tool calls works, and so does the next one on the restored page`, async (t) => {
            const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", () => 1), tool("t.obj", (i) => ({ got: i, list: [1, 2] }))] });
            const s = api.createSession();
            await nextRunWorks(s);
            const got = await runWhileReplaced(s, owner, key, value, "const a = await tools.t.x({}); const [b, c] = await Promise.all([tools.t.x({}), tools.t.obj({ n: 2 })]); return { sum: a + b, c }");
            assert.deepEqual(got.value?.result, { sum: 2, c: { got: { n: 2 }, list: [1, 2] } }, outcome(got));
            await nextRunWorks(s);
        });
    }
});

// A factory created while the page's Promise.prototype.then does nothing
// stayed pending for ever, in both modes: Code Mode's own returns of a
// promise from an async function (settled by the page's then of the
// moment), its .catch and .then, and Node.js's import() and
// fs/promises' readFile, which follow their promises by it too. Each case
// runs in a child process, so that the factory is the process's first (the
// one that warms the engine up and loads the Node.js modules).
describe("a factory created while Promise.prototype.then calls nothing", () => {
    for (const [what, then] of [["returns undefined", "function () {}"], ["returns its promise", "function () { return this; }"]]) {
        test(`then ${what}: the factory is made, and works once then is back`, () => {
            const script = `
                const { IoCodeModeFactory } = await import(${JSON.stringify(indexURL)});
                const real = Promise.prototype.then;
                const timer = setTimeout(() => { process.stdout.write(JSON.stringify({ hung: true })); process.exit(0); }, 60000);
                Promise.prototype.then = ${then};
                let made, error;
                try {
                    made = await IoCodeModeFactory({ wasmLocation: ${JSON.stringify(assetPath)}, worker: ${WORKER}, tools: [{ name: "t.x", description: "d", inputSchema: { type: "object" }, execute: () => 1 }] });
                } catch (e) {
                    error = String(e && e.message);
                }
                Promise.prototype.then = real;
                clearTimeout(timer);
                let result;
                if (made) {
                    const exec = made.createSession().getLlmTools().find((t) => t.name === "executeCode");
                    result = (await exec.execute({ code: "return await tools.t.x({}) + 1", explanation: "" })).result;
                    made.dispose();
                }
                process.stdout.write(JSON.stringify({ made: !!made, error, result }));
                process.exit(0);
            `;
            const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 120_000 });
            assert.equal(child.status, 0, `the child failed (status ${child.status}, signal ${child.signal}): ${child.stderr.slice(-2000)}`);
            assert.deepEqual(JSON.parse(child.stdout), { made: true, result: 2 });
        });
    }
});

// The rows above call tools that return plain values. A tool written as
// `async execute` (every example's form) returns a native promise, and an
// async onToolCall's decision is one too: adopted by reading its then, the
// page's no-op, neither ever gave its value, and the run ended TIMEOUT.
// await takes a native promise's outcome without its then: so does Code Mode.
test("Promise.prototype.then calls nothing: an async tool's value and an async onToolCall's decision still arrive", async (t) => {
    const api = await withFactory(t, {
        wasmLocation: assetPath,
        timeout: 5000,
        interceptors: { onToolCall: async ({ input }) => ({ allowed: true, input }) },
        tools: [tool("t.x", () => 1), tool("t.async", async (i) => ({ got: i.n }))],
    });
    const s = api.createSession();
    await nextRunWorks(s);
    const got = await runWhileReplaced(s, Promise.prototype, "then", function () { return this; }, "const a = await tools.t.async({ n: 2 }); const b = await tools.t.async({ n: 3 }); return a.got + b.got");
    assert.equal(got.value?.result, 5, outcome(got));
    await nextRunWorks(s);
});

// A factory created while the page has these replaced (after importing Code
// Mode) reads its config as given: it used to fail with
// "config.wasmLocation: expected a non-empty string ..., got undefined" for a
// config that has one (its keys were gathered with a Set and spreads).
describe("a factory created after the page replaced Set builtins", () => {
    const realIterator = Array.prototype[Symbol.iterator];
    const ROWS = [
        ["Set.prototype.add a no-op", Set.prototype, "add", function () { return this; }],
        ["Set.prototype[Symbol.iterator] empty", Set.prototype, Symbol.iterator, function () { return realIterator.call([]); }],
    ];
    for (const [name, owner, key, value] of ROWS) {
        test(`${name}: the factory is made from its config and its runs work`, async (t) => {
            await loadFactory(); // the package is imported before the page replaces anything
            const undo = replace(owner, key, value);
            let api;
            try {
                api = await withFactory(t, { wasmLocation: assetPath, timeout: 5000, tools: [tool("t.x", () => 1)] });
            } finally {
                undo();
            }
            await nextRunWorks(api.createSession());
        });
    }
});

// A factory created while the page has replaced a builtin that reading its
// config uses is made from its config, or fails with an error that names
// the replaced builtin: never a made-up problem of the config's ("config.tools:
// expected an array" for an array, "must be a JSON Schema object" for one),
// nor the Go runtime's panic text ("syscall/js: call of Value.Get on
// undefined", in-thread under Object.create ignoring its prototype), nor a
// DataCloneError thrown out of the page's event loop (worker mode, under an
// Array.prototype.map that returns its array).
describe("a factory created after the page replaced builtins its config checks use", () => {
    // made: the factory must be made in both modes (in-thread, the Go core
    // took Array.isArray and Reflect's methods from the page as it started,
    // and refused the config or stopped; worker mode's schema walks took
    // Array.isArray and Set.prototype.has from the page); otherwise its
    // error may name the builtin.
    const ROWS = [
        ["Array.isArray always false", Array, "isArray", function () { return false; }, { made: true }],
        ["JSON.stringify gives \"[]\"", JSON, "stringify", function () { return "[]"; }, { made: true }],
        ["Object.create ignores its prototype", Object, "create", function () { return {}; }, { made: true }],
        ["Array.prototype.map gives its array", Array.prototype, "map", function () { return this; }, { made: true }],
        ["Set.prototype.has always true", Set.prototype, "has", function () { return true; }, { made: true }],
        ["Reflect.get answers undefined", Reflect, "get", function () { return undefined; }, { made: true }],
        ["Reflect.apply throws", Reflect, "apply", function () { throw new Error("Reflect.apply stubbed"); }, { made: true }],
        // In-thread the core is instantiated with the page's WebAssembly of the moment.
        ["WebAssembly.instantiate throws", WebAssembly, "instantiate", function () { throw new Error("WebAssembly.instantiate stubbed"); }, { made: false }],
        // In-thread the Go core took these from the page when its program
        // started, and kept them for the factory's life.
        // In worker mode under Node.js, new Worker itself calls the page's
        // bind (node:events' once): that error names it.
        ["Function.prototype.bind throws", Function.prototype, "bind", function () { throw new Error("Function.prototype.bind stubbed"); }, { made: !WORKER }],
        ["Promise.resolve throws", Promise, "resolve", function () { throw new Error("Promise.resolve stubbed"); }, { made: true }],
        ["String.prototype.valueOf throws", String.prototype, "valueOf", function () { throw new Error("String.prototype.valueOf stubbed"); }, { made: true }],
        ["DataView.prototype.getUint32 gives 0", DataView.prototype, "getUint32", function () { return 0; }, { made: true }],
        ["WebAssembly.Module throws", WebAssembly, "Module", function () { throw new Error("WebAssembly.Module stubbed"); }, { made: true }],
        ["WebAssembly.Memory throws", WebAssembly, "Memory", function () { throw new Error("WebAssembly.Memory stubbed"); }, { made: true }],
        ["WebAssembly.Instance throws", WebAssembly, "Instance", function () { throw new Error("WebAssembly.Instance stubbed"); }, { made: true }],
    ];
    const OWNERS = new Map([[Array.prototype, "Array.prototype"], [Set.prototype, "Set.prototype"], [Function.prototype, "Function.prototype"], [Promise.prototype, "Promise.prototype"], [String.prototype, "String.prototype"], [DataView.prototype, "DataView.prototype"], [Reflect, "Reflect"], [WebAssembly, "WebAssembly"], [JSON, "JSON"]]);
    for (const [name, owner, key, value, { made }] of ROWS) {
        const label = `${OWNERS.get(owner) ?? owner.name}.${key}`;
        test(`${name}: the factory is made and works${made ? "" : `, or its error names ${label}`}`, async (t) => {
            await loadFactory(); // the package is imported before the page replaces anything
            const undo = replace(owner, key, value);
            let got;
            try {
                const inputSchema = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };
                got = await settled(() => withFactory(t, { wasmLocation: assetPath, timeout: 5000, tools: [tool("t.x", () => 1, { inputSchema, annotations: { readOnlyHint: true } })] }), 20_000);
            } finally {
                undo();
            }
            assert.ok(!("hung" in got), "the factory never settled");
            if ("error" in got) {
                assert.ok(!made, `the factory failed: ${got.error?.message}`);
                assert.ok(got.error instanceof Error, `rejected with ${String(got.error)}`);
                assert.ok(got.error.message.includes(`the page replaced ${label}`), got.error.message);
                assert.doesNotMatch(got.error.message, /panic|syscall\/js/);
                return;
            }
            const r = await run(got.value.createSession(), 'return await tools.t.x({ a: "x" }) + 1');
            assert.equal(r.result, 2, JSON.stringify(r.error));
        });
    }
});

// getLlmTools() builds its tools with map and copies each schema through
// JSON: in worker mode the page's of the moment, so a map giving its array
// back gave the worker's plain descriptions, without execute, and a
// JSON.stringify answering "[]" gave each tool the schema [].
describe("getLlmTools() on a page whose Array.prototype.map gives its array, or JSON.stringify \"[]\"", () => {
    test("the tools have execute and a run works", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", () => 1)] });
        const s = api.createSession();
        await nextRunWorks(s);
        const undo = replace(Array.prototype, "map", function () { return this; });
        let list;
        try {
            list = s.getLlmTools();
        } finally {
            undo();
        }
        const exec = list.find((x) => x.name === "executeCode");
        assert.equal(typeof exec?.execute, "function", "executeCode has no execute");
        const r = await exec.execute({ code: "return await tools.t.x({}) + 1", explanation: "" });
        assert.equal(r.result, 2, JSON.stringify(r));
    });
    test("JSON.stringify gives \"[]\": each tool's inputSchema is its schema", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", () => 1)] });
        const s = api.createSession();
        const want = s.getLlmTools().map((x) => x.inputSchema);
        const undo = replace(JSON, "stringify", function () { return "[]"; });
        let list;
        try {
            list = s.getLlmTools();
        } finally {
            undo();
        }
        assert.deepEqual(list.map((x) => x.inputSchema), want);
    });
});

// Worker mode copied createSession's and registerTools' lists with the
// page's Array iterator and map of the moment: an emptied iterator or a map
// giving its array back lost the session's tools ("was unregistered during
// this run") and the registered ones.
describe("tools given after the page broke Array iteration or map", () => {
    const realArrayIterator2 = Array.prototype[Symbol.iterator];
    const BREAKS = [
        ["Array iterator emptied", Array.prototype, Symbol.iterator, function () { return realArrayIterator2.call([]); }],
        ["Array.prototype.map gives its array", Array.prototype, "map", function () { return this; }],
    ];
    for (const [name, owner, key, value] of BREAKS) {
        test(`${name}: createSession's and registerTools' tools reach the run`, async (t) => {
            const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", () => 1)] });
            await nextRunWorks(api.createSession());
            const undo = replace(owner, key, value);
            let s;
            try {
                api.registerTools([tool("t.reg", () => 3)]);
                s = api.createSession({ tools: [tool("t.own", () => 4)] });
            } finally {
                undo();
            }
            const r = await run(s, "return [await tools.t.reg({}), await tools.t.own({})]");
            assert.deepEqual(r.result, [3, 4], JSON.stringify(r.error));
        });
    }
});

// onToolCall's replacement input crosses to the engine as JSON text: in
// worker mode the page wrote it with its JSON.stringify of the moment, so a
// stub answering "[]" gave the tool [] for the input the interceptor wrote.
describe("an interceptor's replacement input, on a page that replaced JSON.stringify after load", () => {
    test("JSON.stringify gives \"[]\": the tool gets the input onToolCall wrote", async (t) => {
        const inputs = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            interceptors: { onToolCall: (c) => ({ allowed: true, input: { ...c.input, n: 2, list: [1, { a: "b" }] } }) },
            tools: [tool("t.x", (i) => (inputs.push(i), 1))],
        });
        const s = api.createSession();
        await nextRunWorks(s);
        inputs.length = 0;
        const got = await runWhileReplaced(s, JSON, "stringify", function () { return "[]"; }, "return await tools.t.x({ m: 1 }) + 1");
        assert.equal(got.value?.result, 2, outcome(got));
        assert.deepEqual(inputs, [{ m: 1, n: 2, list: [1, { a: "b" }] }]);
        await nextRunWorks(s);
    });
});

// Unknown keys are refused, whatever the page's Object.keys of the moment
// answers: worker mode listed execute()'s and createSession()'s options and
// a tool definition's keys with it, so one answering [] let a typo
// ("singal") through, and a name clash with a live session's own tool went
// unchecked under an Array.isArray answering false.
describe("key and name checks after the page replaced Object.keys or Array.isArray", () => {
    const emptyKeys = function () { return []; };
    /** What f() threw, or "nothing thrown". @param {() => unknown} f */
    const thrown = (f) => {
        try {
            f();
        } catch (error) {
            return String(error?.message ?? error);
        }
        return "nothing thrown";
    };
    test("Object.keys gives []: a misspelt key of execute()'s options, createSession()'s options or a tool definition is refused", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", () => 1)] });
        const s = api.createSession();
        await nextRunWorks(s);
        const { executeCode } = llmTools(s);
        const undo = replace(Object, "keys", emptyKeys);
        let got, session, registered;
        try {
            got = await settled(() => executeCode.execute({ explanation: "", code: "return 1" }, { singal: null }), 20_000);
            session = thrown(() => api.createSession({ tool: [] }));
            registered = thrown(() => api.registerTools([{ ...tool("t.y", () => 2), descripton: "y" }]));
        } finally {
            undo();
        }
        assert.ok(!("hung" in got), "the run never settled");
        assert.match(String(got.error?.message ?? JSON.stringify(got.value)), /unknown key "singal"/);
        assert.match(session, /unknown key "tool"/);
        assert.match(registered, /unknown key "descripton"/);
        await nextRunWorks(s);
    });
    test("Array.isArray always false: registering a name a live session's own tool has is refused", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, tools: [tool("t.x", () => 1)] });
        const s = api.createSession({ tools: [tool("t.own", () => 4)] });
        await nextRunWorks(s);
        const undo = replace(Array, "isArray", function () { return false; });
        let registered;
        try {
            registered = thrown(() => api.registerTools([tool("t.own", () => 5)]));
        } finally {
            undo();
        }
        assert.match(registered, /already a tool of a session/);
        const r = await run(s, "return await tools.t.own({})");
        assert.equal(r.result, 4, JSON.stringify(r.error));
    });
});

// A busy loop's timeout is the clock the sandbox's interrupt polls read
// (jsbridge/poll.go: Date.now, handed to WebAssembly when the factory's
// first run starts its QuickJS). A test that turns fake timers on
// (vi.useFakeTimers(), jest.useFakeTimers()) or a page that stubs Date.now,
// and then makes the factory and runs its first program, gave the polls the
// frozen clock: `for (;;) {}` never timed out, and in-thread held the
// process for ever. Each case in a child process (a hang is killed there),
// its factory the process's first; fakes installed before the package's
// import (a test file's top) and after it.
describe("a busy loop's timeout when the clock is faked before the factory's first run", () => {
    const fakeTimersURL = import.meta.resolve("@sinonjs/fake-timers");
    const cases = [
        // As vitest's useFakeTimers() does: all but nextTick and queueMicrotask.
        ["fake timers installed after the import", "after", "const clock = FakeTimers.install({ toFake: Object.keys(FakeTimers.timers).filter((k) => k !== 'nextTick' && k !== 'queueMicrotask') });"],
        ["fake timers installed before the import", "before", "const clock = FakeTimers.install({ toFake: Object.keys(FakeTimers.timers).filter((k) => k !== 'nextTick' && k !== 'queueMicrotask') });"],
        ["Date.now stubbed to answer 0", "after", "Date.now = () => 0;"],
    ];
    for (const [what, when, fake] of cases) {
        test(`${what}: for (;;) {} ends TIMEOUT and the next run works`, () => {
            const load = `const { IoCodeModeFactory } = await import(${JSON.stringify(indexURL)});`;
            const script = `
                const FakeTimers = (await import(${JSON.stringify(fakeTimersURL)})).default;
                ${when === "before" ? fake + load : load + fake}
                const made = await IoCodeModeFactory({ wasmLocation: ${JSON.stringify(assetPath)}, worker: ${WORKER}, timeout: 500 });
                const exec = made.createSession().getLlmTools().find((t) => t.name === "executeCode");
                const loop = await exec.execute({ code: "for (;;) {}", explanation: "" });
                const next = await exec.execute({ code: "return 1 + 1", explanation: "" });
                made.dispose();
                process.stdout.write(JSON.stringify({ loop: loop.error?.code, next: next.result }));
                process.exit(0);
            `;
            const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 60_000 });
            assert.equal(child.signal, null, `the run never ended (the child was killed after 60 s): ${child.stderr.slice(-2000)}`);
            assert.equal(child.status, 0, `the child failed (status ${child.status}): ${child.stderr.slice(-2000)}`);
            assert.deepEqual(JSON.parse(child.stdout), { loop: "TIMEOUT", next: 2 });
        });
    }
});
