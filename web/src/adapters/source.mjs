// What every "from*" adapter returns: a live set of tool definitions that
// follows its source (an MCP server's list, the page's WebMCP tools, the
// io.Connect methods, the FDC3 intents) and keeps each Code Mode instance it
// was registered with in step.
//
// Definitions are replaced only when what the model sees of them changed,
// so an unchanged tool keeps its registration (and its inferred result
// type) across re-syncs.

// The nearest known option to a misspelt one: the core's rule (keys.mjs).
import { nearest } from "../keys.mjs";

const NAME_SEGMENT = /[^A-Za-z0-9_$-]+/g;

// An instance's hook that registers a listing in slices over later tasks
// (the package's registering.mjs), so that 100,000 tools never hold the
// page's thread for seconds (in worker mode too: its page checks every tool).
const REGISTERING = Symbol.for("code-mode.slices");

/** One namespace segment from any string: runs of other characters become "_". */
function sanitizeSegment(s, fallback) {
    const out = String(s).replace(NAME_SEGMENT, "_").replace(/^_+|_+$/g, "");
    return (out || fallback).slice(0, 64);
}

/**
 * The namespace of a source's tools. One the caller gives is read as a
 * tool's name is, its dots steps ("corp.crm": tools.corp.crm.<tool>; it was
 * made "corp_crm", silently); the source's own name (an MCP server's,
 * dotted as often as not: "io.github.acme") is one step.
 */
export function namespaceOf(given, own, fallback) {
    return given === undefined ? sanitizeSegment(own ?? fallback, fallback) : sanitizeName(given, fallback);
}

// A step written in another script keeps none of its letters: it becomes
// tool_<hash of the step>, the same on every listing whatever the order (a
// counter suffix would follow the order, and a re-listing in another order
// would hand one tool's name to another).
function hashed(step) {
    let h = 0x811c9dc5;
    for (const c of step) h = Math.imul(h ^ c.codePointAt(0), 0x01000193) >>> 0;
    return `tool_${h.toString(36)}`;
}

/**
 * The ends of a name registration refuses (tool.go validateToolName): a
 * last step "then" or "toJSON", or a trailing dot.
 */
const REFUSED_END = /(^|\.)(then|toJSON)$|\.$/;

/**
 * A dotted tool name from a source's own name: dots are kept as namespace
 * steps, every step sanitised (accents dropped: "résumé" is "resume"; a
 * step of another script is tool_<hash>), empty steps dropped, a last step
 * "then" or "toJSON" written "then_", "toJSON_".
 */
export function sanitizeName(s, fallback = "tool") {
    const steps = String(s)
        .split(".")
        .map((p) => {
            const out = p.normalize("NFKD").replace(/\p{M}+/gu, "").replace(NAME_SEGMENT, "_").replace(/^_+|_+$/g, "");
            return out || (/[\p{L}\p{N}]/u.test(p) ? hashed(p) : "");
        })
        .filter(Boolean);
    // A last step "then" would make its namespace awaitable, one "toJSON"
    // called by JSON.stringify of it; registration refuses both (tool.go
    // validateToolName).
    if (REFUSED_END.test(steps[steps.length - 1] ?? "")) steps[steps.length - 1] += "_";
    return steps.length ? steps.join(".") : fallback;
}

/**
 * Gives each entry a unique name under `namespace`, of at most 128
 * characters (a tool name's limit): a name already taken by an earlier
 * entry gets a numeric suffix (get_user, get_user_2, ...), within those 128.
 * Cutting after the suffix made two long names that differ past the limit
 * one name, and the source kept only the last of them, silently.
 */
