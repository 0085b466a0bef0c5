// The page's builtins as they were when the package loaded. A page may
// replace its globals afterwards (a polyfill gone wrong, a test double,
// jest's or sinon's fake timers installed after import), and the paths
// that keep the host in control must not follow: which tools toolFilter
// lets a program call (worker mode), a run's timeout, the signal a tool
// gets. Each is taken once, here, and called through a bound `call`, so a
// later Function.prototype.call or .apply replaced by the page is not used
// either.

const bindCall = Function.prototype.bind.bind(Function.prototype.call);

/**
 * `f` as a function of (thisArg, ...args) that no later change to a
 * prototype or to Function.prototype.call reaches.
 * @template {(...args: any[]) => any} F
 * @param {F} f
 * @returns {(self: unknown, ...args: Parameters<F>) => ReturnType<F>}
 */
export const uncurry = (f) => /** @type {any} */ (bindCall(f));

const mapEntries = uncurry(Map.prototype.entries);
const mapIteratorNext = uncurry(Object.getPrototypeOf(new Map().entries()).next);

/**
 * Calls `each` with every value and key of `map`, by the Map iteration the
 * page had at load.
 * @template K, V
 * @param {Map<K, V>} map
 * @param {(v: V, k: K) => void} each
 */
export function forEachEntry(map, each) {
    const it = mapEntries(map);
    for (let r = mapIteratorNext(it); !r.done; r = mapIteratorNext(it)) each(r.value[1], r.value[0]);
}

/**
 * The values of a Kept collection (KeptSet, a KeptMap's values()), in an
 * array filled by index: a spread ([...set]) would do as well, but the
 * array's for-of or destructuring afterwards goes through the page's
 * Array iterator of the moment, so callers index the copy.
 * @template T
 * @param {Iterable<T>} kept
 * @returns {T[]}
 */
export function arrayOf(kept) {
    /** @type {T[]} */
    const out = [];
    for (const v of kept) out[out.length] = v;
    return out;
}

const g = /** @type {any} */ (globalThis);

/**
 * The clock of fake timers of @sinonjs/fake-timers (which jest's and
 * vitest's useFakeTimers() install) if they replaced the page's global
 * `name` before the package loaded: a fake it installs carries its clock as
 * `.clock`, and the clock keeps what it replaced as `_<name>`.
 * @param {string} name
 * @returns {any}
 */
function fakeClockOf(name) {
    try {
        const v = g[name];
        const clock = v !== null && (typeof v === "function" || typeof v === "object") ? v.clock : undefined;
        const real = clock !== null && typeof clock === "object" ? clock["_" + name] : undefined;
        return real !== undefined && real !== null && real !== v ? clock : undefined;
    } catch {
        return undefined; // a getter that throws: keep what the page has
    }
}

/**
 * The page's global `name`, the one fake timers replaced if they came before
 * the package loaded. Installed first, the fakes were what this module
 * took: in-thread the Go runtime's clock read 0 and the factory failed
 * ("nanotime returning zero"), and in worker mode the page's backstop timers
 * waited on the fake clock (a test's runAllTimers() fired them). The same
 * real timers and clock, then, whether the fakes came before the import or
 * after.
 * @param {string} name
 */
function beforeFakes(name) {
    const clock = fakeClockOf(name);
    return clock ? clock["_" + name] : g[name];
}

const pageQueueMicrotask = beforeFakes("queueMicrotask");
/**
 * queueMicrotask as the page had it at load (a page or a test's fake timers
 * may delete or replace it afterwards: a tool call's reply then never
 * reached the core, or threw). Without one at load, a resolved promise's
 * reaction.
 * @type {(fn: () => void) => void}
 */
export const queueMicrotask =
    typeof pageQueueMicrotask === "function" ? pageQueueMicrotask.bind(g) : (fn) => void Promise.resolve().then(fn);

