// The error table: inputs a user or a model gets wrong, each with the error
// it must meet, run from the outside (the public API only) in-thread and in
// worker mode by errors.test.mjs. Written down before the implementation was
// read (session 16's errors audit); `want` is what a careful user expects:
// the kind of error, the field it names and what was expected.
//
// A case's run(ctx) returns what happened: use ctx.outcome(promise) to turn
// a rejection/throw into { threw: { name, message } }, and a resolution into
// { value }. `want` checks that outcome: thrown(Name, /re/), failed(CODE, /re/)
// (an executeCode result with ok: false), or a function returning true when
// the outcome is right.

/** The outcome of a promise (or a function that may throw). */
export async function outcome(p) {
    try {
        const value = typeof p === "function" ? await p() : await p;
        return { value };
    } catch (e) {
        return { threw: { name: e?.name, message: String(e?.message ?? e), error: e } };
    }
}

const tool = (name, execute, extra = {}) => ({ name, description: `The ${name} tool.`, inputSchema: { type: "object" }, execute, ...extra });

/** want: a throw (or rejection) of `name` whose message matches every `res`. */
export const thrown = (name, ...res) => (o) =>
    o.threw !== undefined && o.threw.name === name && res.every((re) => re.test(o.threw.message));
/** want: an executeCode (or searchTools) result with ok: false, this code, and a message matching every `res`. */
export const failed = (code, ...res) => (o) =>
    o.value?.ok === false && o.value.error?.code === code && res.every((re) => re.test(o.value.error.message));
/** want: a resolved value that passes `pred`. */
export const resolved = (pred) => (o) => o.threw === undefined && pred(o.value);

// Words of the implementation that must never reach a user or a model.
export const LEAKS = /syscall\/js|\bruntime error\b|goroutine|\bpanic\b|js\.Value|\*codemode\.|\bnil\b|interface \{\}|wasm-function|\.go:\d/;

/** Runs `code` in a fresh factory with `tools`; returns the executeCode result. */
async function runCode(ctx, code, { tools = [], config = {}, args } = {}) {
    const cm = await ctx.factory({ wasmLocation: ctx.wasm, ...config });
    try {
        if (tools.length) cm.registerTools(tools);
        const s = cm.createSession();
        const [, exec] = s.getLlmTools();
        return await exec.execute(args ?? { code, explanation: "test" });
    } finally {
        cm.dispose();
    }
}

/** What a tool's error looks like inside the program, and uncaught as the run's error. */
async function toolError(ctx, execute) {
    const caught = await runCode(ctx,
        `try { await tools.t({}); return "no error"; } catch (e) { return { name: e.name, message: e.message }; }`,
        { tools: [tool("t", execute)] });
    const uncaught = await runCode(ctx, `await tools.t({});`, { tools: [tool("t", execute)] });
    return { caught, uncaught };
}

/** A tool call through an interceptor; returns the program's view and the call's record. */
async function intercepted(ctx, onToolCall, execute = () => "ran") {
    return runCode(ctx,
        `try { return await tools.t({ a: 1 }); } catch (e) { return { name: e.name, message: e.message }; }`,
        { tools: [tool("t", execute)], config: { interceptors: { onToolCall } } });
}

async function llm(ctx, which, args, extra = {}) {
    const cm = await ctx.factory({ wasmLocation: ctx.wasm });
    try {
        cm.registerTools([tool("orders.search", () => []), tool("orders.get", () => ({}))]);
        const [search, exec] = cm.createSession().getLlmTools();
        return await (which === "search" ? search : exec).execute(args, extra.options);
    } finally {
        cm.dispose();
    }
}

async function withFactory(ctx, fn, config = {}) {
    const cm = await ctx.factory({ wasmLocation: ctx.wasm, ...config });
    try {
        return await fn(cm);
    } finally {
        cm.dispose();
    }
}

const caughtIs = (re) => (o) => o.value?.ok === true && re.test(o.value.result?.message ?? "");
const denied = (re) => (o) =>
    o.value?.ok === true && o.value.toolCalls?.[0]?.allowed === false && re.test(o.value.toolCalls[0].reason ?? "") &&
    re.test(o.value.result?.message ?? "");

