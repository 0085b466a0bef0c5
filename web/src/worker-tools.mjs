// Worker mode: the tool checks the page makes before anything crosses to the
// worker. registerTool must throw at once, with tool.go's own messages, as
// it does on the calling thread; only what needs no schema compiler is
// judged here (the little the page's checks leave to the worker's core
// is refused there, later: worker-protocol.mjs). A schema library's
// own check (a Zod refinement) cannot cross, so it is kept here by
// definition and run on the page before execute.

import { TextEncoder, describe } from "./env.mjs";
import { cannotRead, field } from "./fields.mjs";
import { KeptSet, KeptWeakMap, arrayIterationKept, includes, isArray, jsonStringify, map, objectKeys } from "./intrinsics.mjs";
import { TOOL_HINTS, TOOL_KEYS, quoteCut, unknownKeyError } from "./keys.mjs";
import { convertSchema, toolRecord } from "./schema.mjs";
import { refCycleError } from "./refcycle.mjs";
import { goEscape, goQuote, schemaProblem } from "./schemacheck.mjs";
import { readAsMeant } from "./schemahabits.mjs";

const NAME_RE = /^[A-Za-z0-9_$.-]+$/;

/**
 * What tool.go says is wrong with a name: its length in bytes, or the first
 * character outside the grammar and its byte offset.
 * @param {string} name
 */
function nameProblem(name) {
    const bytes = new TextEncoder().encode(name).length;
    if (bytes < 1 || bytes > 128) return `got ${bytes}`;
    // The characters before the first bad one are ASCII: its index is its
    // byte offset.
    const chars = [...name];
    const at = chars.findIndex((ch) => !NAME_RE.test(ch));
    return at < 0 ? `got ${bytes}` : `found ${quoteRune(chars[at])} at offset ${at}`;
}

/** @param {string} ch */
const quoteRune = (ch) => `'${goEscape(ch, "'")}'`;

// The input validators of schema libraries' objects, by tool definition.
/** @type {WeakMap<object, (input: unknown) => Promise<import("./schema.mjs").Verdict>>} */
const validators = new KeptWeakMap();
// The definitions with an outputSchema, and its library's validator if any.
/** @type {WeakMap<object, { validate?: (value: unknown) => Promise<{ ok: boolean, message?: string }> }>} */
const outputs = new KeptWeakMap();

/**
 * The input validator of a tool whose schema came from a schema library.
 * @param {object} def
 */
export const inputValidator = (def) => validators.get(def);

/**
 * What a tool's result must pass, when it has an outputSchema: its
 * library's validator, if any, on the page; the core's check, in the worker.
 * @param {object} def
 */
export const outputCheck = (def) => outputs.get(def);

/**
 * The tool checks that tool.go makes before compiling schemas, with its
 * messages, so that registerTool throws at once as it does in-thread.
 * @param {any} list
 * @param {string} path
 * @param {{ has(name: string): boolean }} taken names already registered (a KeptSet or KeptMap: methods taken at load)
 * @param {number} [at] the index of list's first tool in the caller's (a slice of registerTools: registering.mjs)
 * @param {any[]} [fields] gets each definition's fields as read here (what listTools copies)
 * @param {(names: any[]) => void} [first] checks the names before anything else (a live session's: worker-host.mjs register)
 * @returns {{ name: string, record: string }[]} the tools to send, as the worker's core registers them
 */
