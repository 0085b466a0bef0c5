// TypeScript declarations of @interopio/code-mode/io-connect. The types
// below are the parts of io.Connect's API (@interopio/core, /browser,
// /desktop) the adapter uses, so any of those API objects fits.
import type { IoCodeMode } from "@interopio/code-mode";

export interface IoConnectInstance {
    application?: string;
    applicationName?: string;
    instance?: string;
    peerId?: string;
}

export interface IoConnectMethod {
    name: string;
    displayName?: string;
    description?: string;
    /** Signature of the arguments, e.g. `"String symbol, Int? quantity"`. */
    accepts?: string;
    /** Signature of the result. */
    returns?: string;
    supportsStreaming?: boolean;
    flags?: { [key: string]: any };
    getServers?(): IoConnectInstance[];
}

export type IoConnectTarget = "best" | "all" | "skipMine" | IoConnectInstance | IoConnectInstance[];

export interface IoConnectInterop {
    instance: IoConnectInstance;
    methods(filter?: any): IoConnectMethod[];
    /** `method` is the name, or `{ name, accepts?, returns? }` while the name is registered with several signatures. */
    invoke(method: string | { name: string; accepts?: string; returns?: string }, args?: object, target?: any, options?: { waitTimeoutMs?: number; methodResponseTimeoutMs?: number }): Promise<any>;
    methodAdded?(callback: (method: any) => void): () => void;
    methodRemoved?(callback: (method: any) => void): () => void;
    serverMethodAdded?(callback: (info: any) => void): () => void;
    serverMethodRemoved?(callback: (info: any) => void): () => void;
}

export interface FromIoConnectOptions {
    /** The first steps of every tool's name, dots separating them (`"desk.fx"`: `tools.desk.fx.<method>`). Default `"interop"`: `tools.interop.<method>`. */
    namespace?: string | undefined;
    /**
     * Which servers a call goes to. `"best"` (default): one, chosen by
     * io.Connect; the tool returns the method's `returned`. `"all"` /
     * `"skipMine"`: every server; the tool returns `[{ server, returned }]`
     * (and `{ server, error }` for those that failed). A function picks per method,
     * and may return an instance filter (`{ application: "pricing-b" }`): a method
     * several applications serve, pinned to one (the first server it matches, one
     * call). The page's own instance is never a target.
     */
    target?: ("best" | "all" | "skipMine" | ((method: IoConnectMethod) => IoConnectTarget)) | undefined;
    /** Passed to every `invoke`: over 0, at most 2147483647 ms (setTimeout's limit: `Infinity` is a TypeError). */
    methodResponseTimeoutMs?: number | undefined;
    /** Passed to every `invoke`: 0 or more ms, `Infinity` (wait for the method for ever) included. A method no application serves (its tool not yet removed) is waited for that long; without it, such a call fails at once. */
    waitTimeoutMs?: number | undefined;
    /** Which methods to offer. Default: every non-streaming method another application offers. */
    filter?: ((method: IoConnectMethod) => boolean) | undefined;
    /** Whether hints in a method's `flags` (readOnlyHint, destructiveHint, ...) can be taken. Default `false`: tools carry `untrusted: true`. */
    trusted?: boolean | undefined;
    /** Hears a signature that could not be read (the method then takes any object) and failed re-syncs. Default: console.warn. */
    onError?: ((error: unknown) => void) | undefined;
}

export interface IoConnectToolSource extends IoCodeMode.ToolSource {
    readonly namespace: string;
}

/**
 * The Interop methods that other applications offer, as Code Mode tools
 * `<namespace>.<method>`, kept in step with methodAdded/methodRemoved.
 * Streaming methods and methods only this application offers are left out.
 */
export declare function fromIoConnect(io: { interop: IoConnectInterop }, options?: FromIoConnectOptions): IoConnectToolSource;

/** The JSON Schema of an io.Connect signature string (`accepts`/`returns`); empty: any object. Throws a SyntaxError it cannot read. */
export declare function signatureToJsonSchema(signature: string | undefined): { [keyword: string]: any };
