// executeCode runs: per-run context and signal, abort, limits, the result's
// shape, truncation, instructions and dispose.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import { assetPath, indexURL, llmTools, loadFactory, run, sleep, tool, until, withFactory } from "./helpers.mjs";

let IoCodeModeFactory;
before(async () => {
    IoCodeModeFactory = await loadFactory();
});

describe("context and signal belong to one run", () => {
    let api;
    let session;
    const intercepted = [];
    before(async () => {
        api = await IoCodeModeFactory({
            wasmLocation: assetPath,
            interceptors: {
                onToolCall: async ({ callContext }) => {
                    intercepted.push(callContext);
                    await sleep(Math.random() * 5);
                    return { allowed: true };
                },
            },
            tools: [
                tool("ctx.echo", async (input, options) => {
                    assert.ok(options.signal instanceof AbortSignal);
                    await sleep(Math.random() * 20);
                    return { context: options.context, input };
                }),
            ],
        });
        session = api.createSession();
    });
    after(() => api.dispose());

    test("20 overlapping runs of one session: each tool sees its own run's context", async () => {
        const contexts = Array.from({ length: 20 }, (_, i) => ({ run: i, token: `t-${i}` }));
        const results = await Promise.all(
            contexts.map((context, i) =>
                run(
                    session,
                    `const a = await tools.ctx.echo({ i: ${i} });
                     const [b, c] = await Promise.all([tools.ctx.echo({ i: ${i} }), tool_call("ctx.echo", { i: ${i} })]);
                     return [a, b, c];`,
                    { context, signal: new AbortController().signal },
                ),
            ),
        );
        results.forEach((r, i) => {
            assert.equal(r.ok, true, JSON.stringify(r));
            for (const echo of r.result) {
                assert.deepEqual(echo.input, { i });
                assert.deepEqual(echo.context, contexts[i], `run ${i} saw another run's context`);
            }
        });
        assert.equal(intercepted.length, 60);
        for (const c of intercepted) assert.ok(contexts.includes(c), "onToolCall got the context object itself");
    });

    test("no context: tools see undefined, and the sandbox cannot forge one", async () => {
        const r = await run(session, "return await tools.ctx.echo({ context: 'forged' })");
        assert.equal(r.ok, true, JSON.stringify(r));
        assert.equal(r.result.context, undefined);
        assert.deepEqual(r.result.input, { context: "forged" });
    });

    test("the AI SDK's option names (abortSignal, experimental_context) work too", async () => {
        const context = { via: "experimental_context" };
        const r = await llmTools(session).executeCode.execute(
            { code: "return await tools.ctx.echo({})", explanation: "x" },
            { abortSignal: new AbortController().signal, experimental_context: context, toolCallId: "call-1", messages: [] },
        );
        assert.equal(r.ok, true, JSON.stringify(r));
        assert.deepEqual(r.result.context, context);
    });

    test("a bad options.signal is a TypeError", async () => {
        await assert.rejects(
            llmTools(session).executeCode.execute({ code: "return 1", explanation: "x" }, { signal: "nope" }),
            TypeError,
        );
    });
});

describe("abort", () => {
    let api;
    let session;
    const toolSignals = [];
    let started;
    before(async () => {
        api = await IoCodeModeFactory({
            wasmLocation: assetPath,
            tools: [
                tool("slow.wait", (input, { signal }) => {
                    toolSignals.push(signal);
                    started?.();
                    return new Promise((resolve) => setTimeout(() => resolve("late"), 60_000).unref());
                }),
            ],
        });
        session = api.createSession();
    });
    after(() => api.dispose());

    test("aborting rejects with the signal's reason and aborts in-flight tool signals", async () => {
        toolSignals.length = 0;
        const controller = new AbortController();
        const bothStarted = new Promise((resolve) => {
            let n = 0;
            started = () => ++n === 2 && resolve();
        });
        const p = run(session, "return await Promise.all([tools.slow.wait({}), tools.slow.wait({})])", { signal: controller.signal });
        await bothStarted;
        const reason = new Error("user pressed stop");
        reason.name = "AbortError";
        const t0 = Date.now();
        controller.abort(reason);
        await assert.rejects(p, (err) => err === reason);
        assert.ok(Date.now() - t0 < 10_000, "settled long before the slow tool (60 s) or the timeout (30 s)");
        assert.equal(toolSignals.length, 2);
        // The core cancels the run; the tools' signals follow.
        for (let i = 0; i < 50 && !toolSignals.every((s) => s.aborted); i++) await sleep(10);
        assert.ok(toolSignals.every((s) => s.aborted), "every in-flight tool call's signal is aborted");
        // The session still works.
        const r = await run(session, "return 'after abort'");
        assert.equal(r.result, "after abort");
    });

    test("abort() without a reason rejects with an AbortError", async () => {
        const controller = new AbortController();
        const p = run(session, "await tools.slow.wait({})", { signal: controller.signal });
        await sleep(50);
        controller.abort();
        await assert.rejects(p, (err) => err.name === "AbortError");
    });

    test("an already aborted signal rejects at once and runs nothing", async () => {
        toolSignals.length = 0;
        const reason = new Error("too late");
        await assert.rejects(run(session, "await tools.slow.wait({})", { signal: AbortSignal.abort(reason) }), (err) => err === reason);
        await sleep(20);
        assert.equal(toolSignals.length, 0);
    });

    // A run that never awaits holds the JavaScript thread (nothing can call
    // abort() meanwhile): there `timeout` is the bound. A run that awaits
    // between bursts of work is stopped by abort at once.
    test("a looping run that awaits tools is stopped by abort", async () => {
        const unregister = api.registerTool(tool("tick", () => sleep(1).then(() => 1)));
        try {
            const s = api.createSession();
            const controller = new AbortController();
            setTimeout(() => controller.abort(new Error("stop looping")), 100);
            const t0 = Date.now();
            await assert.rejects(run(s, "let n = 0; while (true) { n += await tools.tick({}); }", { signal: controller.signal }), /stop looping/);
            assert.ok(Date.now() - t0 < 10_000, "stopped long before the timeout (30 s)");
            assert.equal((await run(s, "return 1")).result, 1);
        } finally {
            unregister();
        }
    });
});

