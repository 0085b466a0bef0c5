// Type check of index.d.ts (`tsc -p web/types-check`, strict). It must
// compile: every snippet of the user documentation (the seed) appears here
// verbatim, wrapped where needed, plus the rest of the API as users write it.
// Nothing here runs.

import { IoCodeModeFactory, IoCodeMode } from "@interopio/code-mode";
import IoCodeModeFactoryDefault from "@interopio/code-mode";
import { generateText, InvalidToolInputError, jsonSchema, NoSuchToolError, stepCountIs, tool, zodSchema, type LanguageModel } from "ai";
import { z } from "zod";

// ---------------------------------------------------------------------------
// Seed: "Configuration" — the documented Config interface, verbatim, must be
// the same shape as IoCodeMode.Config.
namespace SeedConfigDeclaration {
    type ToolCallContext = IoCodeMode.ToolCallContext;
    type InterceptorDecision = IoCodeMode.InterceptorDecision;
    type ToolDefinition = IoCodeMode.ToolDefinition;

    // ---- seed, verbatim ----
    interface Config {
        wasmLocation: string;
        overwriteSystemInstruction?: (current: string) => string;
        interceptors?: {
            onToolCall?: (context: ToolCallContext) => Promise<InterceptorDecision>;
        };
        timeout?: number;
        memoryLimit?: number;
        toolFilter?: (tool: ToolDefinition) => boolean;
    }
    // ---- end ----

    export function documentedIsAccepted(c: Config): IoCodeMode.Config {
        return c;
    }
    export function acceptedIsDocumented(c: Required<IoCodeMode.Config>): Required<Config> {
        // Every documented field exists in IoCodeMode.Config with a compatible type
        // (the hook may also return a decision synchronously).
        const { wasmLocation, overwriteSystemInstruction, timeout, memoryLimit, toolFilter } = c;
        return { wasmLocation, overwriteSystemInstruction, timeout, memoryLimit, toolFilter, interceptors: {} };
    }
}

// ---------------------------------------------------------------------------
// Seed: "Delivering the WASM File"
async function seedDeliveringTheWasmFile() {
    // ---- seed, verbatim (a labelled statement, as printed) ----
    wasmLocation: "https://unpkg.com/@interopio/code-mode@0.0.2/dist/emscripten-module.wasm";
    // ---- end ----

    // The same property in a config object.
    const codeMode = await IoCodeModeFactory({
        wasmLocation: "https://unpkg.com/@interopio/code-mode@0.0.2/dist/emscripten-module.wasm",
    });
    return codeMode;
}

// ---------------------------------------------------------------------------
// Seed: "Tool Policies"
async function seedToolPolicies() {
    // ---- seed, verbatim ----
    const codeMode = await IoCodeModeFactory({
        wasmLocation: "/quickjs/emscripten-module.wasm",
        toolFilter: (tool) => !tool.name.startsWith("admin."),
        interceptors: {
            onToolCall: async ({ tool, input }) => {
                if (tool.name === "payments.transfer") {
                    return { allowed: false, reason: "Transfers require manual approval." };
                }

                return { allowed: true, input };
            },
        },
    });
    // ---- end ----
    const api: IoCodeMode.API = codeMode;
    return api;
}

// ---------------------------------------------------------------------------
// Seed: execute(args, { signal, context })
declare const signal: AbortSignal;
declare const requestMetadata: { userId: string; scopes: string[] };
declare const session: IoCodeMode.Session;

async function seedExecuteWithContext() {
    // ---- seed, verbatim ----
    const executeCode = session.getLlmTools().find((tool) => tool.name === "executeCode")!;
    const result = await executeCode.execute({ code: "return await tool_search({ query: 'orders' });", explanation: "Search for orders." }, { signal, context: requestMetadata });
    // ---- end ----

    const r: IoCodeMode.ExecuteResult = result;
    if (r.ok) {
        const value: IoCodeMode.JsonValue | undefined = r.result;
        void value;
    } else {
        const code: "SYNTAX" | "RUNTIME" | "TIMEOUT" | "MEMORY_LIMIT" | "TOOL_LIMIT" | "RESULT_NOT_SERIALIZABLE" | "INVALID_INPUT" = r.error.code;
        const where: string = `${r.error.name}: ${r.error.message} at ${r.error.line ?? "?"}:${r.error.column ?? "?"}`;
        void code;
        void where;
    }
    for (const log of r.logs) log.level satisfies "log" | "info" | "warn" | "error" | "debug";
    for (const call of r.toolCalls) {
        const summary: [string, boolean, boolean, number, string | undefined] = [call.name, call.allowed, call.ok, call.durationMs, call.reason];
        void summary;
    }
    const ms: number = r.durationMs;
    return ms;
}

