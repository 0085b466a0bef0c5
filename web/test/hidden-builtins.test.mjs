// A tool hidden by toolFilter stays out of the program's reach when the page
// breaks its own builtins after the package loaded (a polyfill gone wrong, a
// test double, a hostile script): Set, Map, iteration, Object.keys, JSON,
// Array.isArray. Whatever a stub does, the hidden tool never runs, and the
// program's error for it is the one a name never registered gets (or the run
// fails as a whole, closed). Both engine modes (CODE_MODE_WORKER=1).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, llmTools, tool, withFactory } from "./helpers.mjs";

// Tries the hidden name every way a program can, and a name never registered
// (same namespace, same length: suggestions and wording must match).
const PROBE = `const out = {};
const msg = async (f) => { try { const v = await f(); return "ran: " + v } catch (e) { return e.name + ": " + e.message } };
out.call = await msg(() => tool_call("admin.wipe", {}));
out.dotted = await msg(() => tools.admin.wipe({}));
out.key = await msg(() => tools["admin.wipe"]({}));
out.never = await msg(() => tool_call("admin.nuke", {}));
out.visible = await msg(() => tools.t.x({}));
return out`;

/** @type {[string, any, string | symbol, (real: any) => unknown][]} owner, key, stub from the real value */
// The real iterator of an empty list, taken before any row replaces one.
const realArrayIterator = Array.prototype[Symbol.iterator];
const emptyIterator = () => function () { return realArrayIterator.call([]); };
const STUBS = [
    ["Set.prototype.has always true", Set.prototype, "has", () => function () { return true; }],
    ["Set.prototype.has always false", Set.prototype, "has", () => function () { return false; }],
    ["Set.prototype.add a no-op", Set.prototype, "add", () => function () { return this; }],
    ["Set.prototype[Symbol.iterator] empty", Set.prototype, Symbol.iterator, emptyIterator],
    ["Set.prototype.values empty", Set.prototype, "values", emptyIterator],
    ["Set.prototype.forEach a no-op", Set.prototype, "forEach", () => function () {}],
    ["Map.prototype.get undefined", Map.prototype, "get", () => function () { return undefined; }],
    ["Map.prototype.get a stand-in", Map.prototype, "get", () => function () { return { name: "admin.wipe", visible: true, hidden: false }; }],
    ["Map.prototype.has always true", Map.prototype, "has", () => function () { return true; }],
    ["Map.prototype.has always false", Map.prototype, "has", () => function () { return false; }],
    ["Map.prototype.set a no-op", Map.prototype, "set", () => function () { return this; }],
    ["Map.prototype[Symbol.iterator] empty", Map.prototype, Symbol.iterator, emptyIterator],
    ["Array.prototype[Symbol.iterator] empty", Array.prototype, Symbol.iterator, emptyIterator],
    ["Array.prototype.push a no-op", Array.prototype, "push", () => function () { return this.length; }],
    ["Array.prototype.includes always true", Array.prototype, "includes", () => function () { return true; }],
    ["Array.prototype.indexOf always 0", Array.prototype, "indexOf", () => function () { return 0; }],
    ["Array.isArray always false", Array, "isArray", () => function () { return false; }],
    ["Object.keys empty", Object, "keys", () => function () { return []; }],
    ["Object.entries empty", Object, "entries", () => function () { return []; }],
    ["Object.values empty", Object, "values", () => function () { return []; }],
    ["Object.fromEntries empty", Object, "fromEntries", () => function () { return {}; }],
    ["Object.prototype.hasOwnProperty always true", Object.prototype, "hasOwnProperty", () => function () { return true; }],
    ["Object.hasOwn always true", Object, "hasOwn", () => function () { return true; }],
    ["JSON.stringify of an empty list", JSON, "stringify", () => function () { return "[]"; }],
    ["JSON.parse gives an empty list", JSON, "parse", () => function () { return []; }],
    ["JSON.parse gives an empty object", JSON, "parse", () => function () { return {}; }],
    ["String.prototype.startsWith always false", String.prototype, "startsWith", () => function () { return false; }],
    ["String.prototype.startsWith always true", String.prototype, "startsWith", () => function () { return true; }],
    ["Reflect.ownKeys empty", Reflect, "ownKeys", () => function () { return []; }],
    ["Reflect.has always true", Reflect, "has", () => function () { return true; }],
    ["Object.freeze the identity", Object, "freeze", () => function (o) { return o; }],
    ["Object.create ignores its prototype", Object, "create", () => function () { return {}; }],
    ["Symbol.iterator of Array and Set both empty", null, "", () => undefined],
];

/** Replaces owner[key] by stub(real); returns the undo. */
function replace(owner, key, stub) {
    const had = Object.getOwnPropertyDescriptor(owner, key);
    Object.defineProperty(owner, key, { value: stub(had?.value), writable: true, configurable: true });
    return () => (had ? Object.defineProperty(owner, key, had) : delete owner[key]);
}

