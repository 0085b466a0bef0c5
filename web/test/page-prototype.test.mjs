// The page is not ours: a dependency of the host page may have polluted
// Object.prototype (a merge of attacker JSON with a "__proto__" key does
// that). What the library reads of the page's config, options, tool
// definitions and onToolCall's decisions must then be what the page wrote,
// not what Object.prototype holds: an inherited "allowed" or "input" must
// not approve or rewrite a call, an inherited "toolFilter" must not hide
// tools. Each case runs in a child process (the pollution is global), in
// the suite's mode (CODE_MODE_WORKER=1: worker_threads).
import { test } from "node:test";
import assert from "node:assert/strict";
import { WORKER, assetPath, inChild, indexURL } from "./helpers.mjs";

/**
 * Runs `body` in a fresh Node process whose Object.prototype has each key
 * of `pollution` as an enumerable property (as `obj.__proto__.key = v`
 * sets it). `body` sees IoCodeModeFactory, assetPath, run(session, code,
 * options) and returns what the test checks.
 * @param {string} pollution JavaScript source of an object literal
 * @param {string} body
 */
function polluted(pollution, body) {
    const script = `
        const { IoCodeModeFactory: factory } = await import(${JSON.stringify(indexURL)});
        // Set on the config itself: a copy would drop what it inherits.
        const IoCodeModeFactory = (c) => factory(Object.assign(c, { worker: ${WORKER} }));
        const assetPath = ${JSON.stringify(assetPath)};
        const run = (s, code, o) => s.getLlmTools().find((t) => t.name === "executeCode").execute({ code, explanation: "" }, o);
        for (const [k, v] of Object.entries(${pollution})) Object.prototype[k] = v;
        const out = await (async () => { ${body} })();
        process.stdout.write(JSON.stringify(out));
        process.exit(0);
    `;
    return inChild(script);
}

// A tool t.x that records what it got; `extra` goes into the config.
const setup = (/** @type {string} */ extra) => `
    const seen = [];
    const api = await IoCodeModeFactory({ wasmLocation: assetPath, ${extra}
        tools: [{ name: "t.x", description: "d", inputSchema: { type: "object" }, execute: (input, o) => (seen.push({ input, context: o.context === undefined ? "none" : o.context }), "ran") }] });
    const s = api.createSession();
    const call = async (o) => { const r = await run(s, "try { return await tools.t.x({ a: 1 }) } catch (e) { return 'denied: ' + e.message }", o); return r.ok ? r.result : r.error.code + ": " + r.error.message; };
`;