export const cases = [
    // ---- Factory config ----
    { id: "F01", input: "IoCodeModeFactory()", expect: "TypeError: config: expected an object with wasmLocation",
        run: (c) => c.outcome(() => c.rawFactory()), want: thrown("TypeError", /config/, /object/) },
    { id: "F02", input: 'IoCodeModeFactory("x.wasm") (the location, not a config)', expect: "TypeError: config: expected an object, got a string (suggests { wasmLocation })",
        run: (c) => c.outcome(() => c.rawFactory(c.wasm)), want: thrown("TypeError", /config/, /object/, /string/) },
    { id: "F03", input: "IoCodeModeFactory(null)", expect: "TypeError naming config, got null",
        run: (c) => c.outcome(() => c.rawFactory(null)), want: thrown("TypeError", /config/, /null/) },
    { id: "F04", input: "{} (no wasmLocation)", expect: "TypeError: config.wasmLocation: required",
        run: (c) => c.outcome(() => c.factory({})), want: thrown("TypeError", /^config\.wasmLocation: expected a non-empty string .*, got undefined$/) },
    { id: "F05", input: "wasmLocation: 123", expect: "TypeError: config.wasmLocation: expected a string or URL, got a number",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: 123 })), want: thrown("TypeError", /wasmLocation/, /number/) },
    { id: "F06", input: 'wasmLocation: ""', expect: "TypeError: config.wasmLocation: empty",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: "" })), want: thrown("TypeError", /wasmLocation/, /empty/) },
    { id: "F07", input: "wasmLocation: {} (a plain object)", expect: "TypeError naming config.wasmLocation and the object",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: {} })), want: thrown("TypeError", /wasmLocation/, /object/) },
    { id: "F08", input: "wasmLocation: a file that is not there", expect: "Error: Cannot load the QuickJS asset from <path>: no such file",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm + ".missing" })),
        want: thrown("Error", /Cannot load the QuickJS asset/, /\.missing/, /no such file|not found|ENOENT/i) },
    { id: "F09", input: "wasmLocation: a JSON file (not WebAssembly)", expect: "Error: Cannot load ... : not WebAssembly",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.packageJson })),
        want: thrown("Error", /Cannot load the QuickJS asset/, /package\.json/, /WebAssembly/) },
    { id: "F10", input: "wasmLocation: the Go core's code-mode.wasm (wrong .wasm)", expect: "Error: Cannot load ... : not a QuickJS asset",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.coreWasm })),
        want: thrown("Error", /^Cannot load the QuickJS asset from .*code-mode\.wasm: not the QuickJS asset this build understands \(expected [^)]*\): it is a Go program's WebAssembly \(Code Mode's own code-mode\.wasm\?\), not QuickJS; the asset is the package's emscripten-module\.wasm$/) },
    { id: "F11", input: "wasmLocation: http://127.0.0.1:1/q.wasm (refused)", expect: "Error: Cannot load ... from that URL: connection refused / fetch failed",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: "http://127.0.0.1:1/q.wasm" })),
        want: thrown("Error", /Cannot load the QuickJS asset/, /127\.0\.0\.1:1/) },
    { id: "F12", input: "wasmLocation: an ArrayBuffer of the asset", expect: "TypeError naming config.wasmLocation (a URL or path is expected), or accepted",
        run: (c) => c.outcome(async () => { const cm = await c.factory({ wasmLocation: new ArrayBuffer(8) }); cm.dispose(); return "accepted"; }),
        want: (o) => o.value === "accepted" || thrown("TypeError", /wasmLocation/)(o) },
    { id: "F13", input: 'timeout: "5000"', expect: "TypeError: config.timeout: expected a number, got the string \"5000\"",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, timeout: "5000" })), want: thrown("TypeError", /config\.timeout/, /string/) },
    { id: "F14", input: "timeout: NaN", expect: "TypeError: config.timeout: ... got NaN",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, timeout: NaN })), want: thrown("TypeError", /^config\.timeout: expected a finite positive number, got the number NaN$/) },
    { id: "F15", input: "timeout: Infinity", expect: "TypeError: config.timeout: ... at most 24 h, got Infinity",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, timeout: Infinity })), want: thrown("TypeError", /^config\.timeout: expected a finite positive number, got the number Infinity$/) },
    { id: "F16", input: "timeout: -1", expect: "TypeError: config.timeout: expected a positive number, got -1",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, timeout: -1 })), want: thrown("TypeError", /config\.timeout/, /-1/) },
    { id: "F17", input: "timeout: 0", expect: "TypeError: config.timeout ... got 0",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, timeout: 0 })), want: thrown("TypeError", /config\.timeout/, /\b0\b/) },
    { id: "F18", input: "timeout: 25 hours in ms", expect: "TypeError: config.timeout: at most 24 h",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, timeout: 25 * 3600e3 })), want: thrown("TypeError", /^config\.timeout: must be at most 24h \(86400000 ms\), got 25h \(90000000 ms\)$/) },
    { id: "F19", input: 'memoryLimit: "128"', expect: "TypeError: config.memoryLimit: expected a number, got a string",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, memoryLimit: "128" })), want: thrown("TypeError", /config\.memoryLimit/, /string/) },
    { id: "F20", input: "memoryLimit: 0", expect: "TypeError: config.memoryLimit: 1 to 1016, got 0",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, memoryLimit: 0 })), want: thrown("TypeError", /^config\.memoryLimit: expected a positive integer, got the number 0$/) },
    { id: "F21", input: "memoryLimit: -64", expect: "TypeError: config.memoryLimit ... got -64",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, memoryLimit: -64 })), want: thrown("TypeError", /config\.memoryLimit/, /-64/) },
    { id: "F22", input: "memoryLimit: 4096", expect: "TypeError: config.memoryLimit: at most 1016",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, memoryLimit: 4096 })), want: thrown("TypeError", /config\.memoryLimit/, /1016/) },
    { id: "F23", input: "memoryLimit: NaN", expect: "TypeError: config.memoryLimit ... NaN",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, memoryLimit: NaN })), want: thrown("TypeError", /^config\.memoryLimit: expected a finite positive integer, got the number NaN$/) },
    { id: "F24", input: "memoryLimit: Infinity", expect: "TypeError: config.memoryLimit ... Infinity",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, memoryLimit: Infinity })), want: thrown("TypeError", /^config\.memoryLimit: expected a finite positive integer, got the number Infinity$/) },
    { id: "F25", input: 'memoryLimit: "128MB"', expect: "TypeError: config.memoryLimit: expected a number (MB)",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, memoryLimit: "128MB" })), want: thrown("TypeError", /^config\.memoryLimit: expected a positive integer, got the string "128MB"$/) },
    { id: "F26", input: "maxToolCalls: 0", expect: "TypeError: config.maxToolCalls: 1 to 50,000",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, maxToolCalls: 0 })), want: thrown("TypeError", /config\.maxToolCalls/) },
    { id: "F27", input: "maxToolCalls: 2.5", expect: "TypeError: config.maxToolCalls: expected an integer",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, maxToolCalls: 2.5 })), want: thrown("TypeError", /config\.maxToolCalls/, /integer|whole/) },
    { id: "F28", input: "maxResultChars: 10", expect: "TypeError: config.maxResultChars: at least 100",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, maxResultChars: 10 })), want: thrown("TypeError", /config\.maxResultChars/, /100/) },
    { id: "F29", input: 'toolFilter: "admin"', expect: "TypeError: config.toolFilter: expected a function",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, toolFilter: "admin" })), want: thrown("TypeError", /config\.toolFilter/, /function/) },
    { id: "F30", input: "interceptors: a function", expect: "TypeError: config.interceptors: expected an object { onToolCall }",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, interceptors: () => ({ allowed: true }) })),
        want: thrown("TypeError", /config\.interceptors: expected an object \{ onToolCall \}, got a function: write interceptors: \{ onToolCall: yourFunction \}/) },
    { id: "F31", input: "interceptors: { onToolcall } (misspelt)", expect: 'TypeError: config.interceptors: unknown key "onToolcall" (did you mean "onToolCall"?)',
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, interceptors: { onToolcall: () => ({ allowed: true }) } })),
        want: thrown("TypeError", /config\.interceptors/, /onToolcall/, /did you mean "onToolCall"/) },
    { id: "F32", input: 'interceptors: { onToolCall: "deny" }', expect: "TypeError: config.interceptors.onToolCall: expected a function",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, interceptors: { onToolCall: "deny" } })),
        want: thrown("TypeError", /interceptors\.onToolCall/, /function/) },
    { id: "F33", input: "onToolCall at the top level", expect: "TypeError: config: unknown key \"onToolCall\" (it belongs in interceptors ...)",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, onToolCall: () => ({ allowed: true }) })),
        want: thrown("TypeError", /onToolCall/, /interceptors/) },
    { id: "F34", input: "timout: 5000 (misspelt)", expect: 'TypeError: config: unknown key "timout" (did you mean "timeout"?)',
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, timout: 5000 })), want: thrown("TypeError", /timout/, /did you mean "timeout"/) },
    { id: "F35", input: 'overwriteSystemInstruction: "You are..." (a string, not a function)', expect: "TypeError: config.overwriteSystemInstruction: expected a function",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, overwriteSystemInstruction: "You are a bot" })),
        want: thrown("TypeError", /overwriteSystemInstruction/, /function/) },
    { id: "F36", input: 'worker: "yes"', expect: "TypeError: config.worker: expected a boolean",
        run: (c) => c.outcome(() => c.rawFactory({ wasmLocation: c.wasm, worker: "yes" })), want: thrown("TypeError", /config\.worker/, /boolean/) },
    { id: "F37", input: "onEvent: {} (an object)", expect: "TypeError: config.onEvent: expected a function",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, onEvent: {} })), want: thrown("TypeError", /config\.onEvent/, /function/) },
    { id: "F38", input: "tools: { a: {...} } (an object, not an array)", expect: "TypeError: config.tools: expected an array",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, tools: { a: tool("a", () => 1) } })), want: thrown("TypeError", /config\.tools/, /array/) },
    { id: "F39", input: 'tools: [{ name: "a" }] (no execute)', expect: 'TypeError: config.tools[0] ("a"): execute: required, a function',
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, tools: [{ name: "a" }] })), want: thrown("TypeError", /^config\.tools\[0\] \("a"\): execute: expected a function, got undefined$/) },
    { id: "F40", input: "tools: two tools named a", expect: 'TypeError: config.tools[1] ("a"): name: a duplicate',
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, tools: [tool("a", () => 1), tool("a", () => 2)] })),
        want: thrown("TypeError", /^config\.tools\[1\] \("a"\): name: appears more than once in the batch$/) },
    { id: "F41", input: "a config getter that throws (timeout)", expect: "TypeError: config.timeout: reading it threw: ...",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, get timeout() { throw new Error("nope"); } })),
        want: thrown("TypeError", /config\.timeout/, /threw/, /nope/) },
    { id: "F42", input: "interceptors: null", expect: "accepted as none, or TypeError naming config.interceptors",
        run: (c) => c.outcome(async () => { const cm = await c.factory({ wasmLocation: c.wasm, interceptors: null }); cm.dispose(); return "accepted"; }),
        want: (o) => o.value === "accepted" || thrown("TypeError", /config\.interceptors/)(o) },
    { id: "F43", input: "timeout: 1.5", expect: "accepted (ms) or TypeError naming config.timeout",
        run: (c) => c.outcome(async () => { const cm = await c.factory({ wasmLocation: c.wasm, timeout: 1.5 }); cm.dispose(); return "accepted"; }),
        want: (o) => o.value === "accepted" || thrown("TypeError", /config\.timeout/)(o) },
    { id: "F44", input: "timeout: 5000n (BigInt)", expect: "TypeError: config.timeout: expected a number, got a bigint",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, timeout: 5000n })), want: thrown("TypeError", /config\.timeout/, /bigint|BigInt/) },

    // ---- Tool definitions ----
    { id: "R01", input: "registerTool()", expect: "TypeError: tool: expected an object",
        run: (c) => withFactory(c, (cm) => c.outcome(() => cm.registerTool())), want: thrown("TypeError", /tool/, /object/) },
    { id: "R02", input: "registerTool({ execute }) (no name)", expect: "TypeError: tool: name: required",
        run: (c) => withFactory(c, (cm) => c.outcome(() => cm.registerTool({ execute: () => 1 }))), want: thrown("TypeError", /^tool\.name: expected a string, got undefined$/) },
    { id: "R03", input: 'name: ""', expect: "TypeError naming name, 1..128 chars",
        run: (c) => withFactory(c, (cm) => c.outcome(() => cm.registerTool(tool("", () => 1)))), want: thrown("TypeError", /name/) },
    { id: "R04", input: 'name: "get orders" (a space)', expect: "TypeError: tool (\"get orders\"): name: only [A-Za-z0-9_$.-]",
        run: (c) => withFactory(c, (cm) => c.outcome(() => cm.registerTool(tool("get orders", () => 1)))), want: thrown("TypeError", /get orders/, /name/, /A-Za-z0-9|characters/) },
    { id: "R05", input: "name of 129 characters", expect: "TypeError: name: at most 128 characters",
        run: (c) => withFactory(c, (cm) => c.outcome(() => cm.registerTool(tool("a".repeat(129), () => 1)))), want: thrown("TypeError", /name/, /128/) },
    { id: "R06", input: 'name: "orders.then"', expect: "TypeError: a name may not end in then",
        run: (c) => withFactory(c, (cm) => c.outcome(() => cm.registerTool(tool("orders.then", () => 1)))), want: thrown("TypeError", /then/) },
    { id: "R07", input: "name: 42 (a number)", expect: "TypeError: tool: name: expected a string, got a number",
        run: (c) => withFactory(c, (cm) => c.outcome(() => cm.registerTool(tool(42, () => 1)))), want: thrown("TypeError", /name/, /string/) },
    { id: "R08", input: 'registerTool({ name: "x" }) (no execute)', expect: 'TypeError: tool ("x"): execute: required, a function',
        run: (c) => withFactory(c, (cm) => c.outcome(() => cm.registerTool({ name: "x" }))), want: thrown("TypeError", /^tool \("x"\): execute: expected a function, got undefined$/) },
    { id: "R09", input: 'execute: "fn" (a string)', expect: 'TypeError: tool ("x"): execute: expected a function, got a string',
        run: (c) => withFactory(c, (cm) => c.outcome(() => cm.registerTool(tool("x", "fn")))), want: thrown("TypeError", /^tool \("x"\): execute: expected a function, got the string "fn"$/) },
    { id: "R10", input: "description: 5", expect: 'TypeError: tool ("x"): description: expected a string',
        run: (c) => withFactory(c, (cm) => c.outcome(() => cm.registerTool(tool("x", () => 1, { description: 5 })))), want: thrown("TypeError", /^tool \("x"\): description: expected a string, got the number 5$/) },
    { id: "R11", input: 'inputSchema: { type: "strin" }', expect: 'TypeError: tool ("x"): inputSchema: /type: "strin" is not a type',
        run: (c) => withFactory(c, (cm) => c.outcome(() => cm.registerTool(tool("x", () => 1, { inputSchema: { type: "strin" } })))),
        want: thrown("TypeError", /"x"/, /inputSchema/, /strin/) },
    { id: "R12", input: 'inputSchema: { status: "string" } (no keyword)', expect: "TypeError: inputSchema: not a JSON Schema (no keyword)",
        run: (c) => withFactory(c, (cm) => c.outcome(() => cm.registerTool(tool("x", () => 1, { inputSchema: { status: "string" } })))),
        want: thrown("TypeError", /^tool \("x"\): inputSchema: must be a JSON Schema, but none of its keys \(status\) is a JSON Schema keyword/) },
    { id: "R13", input: 'inputSchema: "object" (a string)', expect: "TypeError: inputSchema: expected an object (JSON Schema)",
        run: (c) => withFactory(c, (cm) => c.outcome(() => cm.registerTool(tool("x", () => 1, { inputSchema: "object" })))),
        want: thrown("TypeError", /^tool \("x"\): inputSchema: expected JSON Schema .*; got the string "object"$/) },
    { id: "R14", input: "inputSchema pattern with a lookahead", expect: "TypeError: inputSchema: /properties/u/pattern: lookahead not supported",
        run: (c) => withFactory(c, (cm) => c.outcome(() => cm.registerTool(tool("x", () => 1, { inputSchema: { type: "object", properties: { u: { type: "string", pattern: "^(?!admin)" } } } })))),
        want: thrown("TypeError", /inputSchema/, /\/properties\/u\/pattern/) },
    { id: "R15", input: "registerTool of a name already registered", expect: 'TypeError: tool ("x"): name: already registered',
        run: (c) => withFactory(c, (cm) => { cm.registerTool(tool("x", () => 1)); return c.outcome(() => cm.registerTool(tool("x", () => 2))); }),
        want: thrown("TypeError", /"x"/, /already/) },
    { id: "R16", input: "registerTools([good, bad]): nothing half registered", expect: 'TypeError: tools[1] ("b"): ...; "a" not registered',
        run: (c) => withFactory(c, async (cm) => {
            const o = await c.outcome(() => cm.registerTools([tool("a", () => 1), { name: "b" }]));
            o.listed = cm.listTools().map((t) => t.name);
            return o;
        }),
        want: (o) => thrown("TypeError", /^tools\[1\] \("b"\): execute: expected a function, got undefined$/)(o) && o.listed.length === 0 },
    { id: "R17", input: "registerTools([a, a]): a duplicate inside the list", expect: 'TypeError: tools[1] ("a"): duplicate; none registered',
        run: (c) => withFactory(c, async (cm) => {
            const o = await c.outcome(() => cm.registerTools([tool("a", () => 1), tool("a", () => 2)]));
            o.listed = cm.listTools().map((t) => t.name);
            return o;
        }),
        want: (o) => thrown("TypeError", /tools\[1\]/, /"a"/)(o) && o.listed.length === 0 },
    { id: "R18", input: "registerTools([c, a]) where a is registered: c not left behind", expect: 'TypeError: tools[1] ("a"): already registered; c not registered',
        run: (c) => withFactory(c, async (cm) => {
            cm.registerTool(tool("a", () => 1));
            const o = await c.outcome(() => cm.registerTools([tool("c", () => 1), tool("a", () => 2)]));
            o.listed = cm.listTools().map((t) => t.name);
            return o;
        }),
        want: (o) => thrown("TypeError", /tools\[1\]/, /"a"/, /already/)(o) && !o.listed.includes("c") },
    { id: "R19", input: 'registerTools("a") / registerTools(tool) (not an array)', expect: "TypeError: tools: expected an array",
        run: (c) => withFactory(c, (cm) => c.outcome(() => cm.registerTools(tool("a", () => 1)))), want: thrown("TypeError", /tools/, /array/) },
    { id: "R20", input: "a tool with parameters: {...} (OpenAI's name)", expect: 'TypeError: tool: unknown key "parameters" (the JSON Schema of the input is inputSchema here)',
        run: (c) => withFactory(c, (cm) => c.outcome(() => cm.registerTool({ name: "x", parameters: { type: "object" }, execute: () => 1 }))),
        want: thrown("TypeError", /parameters/, /inputSchema/) },
    { id: "R21", input: "a tool with handler: fn", expect: 'TypeError: unknown key "handler" -> execute',
        run: (c) => withFactory(c, (cm) => c.outcome(() => cm.registerTool({ name: "x", handler: () => 1 }))), want: thrown("TypeError", /handler/, /execute/) },
    { id: "R22", input: 'annotations: "readonly"', expect: "TypeError: tool.annotations: expected an object",
        run: (c) => withFactory(c, (cm) => c.outcome(() => cm.registerTool(tool("x", () => 1, { annotations: "readonly" })))), want: thrown("TypeError", /^tool \("x"\): annotations: expected an object \(hints and your own metadata\), got the string "readonly"$/) },
    { id: "R23", input: 'outputSchema: { type: "objekt" }', expect: "TypeError: outputSchema: /type: not a type",
        run: (c) => withFactory(c, (cm) => c.outcome(() => cm.registerTool(tool("x", () => 1, { outputSchema: { type: "objekt" } })))),
        want: thrown("TypeError", /outputSchema/, /objekt/) },
    { id: "R24", input: 'inputSchema: { $ref: "other.json" }', expect: 'TypeError: remote $ref "other.json" is not allowed',
        run: (c) => withFactory(c, (cm) => c.outcome(() => cm.registerTool(tool("x", () => 1, { inputSchema: { $ref: "other.json" } })))),
        want: thrown("TypeError", /inputSchema/, /other\.json/) },
    { id: "R25", input: "registerTool after dispose()", expect: "Error: ... disposed",
        run: async (c) => { const cm = await c.factory({ wasmLocation: c.wasm }); cm.dispose(); return c.outcome(() => cm.registerTool(tool("x", () => 1))); },
        want: (o) => o.threw !== undefined && /dispos/.test(o.threw.message) },
    { id: "R26", input: "calling an unregister function twice", expect: "no error the second time",
        run: (c) => withFactory(c, (cm) => c.outcome(() => { const u = cm.registerTool(tool("x", () => 1)); u(); u(); return cm.listTools().length; })),
        want: resolved((n) => n === 0) },
    { id: "R27", input: 'createSession({ tools: [{ name: "s" }] })', expect: 'TypeError: options.tools[0] ("s"): execute: required',
        run: (c) => withFactory(c, (cm) => c.outcome(() => cm.createSession({ tools: [{ name: "s" }] }))), want: thrown("TypeError", /^options\.tools\[0\] \("s"\): execute: expected a function, got undefined$/) },
    { id: "R28", input: "createSession({ toolFilter })", expect: "TypeError: toolFilter is a factory option",
        run: (c) => withFactory(c, (cm) => c.outcome(() => cm.createSession({ toolFilter: () => true }))), want: thrown("TypeError", /toolFilter/, /factory/) },
    { id: "R29", input: 'createSession("chat-1")', expect: "TypeError: createSession(options): expected an object",
        run: (c) => withFactory(c, (cm) => c.outcome(() => cm.createSession("chat-1"))), want: thrown("TypeError", /createSession/, /object/) },
    { id: "R30", input: "inputSchema: new Date() (a class instance)", expect: "TypeError: inputSchema: a class instance is not a schema",
        run: (c) => withFactory(c, (cm) => c.outcome(() => cm.registerTool(tool("x", () => 1, { inputSchema: new Date() })))), want: thrown("TypeError", /inputSchema/) },
    { id: "R31", input: "createSession tool with the name of a factory tool", expect: 'TypeError: options.tools[0] ("a"): name: already a factory tool',
        run: (c) => withFactory(c, (cm) => { cm.registerTool(tool("a", () => 1)); return c.outcome(() => cm.createSession({ tools: [tool("a", () => 2)] })); }),
        want: thrown("TypeError", /options\.tools\[0\]/, /"a"/) },
    { id: "R32", input: "registerTools([a, {bad schema}]) then registerTools([a]) again works", expect: "the second call succeeds: nothing of the first left",
        run: (c) => withFactory(c, async (cm) => {
            await c.outcome(() => cm.registerTools([tool("a", () => 1), tool("b", () => 1, { inputSchema: { type: "nope" } })]));
            return c.outcome(() => { cm.registerTools([tool("a", () => 1)]); return cm.listTools().map((t) => t.name); });
        }),
        want: resolved((names) => names.length === 1 && names[0] === "a") },
    { id: "R33", input: "inputSchema with required: \"id\" (a string, not a list)", expect: "TypeError: inputSchema: /required: expected an array",
        run: (c) => withFactory(c, (cm) => c.outcome(() => cm.registerTool(tool("x", () => 1, { inputSchema: { type: "object", required: "id" } })))),
        want: thrown("TypeError", /inputSchema/, /required/) },
    { id: "R34", input: "inputSchema with properties: [] (an array)", expect: "TypeError: inputSchema: /properties: expected an object",
        run: (c) => withFactory(c, (cm) => c.outcome(() => cm.registerTool(tool("x", () => 1, { inputSchema: { type: "object", properties: [] } })))),
        want: thrown("TypeError", /inputSchema/, /properties/) },

    // ---- execute() options ----
    { id: "E01", input: "execute(args, { singal })", expect: 'TypeError: execute(args, options): unknown key "singal" (did you mean "signal"?)',
        run: (c) => c.outcome(llm(c, "exec", { code: "return 1" }, { options: { singal: new AbortController().signal } })),
        want: thrown("TypeError", /singal/, /did you mean "signal"/) },
    { id: "E02", input: 'execute(args, { signal: "stop" })', expect: "TypeError: options.signal: expected an AbortSignal",
        run: (c) => c.outcome(llm(c, "exec", { code: "return 1" }, { options: { signal: "stop" } })), want: thrown("TypeError", /signal/, /AbortSignal/) },
    { id: "E03", input: 'execute(args, "ctx")', expect: "TypeError: execute(args, options): expected an object",
        run: (c) => c.outcome(llm(c, "exec", { code: "return 1" }, { options: "ctx" })), want: thrown("TypeError", /options/, /object/) },
    { id: "E04", input: "execute(args, { onEvent: 5 })", expect: "TypeError: options.onEvent: expected a function",
        run: (c) => c.outcome(llm(c, "exec", { code: "return 1" }, { options: { onEvent: 5 } })), want: thrown("TypeError", /^execute\(args, options\): options\.onEvent: expected a function, got the number 5$/) },
    { id: "E05", input: "execute with a signal already aborted", expect: "rejects with the signal's reason (AbortError)",
        run: (c) => c.outcome(llm(c, "exec", { code: "return 1" }, { options: { signal: AbortSignal.abort() } })), want: (o) => o.threw?.name === "AbortError" },
    { id: "E06", input: "executeCode after session.dispose()", expect: "rejects: the session was disposed",
        run: (c) => withFactory(c, async (cm) => { const s = cm.createSession(); const [, e] = s.getLlmTools(); s.dispose(); return c.outcome(e.execute({ code: "return 1" })); }),
        want: (o) => o.threw !== undefined && /session/.test(o.threw.message) && /dispos/.test(o.threw.message) },
    { id: "E07", input: "executeCode after factory dispose()", expect: "rejects: disposed",
        run: async (c) => { const cm = await c.factory({ wasmLocation: c.wasm }); const [, e] = cm.createSession().getLlmTools(); cm.dispose(); return c.outcome(e.execute({ code: "return 1" })); },
        want: (o) => o.threw !== undefined && /dispos/.test(o.threw.message) },
    { id: "E08", input: "createSession() after dispose()", expect: "throws: disposed",
        run: async (c) => { const cm = await c.factory({ wasmLocation: c.wasm }); cm.dispose(); return c.outcome(() => cm.createSession()); },
        want: (o) => o.threw !== undefined && /dispos/.test(o.threw.message) },
    { id: "E09", input: "execute(args, { context: ..., signal: null })", expect: "accepted (null is none) or TypeError naming signal",
        run: (c) => c.outcome(llm(c, "exec", { code: "return 1" }, { options: { signal: null } })),
        want: (o) => o.value?.ok === true || thrown("TypeError", /signal/)(o) },

    // ---- The LLM tools' arguments ----
    { id: "L01", input: "executeCode({ code: 123 })", expect: "INVALID_INPUT: executeCode: code: expected a string, got a number",
        run: (c) => c.outcome(llm(c, "exec", { code: 123 })), want: failed("INVALID_INPUT", /executeCode: code/, /string/, /number/) },
    { id: "L02", input: 'executeCode({ script: "return 1" })', expect: 'INVALID_INPUT: unknown argument "script" -> code',
        run: (c) => c.outcome(llm(c, "exec", { script: "return 1" })), want: failed("INVALID_INPUT", /script/, /code/) },
    { id: "L03", input: "executeCode('{\"code\":\"return 1\"}') (JSON text)", expect: "ok: 1",
        run: (c) => c.outcome(llm(c, "exec", '{"code":"return 1","explanation":"x"}')), want: resolved((v) => v.ok === true && v.result === 1) },
    { id: "L04", input: 'executeCode("return 2") (a lone string)', expect: "ok: 2",
        run: (c) => c.outcome(llm(c, "exec", "return 2")), want: resolved((v) => v.ok === true && v.result === 2) },
    { id: "L05", input: "executeCode({})", expect: "INVALID_INPUT: executeCode: code: required",
        run: (c) => c.outcome(llm(c, "exec", {})), want: failed("INVALID_INPUT", /code/, /required/) },
    { id: "L06", input: 'executeCode({ code: "   " })', expect: "INVALID_INPUT: code: blank",
        run: (c) => c.outcome(llm(c, "exec", { code: "   " })), want: failed("INVALID_INPUT", /code/) },
    { id: "L07", input: "executeCode(null)", expect: "INVALID_INPUT naming the arguments, expected { code }",
        run: (c) => c.outcome(llm(c, "exec", null)), want: failed("INVALID_INPUT", /code/) },
    { id: "L08", input: 'executeCode(["return 1"]) (an array)', expect: "INVALID_INPUT: expected an object, got an array",
        run: (c) => c.outcome(llm(c, "exec", ["return 1"])), want: failed("INVALID_INPUT", /array/) },
    { id: "L09", input: 'executeCode({ code: ["return 1"] })', expect: "INVALID_INPUT: code: expected a string, got an array",
        run: (c) => c.outcome(llm(c, "exec", { code: ["return 1"] })), want: failed("INVALID_INPUT", /code/, /array/) },
    { id: "L10", input: "executeCode('{\"code\": \"return 1\"' ) (cut JSON text)", expect: "SYNTAX or INVALID_INPUT saying the arguments are broken JSON",
        run: (c) => c.outcome(llm(c, "exec", '{"code": "return 1"')), want: failed("INVALID_INPUT", /^executeCode: the arguments are JSON text that ends before its object does \(cut short\?\); expected an object \{ code: string; explanation\?: string \}$/) },
    { id: "L11", input: 'searchTools({ query: "orders", limit: "5" })', expect: "ok, limit coerced",
        run: (c) => c.outcome(llm(c, "search", { query: "orders", limit: "5" })), want: resolved((v) => v.ok !== false) },
    { id: "L12", input: "searchTools({ limit: -1 })", expect: "INVALID_INPUT: searchTools: limit: expected an integer 1..50, got -1",
        run: (c) => c.outcome(llm(c, "search", { query: "orders", limit: -1 })), want: failed("INVALID_INPUT", /searchTools: limit/, /1\.\.50/, /-1/) },
    { id: "L13", input: "searchTools({ limit: 0 })", expect: "INVALID_INPUT: limit ... got 0",
        run: (c) => c.outcome(llm(c, "search", { query: "orders", limit: 0 })), want: failed("INVALID_INPUT", /limit/, /\b0\b/) },
    { id: "L14", input: "searchTools({ namespace: 5 })", expect: "INVALID_INPUT: searchTools: namespace: expected a string, got a number (verdict: coerced to \"5\" as USAGE.md documents for numbers; no such namespace: INVALID_INPUT naming the namespaces)",
        run: (c) => c.outcome(llm(c, "search", { query: "x", namespace: 5 })), want: failed("INVALID_INPUT", /^searchTools: namespace: there is no namespace "5"; expected one of /) },
    { id: "L15", input: 'searchTools({ limit: "five" })', expect: 'INVALID_INPUT: limit: expected an integer 1..50, got the string "five"',
        run: (c) => c.outcome(llm(c, "search", { query: "x", limit: "five" })), want: failed("INVALID_INPUT", /limit/, /"five"/) },
    { id: "L16", input: "searchTools({ limit: 2.5 })", expect: "INVALID_INPUT: limit: an integer",
        run: (c) => c.outcome(llm(c, "search", { query: "x", limit: 2.5 })), want: failed("INVALID_INPUT", /limit/, /integer/) },
    { id: "L17", input: 'searchTools({ qery: "orders" })', expect: 'INVALID_INPUT: unknown argument "qery" (did you mean "query"?); { q } is read as the query',
        run: (c) => c.outcome(llm(c, "search", { qery: "orders" })), want: failed("INVALID_INPUT", /"qery"/, /query/) },
    { id: "L18", input: "searchTools({ query: 42 })", expect: 'coerced to "42" or INVALID_INPUT naming query',
        run: (c) => c.outcome(llm(c, "search", { query: 42 })), want: (o) => (o.value && o.value.ok !== false) || failed("INVALID_INPUT", /query/)(o) },
    { id: "L19", input: "searchTools({ namespace: [\"orders\"] })", expect: "INVALID_INPUT: namespace: expected a string, got an array",
        run: (c) => c.outcome(llm(c, "search", { namespace: ["orders"] })), want: failed("INVALID_INPUT", /namespace/, /array/) },
    { id: "L20", input: "searchTools({ query: { text: \"x\" } })", expect: "INVALID_INPUT: query: expected a string, got an object",
        run: (c) => c.outcome(llm(c, "search", { query: { text: "x" } })), want: failed("INVALID_INPUT", /query/, /object/) },
    { id: "L21", input: "executeCode({ code: \"return 1\", explanation: {} })", expect: "ok (explanation is free text)",
        run: (c) => c.outcome(llm(c, "exec", { code: "return 1", explanation: {} })), want: resolved((v) => v.ok === true || (v.error.code === "INVALID_INPUT" && /explanation/.test(v.error.message))) },
    { id: "L22", input: "searchTools(5) (a number)", expect: "INVALID_INPUT: expected an object, got a number",
        run: (c) => c.outcome(llm(c, "search", 5)), want: failed("INVALID_INPUT", /number/) },
    { id: "L23", input: "executeCode({ code: null })", expect: "INVALID_INPUT: code: expected a string, got null",
        run: (c) => c.outcome(llm(c, "exec", { code: null })), want: failed("INVALID_INPUT", /code/, /null|required/) },
    { id: "L24", input: "tool_search({ limit: -1 }) inside the sandbox", expect: "TypeError the program can catch: tool_search: limit ... got -1",
        run: (c) => c.outcome(runCode(c, `try { await tool_search({ query: "x", limit: -1 }); return "none"; } catch (e) { return { name: e.name, message: e.message }; }`)),
        want: (o) => o.value?.result?.name === "TypeError" && /limit/.test(o.value.result.message) && /-1/.test(o.value.result.message) },
    { id: "L25", input: "executeCode('{\"code\":\"return 1\"}\\n{\"code\":\"return 2\"}') (two calls' arguments in one)", expect: "INVALID_INPUT saying the text goes on after its object (was: the first ran alone, ok: 1)",
        run: (c) => c.outcome(llm(c, "exec", '{"code":"return 1"}\n{"code":"return 2"}')), want: failed("INVALID_INPUT", /^executeCode: the arguments are JSON text that goes on after its object \(several calls in one\?\); expected an object \{ code: string; explanation\?: string \}$/) },
    { id: "L26", input: "executeCode('{code: \"return 1\"}') (the arguments as a JavaScript object)", expect: "INVALID_INPUT saying JSON wants double quotes (was: ok, result \"return 1\", the block's value)",
        run: (c) => c.outcome(llm(c, "exec", '{code: "return 1"}')), want: failed("INVALID_INPUT", /^executeCode: the arguments are JSON text that does not parse \(JSON writes keys and strings in double quotes\); expected an object /) },
    { id: "L27", input: "tool_search({ limit: \"five\" }) inside the sandbox, uncaught", expect: "RUNTIME TypeError at the call's ( (was: no line or column)",
        run: (c) => c.outcome(runCode(c, `const hits = await tool_search({ query: "x", limit: "five" });\nreturn hits`)),
        want: (o) => failed("RUNTIME", /^tool_search: limit: expected an integer 1\.\.50, got the string "five"$/)(o) && o.value.error.line === 1 && o.value.error.column === 31 },

    // ---- A tool that throws ----
    { id: "T01", input: 'a tool that throws "boom" (a string)', expect: "ToolError in the program with message naming boom",
        run: (c) => c.outcome(toolError(c, () => { throw "boom"; })),
        want: resolved(({ caught, uncaught }) => /boom/.test(caught.result?.message) && uncaught.ok === false && /boom/.test(uncaught.error.message)) },
    { id: "T02", input: "a tool that throws null", expect: "ToolError: the tool threw null",
        run: (c) => c.outcome(toolError(c, () => { throw null; })),
        want: resolved(({ caught, uncaught }) => caught.result?.message === "a tool threw null, not an Error" && uncaught.error?.code === "RUNTIME" && uncaught.error.message === "a tool threw null, not an Error") },
    { id: "T03", input: "a tool that throws undefined", expect: "ToolError: the tool threw undefined",
        run: (c) => c.outcome(toolError(c, () => { throw undefined; })),
        want: resolved(({ caught, uncaught }) => caught.result?.message === "a tool threw undefined, not an Error" && uncaught.error?.code === "RUNTIME" && uncaught.error.message === "a tool threw undefined, not an Error") },
    { id: "T03b", input: "a tool that rejects with no reason, or throws an empty string", expect: "ToolError: the tool threw undefined / an empty string",
        run: (c) => c.outcome(async () => [await toolError(c, () => Promise.reject()), await toolError(c, () => { throw ""; })]),
        want: resolved(([none, empty]) => none.caught.result?.message === "a tool threw undefined, not an Error" && empty.caught.result?.message === "a tool threw an empty string, not an Error" && empty.uncaught.error?.message === "a tool threw an empty string, not an Error") },
    { id: "T04", input: "a tool that throws an Error with a 1 MB message", expect: "the message cut (about 1,000 chars), the run fine",
        run: (c) => c.outcome(toolError(c, () => { throw new Error("x".repeat(1e6)); })),
        want: resolved(({ caught, uncaught }) => caught.ok && caught.result.message.length <= 4000 && uncaught.ok === false && uncaught.error.message.length <= 4000) },
    { id: "T05", input: "a tool that throws an Error subclass with extra fields (code, status)", expect: "its message reaches the program; its name kept or ToolError",
        run: (c) => c.outcome(toolError(c, () => { class HttpError extends Error { constructor() { super("not found"); this.name = "HttpError"; this.status = 404; } } throw new HttpError(); })),
        want: resolved(({ caught }) => /not found/.test(caught.result?.message)) },
    { id: "T06", input: "a tool that rejects with a circular object", expect: "a message, no crash: the object's text with (circular)",
        run: (c) => c.outcome(toolError(c, () => { const o = { status: 500 }; o.self = o; return Promise.reject(o); })),
        want: resolved(({ caught, uncaught }) => caught.result?.message === '{"status":500,"self":"[Circular]"}' && uncaught.error?.message === '{"status":500,"self":"[Circular]"}') },
    { id: "T07", input: "a tool that throws { status: 404, error: 'not found' }", expect: 'ToolError: {"status":404,"error":"not found"}',
        run: (c) => c.outcome(toolError(c, () => { throw { status: 404, error: "not found" }; })),
        want: resolved(({ caught }) => /"status":404/.test(caught.result?.message)) },
    { id: "T08", input: "a tool that throws a Promise (a missing await)", expect: "a tool threw a Promise, not an Error",
        run: (c) => c.outcome(toolError(c, () => { const p = Promise.reject(new Error("x")); throw p; })),
        want: resolved(({ caught }) => /Promise/.test(caught.result?.message)) },
    { id: "T09", input: 'a tool that throws new Error("") (no message)', expect: "a message that names the tool and says it failed",
        run: (c) => c.outcome(toolError(c, () => { throw new Error(""); })),
        want: resolved(({ caught, uncaught }) => caught.result?.message === "a tool threw an Error without a message" &&
            uncaught.error?.message === "a tool threw an Error without a message" && uncaught.toolCalls[0].reason === "a tool threw an Error without a message") },
    { id: "T10", input: "a tool whose result is circular", expect: "the call fails naming the tool and the cycle (or a [Circular] marker)",
        run: (c) => c.outcome(runCode(c, `try { const r = await tools.t({}); return r; } catch (e) { return { name: e.name, message: e.message }; }`,
            { tools: [tool("t", () => { const o = { a: 1 }; o.self = o; return o; })] })),
        want: resolved((v) => v.ok === true && (/circular|cycle/i.test(JSON.stringify(v.result)) || /circular|cycle/i.test(v.result?.message ?? ""))) },
    { id: "T11", input: "a tool's result that breaks its outputSchema", expect: "ToolError: t: the tool's result does not match its outputSchema: /id: type",
        run: (c) => c.outcome(runCode(c, `try { return await tools.t({}); } catch (e) { return { name: e.name, message: e.message }; }`,
            { tools: [tool("t", () => ({ id: 5 }), { outputSchema: { type: "object", properties: { id: { type: "string" } } } })] })),
        want: resolved((v) => /outputSchema/.test(v.result?.message) && /\/id/.test(v.result.message)) },
    { id: "T12", input: "a tool that throws an Error with a cause", expect: "the message carries the cause (verdict: its message alone, by design: a cause stays on the page, hostile15.test.mjs)",
        run: (c) => c.outcome(toolError(c, () => { throw new Error("load failed", { cause: new Error("ECONNRESET") }); })),
        want: resolved(({ caught, uncaught }) => caught.result?.message === "load failed" && uncaught.error?.message === "load failed") },
    { id: "T13", input: "a tool that throws synchronously (not async)", expect: "same as a rejection",
        run: (c) => c.outcome(toolError(c, () => { throw new TypeError("bad id"); })),
        want: resolved(({ caught, uncaught }) => /bad id/.test(caught.result?.message) && uncaught.ok === false && /bad id/.test(uncaught.error.message)) },
    { id: "T14", input: "a tool whose Error's message getter throws", expect: "a message saying it cannot be read; run fine",
        run: (c) => c.outcome(toolError(c, () => { const e = new Error("x"); Object.defineProperty(e, "message", { get() { throw new Error("getter"); } }); throw e; })),
        want: resolved(({ caught, uncaught }) => caught.result?.message === "(its message cannot be read: reading it threw: getter)" && uncaught.ok === false) },
    { id: "T15", input: "a tool called with input breaking its inputSchema", expect: "ValidationError: t: invalid input: /id: ...",
        run: (c) => c.outcome(runCode(c, `try { return await tools.t({ id: 5 }); } catch (e) { return { name: e.name, message: e.message }; }`,
            { tools: [tool("t", () => 1, { inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } })] })),
        want: resolved((v) => v.result?.name === "ValidationError" && /\/id/.test(v.result.message)) },
    { id: "T16", input: "a tool that throws a Symbol", expect: "a message, no crash",
        run: (c) => c.outcome(toolError(c, () => { throw Symbol("s"); })),
        want: resolved(({ caught, uncaught }) => caught.ok === true && typeof caught.result?.message === "string" && uncaught.ok === false) },
    { id: "T17", input: "a tool that throws a BigInt", expect: "a message, no crash",
        run: (c) => c.outcome(toolError(c, () => { throw 10n; })),
        want: resolved(({ caught }) => /10/.test(caught.result?.message)) },
    { id: "T18", input: "a tool that returns a BigInt", expect: "converted with a warn, or the call fails naming the value",
        run: (c) => c.outcome(runCode(c, `try { return await tools.t({}); } catch (e) { return { name: e.name, message: e.message }; }`, { tools: [tool("t", () => 10n)] })),
        want: resolved((v) => v.ok === true) },
    { id: "T25", input: "tools.crm-contacts.list({}) for the tool crm-contacts.list (a name with '-' written as a path)", expect: "RUNTIME: 'contacts' is not defined, and how to write the name: tools[\"crm-contacts\"].list(...)",
        run: (c) => c.outcome(runCode(c, "return await tools.crm-contacts.list({})", { tools: [tool("crm-contacts.list", () => [])] })),
        want: failed("RUNTIME", /^'contacts' is not defined: tools\.crm-contacts\.list is read as tools\.crm minus contacts\.list \('-' is subtraction\); write a tool name that holds '-' with brackets, tools\["crm-contacts"\]\.list\(\.\.\.\), or call the tool by its name: tool_call\("crm-contacts\.list", input\)$/) },

    // ---- Interceptors ----
    { id: "I01", input: 'onToolCall throws Error("policy down")', expect: "denied; reason says onToolCall threw: policy down",
        run: (c) => c.outcome(intercepted(c, () => { throw new Error("policy down"); })), want: denied(/policy down/) },
    { id: "I02", input: "onToolCall returns undefined", expect: "denied; reason says it returned undefined, expected { allowed }",
        run: (c) => c.outcome(intercepted(c, () => undefined)), want: denied(/allowed/) },
    { id: "I03", input: "onToolCall returns true", expect: "denied; reason: expected { allowed: boolean }, got true",
        run: (c) => c.outcome(intercepted(c, () => true)), want: denied(/allowed/) },
    { id: "I04", input: 'onToolCall returns { allowed: "yes" }', expect: "denied; reason: allowed: expected a boolean",
        run: (c) => c.outcome(intercepted(c, () => ({ allowed: "yes" }))), want: denied(/allowed/) },
    { id: "I05", input: "onToolCall returns { allowed: true, inputt: {} }", expect: 'denied: unknown key "inputt" (did you mean "input"?)',
        run: (c) => c.outcome(intercepted(c, () => ({ allowed: true, inputt: {} }))), want: denied(/inputt/) },
    { id: "I06", input: "onToolCall returns { allowed: false } (no reason)", expect: "denied with a default reason",
        run: (c) => c.outcome(intercepted(c, () => ({ allowed: false }))), want: denied(/./) },
    { id: "I07", input: "onToolCall allows with input: a function", expect: "denied: the replacement input is not JSON data",
        run: (c) => c.outcome(intercepted(c, () => ({ allowed: true, input: () => 1 }))), want: denied(/input/) },
    { id: "I08", input: "onToolCall rejects with { code: 403 }", expect: 'denied; reason with {"code":403}',
        run: (c) => c.outcome(intercepted(c, () => Promise.reject({ code: 403 }))), want: denied(/403/) },
    { id: "I09", input: 'onToolCall throws "no" (a string)', expect: "denied; reason with no",
        run: (c) => c.outcome(intercepted(c, () => { throw "no"; })), want: denied(/\bno\b/) },
    { id: "I10", input: "onToolCall returns { allowed: false, reason: 42 }", expect: "denied; reason 42 (verdict: the default reason, by design: only a string reason reaches the program, hostile15.test.mjs)",
        run: (c) => c.outcome(intercepted(c, () => ({ allowed: false, reason: 42 }))), want: denied(/^(call to t denied: )?denied by onToolCall$/) },
    { id: "I11", input: "onToolCall returns { allowed: true, input: 'x' } (not an object)", expect: "runs with 'x' (then schema check) or denied naming input",
        run: (c) => c.outcome(intercepted(c, () => ({ allowed: true, input: "x" }))),
        want: (o) => o.value?.ok === true && typeof o.value.result === "object" && /input|object/.test(o.value.result.message ?? "") },
    { id: "I12", input: "toolFilter that throws", expect: "the tool is hidden: unknown tool; run fine",
        run: (c) => c.outcome(runCode(c, `try { return await tools.t({}); } catch (e) { return { name: e.name, message: e.message }; }`,
            { tools: [tool("t", () => 1)], config: { toolFilter: () => { throw new Error("filter down"); } } })),
        want: resolved((v) => v.ok === true && /unknown tool/.test(v.result?.message)) },
    { id: "I13", input: "onToolCall returns null", expect: "denied; reason: expected { allowed }",
        run: (c) => c.outcome(intercepted(c, () => null)), want: denied(/allowed/) },

    // ---- The model's code ----
    { id: "M01", input: "syntax error on line 3", expect: "SYNTAX, line 3, column of the mistake",
        run: (c) => c.outcome(runCode(c, "const a = 1;\nconst b = 2;\nconst c = ;")),
        want: (o) => failed("SYNTAX", /./)(o) && o.value.error.line === 3 && o.value.error.column >= 10 && o.value.error.column <= 12 },
    { id: "M02", input: "TypeScript with a syntax error on line 2", expect: "SYNTAX, line 2 of what the model wrote",
        run: (c) => c.outcome(runCode(c, "const a: number = 1;\nconst b: string = ;")),
        want: (o) => failed("SYNTAX", /./)(o) && o.value.error.line === 2 && o.value.error.column >= 18 && o.value.error.column <= 20 },
    { id: "M03", input: "a fenced block after prose, syntax error on line 4 of the text", expect: "SYNTAX, line 4 (the text's, not the block's)",
        run: (c) => c.outcome(runCode(c, "Here is the code:\n```js\nconst a = 1;\nconst b = ;\n```\nIt fails.")),
        want: (o) => failed("SYNTAX", /./)(o) && o.value.error.line === 4 && o.value.error.column >= 10 && o.value.error.column <= 12 },
    { id: "M04", input: "a fenced TypeScript block, runtime error on line 4", expect: "RUNTIME, line 4",
        run: (c) => c.outcome(runCode(c, "```ts\ninterface A { x: number }\nconst a: A = { x: 1 };\nnull.x;\n```")),
        want: (o) => failed("RUNTIME", /./)(o) && o.value.error.line === 4 },
    { id: "M05", input: "a TypeError on line 2", expect: "RUNTIME TypeError line 2; stack names line 2",
        run: (c) => c.outcome(runCode(c, "const a = null;\nreturn a.b;")),
        want: (o) => failed("RUNTIME", /null|undefined|property/)(o) && o.value.error.name === "TypeError" && o.value.error.line === 2 },
    { id: "M06", input: 'throw new Error("custom") on line 2', expect: "RUNTIME Error: custom, line 2",
        run: (c) => c.outcome(runCode(c, "const a = 1;\nthrow new Error('custom');")),
        want: (o) => failed("RUNTIME", /custom/)(o) && o.value.error.line === 2 && /:2:/.test(o.value.error.stack ?? ":2:") },
    { id: "M07", input: "an undefined variable on line 2", expect: "RUNTIME ReferenceError: 'foo' is not defined, line 2",
        run: (c) => c.outcome(runCode(c, "const a = 1;\nreturn foo + a;")),
        want: (o) => failed("RUNTIME", /foo/)(o) && o.value.error.name === "ReferenceError" && o.value.error.line === 2 },
    { id: "M08", input: "a program that fills memory", expect: "MEMORY_LIMIT; the next run of the session works",
        run: (c) => c.outcome(withFactory(c, async (cm) => {
            const [, e] = cm.createSession().getLlmTools();
            const r1 = await e.execute({ code: "const a = []; for (;;) a.push('x'.repeat(1e5) + a.length);" });
            const r2 = await e.execute({ code: "return 1 + 1" });
            return { r1, r2 };
        }, { memoryLimit: 16 })),
        want: resolved(({ r1, r2 }) => r1.ok === false && r1.error.code === "MEMORY_LIMIT" && r2.ok === true && r2.result === 2) },
    { id: "M09", input: "for (;;) {}", expect: "TIMEOUT naming the limit; the next run works",
        run: (c) => c.outcome(withFactory(c, async (cm) => {
            const [, e] = cm.createSession().getLlmTools();
            const r1 = await e.execute({ code: "for (;;) {}" });
            const r2 = await e.execute({ code: "return 3" });
            return { r1, r2 };
        }, { timeout: 300 })),
        want: resolved(({ r1, r2 }) => r1.ok === false && r1.error.code === "TIMEOUT" && /300/.test(r1.error.message) && r2.ok === true && r2.result === 3) },
    { id: "M10", input: "more tool calls than maxToolCalls (3)", expect: "TOOL_LIMIT naming 3",
        run: (c) => c.outcome(runCode(c, "for (let i = 0; i < 5; i++) await tools.t({});", { tools: [tool("t", () => 1)], config: { maxToolCalls: 3 } })),
        want: failed("TOOL_LIMIT", /3/) },
    { id: "M11", input: "tools.nope.x({}) (an unknown tool)", expect: 'RUNTIME ToolError: unknown tool "nope.x"',
        run: (c) => c.outcome(runCode(c, "return await tools.nope.x({});", { tools: [tool("t", () => 1)] })),
        want: failed("RUNTIME", /unknown tool "nope\.x"/) },
    { id: "M12", input: "a program that returns a function", expect: "ok with a warn naming result",
        run: (c) => c.outcome(runCode(c, "return { f() {} };")),
        want: resolved((v) => v.ok === true && v.logs.some((l) => l.level === "warn" && /result/.test(l.message))) },
    { id: "M13", input: "a result whose toJSON throws", expect: "RESULT_NOT_SERIALIZABLE with the cause",
        run: (c) => c.outcome(runCode(c, "return { toJSON() { throw new Error('no json'); } };")), want: failed("RESULT_NOT_SERIALIZABLE", /no json/) },
    { id: "M14", input: "a program that awaits a promise that never settles", expect: "TIMEOUT (or a message that the program awaits a promise nothing settles)",
        run: (c) => c.outcome(runCode(c, "await new Promise(() => {});", { config: { timeout: 300 } })), want: (o) => o.value?.ok === false && /TIMEOUT|RUNTIME/.test(o.value.error.code) },
    { id: "M15", input: "unexpected end of input (an unclosed function)", expect: "SYNTAX at the end of the code, line 2",
        run: (c) => c.outcome(runCode(c, "function f() {\n  return 1;")),
        want: (o) => failed("SYNTAX", /^unexpected end of input$/)(o) && o.value.error.line === 2 && o.value.error.column === 12 },
    { id: "M16", input: "import x from 'lodash'", expect: "SYNTAX: import is not available; use tools",
        run: (c) => c.outcome(runCode(c, "import _ from 'lodash';\nreturn 1;")), want: failed("SYNTAX", /import/, /tool/) },
    { id: "M17", input: "fetch('https://...')", expect: "RUNTIME ReferenceError saying to use tools",
        run: (c) => c.outcome(runCode(c, "const r = await fetch('https://example.com');\nreturn r;")), want: failed("RUNTIME", /fetch/, /tool/) },
    { id: "M18", input: "unbounded recursion", expect: "RUNTIME InternalError/RangeError stack overflow; the next run works",
        run: (c) => c.outcome(runCode(c, "function f(n) { return f(n + 1) + 1; }\nreturn f(0);")), want: failed("RUNTIME", /stack overflow|call stack/i) },
    { id: "M19", input: 'throw "oops" (a string)', expect: "RUNTIME: a non-Error value was thrown: oops",
        run: (c) => c.outcome(runCode(c, "throw 'oops';")), want: failed("RUNTIME", /oops/) },
    { id: "M20", input: "process.exit(1)", expect: "RUNTIME: process is Node's; return the result",
        run: (c) => c.outcome(runCode(c, "process.exit(1);")), want: failed("RUNTIME", /process/) },
    { id: "M21", input: "a rejected tool call awaited on line 3", expect: "RUNTIME ToolError with the tool's message, line 3",
        run: (c) => c.outcome(runCode(c, "const a = 1;\nconst b = 2;\nawait tools.t({});", { tools: [tool("t", () => { throw new Error("backend down"); })] })),
        want: (o) => failed("RUNTIME", /backend down/)(o) && o.value.error.line === 3 },
    { id: "M22", input: "return 10n (a BigInt result)", expect: "ok with a warn naming result",
        run: (c) => c.outcome(runCode(c, "return 10n;")), want: resolved((v) => v.ok === true && v.logs.some((l) => l.level === "warn")) },
    { id: "M23", input: "a syntax error in code escaped twice (\\n as text)", expect: "SYNTAX saying the code is escaped twice",
        run: (c) => c.outcome(runCode(c, "const a = 1;\\nreturn a;")), want: failed("SYNTAX", /escaped|\\n/) },
    // It was a SYNTAX error ("not erasable") until 340ceef rewrote enums as tsc emits them.
    { id: "M24", input: "an enum (TypeScript that does not erase)", expect: "ok: it runs as tsc's output does (Color.Red is 0, Color[1] is \"Green\")",
        run: (c) => c.outcome(runCode(c, "enum Color { Red, Green }\nreturn [Color.Red, Color[1]];")), want: resolved((v) => v.ok === true && v.result[0] === 0 && v.result[1] === "Green") },
    { id: "M25", input: "a syntax error after a TypeScript interface spanning lines", expect: "SYNTAX at line 5 (positions unmoved by erasure)",
        run: (c) => c.outcome(runCode(c, "interface Order {\n  id: string;\n  total: number;\n}\nconst x: Order = ;")),
        want: (o) => failed("SYNTAX", /./)(o) && o.value.error.line === 5 && o.value.error.column >= 17 && o.value.error.column <= 19 },
    { id: "M26", input: "a runtime error in a whole-program async () => { ... } on line 3", expect: "RUNTIME at line 3 of the text",
        run: (c) => c.outcome(runCode(c, "async () => {\n  const a = 1;\n  return a.b.c;\n}")),
        want: (o) => failed("RUNTIME", /./)(o) && o.value.error.line === 3 },
    { id: "M27", input: "stack of an error thrown in a helper function", expect: "stack with lines of the model's code (3 and 5), no wrapper lines",
        run: (c) => c.outcome(runCode(c, "const a = 1;\nfunction f() {\n  throw new Error('deep');\n}\nf();")),
        want: (o) => failed("RUNTIME", /deep/)(o) && o.value.error.line === 3 && /:3:/.test(o.value.error.stack) && /:5:/.test(o.value.error.stack) },
];

