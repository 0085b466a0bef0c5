// The page's two synchronous hooks on what the model is shown, toolFilter
// and overwriteSystemInstruction, read the same way in both engine modes
// (wrap.mjs on the calling thread, worker-host.mjs for a worker). A hook
// is page code: whatever it throws or returns, the answer is a safe one
// (the tool hidden, the built-in instruction kept) and never an unhandled
// rejection; an answer of the wrong kind (a promise above all) is reported
// once per hook with console.error.

import { describe, report } from "./env.mjs";
import { KeptWeakSet, markHandled } from "./intrinsics.mjs";
import { adopt } from "./thenable.mjs";
import { cutReason } from "./call.mjs";

// toolFilter and overwriteSystemInstruction run while the core builds a
// tool list or the instruction: a hook that asked for one of those again
// recursed until the stack overflowed, which stopped the engine. Those
// calls throw at once instead (the hook's throw hides its tool, or keeps
// the built-in instruction, as any throw of it does).
let inHook = 0;
/** @param {string} call */
export function notFromHook(call) {
    if (inHook > 0) {
        throw new Error(`Code Mode: ${call} cannot be called from toolFilter or overwriteSystemInstruction: the core calls them while it builds the tool list and the instruction, so the call would recurse. Read what the hook needs before the factory is created.`);
    }
}

/**
 * What toolFilter says of a tool. An async filter (or one that returns any
 * promise or thenable) has not decided yet: it hides the tool, with one
 * console.error per filter, where the promise, truthy, showed every tool
 * the filter meant to hide. A filter that throws hides it too.
 * A definition whose name is no longer the one it was registered under
 * (the page, or a library holding it, renamed it) is hidden unasked: the
 * filter would judge a name the program does not call, and one that hid
 * "admin.drop" showed it renamed "safe.drop" (in-thread). So is one the
 * filter renames.
 * @param {(t: any) => unknown} filter
 * @param {any} def
 * @param {string} name the name it is registered under
 */
export function filterVerdict(filter, def, name) {
    let v, then;
    try {
        inHook++;
        if (def.name !== name) return false;
        v = filter(def);
        if (def.name !== name) return false;
        // Read inside the try: an answer whose then throws (a getter, a
        // revoked Proxy) hides the tool like a throw of the filter; in a
        // worker it failed the factory (leaving its worker running),
        // registerTool and createSession.
        then = v !== null && (typeof v === "object" || typeof v === "function") && /** @type {any} */ (v).then;
    } catch (err) {
        // A thrown Promise's rejection must not end the host's process.
        markHandled(err);
        return false;
    } finally {
        inHook--;
    }
    if (typeof then === "function") {
        // An async filter that throws rejects its promise, which nobody
        // else awaits.
        markHandled(v);
        if (!warnedFilters.has(filter)) {
            warnedFilters.add(filter);
            report(`Code Mode: toolFilter returned a promise (for the tool "${def && def.name}"); it must answer synchronously, true or false. Tools it answers with a promise are hidden.`);
        }
        return false;
    }
    return !!v;
}
/** @type {WeakSet<Function>} */
const warnedFilters = new KeptWeakSet();

/**
 * The instruction after overwriteSystemInstruction. A hook that throws or
 * answers anything but a string (an async hook's promise above all) leaves
 * the built-in instruction, so the model is never left without one; it
 * used to do so without a word, and a host's own rules (added by an async
 * hook) were silently missing from every prompt. The first such answer of
 * each hook is reported with console.error, naming the option and what it
 * must return; a promise's rejection is marked handled.
 * @param {(current: string) => unknown} overwrite
 * @param {string} raw
 */