export function checkTools(list, path, taken, at = 0, fields, first) {
    if (!isArray(list)) throw new TypeError(`${path}: expected an array of tool definitions, got ${describe(list)}`);
    // Each definition's name read once, here, by index: what is checked
    // (first's check too) is what is registered.
    const where = (/** @type {number} */ i) => (path === "tool" ? path : `${path}[${i + at}]`);
    /** @type {any[]} */
    const names = [];
    for (let i = 0; i < list.length; i++) {
        const def = list[i];
        try {
            names[i] = def !== null && typeof def === "object" && !isArray(def) ? field(def, "name") : undefined;
        } catch (err) {
            throw cannotRead(where(i), err); // a Proxy's trap, a getter: as in-thread (wrap.mjs wrapList)
        }
    }
    if (first) first(names);
    const seen = new KeptSet();
    // map skips a hole (registerTools([a, , c])), which the calling thread
    // refuses as undefined: each is refused here in its turn, as there.
    let next = 0;
    const holes = (/** @type {number} */ end) => {
        for (; next < end; next++) if (!(next in list)) throw new TypeError(`${where(next)}: expected a tool definition object, got undefined`);
        next++;
    };
    // Builtins as they were at load (intrinsics.mjs): an Array.isArray that
    // answers false refused every list; a map that gives its array back
    // sent the page's functions to the worker (a DataCloneError out of the
    // page's event loop).
    const descs = map(list, (def, i) => {
        holes(i);
        const p = where(i);
        if (def === null || typeof def !== "object" || isArray(def)) throw new TypeError(`${p}: expected a tool definition object, got ${describe(def)}`);
        let keys;
        try {
            keys = objectKeys(def);
        } catch (err) {
            throw cannotRead(p, err);
        }
        const keyError = unknownKeyError(p, keys, TOOL_KEYS, TOOL_HINTS);
        if (keyError) throw keyError;
        // Each field once, never from Object.prototype (fields.mjs); every
        // key set, so that an absent one is not read from there either.
        // A record filled by index: Object.fromEntries iterates with the
        // page's Array iterator of the moment.
        /** @type {any} */
        const t = {};
        try {
            for (let j = 0; j < TOOL_KEYS.length; j++) t[TOOL_KEYS[j]] = TOOL_KEYS[j] === "name" ? names[i] : field(def, TOOL_KEYS[j]);
        } catch (err) {
            throw cannotRead(p, err);
        }
        if (fields) fields[i] = t;
        if (typeof t.name !== "string") throw new TypeError(`${p}.name: expected a string, got ${describe(t.name)}`);
        const name = t.name;
        // Where the tool is in the caller's list, and its name: wasm/api.go's
        // toolFromJS and toolTypeError, whose words these are.
        const at = `${p} (${quoteCut(name, goQuote)}): `;
        if (typeof t.execute !== "function") throw new TypeError(`${at}execute: expected a function, got ${describe(t.execute)}`);
        if (t.description !== undefined && typeof t.description !== "string") throw new TypeError(`${at}description: expected a string, got ${describe(t.description)}`);
        const a = t.annotations;
        if (a !== undefined && a !== null && (typeof a !== "object" || isArray(a))) throw new TypeError(`${at}annotations: expected an object (hints and your own metadata), got ${describe(a)}`);
        if (name.length < 1 || name.length > 128 || !NAME_RE.test(name)) {
            throw new TypeError(`${at}name: must be 1..128 characters of [A-Za-z0-9_$.-], ${nameProblem(name)}`);
        }
        if (name.startsWith(".") || name.endsWith(".") || name.includes("..")) {
            throw new TypeError(`${at}name: namespaces must be non-empty (a dot may not start or end the name, or follow another dot)`);
        }
        if (name === "then" || name.endsWith(".then")) {
            throw new TypeError(`${at}name: must not end in "then": await ${`tools.${name.slice(0, -5)}`.replace(/\.$/, "")} would call the tool`);
        }
        if (name === "toJSON" || name.endsWith(".toJSON")) {
            throw new TypeError(`${at}name: must not end in "toJSON": JSON.stringify(${`tools.${name.slice(0, -7)}`.replace(/\.$/, "")}) would call the tool`);
        }
        if (seen.has(name)) throw new TypeError(`${at}name: appears more than once in the batch`);
        if (taken.has(name)) throw new TypeError(`${at}name: already registered${path === "options.tools" ? " on the factory" : ""}`);
        seen.add(name);
        // In tool.go's order: both schemas converted, then both walked,
        // then both compiled (where a cycle shows).
        const kinds = /** @type {const} */ (["inputSchema", "outputSchema"]);
        /** @type {(string | undefined)[]} the schemas' JSON texts */
        const texts = [];
        const schemas = map(kinds, (k, j) => {
            const c = convertSchema(t[k], `${at}${k}`);
            texts[j] = c.json;
            // A schema library's own check (a Zod refinement) runs here,
            // on the page, before execute: its functions cannot cross.
            if (k === "inputSchema" && c.validate) validators.set(def, c.validate);
            if (k === "outputSchema" && c.schema !== undefined) outputs.set(def, { validate: c.validate });
            return c.schema;
        });
        // Checked here only while the page's Array iteration is the one it
        // had at load: these walks go by for-of and destructuring, and with
        // an emptied iterator they refused every schema with a made-up
        // message. Without them the worker's core checks the schemas itself,
        // in the same words, a message later.
        const walk = arrayIterationKept();
        const note = { left: !walk };
        kinds.forEach((k, j) => {
            // As the core's validator reads it (schemahabits.mjs).
            const problem = schemas[j] === undefined || !walk ? "" : schemaProblem(readAsMeant(schemas[j], texts[j]), note);
            if (problem) throw new TypeError(`${at}${k}: ${problem}`);
        });
        // The worker's core need not walk the schemas' texts again (the
        // same check, in the same words: testdata/schemacheck.json holds
        // both to it), a tenth of its registration. Only this page posts to
        // its worker, and a schema that got by would still be compiled, and
        // refused, at its tool's first call. Not for true and false, which
        // have no text here.
        let whole = !note.left;
        /** @type {string[]} the schemas as the core takes them ("" for none) */
        const json = map(kinds, (k, j) => {
            if (schemas[j] === undefined) return "";
            // Only "$" keywords ($ref, $id, $anchor; draft-04's id, under a
            // "$schema") make what refCycleError finds, and JSON.stringify
            // writes "$" as itself: walking the schemas without one was
            // more than half of checking a catalog's 1,000 tools.
            const text = texts[j];
            const cycle = walk && (text === undefined || includes(text, "$")) ? refCycleError(schemas[j]) : "";
            if (cycle) throw new TypeError(`${at}${k}: ${cycle}`);
            if (text !== undefined) return text;
            whole = false;
            return String(schemas[j]);
        });
        // The core's copy of the annotations, as the calling thread makes it:
        // JSON of an object, else none. toolFilter and onToolCall get the
        // page's own definition, annotations as they were given.
        let notes = "";
        if (t.annotations !== null && typeof t.annotations === "object") {
            try {
                notes = jsonStringify(t.annotations) ?? "";
            } catch {
                // a cycle, a BigInt: none, as in-thread
            }
        }
        // The tool as the worker's core registers it, one text
        // (schema.mjs toolRecord): the worker reads no field of it.
        const d = { name, record: toolRecord(name, t.description, json[0], json[1], notes, whole) };
        return d;
    });
    holes(list.length);
    return descs;
}
