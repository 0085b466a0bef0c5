// @mode-independent: its factories come from core-bundle.mjs, one of each mode.
// What a page tool answers is cut or refused on the page before it is
// copied into the Go core (in-thread) or posted to the worker, when the
// core would only refuse it or show a part: the Go core's WebAssembly
// memory, which never shrinks, grew by the whole text (twice and more) for
// the factory's life. A result whose JSON text the run's memory cannot
// hold fails as the core's own check words it (toolcall.go checkOutput,
// the backstop); a thrown message reads as the core cuts it (failure), in
// the program and in its tool-result event.
// The sizes are the Go core's memory's own (fixtures/go-memory.mjs).
// The other way, a program's input to a page tool, and its result, are in
// that memory as one copy (its input schema's check included).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { MessagePort } from "node:worker_threads";
import { goMemoryBytes, liveQuickJSMemories } from "./fixtures/go-memory.mjs";
import { goMemoryOfWorker, loadThreadFactory, loadWorkerFactory, quickJSMemoriesOfWorker } from "./core-bundle.mjs";
import { assetPath, run, tool } from "./helpers.mjs";

/** @type {Awaited<ReturnType<typeof loadThreadFactory>>} */
let thread;
/** @type {Awaited<ReturnType<typeof loadWorkerFactory>>} */
let worker;
before(async () => {
    thread = await loadThreadFactory();
    worker = await loadWorkerFactory("go-memory.mjs");
});
after(() => {
    if (thread) thread.cleanup();
    if (worker) worker.cleanup();
});

const SIZE = 128 << 20; // characters of the tool's string
const TOO_LARGE = `tool t.big returned ${SIZE + 2} characters of JSON, more than the run's memory limit (16 MB) can hold: ask it for less (a page, a filter), if its input allows`;
const THROWN = 9e7; // characters of the tool's message
const CUT = `${"<".repeat(1000)}… [${THROWN - 1000} more characters]`;
/**
 * The core's message for `what` followed by a cut message of THROWN characters (and `after` it).
 * @param {string} what
 * @param {string} [after]
 */
const cutAfter = (what, after = "") => `${what}${"<".repeat(1000 - what.length)}… [${what.length + THROWN + after.length - 1000} more characters]`;
/** A Standard Schema of any object whose own check is validate. @param {(input: unknown) => unknown} validate */
const checked = (validate) => ({ "~standard": { version: 1, vendor: "test", validate, jsonSchema: { input: () => ({ type: "object" }) } } });

const rows = [
    {
        what: "a result past the run's memory is refused",
        tool: tool("t.big", () => "x".repeat(SIZE)),
        size: SIZE,
        message: TOO_LARGE,
        // The page's report of the call says so too: it was refused before
        // the page reported it (the core's check came after, ok: true).
        event: [false, TOO_LARGE],
    },
    {
        // Each is 6 characters of JSON (\ud800): the page's text is 300 M.
        what: "a result of 50 million lone surrogates past the run's memory is refused",
        tool: tool("t.big", () => "\ud800".repeat(5e7)),
        size: 5e7,
        message: `tool t.big returned ${6 * 5e7 + 2} characters of JSON, more than the run's memory limit (16 MB) can hold: ask it for less (a page, a filter), if its input allows`,
        event: [false, `tool t.big returned ${6 * 5e7 + 2} characters of JSON, more than the run's memory limit (16 MB) can hold: ask it for less (a page, a filter), if its input allows`],
    },
    {
        what: "a thrown message of 90 million characters is cut",
        tool: tool("t.big", () => { throw new Error("<".repeat(THROWN)); }),
        size: THROWN,
        message: CUT,
    },
    {
        what: "a thrown object's message of 90 million characters is cut",
        tool: tool("t.big", () => { throw { message: "<".repeat(THROWN) }; }),
        size: THROWN,
        message: CUT,
    },
    {
        what: "a thrown object's String() of 90 million characters is cut",
        tool: tool("t.big", () => { throw { toString: () => "<".repeat(THROWN) }; }),
        size: THROWN,
        message: CUT,
    },
    {
        what: "a message of 90 million characters onToolCall threw is cut",
        tool: tool("t.big", () => "never"),
        config: { interceptors: { onToolCall: (/** @type {any} */ c) => { if (c.tool.name === "t.big") throw new Error("<".repeat(THROWN)); return { allowed: true }; } } },
        size: THROWN,
        // Cut once, whole: the program's message counted 75 more
        // characters, what the core's second cut dropped.
        message: cutAfter("call to t.big denied: the interceptor failed (onToolCall rejected: ", ")"),
        call: [false, false, cutAfter("interceptor failed: onToolCall rejected: ")],
    },
    {
        what: "a denial's reason of 90 million characters from onToolCall is cut",
        tool: tool("t.big", () => "never"),
        config: { interceptors: { onToolCall: (/** @type {any} */ c) => (c.tool.name === "t.big" ? { allowed: false, reason: "<".repeat(THROWN) } : { allowed: true }) } },
        size: THROWN,
        message: cutAfter("call to t.big denied: "),
        call: [false, false, CUT],
    },
    {
        what: "a message of 90 million characters the input schema's check threw is cut",
        tool: tool("t.big", () => "never", { inputSchema: checked(() => { throw new Error("<".repeat(THROWN)); }) }),
        size: THROWN,
        message: cutAfter("t.big: the input schema's validation failed: "),
    },
    {
        what: "a refusal of 90 million characters by the input schema's check is cut",
        tool: tool("t.big", () => "never", { inputSchema: checked(() => ({ issues: [{ message: "<".repeat(THROWN) }] })) }),
        size: THROWN,
        message: cutAfter("t.big: input rejected by its schema: "),
    },
];

