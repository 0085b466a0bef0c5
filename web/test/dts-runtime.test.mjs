// The package's types (dist/index.d.ts, read with the TypeScript compiler)
// name what the runtime accepts, no more and no less: each options object's
// fields are the keys the core takes (wasm/config.go's tables, the ones its
// unknown-key errors list), the error codes are the core's, and the LLM
// tools' argument types are the shapes their INVALID_INPUT messages state;
// each adapter's options interface has the keys its checkOptions spec takes.
// A key the runtime takes but the types refuse (or the reverse) fails here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { assetPath, dist, goStringList, llmTools, loadFactory, root } from "./helpers.mjs";

const ADAPTERS = ["fdc3", "io-connect", "mcp", "webmcp"];
const program = ts.createProgram(
    ["index", ...ADAPTERS].map((f) => join(dist, `${f}.d.ts`)),
    { strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext },
);
const checker = program.getTypeChecker();
/** The exports of dist/<name>.d.ts. */
const exportsOf = (name) => checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(join(dist, `${name}.d.ts`))));
const namespace = exportsOf("index").find((s) => s.name === "IoCodeMode");

/** The declared type of IoCodeMode.<name>. */
function declared(name) {
    const symbol = checker.getExportsOfModule(namespace).find((s) => s.name === name);
    assert.ok(symbol, `index.d.ts has no IoCodeMode.${name}`);
    return checker.getDeclaredTypeOfSymbol(symbol);
}

/** The property names of a type (of every member, for a union): { name: optional }. */
function fields(type) {
    const out = {};
    for (const t of type.isUnion() ? type.types : [type]) {
        for (const p of checker.getPropertiesOfType(t)) out[p.name] = (p.flags & ts.SymbolFlags.Optional) !== 0;
    }
    return out;
}

const goList = (name) => goStringList("wasm/config.go", name);
const sorted = (a) => [...a].sort();

test("each options object of index.d.ts has the keys the core takes", () => {
    const config = declared("Config");
    const interceptors = checker.getNonNullableType(checker.getTypeOfSymbol(config.getProperty("interceptors")));
    const rows = [
        ["Config", fields(config), "configKeys"],
        ["Config.interceptors", fields(interceptors), "interceptorKeys"],
        ["SearchOptions", fields(declared("SearchOptions")), "searchKeys"],
        ["CreateSessionOptions", fields(declared("CreateSessionOptions")), "sessionKeys"],
        ["LlmToolExecuteOptions", fields(declared("LlmToolExecuteOptions")), "runOptionKeys"],
        ["ToolDefinition", fields(declared("ToolDefinition")), "toolKeys"],
        ["InterceptorDecision", fields(declared("InterceptorDecision")), "decisionKeys"],
    ];
    for (const [name, f, table] of rows) assert.deepEqual(sorted(Object.keys(f)), sorted(goList(table)), `IoCodeMode.${name} vs wasm/config.go ${table}`);
});

// USAGE's table of every config key and its default: a key the core takes
// and the table leaves out (or the reverse) fails here.
test("USAGE's config table lists the keys the core takes", () => {
    const usage = readFileSync(join(root, "web", "USAGE.md"), "utf8");
    const section = /^### The config at a glance\n([\s\S]*?)\n###? /m.exec(usage);
    assert.ok(section, "web/USAGE.md has no section \"The config at a glance\"");
    const keys = [...section[1].matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);
    assert.deepEqual(sorted(keys), sorted(goList("configKeys")));
    assert.equal(new Set(keys).size, keys.length, "a key listed twice");
});

// The same table's limits: its default is what a factory given no value
// uses (executeCode's description states the limits a factory runs with),
// its bounds are taken and one past each is a TypeError naming the key.
test("USAGE's config table states each limit's default and bounds as the factory has them", async () => {
    const usage = readFileSync(join(root, "web", "USAGE.md"), "utf8");
    const section = /^### The config at a glance\n([\s\S]*?)\n###? /m.exec(usage);
    assert.ok(section, "web/USAGE.md has no section \"The config at a glance\"");
    const number = (s) => Number(s.replaceAll(",", ""));
    const rows = [...section[1].matchAll(/^\| `(\w+)` \| `(\d+)` \| [^|]*; (\d[\d,]*) to (\d[\d,]*) \|$/gm)].map(([, key, def, lo, hi]) => ({ key, def: number(def), lo: number(lo), hi: number(hi) }));
    assert.deepEqual(rows.map((r) => r.key), ["timeout", "memoryLimit", "maxToolCalls", "maxResultChars"], "the table's rows of a default and a range");
    const IoCodeModeFactory = await loadFactory();
    const limits = async (config) => {
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, ...config });
        try {
            return /Limits per run: .*$/.exec(llmTools(api.createSession()).executeCode.description)?.[0];
        } finally {
            api.dispose();
        }
    };
    const pick = (bound) => Object.fromEntries(rows.map((r) => [r.key, r[bound]]));
    const none = await limits({});
    assert.ok(none, "executeCode's description states no limits");
    assert.equal(await limits(pick("def")), none, `the table's defaults ${JSON.stringify(pick("def"))}`);
    assert.notEqual(await limits(pick("lo")), none);
    assert.notEqual(await limits(pick("hi")), none);
    for (const { key, lo, hi } of rows) {
        for (const past of [lo - 1, hi + 1]) {
            await assert.rejects(IoCodeModeFactory({ wasmLocation: assetPath, [key]: past }), (e) => e instanceof TypeError && e.message.startsWith(`config.${key}: `), `${key}: ${past}`);
        }
    }
});

