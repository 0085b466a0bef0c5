// How the library reads the page's option objects (the factory config,
// interceptors, execute's options). The page is not ours: a dependency of
// it may have polluted Object.prototype ("toolFilter", "context", "timeout"
// added there by a merge of attacker JSON), and that must not hide tools,
// forge a run's context or set a limit. A value only Object.prototype holds
// reads as undefined; a prototype of the page's own (a class, Object.create
// of its defaults) still counts. The Go core reads what it is handed the
// same way (wasm/config.go get).

import { describeError } from "./env.mjs";
import { keptReflect, objectKeys } from "./intrinsics.mjs";
import { TOOL_KEYS } from "./keys.mjs";

// Taken at load: a page that breaks Object.keys, Set or iteration later
// must not make a well-formed config read as another (Set.prototype.add a
// no-op or an empty Array iterator made every factory fail with
// "config.wasmLocation: ... got undefined").
const keysOf = objectKeys;
const { getOwnPropertyDescriptor, getPrototypeOf } = keptReflect;

/**
 * obj[key], read once, unless only the last object of obj's prototype
 * chain (Object.prototype, of any realm) holds key. A chain longer than
 * any a page builds (a proxy may make one without end) counts as the
 * page's.
 * @param {any} obj
 * @param {PropertyKey} key
 */
export function field(obj, key) {
    if (obj === null || (typeof obj !== "object" && typeof obj !== "function")) return undefined;
    let o = obj;
    for (let depth = 0; depth < 64; depth++) {
        const own = getOwnPropertyDescriptor(o, key) !== undefined;
        if (own && depth === 0) break;
        const proto = getPrototypeOf(o);
        if (own && proto === null) return undefined;
        if (own || proto === null) break;
        o = proto;
    }
    return obj[key];
}

/**
 * The TypeError of a tool definition that throws when it is read (a Proxy's
 * trap, a getter): its place in the call, and the page's words.
 * @param {string} path "tool", "tools[3]", "config.tools[3]"
 * @param {unknown} err
 */
export const cannotRead = (path, err) => new TypeError(`${path}: cannot be read: ${message(err)}`);

/**
 * A snapshot of an options object, without a prototype: its own
 * enumerable keys (the unknown-key check needs them all) and the `known`
 * keys it holds by field(), each read once. Later reads of the snapshot
 * see what was checked: a getter that answers differently twice cannot
 * turn a checked guard into none. A getter or proxy trap that throws is a
 * TypeError naming the field.
 * @param {any} obj
 * @param {string} path as error messages name obj ("config")
 * @param {string[]} known
 * @returns {Record<string, any>}
 */
export function snapshot(obj, path, known) {
    let own;
    try {
        own = keysOf(obj);
    } catch (err) {
        throw new TypeError(`${path}: cannot list its keys: ${message(err)}`);
    }
    /** @type {Record<string, any>} */
    const out = { __proto__: null };
    // Index loops and a null-prototype record: no Set, no iterator.
    /** @type {Record<string, boolean>} */
    const isOwn = /** @type {any} */ ({ __proto__: null });
    const take = (/** @type {string} */ k) => {
        let v;
        try {
            v = field(obj, k);
        } catch (err) {
            throw new TypeError(`${path}.${k}: reading it threw: ${message(err)}`);
        }
        if (v !== undefined || isOwn[k] === true) out[k] = v;
    };
    for (let i = 0; i < own.length; i++) isOwn[own[i]] = true;
    for (let i = 0; i < own.length; i++) take(own[i]);
    for (let i = 0; i < known.length; i++) if (isOwn[known[i]] !== true) take(known[i]);
    return out;
}

/** @param {unknown} err */
function message(err) {
    try {
        return describeError(err);
    } catch {
        return "a value that cannot be read";
    }
}

// Keys whose function on a shared prototype changes every object of the
// page: with a then, each object is a thenable, so a promise resolved with
// one (the API object, a run's result, a worker's handle) follows it and
// never gives the object (Node.js's worker_threads call it on messages too,
// and a throw there ends the process); with a toJSON, JSON.stringify writes
// its answer for each object (a schema, a tool's result, the LLM tools'
// arguments). No key of a JSON merge can set a function: page code did.
const HAZARDS = /** @type {const} */ ([
    ["then", "every object would be a thenable, so promises resolved with Code Mode's objects (the API, a run's result) would never give them"],
    ["toJSON", "JSON.stringify would write its answer for every object, so Code Mode could not send schemas, tool results or a program as JSON"],
]);

const PROTOS = /** @type {const} */ ([
    [Object.prototype, "Object.prototype"],
    [Array.prototype, "Array.prototype"],
    [Function.prototype, "Function.prototype"],
]);

/**
 * Why Code Mode cannot work on this page, or undefined: a function under
 * then or toJSON on Object.prototype, Array.prototype or Function.prototype.
 * IoCodeModeFactory and each LLM tool's execute check it first.
 * @returns {Error | undefined}
 */
export function prototypeHazard() {
    // Index loops, no destructuring: the page's Array iterator may be broken
    // too, and execute() must still answer with a promise.
    for (let i = 0; i < PROTOS.length; i++) {
        const proto = PROTOS[i][0];
        const name = PROTOS[i][1];
        for (let j = 0; j < HAZARDS.length; j++) {
            const key = HAZARDS[j][0];
            const why = HAZARDS[j][1];
            let v;
            try {
                v = keptReflect.get(proto, key);
            } catch (err) {
                return new Error(`Code Mode cannot run on this page: reading ${name}.${key} threw (${message(err)}); ${why}. Remove what set it`);
            }
            if (typeof v === "function") {
                return new Error(`Code Mode cannot run on this page: ${name}.${key} is a function (a polluted prototype); ${why}. Remove it (delete ${name}.${key})`);
            }
        }
    }
    return undefined;
}

/**
 * A tool as listTools gives it: a copy of the fields registration read
 * (rec), under the name it was registered by, and the definition's execute
 * of the moment (which its calls run). The page's own object was given,
 * and after the page renamed it listTools named a tool the model could
 * not call.
 * @param {any} rec
 * @param {any} def
 */
export function listedTool(rec, def) {
    /** @type {any} */
    const out = {};
    for (let i = 0; i < TOOL_KEYS.length; i++) {
        const k = TOOL_KEYS[i];
        if (k !== "execute" && rec[k] !== undefined) out[k] = rec[k];
    }
    out.execute = field(def, "execute");
    return out;
}