// One app-wide AbortSignal for every run is a legal use: a listener per run
// on it made Node print 'MaxListenersExceededWarning: Possible EventTarget
// memory leak detected. 11 abort listeners added to [AbortSignal]'.
test("50 runs on one signal: no process warning, one listener, and aborting it stops them all, in both modes", async () => {
    const factory = (await import(indexURL)).IoCodeModeFactory;
    const warnings = [];
    const onWarning = (w) => warnings.push(`${w.name}: ${w.message}`);
    process.on("warning", onWarning);
    try {
        for (const worker of [false, true]) {
            let started = 0;
            let firstStarted;
            // The engine runs 16 programs at once (its instances) and the
            // others wait: aborting must stop those that run and those
            // that wait alike.
            const firstStart = new Promise((resolve) => (firstStarted = resolve));
            const api = await factory({
                wasmLocation: assetPath,
                worker,
                tools: [
                    tool("slow.wait", () => {
                        if (++started === 1) firstStarted();
                        return new Promise((resolve) => setTimeout(() => resolve("late"), 60_000).unref());
                    }),
                    tool("quick", () => "ok"),
                ],
            });
            try {
                const session = api.createSession();
                const at = `worker: ${worker}`;
                // Runs that end by themselves leave no listener behind.
                const calm = new AbortController();
                const done = await Promise.all(Array.from({ length: 50 }, (_, i) => run(session, `return [${i}, await tools.quick({})]`, { signal: calm.signal })));
                assert.deepEqual(
                    done.map((r) => r.result),
                    Array.from({ length: 50 }, (_, i) => [i, "ok"]),
                    at,
                );
                assert.equal(getEventListeners(calm.signal, "abort").length, 0, `${at}: listeners left on a signal whose runs all ended`);
                const controller = new AbortController();
                const runs = Array.from({ length: 50 }, () => run(session, "await tools.slow.wait({}); return 'finished'", { signal: controller.signal }));
                assert.equal(getEventListeners(controller.signal, "abort").length, 1, `${at}: listeners on the signal of 50 runs`);
                await firstStart;
                const reason = new Error("stop them all");
                controller.abort(reason);
                const settled = await Promise.allSettled(runs);
                assert.deepEqual(
                    settled.map((s) => (s.status === "rejected" && s.reason === reason ? "aborted" : s.status)),
                    Array(50).fill("aborted"),
                    at,
                );
                assert.equal((await run(session, "return 'after'")).result, "after", at);
            } finally {
                api.dispose();
            }
        }
        // A warning is emitted on the next tick at the earliest.
        await new Promise((resolve) => setImmediate(resolve));
    } finally {
        process.off("warning", onWarning);
    }
    assert.deepEqual(warnings, []);
});

describe("limits", () => {
    // Node's default stack (this process has no --stack-size), like a page's
    // main thread: QuickJS must stop deep recursion itself, with a clean
    // error, before the host's native stack overflows.
    test("deep recursion ends with a clean stack overflow, also through host calls", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const session = api.createSession();
        for (const code of ["function f() { return f() + 1 } f()", "function f(d) { console.log(d); return f(d + 1) } f(0)"]) {
            const r = await run(session, code);
            assert.equal(r.ok, false, code);
            assert.equal(r.error.code, "RUNTIME", code);
            assert.match(r.error.message, /stack overflow/, code);
        }
        assert.equal((await run(session, "let d = 0; function f() { d++; f() } try { f() } catch (e) {} return d > 300")).result, true);
        // A getter of a tool's input that calls the tool again, forever.
        const nested = await run(session, "const o = { get x() { return tool_call('none.here', o) } }; try { await tool_call('none.here', o) } catch (e) { return e.name }");
        assert.equal(nested.result, "RangeError");
    });
    test("timeout stops a CPU loop; the next run works", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, timeout: 300 });
        const session = api.createSession();
        const t0 = Date.now();
        const r = await run(session, "let i = 0; while (true) { i++ }");
        const elapsed = Date.now() - t0;
        assert.equal(r.ok, false);
        assert.equal(r.error.code, "TIMEOUT");
        assert.ok(elapsed >= 250 && elapsed < 10_000, `${elapsed} ms`);
        assert.equal((await run(session, "return 'fine'")).result, "fine");
    });

    test("timeout counts time spent awaiting tools", async (t) => {
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            // Scaled so that a cold engine (a fresh worker's first calls
            // are slow until the tool path is compiled) still fits 2 naps.
            timeout: 1000,
            tools: [tool("nap", () => sleep(400).then(() => "ok"))],
        });
        const session = api.createSession();
        // A run first: a fresh factory's first run, under load, spent its
        // time before the program got to the first call.
        assert.equal((await run(session, "return 1")).result, 1);
        const r = await run(session, "for (let i = 0; i < 10; i++) await tools.nap({}); return 'done'");
        assert.equal(r.ok, false);
        assert.equal(r.error.code, "TIMEOUT");
        // Ten naps take 4 s: the run ended after a few of them. (How many
        // started depends on how loaded the machine is: at least one.)
        assert.ok(r.toolCalls.length >= 1 && r.toolCalls.length <= 4, JSON.stringify(r.toolCalls));
    });

    test("a timeout while the program awaited says what for: a tool, or the host's decision (onToolCall)", async (t) => {
        // The timeout's words alone read as the program's own loop.
        const hold = (_input, { signal }) => new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            timeout: 800,
            tools: [tool("slow.wait", hold), tool("pay.send", hold)],
            interceptors: { onToolCall: ({ tool }) => (tool.name === "pay.send" ? new Promise(() => {}) : { allowed: true }) },
        });
        const session = api.createSession();
        // A run first: each row must get to its calls within 800 ms, which a
        // fresh factory's first run under load may spend before them.
        assert.equal((await run(session, "return 1")).result, 1);
        const plain = "the program did not finish within 800ms (config.timeout: 800, in milliseconds; 800 seconds would be 800000)";
        for (const [code, want] of [
            ["const a = 1;\nreturn await tools.slow.wait({ a })", `${plain}; it was waiting for the result of tool slow.wait (called at line 2)`],
            ["return await tools.pay.send({ to: 'x' })", `${plain}; it was waiting for the host's decision (onToolCall) on its call of tool pay.send (called at line 1)`],
            ["await Promise.all([tools.slow.wait({}), tools.slow.wait({}), tools.pay.send({})])", `${plain}; it was waiting for the result of tool slow.wait, and for 2 more tool calls`],
            ["tools.slow.wait({}); for (;;) {}", plain],
            ["await new Promise((r) => setTimeout(r, 5000))", plain],
        ]) {
            const r = await run(session, code);
            assert.deepEqual(r.error, { name: "TimeoutError", code: "TIMEOUT", message: want }, code);
        }
    });

    test("a timeout while the page converts a tool's large result says the tool had answered, not that the run waited for it", async (t) => {
        // The tool answers at once; converting its value outlasts the
        // run's time: 2 MB of string, then a getter that holds the page's
        // thread until the deadline has surely passed (the run started
        // before the tool did). The core heard of the 2 MB as the page
        // converted them (call.mjs Answering); before, the timeout said
        // "it was waiting for the result of tool big.get".
        // The program must reach the tool before its deadline: with 300 ms
        // a fresh factory's first run under load (~25 on 2 cores) did not,
        // 2 of 24 times, and ended with the plain timeout. So a run first,
        // and 2 s; the getter holds until 2.1 s after the program's own
        // start (t0, later than its clock's), not after the call.
        const timeout = 2000;
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            timeout,
            tools: [
                tool("big.get", ({ t0 }) => {
                    const until = t0 + timeout + 100;
                    return {
                        text: "x".repeat(2 << 20),
                        get more() {
                            while (Date.now() < until);
                            return 1;
                        },
                    };
                }),
            ],
        });
        const session = api.createSession();
        assert.equal((await run(session, "return 1")).result, 1);
        const r = await run(session, "const r = await tools.big.get({ t0: Date.now() });\nreturn r.text.length");
        assert.equal(r.error && r.error.code, "TIMEOUT", JSON.stringify(r));
        assert.match(
            r.error.message,
            /^the program did not finish within 2s; tool big\.get \(called at line 1\) had answered, and its result( was being converted to JSON, 2 MB of it so far|, 2 MB of JSON, was being taken in) \(ask it for less, e\.g\. a page or a filter, if its input allows\)$/,
        );
    });

    // Filling 32 MB with small objects is large work (the collector walks
    // the heap again as it nears the limit): at load 19 on 2 cores it took
    // the whole default 30 s timeout. The timeout is the work's, not tested.
    test("memoryLimit stops a memory bomb; the page survives and the next run works", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, memoryLimit: 32, timeout: 300_000 });
        const session = api.createSession();
        const r = await run(session, "const a = []; while (true) a.push('x'.repeat(1 << 20) + a.length);");
        assert.equal(r.ok, false);
        assert.equal(r.error.code, "MEMORY_LIMIT", JSON.stringify(r.error));
        const r2 = await run(session, "const a = []; for (let i = 0; i < 1000; i++) a.push({ i }); return a.length");
        assert.equal(r2.result, 1000);
        // A bomb of many small objects too.
        const r3 = await run(session, "const a = []; while (true) a.push({ n: a.length, s: 'y' + a.length });");
        assert.equal(r3.error.code, "MEMORY_LIMIT", JSON.stringify(r3.error));
        assert.equal((await run(session, "return 2 + 2")).result, 4);
    });

    test("maxToolCalls ends the run with TOOL_LIMIT", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, maxToolCalls: 3, tools: [tool("tick", () => 1)] });
        const session = api.createSession();
        const r = await run(session, "let n = 0; for (let i = 0; i < 10; i++) n += await tools.tick({}); return n");
        assert.equal(r.ok, false);
        assert.equal(r.error.code, "TOOL_LIMIT");
        assert.equal(r.toolCalls.filter((c) => c.ok).length, 3);
        assert.equal((await run(session, "return await tools.tick({})")).result, 1);
    });

    test("maxResultChars truncates the result with a visible marker", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, maxResultChars: 1000 });
        const session = api.createSession();
        const r = await run(session, "return 'x'.repeat(50000)");
        assert.equal(r.ok, true);
        const text = JSON.stringify(r.result);
        assert.ok(text.length <= 1000, `the result is ${text.length} characters`);
        assert.match(r.result, /^x+… \[\d+ more characters\]$/);
        assert.ok(r.logs.some((l) => l.level === "warn" && /over the 1000 budget/.test(l.message)), "a warn log says so");
        const small = await run(session, "return 'x'.repeat(100)");
        assert.equal(small.result, "x".repeat(100), "a result within budget is untouched");
        const logs = await run(session, "for (let i = 0; i < 1000; i++) console.log('line ' + i + ' ' + 'y'.repeat(50)); return 1");
        const logText = logs.logs.map((l) => l.message).join("\n");
        assert.ok(logText.length <= 1200, `logs are ${logText.length} characters`);
        assert.match(logText, /dropped|truncated|…/i, "dropped logs are marked");
    });
});

