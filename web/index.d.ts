// TypeScript declarations of @interopio/code-mode.

/**
 * Creates a Code Mode instance: loads the Go core (once per page), fetches
 * and compiles the QuickJS asset from `config.wasmLocation` (once per
 * location: the factories that follow share it; a failed load is tried
 * again by the next one) and returns the API.
 *
 * Rejects with a `TypeError` naming the field for a bad config, and with an
 * `Error` naming the location and the cause when the QuickJS asset cannot be
 * loaded.
 *
 * Once it resolves, the factory makes its first sandbox instance ready for
 * the first run: in worker mode in the worker; with `worker: false` in a task
 * of its own on this thread (a page's idle callback, within 1 s; a timer where
 * there is no `requestIdleCallback`), skipped when a run has begun (USAGE.md,
 * "When a run ends").
 */
export declare function IoCodeModeFactory(config: IoCodeMode.Config): Promise<IoCodeMode.API>;
export default IoCodeModeFactory;

export declare namespace IoCodeMode {
    /** A JSON value. */
    type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

    /** A JSON Schema (draft 2020-12 / draft-07 keywords), as a plain object. */
    type JsonSchema = { [keyword: string]: any } | boolean;

    /** A schema library's object: Standard Schema (`~standard`, with `jsonSchema` for conversion) or the AI SDK's schema. */
    type SchemaObject =
        | { readonly "~standard": { readonly version: 1; readonly vendor: string; validate(value: unknown): unknown } }
        | { readonly jsonSchema: unknown; readonly validate?: (value: unknown) => unknown };

    /**
     * A compiled `WebAssembly.Module` where the program's types declare one
     * (TypeScript's `DOM` lib, Bun's and Deno's types); `object` in a Node.js
     * program whose `lib` has no `DOM`, as @types/node declares no
     * `WebAssembly` namespace (naming it there failed with TS2503).
     */
    type CompiledModule = typeof globalThis extends { WebAssembly: { Module: abstract new (...args: any[]) => infer M } } ? M : object;