test("IoCodeMode.ErrorCode is the core's error codes", () => {
    const codes = declared("ErrorCode").types.map((t) => t.value);
    const core = [
        ...readFileSync(join(root, "sandbox", "sandbox.go"), "utf8").matchAll(/^\s*Code\w+\s+ErrorCode = "([A-Z_]+)"/gm),
        ...readFileSync(join(root, "llmargs.go"), "utf8").matchAll(/^const ErrorCode\w+ = "([A-Z_]+)"/gm),
        ...readFileSync(join(root, "execute.go"), "utf8").matchAll(/^const ErrorCode\w+ = "([A-Z_]+)"/gm),
    ].map((m) => m[1]);
    assert.equal(core.length, 7, `the core's codes as read: ${core}`);
    assert.deepEqual(sorted(codes), sorted(core));
});

test("SearchToolsArgs and ExecuteCodeArgs are the shapes the LLM tools' errors state", async () => {
    const IoCodeModeFactory = await loadFactory();
    const api = await IoCodeModeFactory({ wasmLocation: assetPath });
    try {
        const { searchTools, executeCode } = llmTools(api.createSession());
        // An unknown argument's message ends with the tool's argument shape, as TypeScript.
        const shape = async (tool, args) => {
            const r = await tool.execute(args);
            const m = /; expected \{ (.*) \}$/.exec(r.error?.message ?? "");
            assert.ok(m, JSON.stringify(r));
            return Object.fromEntries(m[1].split("; ").map((f) => [f.split(/\??:/)[0], /^\w+\?:/.test(f)]));
        };
        const searchShape = await shape(searchTools, { qurey: "x" });
        assert.deepEqual(fields(declared("SearchToolsArgs")), searchShape);
        // explanation: the types require it (API.md: { code: string, explanation: string }); the
        // runtime reads a missing one as none (USAGE, "The LLM tools' arguments"). Only the names compare.
        const execShape = await shape(executeCode, { cdoe: "return 1" });
        assert.deepEqual(sorted(Object.keys(fields(declared("ExecuteCodeArgs")))), sorted(Object.keys(execShape)));
    } finally {
        api.dispose();
    }
});

// The functions an SDK is handed off their tool (USAGE's AI SDK snippet:
// toModelOutput: executeCode.toModelOutput) work detached, in both modes,
// and their types say so with this: void: typescript-eslint's unbound-method
// (recommendedTypeChecked) refused the snippet as it was typed.
test("an LLM tool's execute and toModelOutput work detached, and are typed this: void", async () => {
    const tool = declared("LlmTool");
    for (const name of ["execute", "toModelOutput"]) {
        const signatures = checker.getTypeOfSymbol(tool.getProperty(name)).getCallSignatures();
        assert.ok(signatures.length > 0, name);
        for (const sig of signatures) {
            const self = sig.thisParameter && checker.getTypeOfSymbol(sig.thisParameter);
            assert.ok(self && self.flags & ts.TypeFlags.Void, `LlmTool.${name}(${checker.signatureToString(sig)}) has no this: void`);
        }
    }
    const IoCodeModeFactory = await loadFactory();
    const api = await IoCodeModeFactory({ wasmLocation: assetPath });
    try {
        const { searchTools, executeCode } = llmTools(api.createSession());
        const { execute, toModelOutput } = executeCode;
        const failed = await execute({ code: "throw new Error('no')", explanation: "Fail." });
        assert.equal(failed.error?.message, "no", JSON.stringify(failed));
        assert.equal(toModelOutput({ toolCallId: "1", input: {}, output: failed }).type, "error-json");
        const search = searchTools.execute;
        assert.deepEqual(await search({ query: "anything" }), []);
        assert.equal(searchTools.toModelOutput.call(undefined, []).type, "json");
    } finally {
        api.dispose();
    }
});

test("each adapter's options interface has the keys its options check takes", () => {
    // web/src/adapters/<file>: const <spec> = { key: ..., } as checkOptions reads it.
    const spec = (file, name) => {
        const src = readFileSync(join(root, "web", "src", "adapters", `${file}.mjs`), "utf8");
        const m = new RegExp(`^const ${name} = \\{\\n([\\s\\S]*?)\\n\\};`, "m").exec(src);
        assert.ok(m, `web/src/adapters/${file}.mjs has no ${name}`);
        return [...m[1].matchAll(/^ {4}(\w+):/gm)].map((x) => x[1]);
    };
    const rows = [
        ["fdc3", "OPTIONS", "FromFdc3Options"],
        ["io-connect", "OPTIONS", "FromIoConnectOptions"],
        ["mcp", "FROM_OPTIONS", "FromMcpClientOptions"],
        ["mcp", "TO_OPTIONS", "ToMcpServerOptions"],
        ["webmcp", "FROM_OPTIONS", "FromWebMcpOptions"],
        ["webmcp", "EXPOSE_OPTIONS", "ExposeToWebMcpOptions"],
    ];
    for (const [file, name, iface] of rows) {
        const symbol = exportsOf(file).find((s) => s.name === iface);
        assert.ok(symbol, `dist/${file}.d.ts has no ${iface}`);
        assert.deepEqual(sorted(Object.keys(fields(checker.getDeclaredTypeOfSymbol(symbol)))), sorted(spec(file, name)), `${file}.d.ts ${iface} vs ${file}.mjs ${name}`);
    }
});