describe("the result", () => {
    let api;
    let session;
    before(async () => {
        api = await IoCodeModeFactory({ wasmLocation: assetPath, tools: [tool("num.double", (i) => i.n * 2), tool("num.fail", () => { throw new Error("nope") })] });
        session = api.createSession();
    });
    after(() => api.dispose());

    test("success: ok, result, logs, toolCalls, durationMs", async () => {
        const r = await run(
            session,
            `console.log("hello", { a: 1 }, [1, 2]);
             console.info("info"); console.warn("warn"); console.error("error"); console.debug("debug");
             const d = await tools.num.double({ n: 21 });
             try { await tools.num.fail({}) } catch {}
             return { d };`,
        );
        assert.deepEqual(Object.keys(r).sort(), ["durationMs", "logs", "ok", "result", "toolCalls"]);
        assert.equal(r.ok, true);
        assert.deepEqual(r.result, { d: 42 });
        assert.deepEqual(r.logs, [
            { level: "log", message: 'hello {"a":1} [1,2]' },
            { level: "info", message: "info" },
            { level: "warn", message: "warn" },
            { level: "error", message: "error" },
            { level: "debug", message: "debug" },
        ]);
        assert.equal(r.toolCalls.length, 2);
        assert.deepEqual(Object.keys(r.toolCalls[0]).sort(), ["allowed", "durationMs", "name", "ok"]);
        assert.deepEqual([r.toolCalls[0].name, r.toolCalls[0].allowed, r.toolCalls[0].ok], ["num.double", true, true]);
        assert.deepEqual([r.toolCalls[1].name, r.toolCalls[1].allowed, r.toolCalls[1].ok], ["num.fail", true, false]);
        assert.equal(typeof r.toolCalls[1].reason, "string");
        assert.equal(typeof r.durationMs, "number");
        assert.ok(r.durationMs >= 0);
        assert.deepEqual(JSON.parse(JSON.stringify(r)), r, "the result is JSON data");
    });

    test("return undefined / null / primitives", async () => {
        assert.equal("result" in (await run(session, "return undefined")), false);
        assert.equal((await run(session, "return null")).result, null);
        assert.equal((await run(session, "return 'a'")).result, "a");
        assert.equal((await run(session, "return 1.5")).result, 1.5);
        assert.equal((await run(session, "1 + 1")).ok, true);
    });

    test("SYNTAX errors point into the model's code", async () => {
        const r = await run(session, "const a = 1;\nconst b = ;\nreturn a");
        assert.equal(r.ok, false);
        assert.deepEqual(Object.keys(r).sort(), ["durationMs", "error", "logs", "ok", "toolCalls"]);
        assert.equal(r.error.code, "SYNTAX");
        assert.equal(r.error.name, "SyntaxError");
        assert.equal(r.error.line, 2);
        assert.equal(typeof r.error.column, "number");
    });

    test("RUNTIME errors carry name, message, line and column", async () => {
        const r = await run(session, "const x = 1;\n\n  null.boom;");
        assert.equal(r.ok, false);
        assert.equal(r.error.code, "RUNTIME");
        assert.equal(r.error.name, "TypeError");
        assert.equal(r.error.line, 3);
        assert.ok(r.error.column >= 1);
        const thrown = await run(session, "console.log('before');\nthrow new RangeError('out of range');");
        assert.deepEqual([thrown.error.name, thrown.error.message, thrown.error.code, thrown.error.line], ["RangeError", "out of range", "RUNTIME", 2]);
        assert.deepEqual(thrown.logs, [{ level: "log", message: "before" }], "logs before the error are kept");
    });

    test("RESULT_NOT_SERIALIZABLE for a circular result", async () => {
        const r = await run(session, "const a = {}; a.self = a; return a;");
        assert.equal(r.ok, false);
        assert.equal(r.error.code, "RESULT_NOT_SERIALIZABLE");
    });

    test("sandbox code sees no host objects", async () => {
        // require and fetch exist only to say that they do not.
        const r = await run(
            session,
            "return [typeof process, typeof document, typeof WebAssembly, typeof Go, typeof fs, " +
                "...['require', 'fetch'].map((k) => { try { globalThis[k]('x'); return 'reached' } catch (e) { return /is not available in this sandbox/.test(e.message) } })]",
        );
        assert.deepEqual(r.result, [...Array(5).fill("undefined"), true, true]);
    });

    test("searchTools: {name, namespace, description, signature}, best first", async () => {
        const hits = await llmTools(session).searchTools.execute({ query: "double a number", limit: 1 });
        assert.equal(hits.length, 1);
        assert.equal(hits[0].name, "num.double");
        assert.equal(hits[0].namespace, "num");
        assert.deepEqual(Object.keys(hits[0]).sort(), ["description", "name", "namespace", "signature"]);
        assert.match(hits[0].signature, /double/);
    });

    test("bad executeCode arguments resolve as INVALID_INPUT (more in inputs.test.mjs)", async () => {
        const { executeCode } = llmTools(session);
        const r = await executeCode.execute({ code: { js: "return 1" }, explanation: "x" });
        assert.equal(r.ok, false);
        assert.equal(r.error.code, "INVALID_INPUT");
    });
});