export function uniqueNames(namespace, names) {
    const taken = new Set();
    // The suffix to try next for each name: counting from 2 again, a
    // server's 16,000 tools of one name held the page 20 s on each listing.
    const next = new Map();
    return names.map((n) => {
        const full = namespace ? `${namespace}.${n}` : n;
        let name = full.slice(0, 128);
        let i = next.get(full) || 2;
        // A cut can leave a last step "then" or "toJSON", or a trailing dot, which registration refuses: suffixed too.
        while (taken.has(name) || REFUSED_END.test(name)) name = `${full.slice(0, 126 - String(i).length)}_${i++}`;
        next.set(full, i);
        taken.add(name);
        return name;
    });
}

// What the model sees of a tool, plus what its execute calls at the source
// (origin): a tool is re-registered when either changed.
// Made only when a later listing has a tool of the name ([origin] until
// then): made for every tool of every listing, they were 0.4 s of the 0.9 s
// that a first listing of 100,000 tools held the page's thread.
const fingerprints = new WeakMap();
const print = (def, f = fingerprints.get(def)) =>
    typeof f == "string" ? f : (fingerprints.set(def, (f = JSON.stringify([f[0], def.name, def.description, def.inputSchema, def.outputSchema, def.annotations]))), f);

/**
 * Creates the live tool set. `onError(err)` hears what cannot be thrown to
 * anyone: a re-sync that failed, a tool that a later re-sync could not
 * register (a name taken by another source, say). `uncheckedOutput(def)`,
 * if given, hears of a tool registered without its outputSchema and says
 * who checks its results instead ("the MCP SDK checks its results").
 */
