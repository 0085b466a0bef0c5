// Attempts of the thirty-fifth session (security35), written before
// reading the code under test, on what session 34 added: handleToolCall's
// Bedrock, Gemini and Cohere v1 shapes, and the compiled modules
// (config.wasmModule, config.coreModule). Each row is what the page must
// get, in both engine modes (CODE_MODE_WORKER=1). A revoked Proxy given as
// a module was Array.isArray's TypeError, naming no field; a core of
// another build failed inside it ("config: unknown key", "op is not a
// function") or ran. And a page's
// Object.prototype polluted with "functionCall", "toolUse" or "function" (a
// merge of attacker JSON with a "__proto__" key, as page-prototype.test
// has it) made handleToolCall run the polluted code in place of every
// call the model made, and a { text } block run it. This session's
// config.timeZone quoted a 1 MB zone whole in its TypeError.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { WORKER, assetPath, coreWasmPath, dist, inChild, indexURL, loadFactory, run, tool, withFactory } from "./helpers.mjs";

const llmURL = pathToFileURL(join(dist, "llm.mjs")).href;

/**
 * Runs each call of `calls` (JavaScript source of an array of argument
 * lists after the session) through handleToolCall in a fresh Node process
 * whose Object.prototype holds `pollution`'s keys (the pollution is global,
 * so not in this process), and returns each answer or thrown message.
 */
function pollutedCalls(pollution, calls) {
    const script = `
        const { IoCodeModeFactory } = await import(${JSON.stringify(indexURL)});
        const { handleToolCall } = await import(${JSON.stringify(llmURL)});
        const api = await IoCodeModeFactory({ wasmLocation: ${JSON.stringify(assetPath)}, worker: ${WORKER}, tools: [] });
        const s = api.createSession();
        for (const [k, v] of Object.entries(${pollution})) Object.prototype[k] = v;
        const out = [];
        for (const c of ${calls}) out.push(await handleToolCall(s, ...c).then((r) => r, (e) => "threw " + e.message));
        for (const k of Object.keys(${pollution})) delete Object.prototype[k];
        api.dispose();
        process.stdout.write(JSON.stringify(out));
        process.exit(0);
    `;
    return inChild(script);
}

const code = (c) => ({ code: c, explanation: "x" });
// The run's answer inside a Bedrock block or a Gemini part (under "error" when it failed), or as it came.
const inner = (a) => (a.toolResult ? JSON.parse(a.toolResult.content[0].text) : a.functionResponse ? Object.values(a.functionResponse.response)[0] : a);
const results = (answers) => answers.map((a) => (typeof a == "string" ? a : (inner(a).result ?? a.error?.code)));

describe("hostile35: handleToolCall's shapes and the compiled modules of session 34", () => {
    test("a polluted Object.prototype does not replace the model's call: only the call object's own fields are read", () => {
        const pwn = JSON.stringify(code("return 'PWN'"));
        const calls = `[
            [{ type: "tool_use", id: "a1", name: "executeCode", input: ${JSON.stringify(code("return 'anthropic'"))} }],
            [{ id: "c1", type: "function", function: { name: "executeCode", arguments: ${JSON.stringify(JSON.stringify(code("return 'openai'")))} } }],
            [{ toolCallId: "x", toolName: "executeCode", input: ${JSON.stringify(code("return 'ai sdk'"))} }],
            [{ text: "a text block, no call" }],
            [{ name: "executeCode" }],
            ["multi_tool_use.parallel", {}],
            [{ toolUse: { name: "executeCode", input: ${JSON.stringify(code("return 'bedrock'"))} } }],
        ]`;
        const byKey = [
            [`{ functionCall: { id: "P", name: "executeCode", args: ${pwn} } }`],
            [`{ toolUse: { toolUseId: "P", name: "executeCode", input: ${pwn} } }`],
            [`{ function: { name: "executeCode", arguments: ${pwn} } }`],
            [`{ arguments: ${pwn}, input: ${pwn}, args: ${pwn}, parameters: ${pwn}, toolUseId: "P", id: "P" }`],
            [`{ tool_uses: [{ recipient_name: "executeCode", parameters: ${pwn} }] }`],
        ];
        const noCall = "threw handleToolCall: call: expected { name, arguments }, { toolName, input }, { toolUse } or { functionCall }";
        for (const [pollution] of byKey) {
            const answers = pollutedCalls(pollution, calls);
            assert.deepEqual(results(answers), ["anthropic", "openai", "ai sdk", noCall, "INVALID_INPUT", "UNKNOWN_TOOL", "bedrock"], pollution);
            // The Bedrock block had no toolUseId: none is made up from Object.prototype's.
            assert.equal(answers[6].toolResult.toolUseId, undefined, pollution);
        }
    });

    test("a tool hidden by toolFilter is no tool through any call shape, nor in a run or a search, and the answer's id is the caller's", async (t) => {
        let called = 0;
        const api = await withFactory(t, {
            wasmLocation: assetPath,
            tools: [tool("visible", () => 1), { ...tool("secret", () => ++called), annotations: { hidden: true } }],
            toolFilter: (d) => !d.annotations?.hidden,
        });
        const { handleToolCall } = await import(llmURL);
        const s = api.createSession();
        const id = { an: "object id" };
        const shapes = [
            [{ toolUse: { toolUseId: id, name: "secret", input: {} } }],
            [{ functionCall: { id, name: "secret", args: {} } }],
            [{ name: "secret", parameters: {} }],
            [{ toolCallId: "a", toolName: "secret", input: {} }],
            [{ id: "c", type: "function", function: { name: "secret", arguments: "{}" } }],
            ["functions.secret", {}],
            ["multi_tool_use.parallel", { tool_uses: [{ recipient_name: "functions.secret", parameters: {} }] }],
            [{ toolUse: { toolUseId: "s", name: "Secret", input: {} }, functionCall: { name: "secret", args: {} } }],
        ];
        for (const call of shapes) {
            const a = await handleToolCall(s, ...call);
            assert.equal([inner(a)].flat()[0].error?.code, "UNKNOWN_TOOL", JSON.stringify(call));
            if (a.toolResult) assert.equal(a.toolResult.toolUseId, call[0].toolUse.toolUseId);
            if (a.functionResponse) assert.equal(a.functionResponse.id, id);
        }
        const inRun = await handleToolCall(s, { toolUse: { toolUseId: "r", name: "executeCode", input: code("return [typeof tools.secret, Object.keys(tools).join()]") } });
        assert.deepEqual(inner(inRun).result, ["undefined", "visible"]);
        const found = await handleToolCall(s, { functionCall: { name: "searchTools", args: { query: "secret" } } });
        assert.deepEqual(inner(found), []);
        assert.equal(called, 0);
    });
});