/** setTimeout and clearTimeout as the page had them at load (fake timers come later). */
export const setTimeout = /** @type {typeof globalThis.setTimeout} */ (beforeFakes("setTimeout").bind(g));
export const clearTimeout = /** @type {typeof globalThis.clearTimeout} */ (beforeFakes("clearTimeout").bind(g));

const pageIdle = beforeFakes("requestIdleCallback");
const pageCancelIdle = beforeFakes("cancelIdleCallback");
// Called through bound calls, as every builtin taken here: through
// pageIdle.call, a page that replaced Function.prototype.call after load
// got our callback and chose whether (and when) it ran.
const idle = typeof pageIdle === "function" && typeof pageCancelIdle === "function" ? { ask: uncurry(pageIdle), cancel: uncurry(pageCancelIdle) } : undefined;
/**
 * Calls fn once the host is idle: requestIdleCallback as the page had it at
 * load (browsers' pages), with a timeout so that it happens on a page that
 * is never idle; a timer where there is none (Node, workers). Returns what
 * cancels it.
 * @param {() => void} fn
 * @param {number} timeout
 * @returns {() => void}
 */
export function whenIdle(fn, timeout) {
    // The page's functions may throw (a polyfill that refuses the options,
    // a broken or hostile page): a requestIdleCallback that threw failed
    // IoCodeModeFactory itself, and a cancelIdleCallback that threw made
    // dispose() throw before it disposed anything. For an optimisation:
    // a timer then, and a cancel that cannot be is left (fn finds the
    // factory disposed).
    if (idle) {
        try {
            const id = idle.ask(g, () => fn(), { timeout });
            return () => {
                try {
                    idle.cancel(g, id);
                } catch {}
            };
        } catch {}
    }
    const id = setTimeout(fn, 0);
    return () => clearTimeout(id);
}

const perf = beforeFakes("performance");
// In Node the fakes also give the page's own performance an own now() of
// the fake clock's: its prototype's is the page's.
const perfProto = fakeClockOf("performance") && perf ? Object.getPrototypeOf(perf) : undefined;
const perfNowOf = perfProto && typeof perfProto.now === "function" ? perfProto.now : perf && perf.now;
const perfNow = typeof perfNowOf === "function" ? uncurry(perfNowOf) : undefined;
const takenDateNow = beforeFakes("Date").now;
/** Date.now as the page had it at load: the Go runtime's wall clock (scripts/wasm-exec.mjs). */
export const dateNow = () => takenDateNow();
/** Milliseconds of the page's clock as it was at load, for durations (and the Go runtime's monotonic clock). */
export const now = perfNow ? () => perfNow(perf) : dateNow;

const Controller = g.AbortController;
const abortOf = Controller && uncurry(Controller.prototype.abort);
const signalGetter = Controller && Object.getOwnPropertyDescriptor(Controller.prototype, "signal")?.get;
// happy-dom's AbortController (a DOM in Node.js: Vitest's happy-dom
// environment) has its signal as each instance's own property, no getter
// on the prototype: every tool call in worker mode failed there, the
// program's call a ToolError "signalOf is not a function". The instance's
// own, then.
/** @type {(c: AbortController) => AbortSignal} */
const signalOf = typeof signalGetter === "function" ? uncurry(signalGetter) : (c) => c.signal;

/**
 * An AbortController of the page's at load, with its signal and abort()
 * taken then too: a page that stubs AbortController afterwards does not
 * hand its stand-in to a tool as the run's signal (one that never aborts).
 * @returns {{ signal: AbortSignal, abort: (reason?: unknown) => void }}
 */
export function newAbortController() {
    const c = new Controller();
    return { signal: signalOf(c), abort: (reason) => abortOf(c, reason) };
}

/**
 * `Kept`, a subclass of `Base`, with Base.prototype's methods and accessors
 * as they were at load on its own prototype: a page that replaces one of
 * those afterwards (Map.prototype.get) does not reach an instance made from
 * it, and the calls stay the builtins themselves (no wrapper on a hot
 * path). Each subclass has a constructor of its own: a default one passes
 * its arguments on by spreading them, through the page's Array iterator of
 * the moment.
 * @template K
 * @param {K} Kept
 * @param {Function} Base
 * @returns {K}
 */