const rows = [
    {
        name: "an inherited allowed: true does not approve a decision without one (fail closed)",
        pollution: "{ allowed: true }",
        body: `${setup("interceptors: { onToolCall: () => ({ reason: 'no decision here' }) },")} const r = await call(); api.dispose(); return { r, seen };`,
        want: { r: /^denied: call to t\.x denied: the interceptor failed \(onToolCall returned an object; expected \{allowed: true, input\?\} or \{allowed: false, reason\}\)$/, seen: [] },
    },
    {
        name: "an inherited input does not replace the program's input of an approved call",
        pollution: "{ input: { injected: 1 } }",
        body: `${setup("interceptors: { onToolCall: () => ({ allowed: true }) },")} const r = await call(); api.dispose(); return { r, seen };`,
        want: { r: "ran", seen: [{ input: { a: 1 }, context: "none" }] },
    },
    {
        name: "an inherited timeout, maxResultChars or maxToolCalls is not a limit",
        pollution: "{ timeout: 1, maxResultChars: 5, maxToolCalls: 1 }",
        body: `${setup("")} const r = await run(s, "await new Promise((r) => setTimeout(r, 50)); await tools.t.x({}); await tools.t.x({}); return 'finished'"); api.dispose(); return { r: r.ok ? r.result : r.error.message };`,
        want: { r: "finished" },
    },
    {
        name: "an inherited toolFilter hides no tool",
        pollution: "{ toolFilter: () => false }",
        body: `${setup("")} const r = await call(); const listed = api.listTools().map((t) => t.name); api.dispose(); return { r, listed };`,
        want: { r: "ran", listed: ["t.x"] },
    },
    {
        name: "an inherited overwriteSystemInstruction or onEvent is not called",
        pollution: "{ overwriteSystemInstruction: () => 'POLLUTED', onEvent: () => { globalThis.eventsSeen = (globalThis.eventsSeen || 0) + 1; } }",
        body: `${setup("")} const r = await call({}); const polluted = s.getSystemInstruction() === "POLLUTED"; api.dispose(); return { r, polluted, events: globalThis.eventsSeen || 0 };`,
        want: { r: "ran", polluted: false, events: 0 },
    },
    {
        name: "an inherited context or experimental_context does not reach the tools",
        pollution: "{ context: 'forged', experimental_context: 'forged' }",
        body: `${setup("")} const r = await call({}); api.dispose(); return { r, seen };`,
        want: { r: "ran", seen: [{ input: { a: 1 }, context: "none" }] },
    },
    {
        name: "an inherited search weight is not the page's: the factory starts",
        pollution: "{ weight: -1 }",
        body: `${setup("search: { embed: async (texts) => texts.map(() => [1, 0]) },")} const r = await call(); api.dispose(); return { r };`,
        want: { r: "ran" },
    },
    {
        name: "an inherited annotations is not the tool's: it registers",
        pollution: "{ annotations: 'read-only' }",
        body: `${setup("")} const r = await call(); api.dispose(); return { r };`,
        want: { r: "ran" },
    },
    {
        name: "an inherited inputSchema, outputSchema, description or execute is not the tool's",
        pollution: "{ inputSchema: { type: 'object', required: ['zz'] }, outputSchema: { type: 'string' }, description: 'POLLUTED', execute: () => 'polluted' }",
        body: `
            const api = await IoCodeModeFactory({ wasmLocation: assetPath, tools: [{ name: "t.bare", execute: (i) => ({ got: i }) }] });
            const s = api.createSession();
            const r = await run(s, "try { return await tools.t.bare({ a: 1 }) } catch (e) { return 'denied: ' + e.message }");
            const [found] = await s.getLlmTools()[0].execute({ query: "bare" });
            let refused = "registered";
            try { api.registerTool({ name: "t.noexec" }); } catch (e) { refused = e.message; }
            api.dispose();
            return { r: r.result, description: found.description, refused };
        `,
        want: { r: { got: { a: 1 } }, description: "", refused: /execute: expected a function/ },
    },
    {
        name: "an inherited tools list adds no tool to a session",
        pollution: "{ tools: [{ name: 'evil.tool', execute: () => 'evil' }] }",
        body: `${setup("")} const s2 = api.createSession({}); const r = await run(s2, "return typeof tools.evil"); api.dispose(); return { r: r.result };`,
        want: { r: "undefined" },
    },
    // hostile13: a function under then makes every object a thenable (the
    // factory's own promises never gave their objects, in worker mode
    // Node.js's worker_threads called it and the process died); under
    // toJSON, JSON.stringify wrote its answer for every schema. Each body
    // deletes the pollution before it returns: its object would be a
    // thenable too.
    {
        name: "an Object.prototype.then function: the factory rejects saying so, the process lives",
        pollution: "{ then: function (r) { r(this) } }",
        body: `let r = "created"; try { await IoCodeModeFactory({ wasmLocation: assetPath }) } catch (e) { r = e.message } delete Object.prototype.then; return { r };`,
        want: { r: /^Code Mode cannot run on this page: Object\.prototype\.then is a function \(a polluted prototype\); every object would be a thenable/ },
    },
    {
        name: "Object.prototype.then set after the factory: a run rejects saying so, the process lives, and runs once it is gone",
        pollution: "{}",
        body: `${setup("")}
            Object.prototype.then = function (resolve) { resolve("THEN") };
            let r = "ran"; try { await run(s, "return 1") } catch (e) { r = e.message }
            delete Object.prototype.then;
            const after = await call(); api.dispose(); return { r, after, seen };`,
        want: { r: /^Code Mode cannot run on this page: Object\.prototype\.then is a function/, after: "ran", seen: [{ input: { a: 1 }, context: "none" }] },
    },
    // worker14: set during a run (here by the tool, as any page code in
    // flight could), the then was followed when the run settled: its
    // answer became the result ("THEN"), a then that never calls back
    // left execute pending, one that resolves with itself froze the page
    // (in-thread) or its throw ended the process (worker mode: Node's
    // worker_threads called it on the worker's messages).
    ...["resolves with itself", "never calls back", "answers THEN"].map((kind, i) => ({
        name: `Object.prototype.then (${kind}) set by a tool during a run: the run rejects saying so, the page lives, and runs once it is gone`,
        pollution: "{}",
        body: `
            const thens = [function (r) { r(this) }, function () {}, function (r) { r("THEN") }];
            let polluted = false;
            const api = await IoCodeModeFactory({ wasmLocation: assetPath,
                tools: [{ name: "t.x", description: "d", inputSchema: { type: "object" }, execute: () => {
                    if (!polluted) { polluted = true; Object.prototype.then = thens[${i}]; }
                    return { got: 1 };
                } }] });
            const s = api.createSession();
            const code = "const a = await tools.t.x({}); return { a, b: await tools.t.x({}) }";
            const r = await new Promise((done) => run(s, code).then(
                (v) => done("resolved: " + String(v)),
                (e) => done(String(e && e.message)),
            ));
            delete Object.prototype.then;
            const after = await run(s, code);
            api.dispose();
            return { r, after: after.result };`,
        want: { r: /^Code Mode cannot run on this page: Object\.prototype\.then is a function \(a polluted prototype\)/, after: { a: { got: 1 }, b: { got: 1 } } },
    })),
    {
        name: "Object.prototype.then set after the factory, then a registration and ready(): the process lives",
        pollution: "{}",
        body: `${setup("")}
            Object.prototype.then = function (resolve) { resolve("THEN") };
            api.registerTool({ name: "t.y", description: "d", inputSchema: { type: "object" }, execute: () => "y" });
            const ready = await new Promise((done) => api.ready().then(() => done("ready"), (e) => done(String(e))));
            delete Object.prototype.then;
            const after = await run(s, "return await tools.t.y({})");
            api.dispose(); return { ready, after: after.result };`,
        want: { ready: "ready", after: "y" },
    },
    {
        name: "an Array.prototype.toJSON function: the factory rejects saying so",
        pollution: "{}",
        body: `Array.prototype.toJSON = function () { return "polluted" }; let r = "created"; try { await IoCodeModeFactory({ wasmLocation: assetPath }) } catch (e) { r = e.message } delete Array.prototype.toJSON; return { r };`,
        want: { r: /^Code Mode cannot run on this page: Array\.prototype\.toJSON is a function \(a polluted prototype\); JSON\.stringify would write its answer/ },
    },
    {
        name: "an Object.prototype.toJSON function: the factory rejects saying so, not as a bad schema",
        pollution: "{ toJSON: function () { return 'polluted' } }",
        body: `let r = "created"; try { await IoCodeModeFactory({ wasmLocation: assetPath, tools: [{ name: "t.x", inputSchema: { type: "object" }, execute: () => 1 }] }) } catch (e) { r = e.message } delete Object.prototype.toJSON; return { r };`,
        want: { r: /^Code Mode cannot run on this page: Object\.prototype\.toJSON is a function/ },
    },
    {
        name: "an inherited ~standard does not make a JSON Schema a Standard Schema",
        pollution: "{ '~standard': { vendor: 'evil', version: 1, validate: () => ({ value: 'x' }), jsonSchema: { input: () => ({ type: 'string' }) } } }",
        body: `${setup("")}
            const bad = await run(s, "try { return await tools.t.x({ a: 1 }) } catch (e) { return 'denied: ' + e.message }");
            const [found] = await s.getLlmTools()[0].execute({ query: "x" });
            api.dispose(); return { r: bad.result, signature: found.signature, seen };`,
        want: { r: "ran", signature: /tools\.t\.x\(input: Record<string, unknown>\)/, seen: [{ input: { a: 1 }, context: "none" }] },
    },
];