// ---------------------------------------------------------------------------
// The rest of the API.
interface Order {
    id: string;
    status: "open" | "shipped";
    total: number;
}

async function wholeApi() {
    const searchOrders: IoCodeMode.ToolDefinition<{ status: Order["status"] }, Order[]> = {
        name: "orders.search",
        description: "Search orders by status.",
        inputSchema: {
            type: "object",
            properties: { status: { type: "string", enum: ["open", "shipped"] } },
            required: ["status"],
        },
        outputSchema: { type: "array", items: { type: "object" } },
        annotations: { readOnlyHint: true, title: "Search orders" },
        async execute(input, { context, signal }) {
            signal.throwIfAborted();
            void context;
            return [{ id: "o-1", status: input.status, total: 30 }];
        },
    };

    const codeMode = await IoCodeModeFactory({
        wasmLocation: "/quickjs/emscripten-module.wasm",
        timeout: 10_000,
        memoryLimit: 64,
        maxToolCalls: 50,
        maxResultChars: 20_000,
        overwriteSystemInstruction: (current) => `${current}\nAnswer briefly.`,
        toolFilter: (tool) => tool.annotations?.destructiveHint !== true,
        interceptors: {
            // A synchronous decision, reading the caller's context.
            onToolCall: ({ tool, input, callContext }) => {
                const meta = callContext as { scopes?: string[] } | undefined;
                if (tool.name.startsWith("payments.") && !meta?.scopes?.includes("payments")) {
                    return { allowed: false, reason: "Missing the payments scope." };
                }
                if (tool.name === "orders.search" && input.status === undefined) {
                    return { allowed: true, input: { ...input, status: "open" } };
                }
                return { allowed: true };
            },
        },
        tools: [searchOrders],
    });

    const unregister: () => void = codeMode.registerTool({
        name: "payments.transfer",
        inputSchema: { type: "object", properties: { amount: { type: "number" } }, required: ["amount"] },
        execute: (input: { amount: number }) => ({ ok: true, amount: input.amount }),
    });
    const unregisterMany = codeMode.registerTools([
        { name: "clock.now", execute: () => new Date().toISOString() },
        { name: "math.add", execute: ({ a, b }: { a: number; b: number }) => a + b },
    ]);
    unregister();
    unregisterMany();

    const names: string[] = codeMode.listTools().map((t) => t.name);
    void names;

    const s: IoCodeMode.Session = codeMode.createSession({
        tools: [{ name: "session.note", execute: async (input: { text: string }) => ({ saved: input.text }) }],
    });
    const instructions: string = s.getSystemInstruction();
    void instructions;

    const [searchTools, executeCode] = s.getLlmTools();
    // The pair, typed as one: a project with noUncheckedIndexedAccess (as
    // @tsconfig/strictest) destructures it without "possibly undefined".
    const pair: 2 = s.getLlmTools().length;
    void pair;
    const hits = await searchTools.execute({ query: "orders", limit: 5 });
    if (Array.isArray(hits)) for (const hit of hits) void [hit.name, hit.description, hit.signature];
    else void (hits.error.code === "INVALID_INPUT" && hits.error.message);
    // Arguments as the model sent them: OpenAI's JSON text as is.
    void (await searchTools.execute('{"query":"orders"}'));
    const run: IoCodeMode.ExecuteResult = await executeCode.execute(
        { code: "return 1", explanation: "One." },
        { signal: AbortSignal.timeout(5000), context: { userId: "u1" } },
    );
    void run;

    // Plain function calling: OpenAI (Chat Completions) and Anthropic (Messages).
    const openAiTools = s.getLlmTools().map((t) => ({
        type: "function" as const,
        function: { name: t.name, description: t.description, parameters: t.inputSchema },
    }));
    const anthropicTools = s.getLlmTools().map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
    void openAiTools;
    void anthropicTools;

    // Dispatching a model's tool call by name.
    async function dispatch(name: string, argsJson: string): Promise<string> {
        const t = s.getLlmTools().find((x) => x.name === name);
        if (!t) return JSON.stringify({ error: `unknown tool ${name}` });
        return JSON.stringify(await t.execute(JSON.parse(argsJson), { context: requestMetadata }));
    }
    void dispatch;

    s.dispose();
    codeMode.dispose();
}

