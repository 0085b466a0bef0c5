// Worker mode's safety net for a factory its page drops without dispose():
// once nothing the page was given is left (the factory, its methods, a
// session, an LLM tool or its execute), the worker is terminated, where it
// used to run (about 20 MB) until the page ended. (In-thread, the Go
// program goes with the garbage collector by itself: core.mjs.)
//
// The same net for a session dropped without dispose(), in both modes
// (partLifetime): once nothing of the session is left (the session, its
// methods, its LLM tools or their execute) and no run of it is in flight,
// its factory lets go of it, where it used to keep it (its tools, its
// engine state) until the factory went.
//
// Every object the page gets holds one "keeper" under a symbol, and only
// those do: the factory reaches it through a WeakRef, and the worker's
// listeners reach the factory through one (weakListener), so that the
// worker, a root while it runs, keeps neither, even when a page tool
// refers to the factory. While the factory starts, or has a run or ready()
// in flight, the keeper (and through it the factory's listeners) is held
// here, so that a page awaiting `createSession().getLlmTools()[1].execute(...)`
// without keeping anything else is neither stopped nor left unanswered.

import { KeptMap, uncurry } from "./intrinsics.mjs";

// Taken at load: a page that replaced Function.prototype.call afterwards
// made every getLlmTools() throw.
const hasOwnProperty = uncurry(Object.prototype.hasOwnProperty);

const KEEP = Symbol("codeMode.keeper");

/** @type {FinalizationRegistry<{ held: any, release: (held: any) => void }> | null} */
const registry =
    typeof FinalizationRegistry === "function" && typeof WeakRef === "function"
        ? new FinalizationRegistry(({ held, release }) => {
              try {
                  release(held);
              } catch {
                  // nothing of the page is left to tell
              }
          })
        : null;

/** @type {Map<object, number>} keepers with work in flight, and how much */
const busy = new KeptMap();

/**
 * @typedef {{
 *   attach: <T extends object>(obj: T) => T,
 *   hold: () => () => void,
 *   disarm: () => void,
 *   part: <O extends object, K>(of: O, key: K, release: (of: O, key: K) => void, keep?: object) => Lifetime,
 * }} Lifetime
 */

/** @type {Lifetime} */
const noNet = { attach: (obj) => obj, hold: () => () => {}, disarm: () => {}, part: () => noNet };

/**
 * Arms the net for one factory. `release(held)` runs once every object
 * attach() was given has been collected, and nothing holds (hold()) the
 * factory; neither `held` nor `release` may reach those objects (a WeakRef
 * may), or they never are. `state` is what keeps the factory working (the
 * worker's listeners, which the worker holds weakly): kept with the keeper,
 * hence while the page keeps any of its objects, and while hold() holds.
 * @template H
 * @param {H} held
 * @param {(held: H) => void} release a function that closes over nothing of the factory
 * @param {object} state
 * @returns {Lifetime}
 */
export function lifetime(held, release, state) {
    if (!registry) return noNet;
    const ref = newKeeper(held, release, state);
    return {
        attach(obj) {
            const keeper = ref.deref();
            if (keeper) {
                // The object's methods too: a page may keep only
                // `session.getLlmTools()[1].execute`, or a method it took off.
                // By index: the page's Array iterator may be broken.
                const vals = Object.values(obj);
                for (let i = -1; i < vals.length; i++) {
                    const v = i < 0 ? obj : vals[i];
                    if ((typeof v === "function" || v === obj) && Object.isExtensible(v) && !hasOwnProperty(v, KEEP)) {
                        Object.defineProperty(v, KEEP, { value: keeper });
                    }
                }
            }
            return obj;
        },
        hold() {
            /** @type {object | undefined} */
            let keeper = ref.deref();
            if (!keeper) return () => {};
            busy.set(keeper, (busy.get(keeper) || 0) + 1);
            return () => {
                if (!keeper) return;
                const n = /** @type {number} */ (busy.get(keeper)) - 1;
                if (n > 0) busy.set(keeper, n);
                else busy.delete(keeper);
                keeper = undefined;
            };
        },
        // At dispose: the net is off, and what the page still has of
        // the factory or the session keeps nothing of its state.
        disarm() {
            const keeper = ref.deref();
            if (!keeper || !registry) return;
            registry.unregister(keeper);
            keeper.state = undefined;
        },
        // A part of the factory (a session): its objects keep the factory
        // too, since its keeper keeps the factory's.
        part(of, key, release, keep) {
            const keeper = ref.deref();
            return keeper ? partLifetime(of, key, release, { factory: keeper, keep }) : noNet;
        },
    };
}

/**
 * The net for a part of something the page keeps (a session of a
 * factory): `release(of, key)` runs once every object attach() was given
 * has been collected and nothing holds (hold()) the part, if `of` (what
 * the part belongs to, the factory's state) is still alive then. `of` is
 * reached through a WeakRef: it holds the page's tools, one of which may
 * refer to the part's objects (a tool that disposes the session), and a
 * registry holding it would keep them, hence the part and `of`, for good.
 * `release` must close over nothing of the part (a module's function).
 * @template {object} O
 * @template K
 * @param {O} of
 * @param {K} key
 * @param {(of: O, key: K) => void} release
 * @param {object} state kept while the part's objects are, or a run holds
 *   the part: the factory's keeper; what the part alone may keep (its own
 *   tools, which `of` reaches weakly: weakly())
 * @returns {Lifetime}
 */
export function partLifetime(of, key, release, state) {
    if (!registry) return noNet;
    return lifetime({ ref: new WeakRef(of), key, release }, releaseIfAlive, state);
}

/** @param {{ ref: WeakRef<any>, key: any, release: (of: any, key: any) => void }} held */
function releaseIfAlive(held) {
    const of = held.ref.deref();
    if (of) held.release(of, held.key);
}

// Apart from lifetime(), so that no closure of the factory's shares a scope
// with the keeper.
/**
 * @param {any} held
 * @param {(held: any) => void} release
 * @param {object} state
 */
function newKeeper(held, release, state) {
    /** @type {{ state: object | undefined }} */
    const keeper = { state };
    /** @type {FinalizationRegistry<any>} */ (registry).register(keeper, { held, release }, keeper);
    return new WeakRef(keeper);
}

/**
 * A listener that calls `fn` while something else keeps `fn`: what the
 * engine's own roots (a worker's message listeners) are given, so that they
 * do not keep the factory's state, and through a page tool that refers to
 * the factory, the factory itself. One argument, passed as is: spreading
 * `...args` goes through Array.prototype[Symbol.iterator], and a page that
 * broke it after load made every worker message arrive as undefined (a
 * TypeError thrown from the port's listener ends a Node process).
 * @template {(arg: any) => void} F
 * @param {F} fn
 * @returns {F}
 */
export function weakListener(fn) {
    if (typeof WeakRef !== "function") return fn;
    const ref = new WeakRef(fn);
    return /** @type {F} */ ((/** @type {unknown} */ arg) => {
        const f = ref.deref();
        if (f) f(arg);
    });
}

/**
 * What `of` of a part (partLifetime) keeps of the part's own things when
 * the net is armed: a WeakRef, the part's keeper (its state) holding them.
 * A session's own tool may refer to the session (one that disposes it):
 * kept by its factory, the tool kept the session for as long as the
 * factory. Without the net, a box that holds them.
 * @template {object} T
 * @param {T} value
 * @returns {{ deref: () => T | undefined }}
 */
export function weakly(value) {
    return registry ? new WeakRef(value) : { deref: () => value };
}