for (const { name, pollution, body, want } of rows) {
    test(name, () => {
        const out = polluted(pollution, body);
        for (const [k, w] of Object.entries(want)) {
            if (w instanceof RegExp) assert.match(out[k], w, `${k}: ${JSON.stringify(out)}`);
            else assert.deepEqual(out[k], w, `${k}: ${JSON.stringify(out)}`);
        }
    });
}

// What the change keeps: a config or an interceptors object built on a
// prototype of the page's own (a class, Object.create(defaults)) still
// counts, guards included.
test("a config's own prototype still counts: Object.create(defaults) and a class's methods and getters", () => {
    const out = polluted(
        "{}",
        `
        const deny = () => ({ allowed: false, reason: "by the defaults" });
        const c = Object.create({ interceptors: { onToolCall: deny } });
        c.wasmLocation = assetPath;
        c.tools = [{ name: "t.x", inputSchema: { type: "object" }, execute: () => "ran" }];
        class Guards { onToolCall() { return { allowed: false, reason: "by the class" }; } }
        class Settings { constructor() { this.wasmLocation = assetPath; } get timeout() { return 200; } }
        const api1 = await IoCodeModeFactory(c);
        const api2 = await IoCodeModeFactory({ wasmLocation: assetPath, tools: c.tools, interceptors: new Guards() });
        const api3 = await IoCodeModeFactory(new Settings());
        const code = "try { return await tools.t.x({}) } catch (e) { return e.message }";
        const out = [(await run(api1.createSession(), code)).result, (await run(api2.createSession(), code)).result];
        const r3 = await run(api3.createSession(), "await new Promise((r) => setTimeout(r, 60000))");
        out.push(r3.ok ? "finished" : r3.error.code);
        for (const api of [api1, api2, api3]) api.dispose();
        return out;
    `,
    );
    assert.deepEqual(out, ["call to t.x denied: by the defaults", "call to t.x denied: by the class", "TIMEOUT"]);
});