describe("hostile35: compiled modules that are not the package's", () => {
    const wasmModule = new WebAssembly.Module(readFileSync(assetPath));
    const coreModule = new WebAssembly.Module(readFileSync(coreWasmPath));

    test("look-alikes of a Module, and a core of another build, are a TypeError naming the field; nothing is left running, and a good factory works after", async () => {
        const IoCodeModeFactory = await loadFactory();
        const revoked = Proxy.revocable(wasmModule, {});
        revoked.revoke();
        const cases = [
            ["wasmModule", new Proxy(wasmModule, {})],
            ["coreModule", new Proxy(coreModule, {})],
            ["wasmModule", Object.create(WebAssembly.Module.prototype)],
            ["coreModule", { [Symbol.toStringTag]: "WebAssembly.Module" }],
            ["wasmModule", { default: wasmModule }],
            ["coreModule", Promise.resolve(coreModule)],
            ["wasmModule", revoked.proxy],
        ];
        const before = process.getActiveResourcesInfo().sort().join();
        for (const [field, value] of cases) {
            await assert.rejects(IoCodeModeFactory({ wasmLocation: assetPath, [field]: value }), (e) => {
                assert.ok(e instanceof TypeError, String(e));
                assert.match(e.message, new RegExp(`^config\\.${field}: expected `), e.message);
                return true;
            });
        }
        // The core of another build (an older package's code-mode.wasm
        // beside this loader): the package's own with no build id, or another
        // one; and a module that imports Go's functions but is no core.
        const bytes = readFileSync(coreWasmPath);
        const unstamped = bytes.subarray(0, bytes.lastIndexOf("code-mode.build") - 3);
        const stamp = Buffer.from("\x00\x1c\x0fcode-mode.build000000000000", "latin1");
        const fakeGo = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 1, 127, 0, 2, 25, 1, 4, 103, 111, 106, 115, 16, 114, 117, 110, 116, 105, 109, 101, 46, 119, 97, 115, 109, 69, 120, 105, 116, 0, 0]);
        const others = [
            [new WebAssembly.Module(unstamped), "one that names no build (an older package's)"],
            [new WebAssembly.Module(Buffer.concat([unstamped, stamp])), "one of build 000000000000"],
            [new WebAssembly.Module(fakeGo), "one that names no build (an older package's)"],
        ];
        for (const [module, got] of others) {
            await assert.rejects(IoCodeModeFactory({ wasmLocation: assetPath, coreModule: module }), (e) => {
                assert.ok(e instanceof TypeError, String(e));
                assert.match(e.message, /^config\.coreModule: expected the code-mode\.wasm of this package's build \([0-9a-f]{12}\), got (.*): give the code-mode\.wasm that came with this copy of the package$/);
                assert.equal(/got (.*): give/.exec(e.message)?.[1], got);
                return true;
            });
        }
        assert.equal(process.getActiveResourcesInfo().sort().join(), before);
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, wasmModule, coreModule, tools: [tool("add", ({ a, b }) => a + b)] });
        try {
            assert.equal((await run(api.createSession(), "return await tools.add({ a: 2, b: 40 })")).result, 42);
        } finally {
            api.dispose();
        }
    });
});

describe("hostile35: this session's config.timeZone (localzone35)", () => {
    test("a timeZone of 1 MB, with a NUL, a path or Go's Local is a TypeError naming the field, quoting at most a zone's length", async () => {
        const IoCodeModeFactory = await loadFactory();
        const cases = [
            ["A".repeat(1 << 20), `"${"A".repeat(64)}..."`],
            ["America/New_York\0", '"America/New_York\\x00"'],
            ["../../../etc/passwd", '"../../../etc/passwd"'],
            ["Local", '"Local"'],
        ];
        for (const [timeZone, quoted] of cases) {
            await assert.rejects(IoCodeModeFactory({ wasmLocation: assetPath, timeZone }), (e) => {
                assert.ok(e instanceof TypeError, String(e));
                assert.equal(e.message, `config.timeZone: unknown time zone ${quoted}: expected an IANA name such as "America/New_York" or "UTC"`);
                return true;
            });
        }
    });
});
