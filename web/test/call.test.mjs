// @mode-independent: the page's call protocol alone; no factory.
// The page's side of one tool call (web/src/call.mjs): the core starts it
// with one call and reads one reply; what happens between is on the page.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { root } from "./helpers.mjs";

const { CALL, CallSignal, LIMIT, REPLY, pageCaller } = await import(pathToFileURL(join(root, "web", "src", "call.mjs")).href);

// A caller whose replies are collected, one [id, kind, payload, warnings]
// per call, from the core's calls (batches keeps each call's arguments),
// read as jsbridge.ReplyFunc reads them: reply(id, values...) for one
// answer, reply(batch) for several; next() waits for the next one.
function caller() {
    const replies = [];
    const batches = [];
    let wake = () => {};
    const { call, abort } = pageCaller((...args) => {
        batches.push(args);
        if (typeof args[0] === "number") {
            assert.ok(args.length >= 2 && args.length <= 4, "a lone answer is id, kind, payload, warnings");
            replies.push([args[0], args[1], args[2], args[3]]);
            wake();
            return;
        }
        assert.equal(args.length, 1, "a batch is the only argument");
        const [batch] = args;
        assert.ok(batch.length > 5, "a batch holds more than one answer");
        for (let i = 0; i < batch.length; ) {
            const n = batch[i + 1];
            assert.equal(n, 3, "each answer has kind, payload, warnings");
            replies.push([batch[i], ...batch.slice(i + 2, i + 2 + n)]);
            i += 2 + n;
        }
        wake();
    });
    const next = async () => {
        while (replies.length === 0) await new Promise((res) => (wake = res));
        return replies.shift();
    };
    return { call, abort, replies, batches, next };
}

const tick = () => new Promise((res) => setTimeout(res, 5));