export function createToolSource({ kind, onError, uncheckedOutput }) {
    const report =
        typeof onError === "function"
            ? onError
            : (err) => console.warn(`Code Mode ${kind} adapter: ${err?.message || err}`);
    let current = new Map(); // name -> definition
    const targets = new Set(); // { api, regs: Map<name, { def, unregister }> }
    const stops = [];
    let closed = false;
    // What may throw where no one can be told but onError: an unregister,
    // an unsubscribe.
    const attempt = (fn) => {
        try {
            fn();
        } catch (err) {
            report(err);
        }
    };

    // A source's outputSchema the engine refuses (a pattern written for
    // JavaScript, OpenAPI 3.0's "exclusiveMaximum": true: servers and
    // generated catalogs carry such schemas) costs the tool its result
    // check, not the tool: it is registered without it, and that is
    // reported. Its input is still checked, and its results reach the
    // model unchecked, as any tool's without an outputSchema, unless the
    // source checks them itself (uncheckedOutput: MCP's SDK).
    function register(api, def) {
        try {
            return api.registerTool(def);
        } catch (err) {
            const msg = err?.message;
            // registerTool's words (wasm/api.go toolTypeError).
            if (def.outputSchema === undefined || typeof msg !== "string" || !msg.startsWith(`tool (${JSON.stringify(def.name)}): outputSchema: `)) throw err;
            const { outputSchema, ...rest } = def;
            const unregister = api.registerTool(rest);
            report(new Error(`${kind} tool ${def.name}: registered without its outputSchema, which Code Mode cannot enforce (${msg.slice(msg.indexOf("outputSchema"))}); ${uncheckedOutput?.(def) || "its results are not checked"} and the model is shown no result type`));
            return unregister;
        }
    }

    // Unregisters what target holds, and stops following the source for
    // it (a pass in flight stops at its next slice).
    function undo(target) {
        targets.delete(target);
        target.pass = -1;
        for (const reg of target.regs.values()) attempt(reg.unregister);
        target.regs.clear();
    }

    function sync(target, strict) {
        // A disposed instance is no longer followed (its listTools throws).
        if (!strict && typeof target.api.listTools === "function") {
            try {
                target.api.listTools();
            } catch {
                targets.delete(target);
                return;
            }
        }
        for (const [name, reg] of target.regs) {
            if (current.get(name) !== reg.def) {
                for (const [n, r] of target.regs) if (r.unregister === reg.unregister) target.regs.delete(n);
                attempt(reg.unregister);
            }
        }
        const todo = Array.from(current.values()).filter((def) => !target.regs.has(def.name));
        const pass = (target.pass = {});
        let i = 0;
        // Registers n more (true when none is left, or when a later sync
        // or undo took over).
        const step = (n) => {
            if (target.pass !== pass) return true;
            for (const end = i + n; i < todo.length && i < end; ) {
                const part = todo.slice(i, (i += 128));
                try {
                    const all = target.api.registerTools(part);
                    for (const def of part) target.regs.set(def.name, { def, unregister: all });
                    continue;
                } catch {}
                for (const def of part) {
                    try {
                        target.regs.set(def.name, { def, unregister: register(target.api, def) });
                    } catch (err) {
                        // A tool the engine refuses as invalid (an inputSchema
                        // pattern it cannot enforce, say) is left out and reported,
                        // as worker mode does: it must not keep the source's other
                        // tools out. A name that is taken still throws.
                        // registerTool's 'tool ("x"): inputSchema: ...' (wasm/api.go
                        // toolTypeError), but not a taken name's 'tool ("x"): name:
                        // already ...' or 'appears ...' (a bad name's "must ...").
                        if (strict && !/^tool \(.*\): (?!name: a)/.test(err?.message)) throw err;
                        report(err);
                    }
                }
            }
            return i >= todo.length;
        };
        // The instance registers the first slice now and the rest over
        // later tasks, its runs and ready() waiting for them; one without
        // that hook, all now. A name refused in a later slice (taken
        // since) undoes the whole registration, as when refused at once.
        return target.api[REGISTERING]?.(step)?.catch((err) => (undo(target), report(err))) ?? step(Infinity);
    }

    // sync registers what is new by registerTools calls of 128 tools, tool
    // by tool only where one throws (to keep the others and say which
    // failed): tool by tool, a server's 10,000 tools held the page's thread
    // 9 s (worker mode 18 s), 1e5 five minutes. A tool of a batch that
    // changes or goes takes its batch with it (the batch's unregister), and
    // the rest of that batch is registered again: at most 127 tools, where
    // one batch of all took a whole catalog's time again on each change.
    // A batch's unregister, called for each of its tools, acts once.
    // Past 2,048 tools, the instance (its registering.mjs) takes the rest
    // in slices over later tasks, and its runs and ready() wait for them;
    // a change meanwhile starts a new pass, the one in flight stopping at
    // its next slice. What set() returns settles after the last slice (a
    // re-sync's refresh() too).
    //
    // registerTools(api) registers the tools with a Code Mode instance and
    // keeps them in step with the source. It throws (registering nothing)
    // when a tool cannot be registered; one refused in a later slice (a
    // name registered meanwhile by other code) undoes the whole
    // registration, is reported (onError), and the instance's ready()
    // rejects with it. The function it returns unregisters them all (a
    // pass in flight stops) and stops following the source for this
    // instance. close() stops following the source; registered tools stay
    // until unregistered.
    // (Comments inside an object literal ship in the built adapters, and
    // count against their size budgets: these stand outside.)
    const source = {
        get tools() {
            return Array.from(current.values());
        },
        registerTools(api) {
            if (typeof api?.registerTool != "function") {
                throw new TypeError(`registerTools(api): expected a Code Mode instance (from IoCodeModeFactory), got ${api === null ? "null" : typeof api}`);
            }
            if (closed) throw new Error(`Code Mode ${kind} adapter: closed; create a new one`);
            const target = { api, regs: new Map() };
            try {
                sync(target, true);
            } catch (err) {
                undo(target);
                throw err;
            }
            targets.add(target);
            // undo acts once: it leaves target nothing to unregister.
            return () => undo(target);
        },
        close() {
            if (closed) return;
            closed = true;
            stops.splice(0).forEach(attempt);
        },
    };

    // onClose(stop) adds a function that close() calls (an unsubscribe).
    // set(entries) replaces the definitions: entries are { def, origin },
    // origin being what def's execute reaches at the source (a method's or
    // tool's own name). Unchanged definitions keep their identity.
    return {
        source,
        report,
        get closed() {
            return closed;
        },
        onClose(stop) {
            stops.push(stop);
        },
        set(entries) {
            if (closed) return;
            const next = new Map();
            for (const { def, origin } of entries) {
                fingerprints.set(def, [origin]);
                const old = current.get(def.name);
                next.set(def.name, old && print(old) === print(def) ? old : def);
            }
            current = next;
            return Promise.all(Array.from(targets, (target) => sync(target, false)));
        },
    };
}