/** Installs row's stub(s); returns the undo. */
function install(row) {
    const [, owner, key, stub] = row;
    if (owner !== null) return replace(owner, key, stub);
    const undoArray = replace(Array.prototype, Symbol.iterator, emptyIterator);
    const undoSet = replace(Set.prototype, Symbol.iterator, emptyIterator);
    return () => { undoSet(); undoArray(); }; // no for-of: it is broken
}

async function hiddenFactory(t, ran) {
    return withFactory(t, {
        wasmLocation: assetPath,
        toolFilter: (d) => d.name !== "admin.wipe",
        tools: [tool("admin.wipe", () => (ran.push("wipe"), "WIPED")), tool("t.x", () => "x-ok")],
    });
}

// The real timer and a wait that neither races nor iterates: rows break
// both Promise.race's iteration and the globals.
const realSetTimeout = setTimeout;
const realClearTimeout = clearTimeout;

/**
 * Runs PROBE; a run that rejects or fails as a whole is returned boxed, and
 * one that has not settled after 5 s of the real clock as { hung: true }.
 */
function probe(session) {
    return new Promise((resolve) => {
        const timer = realSetTimeout(() => resolve({ hung: true }), 5_000);
        const done = (/** @type {any} */ v) => { realClearTimeout(timer); resolve(v); };
        try {
            llmTools(session).executeCode.execute({ explanation: "", code: PROBE }).then(done, (e) => done({ rejected: String(e?.message ?? e) }));
        } catch (e) {
            done({ threw: String(e) });
        }
    });
}

/**
 * The safe outcomes: the program's answers for the hidden name are the ones
 * an unbroken page gives (an unknown tool's), and the visible tool either
 * works or is unknown too (closed); or the run fails as a whole, without
 * the hidden tool. Never the hidden tool, and never a run left open: the
 * bookkeeping of runs and calls uses the builtins as they were at load
 * (a Set.prototype.add or Map.prototype.set made a no-op, an
 * Array.prototype.push or a Map.prototype.get that answers wrong, left
 * in-thread runs with a tool call never settling).
 */
function assertClosed(name, r, baseline, ran) {
    assert.deepEqual(ran, [], `${name}: the hidden tool ran (${JSON.stringify(r)})`);
    assert.ok(!r.hung, `${name}: the run never settled`);
    if (r.ok === true) {
        const { visible, ...hiddenAnswers } = r.result;
        const { visible: baseVisible, ...baseHidden } = baseline;
        assert.deepEqual(hiddenAnswers, baseHidden, `${name}: the program saw the hidden tool differently than on an unbroken page`);
        if (visible !== baseVisible) assert.equal(visible, baseHidden.never.replace("admin.nuke", "t.x"), name);
    } else {
        assert.doesNotMatch(JSON.stringify(r), /WIPED|ran: /, name);
    }
}

describe("a tool hidden by toolFilter, on a page whose builtins break after load", () => {
    test("on an unbroken page, the hidden tool's errors are an unknown tool's", async (t) => {
        const ran = [];
        const r = await probe((await hiddenFactory(t, ran)).createSession());
        assert.equal(r.ok, true, JSON.stringify(r.error));
        const o = r.result;
        assert.match(o.call, /^ToolError: unknown tool "admin\.wipe"/);
        assert.equal(o.call, o.never.replace("admin.nuke", "admin.wipe"));
        assert.equal(o.key, o.call);
        assert.equal(o.visible, "ran: x-ok");
        assert.deepEqual(ran, []);
    });

    for (const row of STUBS) {
        test(`${row[0]}: after the session ran once, and from before the factory`, async (t) => {
            const ran = [];
            const api = await hiddenFactory(t, ran);
            const s = api.createSession();
            const base = await probe(s);
            assert.equal(base.ok, true, JSON.stringify(base));
            // A stub in place from before the run, on a session that already ran.
            let undo = install(row);
            let r;
            try {
                r = await probe(s);
            } finally {
                undo();
            }
            assertClosed(`after a run: ${row[0]}`, r, base.result, ran);
            // A stub in place from before the factory was made (after import).
            undo = install(row);
            let r2;
            try {
                const api2 = await hiddenFactory(t, ran).catch((e) => ({ failed: e }));
                r2 = "failed" in api2 ? { rejected: String(api2.failed) } : await probe(api2.createSession());
            } catch (e) {
                r2 = { rejected: String(e) };
            } finally {
                undo();
            }
            assertClosed(`from the factory on: ${row[0]}`, r2, base.result, ran);
            // The restored page works: a new factory, at least (in-thread, a
            // stub that breaks what Go's wasm_exec.js uses, Map.prototype.get,
            // can stop that factory's engine for good).
            const again = await probe((await hiddenFactory(t, ran)).createSession());
            assert.deepEqual(again.result, base.result);
            assert.deepEqual(ran, []);
        });
    }
});