    interface Config {
        /**
         * URL in a browser, or filesystem path (or `file:`/`http(s):` URL) in
         * Node.js, of the QuickJS WebAssembly file (`emscripten-module.wasm`).
         * Browser URLs are relative to the page (`document.baseURI`).
         */
        wasmLocation: string;
        /**
         * The QuickJS asset (`emscripten-module.wasm`) compiled, for runtimes
         * that compile no WebAssembly from bytes (Cloudflare Workers:
         * `import wasmModule from "@interopio/code-mode/emscripten-module.wasm"`);
         * then it is used and `wasmLocation` only names it in messages.
         * Give `coreModule` with it. Default: fetched from `wasmLocation`.
         */
        wasmModule?: CompiledModule | undefined;
        /**
         * The package's Go core (`code-mode.wasm`) compiled, for the same
         * runtimes (`import coreModule from "@interopio/code-mode/code-mode.wasm"`).
         * It must be this copy of the package's own: another build's core (an
         * older version's file left in a bundle) is a `TypeError` naming the field.
         * Default: fetched from beside the package's module and compiled.
         */
        coreModule?: CompiledModule | undefined;
        /** Replaces or extends the built-in instructions given to the model. Default: identity. */
        overwriteSystemInstruction?: ((current: string) => string) | undefined;
        interceptors?: {
            /**
             * Asynchronous authorization, approval, validation, or
             * input-rewriting hook, awaited before every tool call. A hook that
             * throws, rejects or returns anything but a decision denies the
             * call (fail closed). Default: allow.
             */
            onToolCall?: ((context: ToolCallContext) => Promise<InterceptorDecision> | InterceptorDecision) | undefined;
        } | undefined;
        /** Maximum execution time of one run in milliseconds, time awaiting tools included. Default 30000, 1 to 86,400,000 (24 h). */
        timeout?: number | undefined;
        /** Sandbox memory limit in MiB: the QuickJS heap's, and the ceiling of the run's WebAssembly memory (16 MiB plus twice the limit). Default 128, 1 to 1016. */
        memoryLimit?: number | undefined;
        /** Returns `true` to expose a tool or `false` to hide it (from search, `tools.*` and `tool_call`). Default: include all. */
        toolFilter?: ((tool: ToolDefinition) => boolean) | undefined;
        /** Maximum number of tool calls of one run. Default 1000, 1 to 50,000. */
        maxToolCalls?: number | undefined;
        /** Budget of the model-visible output of one run (result and logs), in bytes of its JSON as UTF-8: an ASCII character is one, é two, most CJK characters three, an emoji four. More is truncated with a visible marker. Default 20000, 100 to 10,000,000. */
        maxResultChars?: number | undefined;
        /**
         * The sandbox's own time zone, an IANA name (`"America/New_York"`, `"UTC"`): the zone of `Date`'s
         * local-time methods (`getHours`, `setHours`, `getTimezoneOffset`, `toString`, parsing a date and time
         * without an offset) and of `Intl` and `toLocaleString` without a `timeZone`. Default: this page's (or
         * worker's, or Node process's) own, as its JavaScript sees it when the factory is created. `"UTC"` gives
         * every machine the same text.
         * An unknown zone makes the factory throw a `TypeError` naming it.
         */
        timeZone?: string | undefined;
        /** Tools registered when the instance is created. */
        tools?: ToolDefinition[] | undefined;
        /** Semantic ranking for `searchTools` / `tool_search`, fused with the lexical one. */
        search?: SearchOptions | undefined;
        /**
         * Where the engine (the Go core and QuickJS) runs. `true`: a dedicated
         * module Worker (in Node.js, a `worker_threads` Worker), so a busy
         * program never blocks this thread and `signal.abort()` always
         * stops it; tools, `toolFilter`, `onToolCall`, `context` and `signal`
         * stay on this thread. `false`: on this thread. The default is
         * `true` on a web page and `false` in Node.js and other runtimes.
         */
        worker?: boolean | undefined;
        /** Receives each run's events as they happen (see `CodeModeEvent`). */
        onEvent?: ((event: CodeModeEvent) => void) | undefined;
    }

    /**
     * Plugs an embeddings endpoint into tool search. Tool texts (name and
     * description) are embedded in batches when tools are registered, once
     * per distinct text; each search embeds its query. If `embed` throws,
     * rejects, returns malformed vectors or takes longer than `timeout`,
     * that search (and those of the next 30 seconds) is lexical and a
     * `console.warn` says why.
     */
    interface SearchOptions {
        /** One vector (array or typed array of numbers, all the same length) per text. */
        embed: (texts: string[]) => Promise<ArrayLike<number>[]> | ArrayLike<number>[];
        /** Weight of the semantic rank relative to the lexical rank's 1. Default 0.1 (see USAGE). */
        weight?: number | undefined;
        /** Cosine a tool needs to be found on semantic grounds alone. Default 0.5. */
        minSimilarity?: number | undefined;
        /** Milliseconds a search waits for embeddings before it ranks lexically (and the next 30 s do too). Default 5000. */
        timeout?: number | undefined;
    }

    /** What a tool's `execute` receives besides its input. */
    interface ToolExecuteOptions {
        /** The opaque caller state of the run that made this call (`execute(args, { context })`). */
        context: unknown;
        /** Aborted when that run is aborted, times out or ends. */
        signal: AbortSignal;
    }

    /** Hints about a tool's behaviour (the Model Context Protocol's tool annotations). */
    interface ToolAnnotations {
        title?: string | undefined;
        readOnlyHint?: boolean | undefined;
        destructiveHint?: boolean | undefined;
        idempotentHint?: boolean | undefined;
        openWorldHint?: boolean | undefined;
        /**
         * Set by the adapters (`@interopio/code-mode/mcp`, `/webmcp`,
         * `/io-connect`, `/fdc3`): where the tool comes from, e.g.
         * `"mcp:github"`, `"webmcp"`, `"io-connect"`, `"fdc3"`.
         */
        source?: string | undefined;
        /**
         * Set by the adapters: `true` when the hints above come from a source
         * that was not declared trusted, so they are the source's own claims
         * (a hostile server can call a destructive tool read-only).
         */
        untrusted?: boolean | undefined;
        [key: string]: unknown;
    }