// The longest error message or denial's reason the page posted to a
// worker in a tool's or onToolCall's answer, or search query in a run's
// arguments (this thread is the page; a worker's own posts are not seen).
let posted = 0;
const postMessage = MessagePort.prototype.postMessage;
MessagePort.prototype.postMessage = function (/** @type {any} */ m, /** @type {any[]} */ ...rest) {
    if (m && m.t === "reply" && m.error && typeof m.error.message === "string") posted = Math.max(posted, m.error.message.length);
    if (m && m.t === "run" && m.args && typeof m.args.query === "string") posted = Math.max(posted, m.args.query.length);
    if (m && m.t === "run" && typeof m.args === "string") posted = Math.max(posted, m.args.length);
    const reason = m && m.t === "reply" && m.decision && m.decision.value && m.decision.value.reason;
    if (typeof reason === "string") posted = Math.max(posted, reason.length);
    return Reflect.apply(postMessage, this, [m, ...rest]);
};

/**
 * @param {string} mode
 * @param {(config: any) => Promise<any>} factory
 * @param {() => Promise<number>} goMemory the byte length of the factory's Go core's memory
 * @param {(typeof rows)[number]} row
 */
async function withoutGrowth(mode, factory, goMemory, row) {
    const api = await factory({ wasmLocation: assetPath, memoryLimit: 16, timeout: 120_000, ...row.config, tools: [row.tool, tool("t.small", () => "x".repeat(1000))] });
    try {
        const s = api.createSession();
        assert.equal((await run(s, "return (await tools.t.small({})).length")).result, 1000);
        const before = await goMemory();
        posted = 0;
        /** @type {any[]} */
        const events = [];
        const r = await run(s, "try { await tools.t.big({}); return 'no error' } catch (e) { return e.name + ': ' + e.message }", {
            onEvent: (/** @type {any} */ e) => events.push(e),
        });
        const grown = (await goMemory()) - before;
        console.log(`${mode}, ${row.what}: the Go core's memory ${before} bytes before the call, grown by ${grown}`);
        assert.ok(grown < row.size / 8, `${mode}: the Go core's memory grew by ${grown} bytes for ${row.size} characters it took none of`);
        // Cut before it crosses to a worker, not after: the worker's heap
        // took the whole message (the tool's call cut it there).
        assert.ok(posted <= 4096, `${mode}: the page posted a message of ${posted} characters to the worker`);
        assert.equal(r.result, `ToolError: ${row.message}`, JSON.stringify(r.error));
        assert.deepEqual(
            r.toolCalls.map((/** @type {any} */ c) => [c.name, c.allowed, c.ok, c.reason]),
            [["t.big", ...(row.call || [true, false, row.message])]],
        );
        // The page's report of a call that ran (a denial has none) says
        // what the program got: it passed a thrown message through whole.
        const result = events.find((e) => e.type === "tool-result");
        if (row.event) assert.deepEqual([result.ok, result.error], row.event);
        else if (!row.call) assert.deepEqual([result.ok, result.error], [false, row.message]);
        assert.equal((await run(s, "return (await tools.t.small({})).length")).result, 1000);
    } finally {
        api.dispose();
    }
}

for (const row of rows) {
    test(`in-thread: ${row.what} before it is copied into the Go core`, { timeout: 300_000 }, async () => {
        const first = goMemoryBytes().length;
        await withoutGrowth("in-thread", thread.threadFactory, async () => goMemoryBytes()[first], row);
    });
    test(`worker: ${row.what} before the worker's Go core takes it in`, { timeout: 300_000 }, async () => {
        await withoutGrowth("worker", worker.workerFactory, goMemoryOfWorker, row);
    });
}