function keepMethods(Kept, Base) {
    const own = Object.getOwnPropertyDescriptors(Base.prototype);
    delete (/** @type {any} */ (own)).constructor;
    Object.defineProperties(/** @type {any} */ (Kept).prototype, own);
    return Kept;
}

/**
 * Map as the page had it at load, for what the Go runtime's glue
 * (wasm_exec.js, scripts/wasm-exec.mjs) keeps, its ids of the JS values Go
 * holds and its timers, and for the bookkeeping of runs and tool calls. A
 * stubbed Map.prototype.get gave Go a wrong id and stopped that factory's
 * engine for good ("Reflect.get called on non-object"). Its entries, an
 * array of pairs, are added one by one: the Map constructor would iterate
 * them with the page's Array iterator of the moment.
 */
export const KeptMap = keepMethods(
    /** @extends {Map<any, any>} */
    class KeptMap extends Map {
        /** @param {[any, any][]} [entries] */
        constructor(entries) {
            super();
            if (entries) for (let i = 0; i < entries.length; i++) this.set(entries[i][0], entries[i][1]);
        }
    },
    Map,
);

/** DataView as the page had it at load: the Go runtime's glue and direct.mjs read and write Go's and QuickJS's memory with it. */
export const KeptDataView = keepMethods(
    class KeptDataView extends DataView {
        /** @param {ArrayBufferLike} buffer @param {number} [byteOffset] @param {number} [byteLength] */
        constructor(buffer, byteOffset, byteLength) {
            super(buffer, byteOffset, byteLength);
        }
    },
    DataView,
);

/**
 * Set, WeakMap and WeakSet as the page had them at load, for the
 * bookkeeping of runs and tool calls (runs.mjs, call.mjs, wrap.mjs, ...): a
 * page that made Set.prototype.add or Map.prototype.set a no-op afterwards
 * left a run that called a tool never settling. Made empty only.
 */
export const KeptSet = keepMethods(
    /** @extends {Set<any>} */
    class KeptSet extends Set {
        constructor() {
            super();
        }
    },
    Set,
);
export const KeptWeakMap = keepMethods(
    /** @extends {WeakMap<any, any>} */
    class KeptWeakMap extends WeakMap {
        constructor() {
            super();
        }
    },
    WeakMap,
);
export const KeptWeakSet = keepMethods(
    /** @extends {WeakSet<any>} */
    class KeptWeakSet extends WeakSet {
        constructor() {
            super();
        }
    },
    WeakSet,
);

const nativeThen = uncurry(Promise.prototype.then);
const resolveNative = Promise.resolve.bind(Promise);
/** Promise.resolve as the page had it at load. */
export const promiseResolve = /** @type {<T>(v: T) => Promise<Awaited<T>>} */ (resolveNative);
/**
 * p.then(onFulfilled, onRejected) by the page's Promise as it was at load
 * (a thenable is adopted by its own then, as await does): a page that made
 * Promise.prototype.then a no-op afterwards left every in-thread run open,
 * its timeout included.
 * @param {unknown} p
 * @param {((v: any) => unknown) | undefined} onFulfilled without one, a value passes on
 * @param {(e: any) => unknown} [onRejected] without one, a rejection passes on
 * @returns {Promise<any>}
 */
export const then = (p, onFulfilled, onRejected) => nativeThen(resolveNative(p), onFulfilled, onRejected);

/**
 * Marks v handled if it is a real Promise (of any realm: then's brand
 * check lets no other value through), so its rejection ends no process.
 * @param {unknown} v
 * @returns {boolean} whether v is a Promise
 */
export function markHandled(v) {
    try {
        nativeThen(v, undefined, () => {});
    } catch {
        return false;
    }
    return true;
}

