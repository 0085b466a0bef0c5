// TypeScript declarations of @interopio/code-mode/fdc3. The types below are
// the parts of FDC3 2.2's DesktopAgent the adapter uses, so `window.fdc3`
// (typed by @finos/fdc3) fits as it is.
import type { IoCodeMode } from "@interopio/code-mode";

export interface Fdc3Context {
    type: string;
    name?: string;
    id?: { [key: string]: any };
    [key: string]: any;
}

export interface Fdc3Agent {
    findIntentsByContext(context: Fdc3Context, resultType?: string): Promise<Array<{ intent: { name: string; displayName?: string }; apps: Array<{ appId: string; title?: string; name?: string }> }>>;
    /** `app` when the program chose one of several applications (the tool's `app`). */
    raiseIntent(intent: string, context: Fdc3Context, app?: { appId: string; instanceId?: string }): Promise<{ source: { appId: string; instanceId?: string }; getResult(): Promise<unknown> }>;
    /** Asked before raising an intent to the app a program chose: an instance of it that runs takes the intent. */
    findIntent?(intent: string, context?: Fdc3Context): Promise<{ apps: Array<{ appId: string; instanceId?: string }> }>;
    /** Asked once per listing: this application's own appId, whose intent listeners are no tools. */
    getInfo?(): Promise<{ appMetadata: { appId: string } }>;
    broadcast(context: Fdc3Context): Promise<void>;
    /** Asked before a broadcast: joined to no user channel (null), FDC3 ignores a broadcast. */
    getCurrentChannel?(): Promise<{ id: string } | null>;
    open(app: { appId: string }, context?: Fdc3Context): Promise<{ appId: string; instanceId?: string }>;
}

export interface FromFdc3Options {
    /** Context types to find intents for (`findIntentsByContext`): one tool per intent found. */
    contextTypes?: string[] | undefined;
    /** Intents to offer (with `contextTypes`: only these of the ones found). Names, or `{ name, contextTypes?, description? }`. */
    intents?: Array<string | { name: string; contextTypes?: string[] | undefined; description?: string | undefined }> | undefined;
    /** The first steps of every tool's name, dots separating them (`"desk.fdc3"`: `tools.desk.fdc3.ViewChart`). Default `"fdc3"`: `tools.fdc3.ViewChart`. */
    namespace?: string | undefined;
    /** JSON Schemas of context types, used as the tools' input schemas. Default: any context of that type (`type`, `name`, `id`). */
    contextSchemas?: { [contextType: string]: IoCodeMode.JsonSchema } | undefined;
    /** Also offer `<namespace>.broadcast(context)` (the current user channel). Default `false`. */
    broadcast?: boolean | undefined;
    /** Also offer `<namespace>.open({ appId, context? })`, for any app (`true`) or these appIds. Default `false`. */
    open?: boolean | string[] | undefined;
    /**
     * How long a call waits for the handling application's result (`getResult()`), in ms: past it the call fails
     * with `ResultError: no result from <appId> within <ms> ms ...`. Default: no bound of its own; the run's
     * timeout (or abort) ends the wait. A handler that rejects sends nothing in FINOS's 2.2.0 proxy.
     */
    resultTimeoutMs?: number | undefined;
    /** Hears failed re-syncs. Default: console.warn. */
    onError?: ((error: unknown) => void) | undefined;
}

export interface Fdc3ToolSource extends IoCodeMode.ToolSource {
    readonly namespace: string;
    /** Asks the agent for the intents again (FDC3 has no event for new ones). */
    refresh(): Promise<IoCodeMode.ToolDefinition[]>;
}

/**
 * FDC3 intents as Code Mode tools: each takes a context (and, when several
 * applications handle the intent, an optional `app`: the appId to raise it to), raises the intent
 * and resolves with `getResult()`'s context (`{ handledBy }` when the
 * handler returns none; `{ handledBy, channel: { id, type }, context }`,
 * plain data, when it answers with a channel: `context` is the channel's
 * current one, or null). FDC3's ResolveError / ResultError / OpenError
 * values are thrown as errors of those names.
 * Every tool's annotations carry `source: "fdc3"`, `fdc3Action`
 * (`"raiseIntent"`, `"broadcast"`, `"open"`) and `readOnlyHint: false`.
 */
export declare function fromFdc3(agent: Fdc3Agent, options: FromFdc3Options): Promise<Fdc3ToolSource>;