    /** A page tool that sandbox code can call. */
    interface ToolDefinition<Input = any, Output = unknown> {
        /** Unique; 1..128 characters of `[A-Za-z0-9_$.-]`; dots make namespaces (`orders.search`). */
        name: string;
        /** What the tool does, for the model: search ranks by it, and `tool_search` and the instruction show it (a search hit's is cut to 8 KiB at a word). */
        description?: string | undefined;
        /**
         * The input's schema; every call is checked against it before `execute` runs. Plain JSON
         * Schema, an AI SDK schema (`jsonSchema()`, `zodSchema()`), or a Zod 4 / Standard Schema
         * object that can give JSON Schema (converted, and its own validation, refinements
         * included, is run too: `execute` gets the value it gives, defaults filled in and
         * transforms run). Anything else throws a `TypeError`; `null` is none.
         */
        inputSchema?: JsonSchema | SchemaObject | null | undefined;
        /**
         * The output's schema (same forms): the tool's TypeScript signature shows it, and every
         * result is checked against it before the sandbox sees it (a mismatch fails the call,
         * naming the path); `null` is none.
         */
        outputSchema?: JsonSchema | SchemaObject | null | undefined;
        /** Hints, and metadata of your own (tags, a flag for `toolFilter`); `null` is none. */
        annotations?: ToolAnnotations | null | undefined;
        /**
         * Runs the tool. May return a value or a promise. The value reaches the
         * sandbox as a structured copy (JSON data, `Date` as ISO string,
         * `undefined` as absent); a thrown error reaches it with the same message.
         */
        execute(input: Input, options: ToolExecuteOptions): Output | Promise<Output>;
    }

    /** What `interceptors.onToolCall` sees of one call. */
    interface ToolCallContext {
        tool: ToolDefinition;
        /** The input the sandbox code passed. */
        input: any;
        /** The `context` of the `execute(args, { context })` run that made the call. */
        callContext: unknown;
    }

    /** `{ allowed: true }` keeps the input, `{ allowed: true, input }` replaces it, `{ allowed: false, reason }` denies the call. */
    type InterceptorDecision = { allowed: true; input?: unknown } | { allowed: false; reason: string };

    /**
     * What the adapters' `from*` functions return: tool definitions that
     * follow their source (an MCP server, the page's WebMCP tools, io.Connect
     * methods, FDC3 intents).
     */
    interface ToolSource {
        /** The current definitions (also usable as `createSession({ tools })`, without following the source). */
        readonly tools: ToolDefinition[];
        /**
         * Registers the tools with a Code Mode instance and keeps them in step
         * with the source: added, changed and removed as the source changes.
         * Throws, registering nothing, when a tool cannot be registered (a
         * name taken, say). Returns the function that unregisters them and
         * stops following the source for that instance.
         */
        registerTools(api: Pick<API, "registerTool">): () => void;
        /** Stops following the source (registered tools stay until unregistered). */
        close(): void;
    }

    interface CreateSessionOptions {
        /** Tools visible to this session only, besides the instance's. */
        tools?: ToolDefinition[] | undefined;
    }