/**
 * The items an adapter's options.filter keeps. It answers synchronously: an
 * item it answers with a promise (an async filter) is left out, and that is
 * said once per filter; the promise, truthy, kept every item it meant to
 * leave out.
 */
export function kept(items, filter, path) {
    if (!filter) return items;
    return items.filter((it) => {
        const v = filter(it);
        if (typeof v?.then === "function") {
            if (!warnedFilters.has(filter)) {
                warnedFilters.add(filter);
                console.error(`${path}: options.filter returned a promise; it must answer synchronously, true or false. What it answers with a promise is left out.`);
            }
            return false;
        }
        return !!v;
    });
}
const warnedFilters = new WeakSet();

// setTimeout's longest delay: a timer given more (Infinity too) fires at
// once (Node warns, then waits 1 ms), and so would fail every call.
export const MAX_DELAY = 2147483647;

/** An option of milliseconds that reaches a timer: over 0, at most MAX_DELAY. */
export const DELAY = [(v) => typeof v == "number" && v > 0 && v <= MAX_DELAY, `a positive number of milliseconds, at most ${MAX_DELAY} (setTimeout's limit, about 24.8 days)`];

/**
 * Checks an adapter's options object: a TypeError names an unknown key (and
 * the nearest known one) or a value of the wrong type. `spec` maps each key
 * to its expected typeof ("string", "boolean", "number", "function",
 * "object") or to a predicate with its description: [test, "what"].
 */
export function checkOptions(options, spec, path) {
    if (options === undefined || options === null) return {};
    if (typeof options !== "object" || Array.isArray(options)) {
        throw new TypeError(`${path}: options: expected an object, got ${Array.isArray(options) ? "an array" : typeof options}`);
    }
    for (const key of Object.keys(options)) {
        const want = spec[key];
        if (want === undefined) {
            const near = nearest(key, Object.keys(spec));
            throw new TypeError(`${path}: options.${key}: unknown option${near ? `; did you mean "${near}"?` : ""} (known: ${Object.keys(spec).join(", ")})`);
        }
        const value = options[key];
        if (value === undefined) continue;
        const [ok, what] = typeof want === "string" ? [typeof value === want && value !== null, `a ${want}`] : want;
        if (!(typeof want === "string" ? ok : ok(value))) {
            // A number out of range is named ("got Infinity"), not its type.
            throw new TypeError(`${path}: options.${key}: expected ${what}, got ${value === null || typeof value == "number" ? value : Array.isArray(value) ? "an array" : typeof value}`);
        }
    }
    return options;
}

const HINTS = ["title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"];

/**
 * A tool's annotations for onToolCall: the source's behaviour hints with the
 * Model Context Protocol's defaults made explicit (a tool that does not say
 * it is read-only is not, and one that is not read-only is destructive
 * unless it says otherwise), `source` naming where the tool comes from, and
 * `untrusted` when the source's word about itself cannot be taken: a policy
 * then asks before any call, read-only or not.
 */