const INPUT = 4e7; // characters of a string in the program's input

/**
 * @param {boolean} checked whether the tool has an input schema (the core decodes the input to check it)
 * @returns {(mode: string, factory: (config: any) => Promise<any>, goMemory: () => Promise<number>) => Promise<void>}
 */
const inputGrowth = (checked) => async (mode, factory, goMemory) => {
    const take = tool("t.take", (/** @type {any} */ input) => input.s.length);
    if (!checked) delete take.inputSchema;
    const api = await factory({ wasmLocation: assetPath, memoryLimit: 128, timeout: 120_000, tools: [take] });
    try {
        const s = api.createSession();
        assert.equal((await run(s, "return await tools.t.take({ s: 'x' })")).result, 1);
        const before = await goMemory();
        const r = await run(s, `return await tools.t.take({ s: 'x'.repeat(${INPUT}) })`);
        const grown = (await goMemory()) - before;
        console.log(`${mode}, an input of ${INPUT} characters: the Go core's memory ${before} bytes before the call, grown by ${grown}`);
        assert.equal(r.result, INPUT, JSON.stringify(r.error));
        // Read from QuickJS in chunks and copied twice more on the way to
        // the page, it grew by 3.6 times the input (2.6 without a schema:
        // 104.3 MB, where one copy is 41.2 MB); then the schema's check
        // decoded a copy of its strings (2.06 times).
        assert.ok(grown < 1.5 * INPUT, `${mode}: the Go core's memory grew by ${grown} bytes for an input of ${INPUT} characters (${(grown / INPUT).toFixed(2)} times)`);
    } finally {
        api.dispose();
    }
};

/**
 * measure in each mode, given its factory and its Go core's memory.
 * @param {string} what
 * @param {(mode: string, factory: (config: any) => Promise<any>, goMemory: () => Promise<number>) => Promise<void>} measure
 */
function inBothModes(what, measure) {
    test(`in-thread: ${what}`, { timeout: 300_000 }, async () => {
        const first = goMemoryBytes().length;
        await measure("in-thread", thread.threadFactory, async () => goMemoryBytes()[first]);
    });
    test(`worker: ${what}`, { timeout: 300_000 }, () => measure("worker", worker.workerFactory, goMemoryOfWorker));
}

inBothModes("a program's input to a page tool without an input schema is in the Go core once", inputGrowth(false));
inBothModes("a program's input to a page tool is in the Go core once, its schema's check included", inputGrowth(true));

/**
 * A program's result of INPUT characters, three runs (a string: the text
 * the Go core reads from QuickJS is the run's result, which it then cuts to
 * maxResultChars).
 * @param {string} mode
 * @param {(config: any) => Promise<any>} factory
 * @param {() => Promise<number>} goMemory
 */
async function resultGrowth(mode, factory, goMemory) {
    const api = await factory({ wasmLocation: assetPath, memoryLimit: 128, timeout: 120_000, tools: [tool("t.small", () => 1)] });
    try {
        const s = api.createSession();
        assert.equal((await run(s, "return 'x'")).result, "x");
        const before = await goMemory();
        for (let i = 1; i <= 3; i++) {
            const r = await run(s, `return 'x'.repeat(${INPUT})`);
            const grown = (await goMemory()) - before;
            console.log(`${mode}, result ${i} of ${INPUT} characters: the Go core's memory ${before} bytes before the first run, grown by ${grown}`);
            assert.equal(typeof r.result, "string", JSON.stringify(r.error));
            // Read, made a string, then a json.RawMessage, it grew by 2.05
            // times the result (82.1 MB); one copy is 41.9 MB. The next
            // run's grew it as much again: the collector's goal was twice
            // the first result, live when it last ran.
            assert.ok(grown < 1.5 * INPUT, `${mode}: the Go core's memory grew by ${grown} bytes for ${i} results of ${INPUT} characters (${(grown / INPUT).toFixed(2)} times one)`);
        }
    } finally {
        api.dispose();
    }
}

inBothModes("a program's result is in the Go core once, the next run's in the same memory", resultGrowth);

const REPLACED = 6; // runs that hit the memory limit

/**
 * Each run that hits the memory limit leaves its QuickJS instance, which
 * the engine replaces. The instance's memory is the host's: the loader's
 * view of it (web/src/direct.mjs) kept it for the factory's life, and Go's
 * references to it until the Go core's next collection.
 * @param {string} mode
 * @param {(config: any) => Promise<any>} factory
 * @param {() => Promise<number>} liveMemories the QuickJS memories alive in the core's thread, once collected
 */