    interface API {
        /** Adds a tool; returns a function that removes it. Throws a `TypeError` for a duplicate or invalid name or a missing `execute`. */
        registerTool(tool: ToolDefinition): () => void;
        /** Adds tools (all or none: a `TypeError` as `registerTool`'s registers none of them); returns a function that removes them. */
        registerTools(tools: ToolDefinition[]): () => void;
        /** The registered tools that pass `toolFilter`: copies of their fields as registered (the name registered, the definition's `execute`), in name order. */
        listTools(): ToolDefinition[];
        /**
         * Resolves once the engine has taken every `registerTool(s)`,
         * unregister and `createSession` made before the call, so that
         * `getSystemInstruction()` shows them. In worker mode the engine
         * takes them a message later (by the next task they are in); await
         * this when reading the instruction in the same task as registering.
         * On this thread (`worker: false`) it resolves at once.
         */
        ready(): Promise<void>;
        /** A session: one conversation's view of the instance's tools, plus `options.tools` of its own. */
        createSession(options?: CreateSessionOptions): Session;
        /**
         * Frees the engine: runs in flight reject at once, their tool calls'
         * signals abort, and no tool or interceptor is called afterwards;
         * later calls throw or reject with a clear error.
         */
        dispose(): void;
    }

    interface Session {
        /** `[searchTools, executeCode]`, ready to hand to an LLM SDK. */
        getLlmTools(): [searchTools: LlmTool, executeCode: LlmTool];
        /** The built-in instructions for the model, with the current tool catalog, after `overwriteSystemInstruction`. Read it for each request: it follows later `registerTool` calls. */
        getSystemInstruction(): string;
        /** Ends the session as `API.dispose` ends the instance: its runs in flight reject, and it lets go of its own tools at once. */
        dispose(): void;
    }

    /** The input of the `executeCode` LLM tool. */
    interface ExecuteCodeArgs {
        /**
         * JavaScript or TypeScript (erasable syntax): the body of an async function.
         * A markdown fence around it, or one `async () => {...}` / `async function main() {...}`,
         * is accepted too (see USAGE.md, "What code the model may send").
         */
        code: string;
        /** One sentence on what the code does and why. */
        explanation: string;
    }

    /** The input of the `searchTools` LLM tool. */
    interface SearchToolsArgs {
        /** What the model wants to do; left out or "", lists tools by name, `limit` of them (with `namespace`, that namespace's). */
        query?: string | undefined;
        /** Only tools of this namespace ("orders", "crm.accounts"). */
        namespace?: string | undefined;
        /** Number of hits, 1 to 50 (more counts as 50). Default 10, or 50 when listing a namespace. */
        limit?: number | undefined;
    }

    /**
     * Options of one LLM tool call. `signal`/`context` are Code Mode's names;
     * `abortSignal`/`experimental_context` (the Vercel AI SDK's tool options;
     * v7 passes its toolsContext entry as `context`) are accepted too, so the
     * tool's `execute` can be handed to the AI SDK as is.
     */
    interface LlmToolExecuteOptions {
        /** Aborting it stops the run: the promise rejects with the signal's reason and in-flight tool calls are aborted. */
        signal?: AbortSignal | undefined;
        /** Opaque caller state: reaches `onToolCall` as `callContext` and every tool as `options.context`, never sandbox code. */
        context?: unknown;
        /** The Vercel AI SDK's name for `signal`. */
        abortSignal?: AbortSignal | undefined;
        /** The Vercel AI SDK's name for `context`. */
        experimental_context?: unknown;
        /** Passed by the Vercel AI SDK; accepted and ignored. Any other key is a `TypeError`. */
        toolCallId?: string | undefined;
        /** Passed by the Vercel AI SDK; accepted and ignored. */
        messages?: unknown[] | undefined;
        /** Passed by the Vercel AI SDK (v7); accepted and ignored: a run's sandbox is its own. */
        experimental_sandbox?: unknown;
        /** Passed by Mastra's agents (`generate(prompt, { requestContext })`): read as `context` when neither name above is given. */
        requestContext?: unknown;
        /** Passed by Mastra's agents; accepted and ignored (they serve Mastra's own tools). */
        outputWriter?: unknown;
        /** Passed by Mastra's agents; accepted and ignored. */
        tracingContext?: unknown;
        /** Passed by Mastra's agents; accepted and ignored: a run's sandbox is its own. */
        workspace?: unknown;
        /** Passed by Mastra's agents; accepted and ignored. */
        actor?: unknown;
        /** Passed by Mastra's agents; accepted and ignored. */
        mcp?: unknown;
        /** Passed by Mastra's agents; accepted and ignored. */
        flushMessages?: unknown;
        /** Passed by Mastra's agents; accepted and ignored. */
        suspend?: unknown;
        /** Passed by Mastra's agents; accepted and ignored. */
        resumeData?: unknown;
        /** Receives this run's events, besides the factory's `onEvent`. */
        onEvent?: ((event: CodeModeEvent) => void) | undefined;
    }