describe("instructions and the LLM tools", () => {
    test("getSystemInstruction and overwriteSystemInstruction", async (t) => {
        let seenCurrent;
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            overwriteSystemInstruction: (current) => {
                seenCurrent = current;
                return `${current}\n\nAlways answer in French.`;
            },
            tools: [tool("weather.today", () => "sunny", { description: "Today's weather." })],
        });
        const session = api.createSession();
        const text = session.getSystemInstruction();
        assert.equal(typeof text, "string");
        assert.ok(text.endsWith("Always answer in French."));
        assert.ok(text.startsWith(seenCurrent));
        assert.match(seenCurrent, /executeCode/);
        assert.match(seenCurrent, /weather/);
        const [searchTools, executeCode] = session.getLlmTools();
        assert.equal(searchTools.name, "searchTools");
        assert.equal(executeCode.name, "executeCode");
        // One instruction: the description states the contract; the rules and the catalog are the system instruction's.
        assert.doesNotMatch(executeCode.description, /Always answer in French\.|weather/);
        assert.match(executeCode.description, /JavaScript or TypeScript/);
        assert.equal(typeof searchTools.description, "string");
        assert.deepEqual(executeCode.inputSchema.required.sort(), ["code", "explanation"]);
        assert.equal(executeCode.inputSchema.properties.code.type, "string");
        // {} and {namespace} list tools: searchTools requires no argument.
        assert.equal("required" in searchTools.inputSchema, false);
        // Plain JSON Schema for JSON.stringify, whatever markers the SDKs need.
        const json = JSON.parse(JSON.stringify(executeCode.inputSchema));
        assert.deepEqual(Object.keys(json).sort(), Object.keys(executeCode.inputSchema).sort());
        assert.ok(!("jsonSchema" in json) && !("validate" in json));
        assert.deepEqual({ ...executeCode.inputSchema }, json);
    });

    // A broken hook leaves the built-in instruction (the model is never
    // without one), says so once per hook with console.error, and a
    // rejected promise it returns or throws is handled: an async hook that
    // failed ended the Node process (unhandled rejection), in both modes,
    // and any other broken answer was dropped without a word.
    test("overwriteSystemInstruction that is async, throws or returns no string: the built-in instruction, one console.error", async (t) => {
        const base = (await withFactory(t, { wasmLocation: assetPath })).createSession().getSystemInstruction();
        const rows = [
            ["async", async (s) => `${s} and my rules`, /returned a promise; it must return the instruction synchronously, a string/],
            ["async, rejects", async () => { throw new Error("policy service down"); }, /returned a promise; it must return/],
            ["throws", () => { throw new RangeError("no rules"); }, /threw \(RangeError: no rules\); it must return the instruction, a string/],
            ["throws a rejected promise", () => { throw Promise.reject(new Error("late")); }, /threw a Promise, not an Error \(a missing await before throw\?\)\./],
            ["returns a number", () => 5, /returned the number 5; it must return the instruction, a string/],
            ["returns undefined (no return)", (s) => { void s; }, /returned undefined; it must return/],
        ];
        for (const [name, overwrite, message] of rows) {
            const errors = [];
            t.mock.method(console, "error", (...a) => errors.push(a.join(" ")));
            const api = await withFactory(t, { wasmLocation: assetPath, overwriteSystemInstruction: overwrite });
            const session = api.createSession();
            assert.equal(session.getSystemInstruction(), base, name);
            assert.equal(session.getSystemInstruction(), base, name);
            await until(() => errors.length > 0, `${name}: the rejection reported`);
            assert.equal(errors.length, 1, `${name}: ${JSON.stringify(errors)}`);
            assert.match(errors[0], /^Code Mode: config\.overwriteSystemInstruction /, name);
            assert.match(errors[0], message, name);
            assert.match(errors[0], /The built-in instruction is used instead\.$/, name);
            console.error.mock.restore();
        }
    });

    test("the default instructions are the identity of overwriteSystemInstruction", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const api2 = await withFactory(t, { wasmLocation: assetPath, overwriteSystemInstruction: (s) => s });
        assert.equal(api.createSession().getSystemInstruction(), api2.createSession().getSystemInstruction());
    });
});