/**
 * Promise.race and Promise.all of a list, by index and by the `then` above:
 * the page's Promise.race/all iterate their list with the page's Array
 * iterator of the moment (an empty one left Promise.race pending for ever,
 * and Promise.all resolving with []).
 * @template T
 * @param {ArrayLike<T | PromiseLike<T>>} list
 * @returns {Promise<T>}
 */
export function race(list) {
    return new Promise((resolve, reject) => {
        for (let i = 0; i < list.length; i++) then(list[i], resolve, reject);
    });
}

/**
 * @template T
 * @param {ArrayLike<T | PromiseLike<T>>} list
 * @returns {Promise<T[]>}
 */
export function all(list) {
    return new Promise((resolve, reject) => {
        /** @type {T[]} */
        const out = [];
        let left = list.length;
        if (left === 0) resolve(out);
        for (let i = 0; i < list.length; i++) {
            then(list[i], (v) => {
                out[i] = v;
                if (--left === 0) resolve(out);
            }, reject);
        }
    });
}

/**
 * p's outcome as Promise.allSettled gives each, without its iteration.
 * @template T
 * @param {T | PromiseLike<T>} p
 * @returns {Promise<{ status: "fulfilled", value: T } | { status: "rejected", reason: any }>}
 */
export const settledOf = (p) =>
    then(p, (value) => ({ status: /** @type {const} */ ("fulfilled"), value }), (reason) => ({ status: /** @type {const} */ ("rejected"), reason }));

const arrayIterator = Array.prototype[Symbol.iterator];
const arrayIteratorNext = Object.getPrototypeOf([][Symbol.iterator]()).next;

/**
 * Whether the page's Array iteration (Array.prototype[Symbol.iterator] and
 * its iterators' next) is still the one it had at load. The paths of a run
 * and of a factory go by index; a check written with for-of and
 * destructuring throughout (worker mode's schema walks, which the worker's
 * core repeats anyway) is skipped when this is false.
 */
export function arrayIterationKept() {
    try {
        return Array.prototype[Symbol.iterator] === arrayIterator && Object.getPrototypeOf([][Symbol.iterator]()).next === arrayIteratorNext;
    } catch {
        return false; // a getter that throws
    }
}

/** Object.keys as the page had it at load. */
export const objectKeys = Object.keys;

const promisePrototype = Promise.prototype;
const getPrototypeOf = Object.getPrototypeOf;
/**
 * Follows `v` as await follows a native promise, by the then taken at load
 * and never by the one `v` reads now: a page that made
 * Promise.prototype.then a no-op afterwards would otherwise hold back every
 * async tool's value and async onToolCall's decision. Gives false, having
 * done nothing, when `v` is not a promise of the page's Promise (a
 * thenable, a subclass's promise, an object made from Promise.prototype):
 * those are followed by their own then.
 * @param {object} v
 * @param {(v: any) => unknown} onFulfilled
 * @param {(e: any) => unknown} onRejected
 */
export function followNativePromise(v, onFulfilled, onRejected) {
    if (getPrototypeOf(v) !== promisePrototype) return false;
    try {
        nativeThen(v, onFulfilled, onRejected); // throws, before anything else, for an object that is not a promise
    } catch {
        return false;
    }
    return true;
}

/** Array.prototype.push as the page had it at load: push(array, ...items). */
export const push = uncurry(Array.prototype.push);
/** String.prototype.includes as the page had it at load: includes(string, search). @type {(s: string, search: string) => boolean} */
export const includes = uncurry(String.prototype.includes);

/**
 * Array.prototype.map as the page had it at load, by index: map(list, fn),
 * in place of Array.from(list, fn), which goes through the page's Array
 * iterator of the moment.
 */
export const map = /** @type {<T, U>(list: ArrayLike<T>, fn: (v: T, i: number) => U) => U[]} */ (uncurry(Array.prototype.map));