    /** A tool to hand to an LLM (`searchTools` or `executeCode`). */
    interface LlmTool {
        readonly name: "searchTools" | "executeCode";
        /** For `executeCode`, the contract in brief (input, result shape, limits); the rules and the tool catalog are `getSystemInstruction()`'s. */
        readonly description: string;
        /**
         * JSON Schema of the arguments. It also carries the Vercel AI SDK's
         * schema markers as non-enumerable properties, so the AI SDK accepts
         * it without `jsonSchema()`; `JSON.stringify` sees plain JSON Schema.
         */
        readonly inputSchema: { [keyword: string]: any };
        // `this: void`: each function works taken off its tool (`toModelOutput:
        // executeCode.toModelOutput`, as SDKs take them); without it
        // typescript-eslint's unbound-method (recommendedTypeChecked) refused
        // USAGE's AI SDK snippet.
        execute(this: void, args: ExecuteCodeArgs, options?: LlmToolExecuteOptions): Promise<ExecuteResult>;
        /** Bad arguments resolve as an `INVALID_INPUT` failure, for the model to read (see USAGE.md). */
        execute(this: void, args: SearchToolsArgs, options?: LlmToolExecuteOptions): Promise<SearchToolsResult | ExecuteFailure>;
        /** Arguments as a model sent them: an object, its JSON text, or a lone string (the query or the code). */
        execute(this: void, args: ExecuteCodeArgs | SearchToolsArgs | string, options?: LlmToolExecuteOptions): Promise<ExecuteResult | SearchToolsResult>;
        /**
         * The Vercel AI SDK's `toModelOutput`: what the model is sent for a result.
         * A failure (`ok: false`) is `"error-json"`, which providers mark as an
         * error (Anthropic's `is_error`); anything else is `"json"`, as the AI SDK
         * sends it by default. Takes `{ toolCallId, input, output }` (v6, v7) or
         * the output (v5, Mastra).
         */
        toModelOutput(this: void, options: unknown): LlmToolModelOutput;
    }

    /** What `LlmTool.toModelOutput` gives: the AI SDK's tool result output. */
    type LlmToolModelOutput = { type: "json"; value: JsonValue } | { type: "error-json"; value: JsonValue } | { type: "text"; value: string };

    /** `INVALID_INPUT`: the LLM tool's own arguments were wrong; the message names the field and the type expected. */
    type ErrorCode = "SYNTAX" | "RUNTIME" | "TIMEOUT" | "MEMORY_LIMIT" | "TOOL_LIMIT" | "RESULT_NOT_SERIALIZABLE" | "INVALID_INPUT";

    interface ExecuteError {
        /** The JavaScript error's name (`TypeError`, `SyntaxError`, ...). */
        name: string;
        /** Its message, with a hint where Code Mode knows one; at most 2,000 bytes of UTF-8. */
        message: string;
        code: ErrorCode;
        /** 1-based line in the model's code. */
        line?: number;
        /** 1-based column in the model's code. */
        column?: number;
        /** The JavaScript stack, at most 2,000 bytes of UTF-8. */
        stack?: string;
    }

    interface LogEntry {
        level: "log" | "info" | "warn" | "error" | "debug";
        /** The line as `console.log` formats it (objects as JSON), at most 2,000 bytes of UTF-8. */
        message: string;
    }