// ---------------------------------------------------------------------------
// The Vercel AI SDK, as documented in USAGE.md (TypeScript form).
declare const model: LanguageModel;

async function withAiSdk(codeMode: IoCodeMode.API) {
    const s = codeMode.createSession();
    const [searchTools, executeCode] = s.getLlmTools();
    const result = await generateText({
        model,
        system: s.getSystemInstruction(),
        prompt: "What is the total of the open orders?",
        tools: {
            searchTools: tool({
                description: searchTools.description,
                inputSchema: jsonSchema<IoCodeMode.SearchToolsArgs>(searchTools.inputSchema),
                execute: (args, options) => searchTools.execute(args, { ...options, context: requestMetadata }),
                toModelOutput: searchTools.toModelOutput,
            }),
            executeCode: tool({
                description: executeCode.description,
                inputSchema: jsonSchema<IoCodeMode.ExecuteCodeArgs>(executeCode.inputSchema),
                execute: (args, options) => executeCode.execute(args, { ...options, context: requestMetadata }),
                toModelOutput: executeCode.toModelOutput,
            }),
        },
        stopWhen: stepCountIs(5),
        abortSignal: signal,
        // USAGE: arguments the SDK cannot parse as JSON, handed to the tool as their text.
        experimental_repairToolCall: async ({ toolCall, tools, error }) => {
            const toolName = toolCall.toolName.replace(/^functions\./, "");
            if (InvalidToolInputError.isInstance(error) || (NoSuchToolError.isInstance(error) && toolName in tools)) {
                return { ...toolCall, toolName, input: JSON.stringify(toolCall.input) };
            }
            return null;
        },
    });
    return result.text;
}

// ---------------------------------------------------------------------------
// The default export (the classic-script build's global: classic.ts).
// USAGE "Input schemas": Zod 4 and the AI SDK's schema objects.
function schemaObjects(codeMode: IoCodeMode.API) {
    const searchOrders = async (input: unknown) => [input];
    codeMode.registerTool({
        name: "orders.search",
        inputSchema: z.object({ status: z.enum(["open", "shipped"]), limit: z.number().int().min(1).optional() })
            .refine((o) => o.status !== "shipped" || o.limit === undefined, "no limit for shipped orders"),
        execute: async (input) => searchOrders(input),
    });
    codeMode.registerTool({ name: "orders.count", inputSchema: zodSchema(z.object({ status: z.string() })), execute: () => 1 });
    codeMode.registerTool({ name: "orders.get", inputSchema: jsonSchema({ type: "object" }), execute: () => null });
}

async function classicBuild() {
    const api2 = await IoCodeModeFactoryDefault({ wasmLocation: "/quickjs/emscripten-module.wasm" });
    api2.dispose();
}

// ---------------------------------------------------------------------------
// Mistakes the declarations must reject.
async function rejected() {
    // @ts-expect-error wasmLocation is required
    await IoCodeModeFactory({});
    // @ts-expect-error timeout is a number
    await IoCodeModeFactory({ wasmLocation: "x", timeout: "1000" });
    await IoCodeModeFactory({
        wasmLocation: "x",
        interceptors: {
            // @ts-expect-error a denial needs a reason
            onToolCall: async () => ({ allowed: false }),
        },
    });
    // @ts-expect-error a tool needs execute
    session.getLlmTools() && (null as unknown as IoCodeMode.API).registerTool({ name: "x" });
    // @ts-expect-error executeCode needs an explanation
    await session.getLlmTools()[1].execute({ code: "return 1" });
}

export { schemaObjects, seedDeliveringTheWasmFile, seedToolPolicies, seedExecuteWithContext, wholeApi, withAiSdk, classicBuild, rejected };