async function replacedInstances(mode, factory, liveMemories) {
    const api = await factory({ wasmLocation: assetPath, memoryLimit: 32, timeout: 120_000, tools: [tool("t.small", () => 1)] });
    try {
        const s = api.createSession();
        assert.equal((await run(s, "return await tools.t.small({})")).result, 1);
        const before = await liveMemories();
        for (let i = 0; i < REPLACED; i++) {
            const r = await run(s, "const a = []; for (;;) a.push('x'.repeat(1 << 20) + a.length)");
            assert.equal(r.error && r.error.code, "MEMORY_LIMIT", JSON.stringify(r.error));
        }
        assert.equal((await run(s, "return await tools.t.small({})")).result, 1);
        const alive = (await liveMemories()) - before;
        console.log(`${mode}, ${REPLACED} runs past the memory limit: ${alive} more QuickJS memories alive`);
        // At most the last one replaced, which may wait for the Go
        // core's next collection (its references are released by
        // finalizers, after the collection that finds them unreachable).
        assert.ok(alive <= 1, `${mode}: ${alive} more QuickJS memories alive after ${REPLACED} runs that hit the memory limit, each replacing its instance`);
    } finally {
        api.dispose();
    }
}

test("in-thread: a QuickJS instance a run outgrew is freed", { timeout: 300_000 }, () => replacedInstances("in-thread", thread.threadFactory, liveQuickJSMemories));
test("worker: a QuickJS instance a run outgrew is freed", { timeout: 300_000 }, () => replacedInstances("worker", worker.workerFactory, quickJSMemoriesOfWorker));

/**
 * A page tool's result of INPUT characters, taken by the program twice:
 * the Go core read the page's text, made a string of it and a copy of
 * that, then a C string's copy for QuickJS, and the next result grew the
 * core again before a collection (295 MB after one of 100 MB, 390 after
 * two, for the factory's life).
 * @param {string} mode
 * @param {(config: any) => Promise<any>} factory
 * @param {() => Promise<number>} goMemory
 */
async function toolResultGrowth(mode, factory, goMemory) {
    const api = await factory({ wasmLocation: assetPath, memoryLimit: 256, timeout: 120_000, tools: [tool("t.big", () => "x".repeat(INPUT)), tool("t.small", () => 1)] });
    try {
        const s = api.createSession();
        assert.equal((await run(s, "return await tools.t.small({})")).result, 1);
        const before = await goMemory();
        for (let i = 0; i < 2; i++) {
            const r = await run(s, "return (await tools.t.big({})).length");
            assert.equal(r.result, INPUT, JSON.stringify(r.error));
        }
        const grown = (await goMemory()) - before;
        console.log(`${mode}, two tool results of ${INPUT} characters: the Go core's memory ${before} bytes before the calls, grown by ${grown}`);
        assert.ok(grown < 1.5 * INPUT, `${mode}: the Go core's memory grew by ${grown} bytes for two results of ${INPUT} characters (${(grown / INPUT).toFixed(2)} times one)`);
    } finally {
        api.dispose();
    }
}

inBothModes("a page tool's result is in the Go core once, the next one in the same memory", toolResultGrowth);

const KEY = 5e6; // characters of a key in a tool's result
const MAPS = 20; // values under it that convert, each with its report

/**
 * @param {string} mode
 * @param {(config: any) => Promise<any>} factory
 * @param {() => Promise<number>} goMemory the byte length of the factory's Go core's memory
 */
async function reportGrowth(mode, factory, goMemory) {
    const key = "k".repeat(KEY);
    const result = () => ({ [key]: Array.from({ length: MAPS }, () => new Map([["a", 1]])) });
    const api = await factory({ wasmLocation: assetPath, memoryLimit: 16, timeout: 120_000, tools: [tool("t.keys", result), tool("t.small", () => "x".repeat(1000))] });
    try {
        const s = api.createSession();
        assert.equal((await run(s, "return (await tools.t.small({})).length")).result, 1000);
        const before = await goMemory();
        const r = await run(s, "const r = await tools.t.keys({}); return Object.keys(r)[0].length");
        const grown = (await goMemory()) - before;
        console.log(`${mode}, ${MAPS} reports under a key of ${KEY} characters: the Go core's memory ${before} bytes before the call, grown by ${grown}`);
        assert.equal(r.result, KEY, JSON.stringify(r.error));
        // Each report was the whole key, of which a log line keeps 2,000
        // bytes (the mark, 3 of them, included).
        const line = `tools.t.keys result.${key}[0]: a Map, converted to an object`;
        assert.equal(r.logs[0].message, `${line.slice(0, 1997)}…`);
        // The result is in it a few times over (3.4 times its key); the
        // reports were 40 times more.
        assert.ok(grown < 8 * KEY, `${mode}: the Go core's memory grew by ${grown} bytes for a result of ${KEY} characters and ${MAPS} reports`);
    } finally {
        api.dispose();
    }
}