    interface ToolCallRecord {
        /** The name the code called (at most 128 characters). */
        name: string;
        /**
         * False when the call did not get past the checks before its tool:
         * `onToolCall` denied it (or threw, or gave no decision), no visible
         * tool has its name, `maxToolCalls` was passed, the tool was
         * unregistered during the run, or the run ended before it started
         * (`reason` says which).
         */
        allowed: boolean;
        /** The tool returned without an error, and its result matched its `outputSchema`. */
        ok: boolean;
        durationMs: number;
        /** Why the call was denied or failed. */
        reason?: string;
    }

    interface ExecuteSuccess {
        ok: true;
        /** The value the code returned (absent for `undefined`). */
        result?: JsonValue;
        logs: LogEntry[];
        toolCalls: ToolCallRecord[];
        durationMs: number;
    }

    interface ExecuteFailure {
        ok: false;
        error: ExecuteError;
        logs: LogEntry[];
        toolCalls: ToolCallRecord[];
        durationMs: number;
    }

    /** What `executeCode` resolves with. Errors of the code never reject. */
    type ExecuteResult = ExecuteSuccess | ExecuteFailure;

    /** One match of `searchTools` / `tool_search`, best first. */
    interface SearchToolsHit {
        name: string;
        /** The name up to its last dot ("" for a tool without namespace). */
        namespace: string;
        description: string;
        /** A TypeScript declaration generated from the tool's schemas. */
        signature: string;
        /**
         * `searchTools` only, on the last hit of an answer cut to its budget
         * (50,000 characters of JSON): how many hits were shortened or left out.
         */
        note?: string;
    }

    type SearchToolsResult = SearchToolsHit[];

    /**
     * What `onEvent` receives while a run goes on. `runId` tells runs apart;
     * `callId` a run's tool calls. A call the engine ends before its tool
     * runs (an unknown or hidden tool, which read the same; an `onToolCall`
     * that denied, threw or gave no decision; a tool unregistered during the
     * run; `maxToolCalls` passed) has a
     * `tool-call` whose decision is `{ allowed: false, reason }`, the reason
     * of its `toolCalls` record, and no `tool-result`; one whose input its
     * `inputSchema` refused has a `tool-call` allowed and a `tool-result`
     * with `ok: false` and the program's error.
     */
    type CodeModeEvent =
        | { type: "run-start"; runId: number; code: string }
        | {
              type: "tool-call";
              runId: number;
              callId: number;
              name: string;
              /** A copy of the tool's input: changing it changes nothing of the call. */
              input: unknown;
              /** The interceptor's decision (allowed when there is none), or why the engine refused the call. */
              decision: { allowed: true } | { allowed: false; reason: string };
          }
        /**
         * A tool call ended: `result` is what `execute` returned, as the
         * program gets it (JSON data, a copy: changing it changes nothing of
         * the tool's object or the program's), `error` why it failed. Calls still in flight when their run ends get
         * theirs then (their signals abort), before `run-end`.
         */
        | { type: "tool-result"; runId: number; callId: number; name: string; ok: boolean; durationMs: number; result?: unknown; error?: string }
        /**
         * A console line, as the code logs it (a busy run's lines reach the
         * page while it spins in worker mode); warnings the engine adds to
         * the result's logs at the end come just before `run-end`.
         */
        | { type: "console"; runId: number; level: LogEntry["level"]; message: string }
        /**
         * The run ended: `error` is a copy of the failed result's
         * (`ExecuteError`: `code`, `line`, `column`, `stack`), or only `name`
         * and `message` when `execute` rejected (abort, dispose).
         */
        | { type: "run-end"; runId: number; ok: boolean; durationMs: number; error?: { name: string; message: string; code?: ErrorCode; line?: number; column?: number; stack?: string } };
}

// The classic-script build's global IoCodeModeFactory is declared in
// code-mode.global.d.ts (web/global.d.ts), for the pages that load that script.