/** Reflect's functions as the page had them at load: the Go runtime's glue reads, writes and calls JS values with them. */
export const keptReflect = /** @type {typeof Reflect} */ (Object.defineProperties(Object.create(null), Object.getOwnPropertyDescriptors(Reflect)));

/**
 * A KeptSet of the list's values, added by index (new Set(list) would go
 * through the page's Array iterator of the moment).
 * @template T @param {ArrayLike<T>} list @returns {Set<T>}
 */
export function keptSetOf(list) {
    const s = new KeptSet();
    for (let i = 0; i < list.length; i++) s.add(list[i]);
    return s;
}

/** Array.isArray as the page had it at load. */
export const isArray = Array.isArray;

/** JSON.stringify and JSON.parse as the page had them at load. */
export const { stringify: jsonStringify, parse: jsonParse } = JSON;

/**
 * `owner` (a builtin the Go core reads when its program starts:
 * jsbridge/globals.go takes Array.isArray, Object.create, Reflect.get, ...
 * then, and syscall/js makes arrays and objects with new Array and new
 * Object) as it was at load: its own methods are those it had at load; the
 * rest, and new, go to `owner` itself. A page's Array.isArray answering
 * false when a factory started made the core refuse its config
 * ("config.tools: expected an array ...").
 * @template {object} T @param {T} owner @returns {T}
 */
function keptStatics(owner) {
    /** @type {Record<PropertyKey, unknown>} */
    const methods = Object.create(null);
    const keys = Reflect.ownKeys(owner);
    for (let i = 0; i < keys.length; i++) {
        const d = /** @type {PropertyDescriptor} */ (Reflect.getOwnPropertyDescriptor(owner, keys[i]));
        // A Proxy's get must answer a frozen property's own value.
        if (typeof d.value === "function" && (d.writable || d.configurable)) methods[/** @type {any} */ (keys[i])] = d.value;
    }
    const get = Reflect.get;
    return new Proxy(owner, { get: (target, key, receiver) => (key in methods ? methods[/** @type {any} */ (key)] : get(target, key, receiver)) });
}

/** Array, Object and Reflect with their methods of load, for the Go core (core.mjs's shadow). */
export const keptArray = keptStatics(Array);
export const keptObject = keptStatics(Object);
export const keptReflectGlobal = keptStatics(Reflect);

/**
 * Date with its now() of load (the real one if fake timers came first), for
 * the Go core: jsbridge/poll.go hands Date.now to the WebAssembly that
 * answers QuickJS's interrupt polls when a factory's first run starts its
 * QuickJS, and a busy loop's timeout is that clock. Fake timers installed
 * before that run (vi.useFakeTimers() or jest.useFakeTimers() in a test,
 * then the factory) gave it their frozen Date.now: `for (;;) {}` never
 * timed out, and held the thread for ever.
 */
export const keptDate = keptStatics(beforeFakes("Date"));

const typedArrayName = uncurry(/** @type {() => string | undefined} */ (Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag)?.get));
/**
 * Whether `v` is a Uint8Array (or Uint8ClampedArray) of any realm, for the
 * Go runtime's glue (js.CopyBytesToGo, CopyBytesToJS; scripts/wasm-exec.mjs),
 * which checked instanceof the global's. A DOM in Node.js mixes realms:
 * Vitest's jsdom environment puts jsdom's Uint8Array on the global while
 * Node's TextEncoder, which the Go core encodes strings with, makes Node's,
 * and every factory there failed ("syscall/js: CopyBytesToGo: expected src
 * to be a Uint8Array or Uint8ClampedArray"). The typed array's own name
 * answers in every realm.
 * @param {unknown} v
 */
export function isBytes(v) {
    const name = typedArrayName(v);
    return name === "Uint8Array" || name === "Uint8ClampedArray";
}

/** WebAssembly with its Module, Instance, Memory, compile, ... of load, for the Go core (core.mjs's shadow). */
export const keptWebAssembly = g.WebAssembly && keptStatics(g.WebAssembly);

