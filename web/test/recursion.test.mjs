// Deep recursion under Node, in-thread and in worker_threads (make
// test-node-worker): QuickJS's limit stops every row with a catchable
// RangeError, and the instance runs the next program. Source nested
// deeper than the core's limit is a SYNTAX error before QuickJS parses it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, loadFactory, run, tool } from "./helpers.mjs";
import { CAUGHT, FITS, UNCAUGHT } from "./recursion-cases.mjs";
import { NESTED, NESTING_LIMIT, nestedMessage } from "./nesting-cases.mjs";

test("deep recursion is QuickJS's catchable stack overflow; the next run works", async (t) => {
    const api = await (await loadFactory())({ wasmLocation: assetPath, timeout: 60000, tools: [tool("t.echo", (input) => input)] });
    t.after(() => api.dispose());
    const session = api.createSession();
    for (const [name, code] of CAUGHT) {
        const r = await run(session, code);
        assert.equal(r.ok, true, `${name}: ${JSON.stringify(r.error)}`);
        assert.deepEqual(r.result, [true, "stack overflow"], name);
        assert.equal((await run(session, "return 1")).result, 1, `${name}: the next run`);
    }
    for (const [name, code, result] of FITS) {
        const r = await run(session, code);
        assert.deepEqual([r.ok, r.result], [true, result], `${name}: ${JSON.stringify(r.error)}`);
    }
    for (const [name, code, message] of UNCAUGHT) {
        const r = await run(session, code);
        assert.equal(r.error?.code, "RUNTIME", `${name}: ${JSON.stringify(r.error)}`);
        assert.match(r.error.message, message, name);
        assert.equal((await run(session, "return 1")).result, 1, `${name}: the next run`);
    }
});

test("source nested past the limit is a SYNTAX error that says so; at the limit it runs", async (t) => {
    const api = await (await loadFactory())({ wasmLocation: assetPath, timeout: 60000 });
    t.after(() => api.dispose());
    const session = api.createSession();
    for (const [name, code, result, extra] of NESTED) {
        const at = await run(session, code(NESTING_LIMIT - extra));
        assert.deepEqual([at.ok, at.result], [true, result], `${name} at the limit: ${JSON.stringify(at.error)}`);
        for (const n of [NESTING_LIMIT - extra + 1, 20000]) {
            const r = await run(session, code(n));
            assert.equal(r.error?.code, "SYNTAX", `${name} nested ${n}: ${JSON.stringify(r.error)}`);
            assert.equal(r.error.name, "SyntaxError", name);
            assert.match(r.error.message, nestedMessage(n + extra), name);
            assert.equal(r.error.line, 1, name);
            assert.equal((await run(session, "return 1")).result, 1, `${name}: the next run`);
        }
    }
});

// Text built at run time reaches QuickJS's parser as the program does: nested
// past the host's stack it ended the whole run ("Maximum call stack size
// exceeded", RUNTIME) however the program guarded it. The function
// constructors now check it as the program is checked, and throw a
// SyntaxError the program catches (eval is left the intrinsic: see
// funcguard.go).
test("the function constructors refuse text nested past the limit with a SyntaxError the program catches", async (t) => {
    const api = await (await loadFactory())({ wasmLocation: assetPath, timeout: 60000 });
    t.after(() => api.dispose());
    const session = api.createSession();
    const builders = [
        ["Function", "new Function(text)"],
        ["Function", "Function('a', 'b', text)"],
        ["AsyncFunction", "new (async () => {}).constructor(text)"],
        ["GeneratorFunction", "(function* () {}).constructor(text)"],
    ];
    for (const [name, code, result, extra] of NESTED) {
        for (const [what, build] of builders) {
            const program = `const text = ${JSON.stringify(code(20000))}; try { ${build}; return "built" } catch (e) { return [e instanceof SyntaxError, e.message] }`;
            const r = await run(session, program);
            assert.equal(r.ok, true, `${name}, ${build}: ${JSON.stringify(r.error)}`);
            assert.equal(r.result[0], true, `${name}, ${build}: ${JSON.stringify(r.result)}`);
            assert.match(r.result[1], new RegExp(`^${what}: code nested too deeply: ${20000 + extra} levels at line 1; the limit is ${NESTING_LIMIT} \\(`), `${name}, ${build}`);
        }
        // At the limit, a function built from the text runs.
        const at = await run(session, `return new Function(${JSON.stringify(code(NESTING_LIMIT - extra))})()`);
        assert.deepEqual([at.ok, at.result], [true, result], `${name} at the limit: ${JSON.stringify(at.error)}`);
    }
    assert.equal((await run(session, "return 1")).result, 1, "the next run");
});