describe("pageCaller", () => {
    test("each way a call ends is one reply of its kind", async () => {
        const cases = [
            ["a JSON result", async (x) => ({ got: x }), undefined, [REPLY.ok, '{"got":{"a":1}}', undefined]],
            ["no value", () => undefined, undefined, [REPLY.ok, undefined, undefined]],
            ["a throw", () => { throw new TypeError("nope"); }, undefined, [REPLY.threw]],
            // A value the core cannot take fails the call with an Error saying why.
            ["a function", () => () => 1, undefined, [REPLY.threw, "the tool returned a function, which is not JSON data"]],
            ["a symbol", () => Symbol("s"), undefined, [REPLY.threw, "the tool returned a symbol, which is not JSON data"]],
            ["a BigInt", () => 10n, undefined, [REPLY.threw, "the tool returned a bigint, which is not JSON data"]],
            ["a throwing toJSON", () => ({ toJSON() { throw new Error("bad"); } }), undefined, [REPLY.threw, "the tool returned a value that is not JSON data: bad"]],
            ["a rejecting schema", () => 1, [async () => ({ ok: false, message: "a: too small" })], [REPLY.rejected, "a: too small", undefined]],
            ["a throwing schema", () => 1, [async () => { throw new Error("schema broke"); }], [REPLY.validationThrew]],
            ["a verdict that is no object", () => 1, [async () => undefined], [REPLY.rejected, "undefined", undefined]],
            ["a throwing verdict", () => 1, [async () => ({ get ok() { throw new Error("getter"); } })], [REPLY.threw]],
            // The output schema's own validation, on the value execute returned.
            ["an output the output schema's validation passes", () => 1, [undefined, async (v) => ({ ok: v === 1 })], [REPLY.ok, "1", undefined]],
            ["an output it refuses", () => 2, [undefined, async () => ({ ok: false, message: "n: too big" })], [REPLY.threw, "t.x: the tool's result does not match its outputSchema: n: too big"]],
            ["an output validation that throws", () => 2, [undefined, async () => { throw new Error("broke"); }], [REPLY.threw, "t.x: the output schema's validation failed: broke"]],
        ];
        for (const [what, exec, validate, want] of cases) {
            const c = caller();
            c.call(7, [exec], [validate], 0, "t.x", '{"a":1}', 42);
            const [id, kind, payload, warnings] = await c.next();
            assert.equal(id, 7, what);
            assert.equal(kind, want[0], what);
            if (want[0] !== REPLY.threw && want.length > 1) assert.deepEqual([payload, warnings], want.slice(1), what);
            else assert.ok(payload instanceof Error, `${what}: the thrown value itself`);
            if (want[0] === REPLY.threw && want.length > 1) assert.equal(payload.message, want[1], what);
        }
    });

    // The core's check against the outputSchema (wasm/toolcall.go checkFunc):
    // check(id, json) gives "" when the result passed, which the core then
    // holds (the reply carries no payload), else the call's error.
    test("the core's outputSchema check: a result it passes is a checked reply, one it refuses the call's error", async () => {
        const checked = [];
        const check = (id, json) => (checked.push([id, json]), json === '{"id":5}' ? "t.x: the tool's result does not match its outputSchema: /id: type: got number, want string" : "");
        for (const [what, value, want] of [
            ["passed", { id: "a" }, [REPLY.checked, undefined, undefined]],
            ["no value, checked as none", undefined, [REPLY.checked, undefined, undefined]],
            ["refused", { id: 5 }, [REPLY.threw, "t.x: the tool's result does not match its outputSchema: /id: type: got number, want string"]],
        ]) {
            const c = caller();
            checked.length = 0;
            c.call(3, [() => value], [undefined], 0, "t.x", "{}", 0, check);
            const [id, kind, payload, warnings] = await c.next();
            assert.deepEqual([id, kind], [3, want[0]], what);
            if (want[0] === REPLY.threw) assert.equal(payload.message, want[1], what);
            else assert.deepEqual([payload, warnings], want.slice(1), what);
            assert.deepEqual(checked, [[3, value === undefined ? "" : JSON.stringify(value)]], what);
        }
    });

    // The core counts a result's characters as code points (toolcall.go
    // checkOutput); a JavaScript length counts an astral one twice. 1 MB
    // holds 1,048,576 characters.
    test("a result longer than the run's memory limit holds is refused before the core's check, counted as the core counts", async () => {
        const tooLarge = (n) => `tool t.x returned ${n} characters of JSON, more than the run's memory limit (1 MB) can hold: ask it for less (a page, a filter), if its input allows`;
        for (const [what, value, limit, want] of [
            ["ASCII, at the limit", "x".repeat(1048574), 1, ""],
            ["ASCII, a character past it", "x".repeat(1048575), 1, tooLarge(1048577)],
            ["astral, at the limit (twice as long in UTF-16)", "😀".repeat(1048574), 1, ""],
            ["astral, a character past it", "😀".repeat(1048575), 1, tooLarge(1048577)],
            ["astral and ASCII, a character past it", `${"😀".repeat(500000)}${"x".repeat(548575)}`, 1, tooLarge(1048577)],
            ["no limit given: left to the core", "x".repeat(3e6), undefined, ""],
        ]) {
            const c = caller();
            const checked = [];
            let seen;
            c.call(4, [(_input, opts) => ((seen = opts[LIMIT]), value)], [undefined], 0, "t.x", "{}", 0, (id, json) => (checked.push(json.length), ""), limit);
            const [, kind, payload] = await c.next();
            assert.equal(seen, limit, `${what}: execute's options carry the limit (a worker sends it to the page)`);
            if (want) {
                assert.deepEqual([kind, payload.message, checked], [REPLY.threw, want, []], what);
            } else {
                assert.deepEqual([kind, checked], [REPLY.checked, [JSON.stringify(value).length]], what);
            }
        }
    });

    test("a page's charCodeAt and RegExp exec change nothing of how a result is counted", async () => {
        const { charCodeAt } = String.prototype;
        const { exec } = RegExp.prototype;
        String.prototype.charCodeAt = () => 0;
        RegExp.prototype.exec = () => null;
        try {
            const c = caller();
            c.call(4, [() => "😀".repeat(1048574)], [undefined], 0, "t.x", "{}", 0, undefined, 1);
            const [, kind, payload] = await c.next();
            assert.equal(kind, REPLY.ok, payload && payload.message);
        } finally {
            String.prototype.charCodeAt = charCodeAt;
            RegExp.prototype.exec = exec;
        }
    });

    // The core shows 1,000 characters of a thrown message and counts the
    // rest (toolcall.go failure): it is given 4,096 of them and the count
    // it did not get, not 90 million characters to copy in.
    test("a thrown message longer than the core shows is cut, with the count of what was cut", async () => {
        const short = new Error("short");
        const longName = Object.assign(new Error("m"), { name: "N".repeat(5000) });
        const shortObject = { message: "m" };
        const stringObject = { toString: () => "s" };
        for (const [what, thrown, want] of [
            ["a short message: the error itself", short, [short, undefined]],
            ["a long message", new Error("<".repeat(9e6)), ["<".repeat(4096), 9e6 - 4096]],
            ["a long string thrown", "s".repeat(5000), ["s".repeat(4096), 904]],
            // 2,047 pairs and a high surrogate at 4,095: the pair stays whole, in what is cut.
            ["a pair across the cut", new Error(`${"😀".repeat(2047)}x😀${"😀".repeat(10)}`), [`${"😀".repeat(2047)}x`, 11]],
            ["astral characters counted as the core counts them", new Error("😀".repeat(3000)), ["😀".repeat(2048), 952]],
            ["a long name: dropped, the message kept", longName, ["m", undefined]],
            // The core reads an object's message as an Error's (jsbridge.ErrorFromJS).
            ["an object's long message", { name: "E", message: "<".repeat(5000) }, ["<".repeat(4096), 904]],
            ["an object's short message: the object itself", shortObject, [shortObject, undefined]],
            // Without a string message the core reads String of it.
            ["an object's long String()", { message: 5, toString: () => "<".repeat(5000) }, ["<".repeat(4096), 904]],
            ["an object's short String(): the object itself", stringObject, [stringObject, undefined]],
        ]) {
            const c = caller();
            c.call(5, [() => { throw thrown; }], [undefined], 0, "t.x", "{}", 0);
            const [, kind, payload, dropped] = await c.next();
            assert.equal(kind, REPLY.threw, what);
            if (typeof want[0] === "object") assert.equal(payload, want[0], what);
            else assert.deepEqual([payload.name, payload.message], ["Error", want[0]], what);
            assert.equal(dropped, want[1], what);
        }
    });

    // The same cut for what the input schema's own check threw, and for
    // its message of a refusal: the core words both after the tool's name.
    test("a long message of the input schema's check is cut, with the count of what was cut", async () => {
        for (const [what, validate, kind] of [
            ["a throw", () => { throw new Error("<".repeat(5000)); }, REPLY.validationThrew],
            ["a refusal", () => ({ ok: false, message: "<".repeat(5000) }), REPLY.rejected],
        ]) {
            const c = caller();
            c.call(6, [() => assert.fail("execute ran")], [[validate]], 0, "t.x", "{}", 0);
            const [, k, payload, dropped] = await c.next();
            assert.deepEqual([k, payload.message, dropped], [kind, "<".repeat(4096), 904], what);
        }
    });

    test("execute gets the input, the run's context and the call's signal, with this undefined", async () => {
        const c = caller();
        let seen;
        c.call(1, [function (input, opts) { seen = { self: this, input, opts }; return 1; }], [undefined], 0, "t.x", '{"__proto__":{"x":1}}', 9);
        await c.next();
        assert.equal(seen.self, undefined);
        assert.deepEqual(Object.keys(seen.opts), ["context", "signal"]);
        assert.equal(seen.opts.context, 9);
        assert.ok(seen.opts.signal instanceof AbortSignal);
        assert.ok(seen.opts[CALL] instanceof CallSignal, "the page's side finds the call's own signal");
        assert.equal(seen.opts[CALL].signal, seen.opts.signal);
        assert.ok(Object.hasOwn(seen.input, "__proto__"), "__proto__ stays data");
    });

    test("a result's changes are reported as warnings under the tool's name", async () => {
        const c = caller();
        c.call(1, [() => ({ n: NaN })], [undefined], 0, "t.x", "{}", 0);
        const [, kind, payload, warnings] = await c.next();
        assert.equal(kind, REPLY.ok);
        assert.deepEqual(JSON.parse(payload), { n: "NaN" });
        assert.match(JSON.parse(warnings)[0], /^tools\.t\.x result\.n: NaN/);
    });

    test("abort: the signal aborts with the reason, and a late result gets no reply and no conversion", async () => {
        const c = caller();
        let settle, signal, conversions = 0;
        c.call(3, [(input, opts) => ((signal = opts.signal), new Promise((res) => (settle = res)))], [undefined], 0, "t.x", "{}", 0);
        await tick();
        const reason = new Error("the run ended");
        c.abort(3, reason);
        assert.equal(signal.aborted, true);
        assert.equal(signal.reason, reason);
        settle({ toJSON: () => (conversions++, 1) });
        await tick();
        assert.deepEqual(c.replies, []);
        assert.equal(conversions, 0);
        c.abort(3, new Error("again")); // a second abort changes nothing
        assert.equal(signal.reason, reason);
    });

    test("a signal read only after the abort is already aborted, with the abort's reason", async () => {
        const c = caller();
        let opts;
        c.call(6, [(input, o) => ((opts = o), new Promise(() => {}))], [undefined], 0, "t.x", "{}", 0);
        await tick();
        assert.equal(opts[CALL].ctrl, undefined, "no controller until the signal is read");
        const reason = new Error("the run ended");
        c.abort(6, reason);
        assert.equal(opts.signal.aborted, true);
        assert.equal(opts.signal.reason, reason);
    });

    test("CallSignal: the first abort's reason stays, before or after the first read", () => {
        const early = new CallSignal();
        early.abort("first");
        early.abort("second");
        assert.equal(early.signal.reason, "first");
        const late = new CallSignal();
        const signal = late.signal;
        let fired = 0;
        signal.addEventListener("abort", () => fired++);
        late.abort("first");
        late.abort("second");
        assert.deepEqual([signal.aborted, signal.reason, fired, late.signal], [true, "first", 1, signal]);
    });

    // The core calls from inside the sandbox's own call of the tool: a tool
    // that called the core back at once (a dispose(), which waits for the
    // run to stop) waited on itself.
    test("the call starts after call() returned, in a microtask; one aborted before then never starts", async () => {
        const c = caller();
        const order = [];
        c.call(8, [() => (order.push("execute"), 1)], [undefined], 0, "t.x", "{}", 0);
        order.push("returned");
        await c.next();
        assert.deepEqual(order, ["returned", "execute"]);
        let started = false;
        c.call(9, [() => ((started = true), 1)], [[() => ((started = true), { ok: true })]], 0, "t.x", "{}", 0);
        c.abort(9, new Error("stop"));
        await tick();
        assert.equal(started, false, "neither the validation nor execute ran");
        assert.deepEqual(c.replies, []);
    });

    test("abort while the schema validates: execute never starts", async () => {
        const c = caller();
        let verdict, started = false;
        c.call(4, [() => ((started = true), 1)], [[() => new Promise((res) => (verdict = res))]], 0, "t.x", "{}", 0);
        await tick();
        c.abort(4, new Error("stop"));
        verdict({ ok: true });
        await tick();
        assert.equal(started, false);
        assert.deepEqual(c.replies, []);
    });

    test("calls that end together are answered in one reply, in the order they ended", async () => {
        const c = caller();
        const exec = async (x) => ({ got: x.i });
        for (let i = 1; i <= 100; i++) c.call(i, [exec], [undefined], 0, "t.x", `{"i":${i}}`, 0);
        await tick();
        assert.equal(c.batches.length, 1);
        assert.deepEqual(c.replies.map((r) => r[0]), Array.from({ length: 100 }, (_, i) => i + 1));
        assert.deepEqual(c.replies[99], [100, REPLY.ok, '{"got":100}', undefined]);
        // One that ends later is a reply of its own, the answer's values
        // as the call's arguments (no array to read), warnings only when
        // there are some.
        let settle;
        c.call(101, [() => new Promise((res) => (settle = res))], [undefined], 0, "t.x", "{}", 0);
        await tick();
        settle(1);
        await tick();
        assert.equal(c.batches.length, 2);
        assert.deepEqual(c.batches[1], [101, REPLY.ok, "1"]);
        c.call(102, [() => ({ n: 10n })], [undefined], 0, "t.x", "{}", 0);
        await tick();
        assert.equal(c.batches.length, 3);
        assert.deepEqual(c.batches[2], [102, REPLY.ok, '{"n":"10"}', JSON.stringify(["tools.t.x result.n: a BigInt, converted to a string"])]);
    });

    test("a reply that throws (the Go program has exited) is swallowed", async () => {
        let replies = 0;
        const { call } = pageCaller(() => {
            replies++;
            throw new Error("Go program has already exited");
        });
        const unhandled = [];
        const onError = (err) => unhandled.push(err);
        process.on("uncaughtException", onError);
        try {
            call(1, [() => 1], [undefined], 0, "t.x", "{}", 0);
            await tick();
        } finally {
            process.off("uncaughtException", onError);
        }
        assert.equal(replies, 1);
        assert.deepEqual(unhandled, []);
    });

    test("input that is not JSON is a bad-input reply", async () => {
        const c = caller();
        c.call(5, [() => 1], [undefined], 0, "t.x", "{", 0);
        const [, kind, payload] = await c.next();
        assert.equal(kind, REPLY.badInput);
        assert.ok(payload instanceof SyntaxError);
    });
});