describe("dispose", () => {
    test("after api.dispose(), every call fails with a clear error", async () => {
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, tools: [tool("a", () => 1)] });
        const session = api.createSession();
        const { executeCode, searchTools } = llmTools(session);
        const unregister = api.registerTool(tool("b", () => 2));
        api.dispose();
        api.dispose(); // idempotent
        const disposed = /disposed/;
        assert.throws(() => api.registerTool(tool("c", () => 3)), disposed);
        assert.throws(() => api.registerTools([]), disposed);
        assert.throws(() => api.listTools(), disposed);
        assert.throws(() => api.createSession(), disposed);
        assert.throws(() => session.getLlmTools(), disposed);
        assert.throws(() => session.getSystemInstruction(), disposed);
        await assert.rejects(executeCode.execute({ code: "return 1", explanation: "x" }), disposed);
        await assert.rejects(searchTools.execute({ query: "a" }), disposed);
        unregister(); // a no-op, not a crash
        session.dispose();
    });

    test("after session.dispose(), that session's calls fail; others keep working", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath });
        const a = api.createSession();
        const b = api.createSession();
        const { executeCode } = llmTools(a);
        a.dispose();
        await assert.rejects(executeCode.execute({ code: "return 1", explanation: "x" }), /disposed|closed/);
        assert.throws(() => a.getLlmTools(), /disposed/);
        assert.equal((await run(b, "return 'b'")).result, "b");
    });

    test("disposing during a run settles the run", async () => {
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, tools: [tool("wait", () => sleep(200).then(() => 1))] });
        const session = api.createSession();
        const p = run(session, "return await tools.wait({})");
        await sleep(50);
        api.dispose();
        const outcome = await Promise.race([
            p.then((r) => ({ settled: "resolved", r }), (e) => ({ settled: "rejected", e })),
            sleep(10_000).then(() => ({ settled: "no" })),
        ]);
        assert.notEqual(outcome.settled, "no", "the run's promise settled");
    });

    for (const [which, worker] of [["session", false], ["factory", false], ["session", true], ["factory", true]]) {
        test(`${which}.dispose() mid-run (worker: ${worker}): execute rejects, the tool's signal aborts, no tool or interceptor is called afterwards`, async (t) => {
            const calls = [];
            const signals = [];
            const intercepted = [];
            const api = await withFactory(t, {
                wasmLocation: assetPath,
                worker,
                interceptors: { onToolCall: ({ tool, input }) => (intercepted.push(tool.name), { allowed: true, input }) },
                tools: [
                    tool("mark", (input) => (calls.push(input.n), true)),
                    tool("tick", (input) => (calls.push(input.n), sleep(20))),
                    tool("hang", (input, { signal }) => {
                        calls.push("hang");
                        signals.push(signal);
                        return new Promise((res, rej) => signal.addEventListener("abort", () => rej(signal.reason)));
                    }),
                ],
            });
            const session = api.createSession();
            const waiting = run(session, "await tools.hang({}); await tools.mark({ n: 'after' })").then(() => "resolved", (e) => e.message);
            // A run that awaits a slow tool in a loop: after dispose() its
            // next call must not reach the page.
            const looping = run(session, "for (let i = 0; ; i++) await tools.tick({ n: 'loop' + i })").then(() => "resolved", (e) => e.message);
            while (!calls.includes("hang") || !calls.includes("loop2")) await sleep(5);
            (which === "session" ? session : api).dispose();
            const results = await Promise.all([waiting, looping]);
            for (const m of results) assert.match(m, /disposed/);
            assert.equal(signals[0].aborted, true, "the tool's signal aborted");
            const seen = [calls.length, intercepted.length];
            await sleep(300);
            assert.deepEqual([calls.length, intercepted.length], seen, "nothing called after dispose()");
            assert.ok(!calls.includes("after"));
        });
    }

    // On the calling thread the core calls a tool before execute() has set
    // up its run: a tool that disposed at once (before any await) ended
    // the run with "this session's factory has been disposed." or the
    // core's "codemode: closed", and no run-end event.
    for (const [which, worker] of [["session", false], ["factory", false], ["session", true], ["factory", true]]) {
        test(`a tool that disposes its ${which} before any await (worker: ${worker}): the run rejects as dispose() says, with its run-end event`, async (t) => {
            let session;
            const api = await withFactory(t, {
                wasmLocation: assetPath,
                worker,
                tools: [tool("end", () => ((which === "session" ? session : api).dispose(), "ended"))],
            });
            session = api.createSession();
            await api.ready();
            const events = [];
            const err = await run(session, "return await tools.end({})", { onEvent: (e) => events.push(e.type) }).then(() => null, (e) => e);
            assert.equal(err && err.name, "AbortError");
            assert.equal(err.message, `Code Mode: the ${which === "session" ? "session" : "instance"} was disposed while this run was in flight.`);
            assert.deepEqual(events, ["run-start", "tool-call", "tool-result", "run-end"]);
        });
    }

    for (const worker of [false, true]) test(`onEvent (factory and per run, worker: ${worker}): run start and end, tool calls with the decision, console lines`, async (t) => {
        const events = [];
        const perRun = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            worker,
            onEvent: (e) => events.push(e),
            interceptors: { onToolCall: ({ tool, input }) => (tool.name === "no" ? { allowed: false, reason: "not this one" } : { allowed: true, input }) },
            tools: [tool("yes", (i) => i.v * 2), tool("no", () => 1)],
        });
        const r = await run(api.createSession(), "console.log('hi'); const a = await tools.yes({ v: 21 }); try { await tools.no({}) } catch {} return a", {
            onEvent: (e) => perRun.push(e.type),
        });
        assert.equal(r.result, 42);
        const types = events.map((e) => e.type);
        assert.deepEqual(types, ["run-start", "console", "tool-call", "tool-result", "tool-call", "run-end"]);
        assert.deepEqual(perRun, types);
        const [start, log, call, result, denied, end] = events;
        assert.match(start.code, /tools\.yes/);
        assert.deepEqual([call.name, call.input, call.decision], ["yes", { v: 21 }, { allowed: true }]);
        assert.deepEqual([result.name, result.ok, result.result, typeof result.durationMs], ["yes", true, 42, "number"]);
        assert.deepEqual([denied.name, denied.decision], ["no", { allowed: false, reason: "not this one" }]);
        assert.deepEqual([log.level, log.message], ["log", "hi"]);
        assert.deepEqual([end.ok, typeof end.durationMs], [true, "number"]);
        assert.ok(events.every((e) => e.runId === start.runId));
    });

    // USAGE, "Live events": a call the engine ends before its tool runs has
    // its events as it happens, in order with the console lines, the same in
    // both modes: a tool-call whose decision says why (the toolCalls
    // record's reason), or for an input the schema refused, a tool-call
    // allowed and its tool-result. An unknown name and a hidden one read the
    // same. Before, only toolCalls had them, once the run ended.
    for (const worker of [false, true]) test(`onEvent (worker: ${worker}): calls the engine ends before their tool runs (unknown, hidden, schema, interceptor failed or denied, limit) are reported as they happen`, async (t) => {
        const events = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            worker,
            maxToolCalls: 7,
            toolFilter: (d) => d.name !== "secret",
            onEvent: (e) => events.push(e),
            interceptors: {
                onToolCall: ({ tool }) =>
                    tool.name === "boom" ? Promise.reject(new Error("policy down")) : tool.name === "no" ? { allowed: false, reason: "r" } : tool.name === "mute" ? { allowed: false } : { allowed: true },
            },
            tools: [tool("strict", () => 1, { inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } }), tool("boom", () => 1), tool("no", () => 1), tool("mute", () => 1), tool("ok", () => 1), tool("secret", () => 1)],
        });
        const r = await run(api.createSession(), "for (const n of ['nope', 'secret', 'strict', 'boom', 'no', 'mute', 'ok', 'ok']) { console.log(n); try { await tool_call(n, { n: 'x' }) } catch (e) { console.log(e.name) } } return 1");
        assert.equal(r.error?.code, "TOOL_LIMIT", JSON.stringify(r.error));
        const records = r.toolCalls.map((c) => [c.name, c.allowed, c.ok, c.reason]);
        assert.deepEqual(records.map((c) => c.slice(0, 3)), [["nope", false, false], ["secret", false, false], ["strict", true, false], ["boom", false, false], ["no", false, false], ["mute", false, false], ["ok", true, true], ["ok", false, false]]);
        const line = (e) =>
            e.type === "tool-call" ? `call ${e.name} ${e.decision.allowed}${e.decision.allowed ? "" : ` ${e.decision.reason}`}` : e.type === "tool-result" ? `result ${e.name} ${e.ok}${e.ok ? "" : ` ${e.error}`}` : e.type === "console" ? e.message : e.type;
        const schemaError = "strict: invalid input: /n: type: got string, want number";
        // The program may go on a little after the limit (to the sandbox's
        // next interrupt poll): compared up to the limit's event.
        const lines = events.map(line);
        assert.deepEqual(lines.slice(0, lines.indexOf("call ok false tool call limit reached") + 1), [
            "run-start",
            "nope", "call nope false unknown tool", "ToolError",
            "secret", "call secret false unknown tool", "ToolError",
            "strict", "call strict true", `result strict false ${schemaError}`, "ValidationError",
            "boom", `call boom false ${r.toolCalls[3].reason}`, "ToolError",
            "no", "call no false r", "ToolError",
            "mute", "call mute false denied by onToolCall", "ToolError",
            "ok", "call ok true", "result ok true", "ok",
            "call ok false tool call limit reached",
        ]);
        assert.equal(events.at(-1).type, "run-end");
        // Each refusal's reason is its record's.
        for (const [name, , , reason] of records.filter((c) => !c[1])) assert.ok(events.some((e) => e.type === "tool-call" && e.name === name && e.decision.reason === reason), name);
        // An unknown name and a hidden one: the same event but for the name.
        const strip = (e) => ({ ...e, name: "", callId: 0 });
        const [nope, secret] = events.filter((e) => e.type === "tool-call" && (e.name === "nope" || e.name === "secret"));
        assert.deepEqual(strip(secret), strip(nope));
        // callIds tell the calls apart, a tool-result shares its call's.
        const calls = events.filter((e) => e.type === "tool-call");
        assert.equal(new Set(calls.map((e) => e.callId)).size, calls.length);
        const strict = calls.find((e) => e.name === "strict");
        const result = events.find((e) => e.type === "tool-result" && e.name === "strict");
        assert.deepEqual([result.callId, strict.input, typeof result.durationMs], [strict.callId, { n: "x" }, "number"]);
        assert.deepEqual(nope.input, { n: "x" });
    });

    // A name past any tool's length reads cut, with how much was cut: the
    // sandbox cuts it to 129 characters before it leaves, and the count
    // said "… [1 more characters]" whatever the program sent.
    for (const worker of [false, true]) test(`onEvent (worker: ${worker}): a 100,000-character tool name reads cut, counting what the program sent`, async (t) => {
        const events = [];
        const api = await withFactory(t, { wasmLocation: assetPath, worker, onEvent: (e) => e.type === "tool-call" && events.push(e), tools: [tool("t.x", () => 1)] });
        const r = await run(api.createSession(), "await tool_call('x'.repeat(100000), {})");
        const shown = `${"x".repeat(128)}… [99872 more characters]`;
        assert.equal(r.error?.message, `unknown tool "${shown}"; use tool_search to find tools`);
        assert.deepEqual(r.toolCalls.map((c) => [c.name, c.reason]), [[shown, "unknown tool"]]);
        assert.deepEqual(events.map((e) => [e.name, e.decision]), [[shown, { allowed: false, reason: "unknown tool" }]]);
    });

    // A tool's error reaches its tool-result as the program and the call's
    // toolCalls record get it: its first 1,000 characters (code points, as
    // the core counts them) and how many more. A message of 90 million
    // characters reached onEvent whole. Likewise the reason a run ended
    // with, for a call it left in flight.
    for (const worker of [false, true]) test(`onEvent (worker: ${worker}): a tool's long error reads in its tool-result as the program gets it`, async (t) => {
        const messages = ["x".repeat(1000), "x".repeat(1001), "😀".repeat(1001), "😀".repeat(999) + "\ud800".repeat(5), "y".repeat(5e6)];
        const errors = [];
        let hanging = 0;
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            worker,
            onEvent: (e) => e.type === "tool-result" && errors.push(e.error),
            tools: [
                tool("t.fail", ({ i }) => {
                    throw new Error(messages[i]);
                }),
                tool("t.hang", (i, { signal }) => (hanging++, new Promise((res, rej) => signal.addEventListener("abort", () => rej(signal.reason))))),
            ],
        });
        const session = api.createSession();
        const r = await run(session, `const out = []; for (let i = 0; i < ${messages.length}; i++) { try { await tools.t.fail({ i }) } catch (e) { out.push(e.message) } } return out`);
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.deepEqual(r.toolCalls.map((c) => c.reason), r.result);
        // The program's lone surrogate is U+FFFD.
        assert.deepEqual(errors, [...r.result.slice(0, 3), r.result[3].replace("\ufffd", "\ud800"), r.result[4]]);
        assert.deepEqual(errors.slice(1), [
            `${"x".repeat(1000)}… [1 more character]`,
            `${"😀".repeat(1000)}… [1 more character]`,
            `${"😀".repeat(999)}\ud800… [4 more characters]`,
            `${"y".repeat(1000)}… [4999000 more characters]`,
        ]);
        errors.length = 0;
        const c = new AbortController();
        const aborted = run(session, "await tools.t.hang({})", { signal: c.signal }).catch((e) => e);
        await until(() => hanging === 1, "the call");
        c.abort(new Error("z".repeat(5e6)));
        assert.equal((await aborted).message.length, 5e6);
        await until(() => errors.length === 1, "its tool-result");
        assert.equal(errors[0], `the run ended before the tool finished (${"z".repeat(960)}… [${5e6 + 41 - 1000} more characters]`);
    });

    // A schema library's own check (a Zod refinement) runs on the page in
    // both modes: its refusal is reported as the core's JSON Schema refusal
    // is, with the error the program gets. It had no event at all.
    for (const worker of [false, true]) test(`onEvent (worker: ${worker}): an input a Zod refinement refuses, or whose check throws, has a tool-call allowed and a failed tool-result`, async (t) => {
        const { z } = await import("zod");
        const events = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            worker,
            onEvent: (e) => (e.type === "tool-call" || e.type === "tool-result") && events.push(e),
            tools: [
                tool("refined", () => 1, { inputSchema: z.object({ n: z.number() }).refine((o) => o.n > 0, "n must be positive") }),
                tool("throws", () => 1, { inputSchema: z.object({ n: z.number() }).refine(() => { throw new Error("checker down"); }) }),
            ],
        });
        const r = await run(api.createSession(), "const out = []; for (const n of ['refined', 'throws']) { try { await tool_call(n, { n: -1 }) } catch (e) { out.push(e.message) } } return out");
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.equal(r.result.length, 2);
        assert.deepEqual(
            events.map((e) => [e.type, e.name, e.type === "tool-call" ? e.decision.allowed : e.ok, e.type === "tool-call" ? e.input : e.error]),
            [["tool-call", "refined", true, { n: -1 }], ["tool-result", "refined", false, r.result[0]], ["tool-call", "throws", true, { n: -1 }], ["tool-result", "throws", false, r.result[1]]],
        );
        assert.match(r.result[0], /^refined: input rejected by its schema: .*n must be positive/);
        assert.match(r.result[1], /^throws: the input schema's validation failed: checker down$/);
    });

    // Its tool-result's durationMs is the check's time, as a JSON Schema
    // refusal's says how long the core took: it said 0 whatever the check
    // took. The checks below spin 30 ms: a lower bound, which a loaded
    // machine only raises; the record (from the program's call) covers it.
    for (const worker of [false, true]) test(`onEvent (worker: ${worker}): a Zod refusal's tool-result durationMs counts its check`, async (t) => {
        const { z } = await import("zod");
        const spin = () => { const t0 = Date.now(); while (Date.now() - t0 < 30); };
        const results = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            worker,
            onEvent: (e) => e.type === "tool-result" && results.push(e),
            tools: [
                tool("slow", () => 1, { inputSchema: z.object({ n: z.number() }).refine(() => (spin(), false), "no") }),
                tool("slowthrow", () => 1, { inputSchema: z.object({ n: z.number() }).refine(() => { spin(); throw new Error("checker down"); }) }),
            ],
        });
        const r = await run(api.createSession(), "for (const n of ['slow', 'slowthrow']) { try { await tool_call(n, { n: 1 }) } catch (e) {} } return 1");
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.deepEqual(results.map((e) => [e.name, e.ok]), [["slow", false], ["slowthrow", false]]);
        for (const [i, e] of results.entries()) {
            assert.ok(e.durationMs >= 25, `${e.name}: durationMs ${e.durationMs}`);
            assert.ok(e.durationMs <= r.toolCalls[i].durationMs + 1, `${e.name}: durationMs ${e.durationMs}, its record's ${r.toolCalls[i].durationMs}`);
        }
    });

    for (const worker of [false, true]) test(`onEvent (worker: ${worker}): an observer that throws or rejects changes nothing of the run and is reported, never an unhandled rejection`, async (t) => {
        // An async onEvent that rejected left each event's promise
        // unhandled: Node's default ends the process on the first one.
        const unhandled = [];
        const onUnhandled = (err) => unhandled.push(String(err));
        process.on("unhandledRejection", onUnhandled);
        t.after(() => process.off("unhandledRejection", onUnhandled));
        const errors = [];
        t.mock.method(console, "error", (...a) => errors.push(a.map(String).join(" ")));
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            worker,
            onEvent: (e) => {
                if (e.type === "tool-call") throw new Error("sync observer broke");
            },
            tools: [tool("yes", (i) => i.v * 2)],
        });
        const r = await run(api.createSession(), "console.log('hi'); return await tools.yes({ v: 21 })", {
            onEvent: async (e) => {
                throw new Error(`async observer broke at ${e.type}`);
            },
        });
        assert.equal(r.result, 42);
        await until(() => errors.some((e) => /async observer broke at run-end/.test(e)), "run-end's rejection reported");
        // A tick more for rejections to be reported as unhandled.
        await sleep(20);
        assert.deepEqual(unhandled, []);
        assert.deepEqual(errors.filter((e) => e === "Code Mode: onEvent threw: Error: sync observer broke"), ["Code Mode: onEvent threw: Error: sync observer broke"], JSON.stringify(errors));
        const rejected = errors.filter((e) => /async observer broke/.test(e));
        assert.deepEqual(rejected.map((e) => e.match(/broke at (\S+)/)[1]), ["run-start", "console", "tool-call", "tool-result", "run-end"]);
        assert.ok(rejected.every((e) => e.startsWith("Code Mode: onEvent rejected:")), JSON.stringify(rejected));
    });

    for (const worker of [false, true]) test(`onEvent (worker: ${worker}): console lines arrive as they are logged, before the run's next tool call returns; warnings added at the end come at the end`, async (t) => {
        const events = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            worker,
            maxResultChars: 1000,
            onEvent: (e) => events.push(e),
            // What the page had seen when the tool ran.
            tools: [tool("seen", () => events.filter((e) => e.type === "console").map((e) => e.message))],
        });
        const r = await run(api.createSession(), "console.log('one'); console.warn('two'); const s = await tools.seen({}); console.log('three'); return { s, big: 'x'.repeat(2000) }");
        assert.deepEqual(r.result.s, ["one", "two"]);
        const lines = events.filter((e) => e.type === "console").map((e) => [e.level, e.message.slice(0, 7)]);
        assert.deepEqual(lines.slice(0, 3), [["log", "one"], ["warn", "two"], ["log", "three"]]);
        assert.deepEqual(lines.slice(3), r.logs.slice(3).map((l) => [l.level, l.message.slice(0, 7)]), "the result's end-of-run warnings, once each");
        assert.ok(lines.length > 3, "the budget warning came too");
        assert.deepEqual(events.map((e) => e.type).slice(-1), ["run-end"]);
    });

    for (const worker of [false, true]) test(`onEvent (worker: ${worker}): a call in flight when the run is aborted gets its tool-result (ok: false, why) before run-end, and none later`, async (t) => {
        const events = [];
        const signals = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            worker,
            tools: [tool("hang", (i, { signal }) => (signals.push(signal), new Promise((res, rej) => signal.addEventListener("abort", () => rej(signal.reason)))))],
        });
        const c = new AbortController();
        const r = run(api.createSession(), "await tools.hang({})", { signal: c.signal, onEvent: (e) => events.push(e) }).catch((e) => e);
        while (!events.some((e) => e.type === "tool-call")) await sleep(5);
        c.abort(new Error("Cancelled by the user."));
        assert.equal((await r).message, "Cancelled by the user.");
        await until(() => events.some((e) => e.type === "run-end"), "run-end");
        // Time for a late event, if one came.
        await sleep(50);
        assert.equal(signals[0].aborted, true);
        assert.deepEqual(events.map((e) => e.type), ["run-start", "tool-call", "tool-result", "run-end"]);
        const res = events[2];
        assert.deepEqual([res.callId, res.ok, res.error], [events[1].callId, false, "the run ended before the tool finished (Cancelled by the user.)"]);
    });

    for (const worker of [false, true]) test(`onEvent (worker: ${worker}): a call in flight when the run times out gets a tool-result that says so, not "it returned"`, async (t) => {
        const events = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            worker,
            timeout: 800,
            onEvent: (e) => events.push(e),
            tools: [tool("never", () => new Promise(() => {}))],
        });
        const r = await run(api.createSession(), "await tools.never({})");
        assert.equal(r.error.code, "TIMEOUT");
        assert.deepEqual(events.map((e) => e.type), ["run-start", "tool-call", "tool-result", "run-end"]);
        assert.deepEqual([events[2].ok, events[2].error], [false, "the run ended before the tool finished (TIMEOUT)"]);
        assert.equal(r.toolCalls[0].reason, "not finished: the run ended (TIMEOUT)", "the record and the event say the same");
    });

    for (const worker of [false, true]) test(`onEvent (worker: ${worker}): an onToolCall still deciding when the run is aborted or times out is not reported as an interceptor that failed`, async (t) => {
        // The in-thread engine reported the abort as a tool-call denied with
        // "interceptor failed: onToolCall rejected: aborted" (a Go
        // interceptor's record read "interceptor failed: context canceled").
        const events = [];
        let deciding = 0;
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            worker,
            timeout: 800,
            interceptors: { onToolCall: () => (deciding++, new Promise(() => {})) },
            onEvent: (e) => events.push(e),
            tools: [tool("pay", () => "paid")],
        });
        const c = new AbortController();
        const aborted = run(api.createSession(), "return await tools.pay({})", { signal: c.signal }).catch((e) => e);
        while (!deciding) await sleep(5);
        c.abort(new Error("Cancelled by the user."));
        assert.equal((await aborted).message, "Cancelled by the user.");
        await until(() => events.some((e) => e.type === "run-end"), "run-end");
        // Time for a late event, if one came.
        await sleep(50);
        assert.deepEqual(events.map((e) => e.type), ["run-start", "run-end"], JSON.stringify(events));
        events.length = 0;
        const timedOut = await run(api.createSession(), "return await tools.pay({})");
        assert.equal(timedOut.error.code, "TIMEOUT");
        assert.deepEqual(events.map((e) => e.type), ["run-start", "run-end"], JSON.stringify(events));
        assert.deepEqual([timedOut.toolCalls[0].allowed, timedOut.toolCalls[0].reason], [false, "not finished: the run ended (TIMEOUT)"]);
    });

    for (const worker of [false, true]) test(`a timeout aborts the signal of a tool in flight with a TimeoutError that says so (worker: ${worker})`, async (t) => {
        const reasons = [];
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            worker,
            timeout: 1500,
            tools: [tool("hang", (i, { signal }) => new Promise((res, rej) => signal.addEventListener("abort", () => (reasons.push(signal.reason), rej(signal.reason)))))],
        });
        const r = await run(api.createSession(), "await tools.hang({})");
        assert.equal(r.error.code, "TIMEOUT");
        for (let i = 0; i < 400 && reasons.length === 0; i++) await sleep(5);
        assert.equal(reasons.length, 1, "the tool's signal aborted");
        assert.deepEqual([reasons[0].name, reasons[0].message], ["TimeoutError", "the run timed out before the tool finished"]);
    });

    for (const worker of [false, true]) test(`ready() (worker: ${worker}): once it resolves, getSystemInstruction() shows the tools registered and removed before it, in sessions old and new; it rejects after dispose()`, async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, worker });
        const old = api.createSession();
        const removeA = api.registerTool(tool("crm.alpha", () => 1));
        api.registerTool(tool("crm.beta", () => 2));
        const mine = api.createSession({ tools: [tool("own.gamma", () => 3)] });
        await api.ready();
        for (const s of [old, mine]) assert.match(s.getSystemInstruction(), /crm\.beta/);
        assert.match(mine.getSystemInstruction(), /own\.gamma/);
        assert.doesNotMatch(old.getSystemInstruction(), /gamma/);
        removeA();
        api.registerTool(tool("zzz.delta", () => 4));
        await api.ready();
        assert.match(old.getSystemInstruction(), /zzz\.delta/);
        assert.doesNotMatch(old.getSystemInstruction(), /alpha/);
        assert.match(old.getSystemInstruction(), /Available tools \(2\)/);
        api.dispose();
        await assert.rejects(api.ready(), /disposed/);
    });

    test("onEvent (worker: true): a busy run's console lines reach the page while it spins", async (t) => {
        const events = [];
        const api = await withFactory(t, { wasmLocation: assetPath, worker: true, timeout: 20000 });
        const c = new AbortController();
        const busy = run(api.createSession(), "console.log('spinning'); for (;;) {}", { signal: c.signal, onEvent: (e) => events.push(e) }).catch((e) => e);
        while (!events.some((e) => e.type === "console")) await sleep(5);
        assert.deepEqual(events.map((e) => e.type), ["run-start", "console"]);
        c.abort(new Error("enough"));
        assert.equal((await busy).message, "enough");
    });

    test("worker mode: abort stops a busy run only (the SharedArrayBuffer flag); other runs and the next run go on", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, worker: true, timeout: 20000, tools: [tool("nap", () => sleep(300).then(() => "slept"))] });
        const session = api.createSession();
        const other = run(session, "return await tools.nap({})");
        const c = new AbortController();
        const reason = new Error("stop spinning");
        const busy = run(session, "for (;;) {}", { signal: c.signal });
        await sleep(100);
        const t0 = Date.now();
        c.abort(reason);
        await assert.rejects(busy, (e) => e === reason);
        const next = await run(session, "return 'next'");
        assert.equal(next.result, "next");
        assert.ok(Date.now() - t0 < 10000, "the engine was free again long before the run's timeout");
        assert.equal((await other).result, "slept", "the other run was not touched");
    });

    test("worker mode: a run aborted while it still waits behind a busy run is stopped when it starts (its flag was read by the other run's poll)", async (t) => {
        const api = await withFactory(t, { wasmLocation: assetPath, worker: true, timeout: 60000 });
        const session = api.createSession();
        const a = new AbortController();
        const b = new AbortController();
        // Settled values, so that the early rejections are handled.
        const first = run(session, "for (;;) {}", { signal: a.signal }).then((v) => v, (e) => e);
        const second = run(session, "for (;;) {}", { signal: b.signal }).then((v) => v, (e) => e);
        await sleep(200);
        b.abort(new Error("stop the second"));
        // The first run spins: its interrupt poll reads the second run's flag
        // before the second run's message is handled.
        await sleep(200);
        a.abort(new Error("stop the first"));
        assert.equal((await first).message, "stop the first");
        assert.equal((await second).message, "stop the second");
        // The guard's timer is cleared once the run settles: left pending,
        // it held the test process open 30 s after the last test.
        let guard;
        const next = await Promise.race([
            run(session, "return 'next'"),
            new Promise((r) => { guard = setTimeout(() => r({ result: "the engine was still busy with the second run" }), 30000); }),
        ]).finally(() => clearTimeout(guard));
        assert.equal(next.result, "next");
    });
});