export function annotations(hints, { source, untrusted, extra }) {
    const out = {};
    if (hints && typeof hints === "object") {
        for (const k of HINTS) {
            if (k === "title" ? typeof hints[k] === "string" : typeof hints[k] === "boolean") out[k] = hints[k];
        }
    }
    out.readOnlyHint = out.readOnlyHint === true;
    if (out.readOnlyHint) delete out.destructiveHint;
    else if (out.destructiveHint === undefined) out.destructiveHint = true;
    if (out.openWorldHint === undefined) out.openWorldHint = true;
    return { ...out, ...extra, source, untrusted: Boolean(untrusted) };
}

// setTimeout as the page had it when the adapter loaded: a test's fake
// timers installed later (vi.useFakeTimers()) stalled a listing's pauses
// until the test moved its clock, as the core's slices do not. Installed
// before, @sinonjs/fake-timers' (jest's, vitest's) keep the real one as
// their clock's _setTimeout, which the core takes too (intrinsics.mjs
// beforeFakes; not imported here: that module's other intrinsics would
// come into each adapter's bundle). A listing past 2,048 tools stalled.
export const later = /* @__PURE__ */ ((t) => {
    try {
        return t.clock._setTimeout || t;
    } catch {
        return t;
    }
})(setTimeout);
// clearTimeout likewise, for a timer of later's: the fake one leaves a real
// timer pending (and warns), holding the process until it fires.
export const cancel = /* @__PURE__ */ ((t) => {
    try {
        return t.clock._clearTimeout || t;
    } catch {
        return t;
    }
})(clearTimeout);
/** A task's pause (a macrotask: the page breathes). */
export const pause = () => new Promise((r) => later(r));

/**
 * Runs fn one call at a time: a call while one runs asks for one more run
 * after it (a source changed again while it was being listed), and every
 * caller gets the promise of the run that covers its call.
 */
export function serialized(fn, isClosed) {
    let running = null;
    let again = false;
    return () => {
        if (running) {
            again = true;
            return running;
        }
        running = (async () => {
            let out;
            do {
                again = false;
                out = await fn();
                // What comes meanwhile, a burst of notifications, asks
                // for one listing after it, not one a notification.
                if (again) await pause();
            } while (again && !isClosed());
            return out;
        })().finally(() => {
            running = null;
        });
        return running;
    };
}

/**
 * promise, or the signal's reason as soon as it aborts: for sources that
 * cannot cancel a call (io.Connect, FDC3), the run at least stops waiting.
 */
export function untilAborted(promise, signal) {
    if (!signal) return promise;
    return Promise.race([
        promise,
        new Promise((_, reject) => {
            if (signal.aborted) reject(signal.reason);
            signal.addEventListener("abort", () => reject(signal.reason), { once: true });
        }),
    ]);
}

// The text of a result's text blocks: what an isError result says.
function textOf(content) {
    return (Array.isArray(content) ? content : [])
        .filter((c) => c?.type === "text" && typeof c.text === "string")
        .map((c) => c.text)
        .join("\n");
}

/**
 * A Model Context Protocol tool result (an MCP server's tools/call, or a
 * WebMCP tool's, which follow it) as the value sandbox code receives:
 * isError throws with its text; structuredContent is preferred; one text
 * block is parsed as JSON when it is JSON; any other content is returned
 * as it is. `who` names the tool's kind in an error without text.
 */
export function unwrapToolResult(result, who) {
    if (result === null || typeof result !== "object") return result;
    if (result.isError) {
        // A server may say why in structuredContent alone (content is required but may be empty).
        const structured = result.structuredContent !== undefined ? JSON.stringify(result.structuredContent) : "";
        throw new Error(textOf(result.content) || structured || `${who} reported an error without a message`);
    }
    if (result.structuredContent !== undefined) return result.structuredContent;
    if ("toolResult" in result) return result.toolResult; // MCP protocol 2024-10-07
    const content = Array.isArray(result.content) ? result.content : [];
    if (content.length === 1 && content[0]?.type === "text") {
        const text = content[0].text;
        try {
            return JSON.parse(text);
        } catch {
            return text;
        }
    }
    return content;
}