inBothModes("a tool result's reports are cut to what a log line keeps before the Go core takes them in", reportGrowth);

/**
 * searchTools with a query of INPUT characters, of which the core reads
 * 1,000: it was written, read back and written again on the page, then
 * decoded whole by the core (or posted whole to the worker) before its cut;
 * given as text (the arguments' JSON, once or twice, or the query alone),
 * it still was after the object's query was cut.
 * @param {string} mode
 * @param {(config: any) => Promise<any>} factory
 * @param {() => Promise<number>} goMemory
 */
async function queryGrowth(mode, factory, goMemory) {
    const api = await factory({ wasmLocation: assetPath, timeout: 120_000, tools: [tool("orders.search", () => 1)] });
    try {
        const [searchTools] = api.createSession().getLlmTools();
        assert.equal((await searchTools.execute({ query: "orders" }))[0].name, "orders.search");
        const query = "orders " + "x".repeat(INPUT);
        for (const [form, args] of [
            ["an object", { query }],
            ["the arguments' JSON text", JSON.stringify({ query })],
            ["the arguments' JSON text encoded twice", JSON.stringify(JSON.stringify({ query }))],
            ["the query alone", query],
        ]) {
            const before = await goMemory();
            posted = 0;
            const hits = await searchTools.execute(args);
            const grown = (await goMemory()) - before;
            console.log(`${mode}, a search query of ${INPUT} characters in ${form}: the Go core's memory ${before} bytes before the search, grown by ${grown}`);
            assert.equal(hits[0].name, "orders.search", `${mode}, ${form}: ${JSON.stringify(hits).slice(0, 300)}`);
            assert.ok(grown < INPUT / 8, `${mode}, ${form}: the Go core's memory grew by ${grown} bytes for a query of ${INPUT} characters it reads 1,000 of`);
            assert.ok(posted <= 2000, `${mode}, ${form}: the page posted a query of ${posted} characters to the worker`);
        }
    } finally {
        api.dispose();
    }
}

inBothModes("a search's query is cut before the Go core takes it in", queryGrowth);

const DAYS = 1e5; // distinct days a program asks the local time of

/**
 * A program's local dates on DAYS distinct days, in a zone not UTC: each
 * new day asks the host's Intl for its offset (jsbridge.TimeZone), and each
 * ask makes new syscall/js string values (the zone, the style, the answer),
 * whose finalizers did not run while the run held the thread: 1e5 days
 * grew the Go core's memory by 20 MB after a run of 2e4 had grown it (1e6
 * days: 380 MB), for the factory's life; 4 MB now. What the core keeps of a
 * zone is bounded too (localzone.go maxZoneDays).
 * @param {string} mode
 * @param {(config: any) => Promise<any>} factory
 * @param {() => Promise<number>} goMemory
 */
async function localDaysGrowth(mode, factory, goMemory) {
    const api = await factory({ wasmLocation: assetPath, timeZone: "America/New_York", timeout: 120_000 });
    const days = (/** @type {number} */ n, /** @type {number} */ from) =>
        `let s = 0; for (let i = 0; i < ${n}; i++) s += new Date(${from} + i * 86400000).getHours(); return s`;
    try {
        const s = api.createSession();
        // 20,000 days first, more than the core keeps of a zone.
        const warm = await run(s, days(2e4, -4e12 + 432e5));
        assert.ok(warm.ok, JSON.stringify(warm.error));
        const before = await goMemory();
        const r = await run(s, days(DAYS, 432e5));
        const grown = (await goMemory()) - before;
        console.log(`${mode}, local dates on ${DAYS} distinct days: the Go core's memory ${before} bytes before the run, grown by ${grown}`);
        assert.ok(r.ok, JSON.stringify(r.error));
        // 1e5 noons since 1970 in New York: 7 in winter (EST), 8 in summer (EDT).
        assert.ok(r.result > 7 * DAYS && r.result < 8 * DAYS, String(r.result));
        assert.ok(grown < 8 << 20, `${mode}: the Go core's memory grew by ${grown} bytes for local dates on ${DAYS} distinct days`);
    } finally {
        api.dispose();
    }
}

inBothModes("local dates on many distinct days do not grow the Go core's memory for good", localDaysGrowth);