// An async callback passed to forEach is not waited for: the run says so
// once, first in its logs, in both modes, and otherwise runs as written.
for (const worker of [false, true]) test(`forEach(async ...) warns once (worker: ${worker}); its words in a string do not`, async (t) => {
    const api = await withFactory(t, { wasmLocation: assetPath, worker, tools: [tool("num.ten", (i) => i.x * 10)] });
    const session = api.createSession();
    const r = await run(session, "let total = 0;\n[1, 2, 3].forEach(async (x) => { total += await tools.num.ten({ x }) });\n[4].forEach(async function (x) { await x });\nconsole.log('after');\nreturn typeof total");
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.result, "number");
    assert.equal(r.logs[0].level, "warn");
    assert.match(r.logs[0].message, /^line 2: forEach does not wait for async callbacks: .* use for \(const x of arr\) \{ await \.\.\. \} or await Promise\.all\(arr\.map\(async x => \.\.\.\)\)$/);
    assert.deepEqual(r.logs[1], { level: "log", message: "after" });
    assert.equal(r.logs.filter((l) => l.message.includes("forEach")).length, 1, JSON.stringify(r.logs));
    const quiet = await run(session, "const s = 'x.forEach(async (x) => f(x))'; // y.forEach(async x => 1)\nlet t = 0;\n[1, 2].forEach((x) => { t += x });\nreturn [s.length, t]");
    assert.deepEqual([quiet.ok, quiet.result, quiet.logs], [true, [28, 3], []]);
});