// Rows added after the first run, for what it showed.
cases.push(
    { id: "E10", input: 'execute(args, { abortSignal: "x" }) (the AI SDK\'s name)', expect: "TypeError naming options.abortSignal, the key written",
        run: (c) => c.outcome(llm(c, "exec", { code: "return 1" }, { options: { abortSignal: "x" } })),
        want: thrown("TypeError", /^execute\(args, options\): options\.abortSignal: expected an AbortSignal, got the string "x"$/) },
    { id: "E11", input: "execute(args, { onEvent: {} })", expect: "TypeError: options.onEvent: expected a function, got an object",
        run: (c) => c.outcome(llm(c, "exec", { code: "return 1" }, { options: { onEvent: {} } })),
        want: thrown("TypeError", /^execute\(args, options\): options\.onEvent: expected a function, got an object$/) },
    { id: "F45", input: "timeout: 0.5 (under a millisecond)", expect: "TypeError: config.timeout: at least 1 ms, got 0.5 ms",
        run: (c) => c.outcome(() => c.factory({ wasmLocation: c.wasm, timeout: 0.5 })),
        want: thrown("TypeError", /^config\.timeout: must be at least 1ms, got 500µs \(0\.5 ms\)$/) },
    { id: "T19", input: "a tool that throws an AggregateError", expect: "its message alone (by design, as T12)",
        run: (c) => c.outcome(toolError(c, () => { throw new AggregateError([new Error("a1"), new TypeError("a2")], "many failed"); })),
        want: resolved(({ caught, uncaught }) => caught.result?.message === "many failed" && uncaught.error?.message === "many failed") },
    { id: "T20", input: "a tool that throws an Error whose cause is a plain object", expect: "its message alone (by design, as T12)",
        run: (c) => c.outcome(toolError(c, () => { throw new Error("upstream failed", { cause: { status: 503 } }); })),
        want: resolved(({ caught }) => caught.result?.message === "upstream failed") },
    { id: "T21", input: "a tool that throws Object.create(null)", expect: "the message is its JSON, {}, not V8's conversion error",
        run: (c) => c.outcome(toolError(c, () => { throw Object.create(null); })),
        want: resolved(({ caught }) => caught.result?.message === "{}") },
    { id: "T22", input: "a tool that throws a Proxy whose traps throw", expect: "a message that says the thrown object cannot be read",
        run: (c) => c.outcome(toolError(c, () => { throw new Proxy({}, { get() { throw new Error("trap"); } }); })),
        want: resolved(({ caught }) => caught.result?.message === "a tool threw an object that cannot be read (trap)") },
    { id: "T23", input: "a tool's input nested 1,500 levels deep (built in the program)", expect: "a RangeError naming the tool and the 1,000-level limit, caught or the run's error; the call recorded as failed, the tool not run",
        run: (c) => c.outcome(async () => {
            let ran = 0;
            const t = tool("t.x", () => { ran++; return 1; });
            const deep = "let deep = {}; for (let i = 0; i < 1500; i++) deep = { a: deep };\n";
            const caught = await runCode(c, deep + "try { await tools.t.x(deep); return 'no error'; } catch (e) { return { name: e.name, message: e.message }; }", { tools: [t] });
            const uncaught = await runCode(c, deep + "await tools.t.x(deep);", { tools: [t] });
            return { caught, uncaught, ran };
        }),
        want: resolved(({ caught, uncaught, ran }) => {
            const msg = "tool_call t.x: its input nests more than 1,000 levels deep, the most a tool's input may; pass flatter data";
            const failedCall = (r) => r.toolCalls?.length === 1 && r.toolCalls[0].name === "t.x" && r.toolCalls[0].ok === false &&
                r.toolCalls[0].reason === "input too deep: it nests more than 1,000 levels";
            return ran === 0 && caught.result?.name === "RangeError" && caught.result.message === msg && failedCall(caught) &&
                uncaught.error?.code === "RUNTIME" && uncaught.error.name === "RangeError" && uncaught.error.message === msg && uncaught.error.line === 2 && failedCall(uncaught);
        }) },
    { id: "T24", input: "a tool's input that refers to itself (o.self = o, built in the program)", expect: "a TypeError naming the tool and the cycle, caught or the run's error; the call recorded as failed, the tool not run (it threw 'circular reference', naming no tool, with no record)",
        run: (c) => c.outcome(async () => {
            let ran = 0;
            const t = tool("t.x", () => { ran++; return 1; });
            const cyc = "const o = { rows: [{ id: 1 }] }; o.rows[0].parent = o;\n";
            const caught = await runCode(c, cyc + "try { await tools.t.x(o); return 'no error'; } catch (e) { return { name: e.name, message: e.message, isTypeError: e instanceof TypeError }; }", { tools: [t] });
            const uncaught = await runCode(c, cyc + "await tools.t.x(o);", { tools: [t] });
            return { caught, uncaught, ran };
        }),
        want: resolved(({ caught, uncaught, ran }) => {
            const msg = "tool_call t.x: its input is circular (an object in it refers to itself), which JSON cannot write; pass data without cycles";
            const failedCall = (r) => r.toolCalls?.length === 1 && r.toolCalls[0].name === "t.x" && r.toolCalls[0].ok === false &&
                r.toolCalls[0].reason === "input circular: an object in it refers to itself";
            return ran === 0 && caught.result?.name === "TypeError" && caught.result.message === msg && caught.result.isTypeError === true && failedCall(caught) &&
                uncaught.error?.code === "RUNTIME" && uncaught.error.name === "TypeError" && uncaught.error.message === msg && uncaught.error.line === 2 && failedCall(uncaught);
        }) },
    { id: "M28", input: "a program that replaces JSON.stringify, then throws on line 2", expect: "RUNTIME with its error and line 2 (it was 'Error: unknown error', no line)",
        run: (c) => c.outcome(runCode(c, "JSON.stringify = () => { throw new Error('mine') };\nthrow new RangeError('after the replacement');")),
        want: (o) => failed("RUNTIME", /^after the replacement$/)(o) && o.value.error.name === "RangeError" && o.value.error.line === 2 },
    { id: "M29", input: "a program that defines a getter on Array.prototype[0], then throws on line 2", expect: "RUNTIME with its error and line 2 (it was 'Error: unknown error', no line)",
        run: (c) => c.outcome(runCode(c, "Object.defineProperty(Array.prototype, '0', { get() { return 'evil' } });\nthrow new Error('after the getter');")),
        want: (o) => failed("RUNTIME", /^after the getter$/)(o) && o.value.error.name === "Error" && o.value.error.line === 2 },
);