/**
 * The builtins the Go core takes when its program starts that a shadow
 * global cannot keep: members of a constructor's prototype (a Proxy of
 * Promise must answer its real, non-configurable prototype, on which the
 * page's then of the moment sits), as they were at load, and Promise itself.
 * jsbridge/globals.go reads them from the shadow's __jsbridgeIntrinsics
 * (core.mjs). A Function.prototype.bind throwing when a factory was made
 * stopped its core ("panic: JavaScript error: ..."); one that the page
 * restored afterwards still broke that factory's runs.
 */
export const goIntrinsics = Object.freeze({
    __proto__: null,
    Promise,
    bind: Function.prototype.bind,
    then: Promise.prototype.then,
    resolve: Promise.resolve,
    map: Array.prototype.map,
    stringValueOf: String.prototype.valueOf,
});

/** The page's JSON as it was at load, for the Go core (core.mjs): its own stringify and parse. */
export const keptJSON = /** @type {JSON} */ (/** @type {unknown} */ ({ __proto__: null, stringify: jsonStringify, parse: jsonParse }));

// The builtins that reading a config uses, on the page and in the Go core
// that works in-thread (which takes the page's globals when each factory's
// program starts), as they were at load: the functions under each owner's
// own keys, and the owners themselves as globals. Compared only when a
// factory fails (replacedBuiltins).
const WATCHED = /** @type {[string, any][]} */ ([
    ["Array", Array],
    ["Array.prototype", Array.prototype],
    ["Object", Object],
    ["Object.prototype", Object.prototype],
    ["Function.prototype", Function.prototype],
    ["JSON", JSON],
    ["Reflect", Reflect],
    ["Promise", Promise],
    ["Promise.prototype", Promise.prototype],
    ["Set.prototype", Set.prototype],
    ["Map.prototype", Map.prototype],
    ["WeakMap.prototype", WeakMap.prototype],
    ["String.prototype", String.prototype],
    ["WebAssembly", g.WebAssembly],
]);
const GLOBALS = ["Array", "Object", "JSON", "Reflect", "Promise", "Set", "Map", "WeakMap", "WebAssembly"];
/** @type {[string, any, PropertyKey, unknown][]} label, owner, key, value at load */
const atLoad = [];
const globalsAtLoad = GLOBALS.map((name) => g[name]);
for (let i = 0; i < WATCHED.length; i++) {
    const owner = WATCHED[i][1];
    if (owner === undefined || owner === null) continue;
    const keys = keptReflect.ownKeys(owner);
    for (let j = 0; j < keys.length; j++) {
        const d = keptReflect.getOwnPropertyDescriptor(owner, keys[j]);
        const v = d && ("value" in d ? d.value : d.get);
        if (typeof v !== "function") continue;
        const k = keys[j];
        const label = typeof k === "symbol" ? `${WATCHED[i][0]}[${k.description}]` : `${WATCHED[i][0]}.${k}`;
        atLoad[atLoad.length] = [label, owner, k, v];
    }
}

/**
 * The builtins of WATCHED that the page replaced (or deleted) since the
 * package loaded, by name ("Array.isArray", "JSON", ...), the first five:
 * a factory's error names them, as they, not the config, may be its cause.
 * Read with the load-time Reflect, by index.
 * @returns {string[]}
 */
export function replacedBuiltins() {
    /** @type {string[]} */
    const out = [];
    for (let i = 0; i < GLOBALS.length && out.length < 6; i++) {
        let now;
        try {
            now = g[GLOBALS[i]];
        } catch {
            now = undefined;
        }
        if (now !== globalsAtLoad[i]) out[out.length] = GLOBALS[i];
    }
    for (let i = 0; i < atLoad.length && out.length < 6; i++) {
        const d = keptReflect.getOwnPropertyDescriptor(atLoad[i][1], atLoad[i][2]);
        const v = d && ("value" in d ? d.value : d.get);
        if (v !== atLoad[i][3]) out[out.length] = atLoad[i][0];
    }
    return out;
}