export function overwriteVerdict(overwrite, raw) {
    let v, why;
    try {
        inHook++;
        v = overwrite(raw);
        if (typeof v === "string") return v;
        if (v !== null && (typeof v === "object" || typeof v === "function") && typeof (/** @type {any} */ (v).then) === "function") {
            markHandled(v);
            why = "returned a promise; it must return the instruction synchronously, a string (getSystemInstruction() is synchronous: look up what it needs before you create the factory)";
        } else {
            why = `returned ${describe(v)}; it must return the instruction, a string`;
        }
    } catch (err) {
        why = markHandled(err) ? "threw a Promise, not an Error (a missing await before throw?)" : `threw (${errorText(err)}); it must return the instruction, a string`;
    } finally {
        inHook--;
    }
    if (!warnedOverwrites.has(overwrite)) {
        warnedOverwrites.add(overwrite);
        report(`Code Mode: config.overwriteSystemInstruction ${why}. The built-in instruction is used instead.`);
    }
    return raw;
}
/** @type {WeakSet<Function>} */
const warnedOverwrites = new KeptWeakSet();

/** @param {unknown} err */
function errorText(err) {
    try {
        const m = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
        return m.length > 200 ? m.slice(0, 200) + "…" : m;
    } catch {
        return "a value that cannot be converted to text";
    }
}

/**
 * onToolCall's answer, read the same way in both engine modes: adopted
 * (thenable.mjs), then its own enumerable properties, each read once, into
 * a plain object, as postMessage hands it to the worker. An "allowed"
 * inherited from a prototype is no decision (fail closed), and a getter
 * cannot answer false to the check and true to the core (in worker mode
 * the structured clone read it again, and the tool ran). A "then" of the
 * copy goes: the async caller would adopt it.
 * @param {(c: any) => unknown} onToolCall
 * @param {any} arg
 * @param {string} name the name the tool is registered under (the one the program called)
 */
export async function askInterceptor(onToolCall, arg, name) {
    // As filterVerdict: a definition renamed since it was registered
    // under `name` would be judged by a name the program does not call
    // (one that denied "admin.wipe" approved it renamed "safe.read", and
    // it ran). Denied unasked, and so is one the interceptor renames.
    if (renamed(arg.tool, name)) return denial(RENAMED);
    const before = inputText(arg.input);
    const decision = (await adopt(onToolCall(arg), "onToolCall's answer")).value;
    if (renamed(arg.tool, name)) return denial(RENAMED);
    if (decision === null || typeof decision !== "object" || Array.isArray(decision)) return decision;
    // Without a prototype: this async function's result is adopted, and a
    // then set on Object.prototype meanwhile would be followed.
    const copy = cutReason(Object.assign(Object.create(null), decision));
    delete copy.then;
    // The core reads a reason only as a string; any other is no reason.
    // Left in, a revoked Proxy failed the copy posted to a worker, and the
    // call was denied as "the interceptor failed" where in-thread it was
    // "denied by onToolCall".
    if (typeof copy.reason !== "string") delete copy.reason;
    // An interceptor that redacts or caps the input it was given in place
    // (input.amount = 0) and allows without an input meant the tool to get
    // the changed input; the tool got the program's original, silently.
    // Fail closed, saying what to return.
    if (copy.allowed === true && copy.input === undefined && inputText(arg.input) !== before) return denial(CHANGED_IN_PLACE);
    return copy;
}

/** @param {string} reason */
const denial = (reason) => Object.assign(Object.create(null), { allowed: false, reason });

/**
 * Whether a definition no longer answers the name it is registered under
 * (a name that cannot be read is not that name).
 * @param {any} def
 * @param {string} name
 */
function renamed(def, name) {
    try {
        return def.name !== name;
    } catch {
        return true;
    }
}

const RENAMED = "the page renamed this tool's definition after registering it, so onToolCall would judge another name: register it again under its new name";

const CHANGED_IN_PLACE =
    "onToolCall changed the input it was given but returned no input: return { allowed: true, input } to run the tool with the changed input";

// Taken at load: a page that replaces JSON.stringify later changes no verdict.
const stringify = JSON.stringify;

/**
 * The JSON text of a call's input (JSON data, so it can be read; the
 * marker is for a page that broke its own JSON).
 * @param {unknown} input
 */
function inputText(input) {
    try {
        return stringify(input);
    } catch {
        return "\u0000unreadable";
    }
}