// ---------------------------------------------------------------------------
// USAGE: "Finding tools": namespaces and config.search.embed.
namespace UsageSearch {
    declare const wasmLocation: string;
    declare const openai: { embeddings: { create(a: { model: string; input: string[] }): Promise<{ data: { embedding: number[] }[] }> } };
    export async function main() {
        const api = await IoCodeModeFactory({
            wasmLocation,
            search: {
                embed: async (texts) => {
                    const r = await openai.embeddings.create({ model: "text-embedding-3-small", input: texts });
                    return r.data.map((d) => d.embedding);
                },
                weight: 1,
            },
        });
        const [searchTools] = api.createSession().getLlmTools();
        const args: IoCodeMode.SearchToolsArgs = { query: "", namespace: "issues" };
        const hits = (await searchTools.execute(args)) as IoCodeMode.SearchToolsResult;
        const ns: string = hits[0].namespace;
        const typed: IoCodeMode.SearchOptions = { embed: (texts) => texts.map(() => new Float32Array(3)), minSimilarity: 0.4, timeout: 2000 };
        return [ns, typed];
    }
}

// USAGE: "search.embed with a local model" (the model's packages are
// declared: they are Node builds the type check does not load).
namespace UsageSearchLocalModel {
    declare const wasmLocation: string;
    declare const model: { embed(texts: string[]): Promise<number[][]> };
    export async function main() {
        function words(text: string) {
            const nl = text.indexOf("\n");
            if (nl < 0) return text.split(/\s+/).filter(Boolean).join(" ");
            const name = text.slice(0, nl)
                .replace(/([a-z])([A-Z])/g, "$1 $2")
                .replace(/([A-Z])([A-Z][a-z])/g, "$1 $2")
                .split(/[^A-Za-z0-9]+/)
                .filter((w) => w.length > 1)
                .map((w) => w.toLowerCase());
            return name.join(" ") + ". " + text.slice(nl + 1).split(/\s+/).filter(Boolean).join(" ");
        }
        const api = await IoCodeModeFactory({
            wasmLocation,
            search: {
                embed: (texts) => model.embed(texts.map(words)),
                weight: 0.3,
                minSimilarity: 0.7,
                timeout: 60_000,
            },
        });
        return api;
    }
}

// USAGE "Worker mode" and "Live events", README: the default, ready(), onEvent.
namespace UsageWorkerMode {
    declare const wasmLocation: string;
    declare const ordersSearch: IoCodeMode.ToolDefinition;
    declare const trace: (e: IoCodeMode.CodeModeEvent) => void;
    export async function main() {
        const codeMode = await IoCodeModeFactory({ wasmLocation, onEvent: (e) => trace(e) });
        const onThisThread = await IoCodeModeFactory({ wasmLocation, worker: false });
        codeMode.registerTool(ordersSearch);
        const session = codeMode.createSession();
        await codeMode.ready();
        const system: string = session.getSystemInstruction();
        const [, executeCode] = session.getLlmTools();
        const controller = new AbortController();
        const result = await executeCode.execute({ code: "return 1", explanation: "x" }, { signal: controller.signal, onEvent: (e) => {
            if (e.type === "tool-result" && e.ok) trace(e);
            if (e.type === "console") console.log(e.level, e.message);
        } });
        onThisThread.dispose();
        codeMode.dispose();
        return [system, result];
    }
}

// USAGE "Strict options": a tool's annotations may be null (none), as may its
// schemas; "Live events": run-end's error is a copy of the result's, with
// its line, column and stack.
namespace UsageNullsAndRunEnd {
    declare const api: IoCodeMode.API;
    export function main() {
        api.registerTool({ name: "orders.get", annotations: null, inputSchema: null, outputSchema: null, execute: () => 1 });
        return (e: IoCodeMode.CodeModeEvent): string =>
            e.type === "run-end" && e.error ? `${e.error.name}: ${e.error.message} at ${e.error.line ?? "?"}:${e.error.column ?? "?"}\n${e.error.stack ?? ""}` : "";
    }
}

// USAGE "Cloudflare Workers": the two files compiled (a Worker's import of a
// .wasm file is a WebAssembly.Module), wasmLocation still a string naming
// the asset. (TypeScript's WebAssembly.Module is an empty interface, which
// a string or bytes satisfy too: the factory's TypeError refuses them.)
namespace UsageCloudflareWorkers {
    declare const wasmModule: WebAssembly.Module;
    declare const coreModule: WebAssembly.Module;
    export async function main() {
        const codeMode = await IoCodeModeFactory({ wasmLocation: "@interopio/code-mode/emscripten-module.wasm", wasmModule, coreModule });
        // @ts-expect-error wasmLocation stays a string: the module goes in wasmModule
        await IoCodeModeFactory({ wasmLocation: wasmModule });
        return codeMode;
    }
}
