// Registrations in slices: a registerTools call past FIRST tools, and an
// adapter's source's listing (adapters/source.mjs), register their first
// FIRST tools at once and the rest SLICE at a time over later tasks (a
// timer's), so that 100,000 tools never hold the page's thread for
// seconds. Until the last slice is in, ready() waits for it, and so does
// every run and search (a program that calls the last tool must not hear
// "unknown tool"). A source reaches its factory's slices through the
// method keyed REGISTERING (faces.mjs): an internal hook, no part of the
// API, with a Symbol.for key because the adapters are bundles of their own.

import { KeptSet, all, arrayOf, map, setTimeout, then } from "./intrinsics.mjs";
import { cannotRead } from "./fields.mjs";
import { quoteCut } from "./keys.mjs";
import { goQuote } from "./schemacheck.mjs";

export const REGISTERING = Symbol.for("code-mode.slices");

export const FIRST = 2048;
const SLICE = 512;

/**
 * The registrations in flight of one factory.
 */
export function inFlight() {
    /** @type {Set<Promise<any>>} */
    const passes = new KeptSet();
    return {
        /**
         * A registration in slices: step(FIRST) now (what it throws is the
         * caller's), then step(SLICE) a task at a time until it answers
         * true, or until the factory can take no more tools (live() false).
         * What a later step throws rejects the pass, and ready(). Returns
         * the pass, or undefined when the first step did it all.
         * @param {(n: number) => boolean} step registers n more tools; true when none is left
         * @param {() => boolean} live
         * @returns {Promise<void> | undefined}
         */
        slices(step, live) {
            if (step(FIRST)) return undefined;
            /** @type {Promise<void>} */
            const pass = new Promise((resolve, reject) => {
                const next = () => {
                    try {
                        if (!live() || step(SLICE)) return resolve();
                    } catch (err) {
                        return reject(err);
                    }
                    setTimeout(next, 0);
                };
                setTimeout(next, 0);
            });
            passes.add(pass);
            const done = () => {
                passes.delete(pass);
            };
            then(pass, done, done);
            return pass;
        },
        /**
         * Settles once every pass in flight now has settled, rejecting
         * with the error of the first that failed; undefined when none is
         * in flight (the caller goes on at once, as before).
         * @returns {Promise<void> | undefined}
         */
        wait() {
            if (passes.size === 0) return undefined;
            /** @type {{ err: any } | undefined} */
            let failed;
            // Each pass's failure is caught as it comes: the first in time
            // is the one reported, once all have settled.
            const now = arrayOf(passes);
            for (let i = 0; i < now.length; i++) now[i] = then(now[i], undefined, (err) => void (failed ||= { err }));
            return then(all(now), () => {
                if (failed) throw failed.err;
            });
        },
    };
}

/**
 * registerTools(list) of more than FIRST tools, in slices (inFlight's): the
 * first FIRST are registered before it returns (throwing as any
 * registration does), then the names of all are checked (a name twice in
 * the call, or, where the page knows them, one taken: the same words,
 * nothing registered), and the rest go SLICE at a time. A tool refused
 * there (its schema, a name registered meanwhile by other code) undoes the
 * whole call, is logged (console.error) and rejects ready(). Returns the
 * call's unregister, which also stops the slices to come.
 * @param {any[]} list
 * @param {ReturnType<typeof inFlight>} regs the factory's
 * @param {(part: any[], at: number) => () => void} reg registers part, list's tools from index at (its errors naming their index in list); returns its unregister
 * @param {{ has(name: string): boolean } | undefined} taken the names registered, where the page knows them (worker mode)
 * @param {() => boolean} live false once the factory can take no more tools: the slices stop, quietly
 * @param {string} [path] how errors name the list ("config.tools": its first FIRST are the factory's already)
 */
export function sliced(list, regs, reg, taken, live, path = "tools") {
    // The call's tools as given: the caller's array may change after.
    let defs = map(list, (d) => d);
    const n = defs.length;
    /** @type {(() => void)[]} */
    const done = [];
    const from = path === "tools" ? 0 : FIRST;
    let at = from;
    let stopped = false;
    const undo = () => {
        stopped = true;
        for (let i = 0; i < done.length; i++) {
            try {
                done[i]();
            } catch {
                // an engine stopped: its tools are gone with it
            }
        }
        done.length = 0;
    };
    // config.tools, whose first FIRST are the factory's: a name twice in
    // it is refused before any of the rest, as the factory's check does.
    if (from) namesOnce(defs, undefined, path, n);
    const pass = regs.slices((k) => {
        if (stopped) return true;
        done[done.length] = reg(defs.slice(at, at + k), at);
        if (at === 0) {
            try {
                namesOnce(defs, taken, path, at + k);
            } catch (err) {
                undo();
                throw err;
            }
        }
        at += k;
        return at >= n;
    }, live);
    // The unregister the page keeps holds no definition after.
    const end = () => {
        defs = [];
    };
    then(pass, end, (err) => {
        undo();
        end();
        if (path === "tools") console.error(`Code Mode: registerTools: none of the call's ${n} tools is registered: ${err instanceof Error ? err.message : String(err)}`);
    });
    return undo;
}

/**
 * Throws what registration would for a name twice in the call, or (past
 * the first slice, registered) one taken.
 * @param {any[]} defs
 * @param {{ has(name: string): boolean } | undefined} taken
 * @param {string} path
 * @param {number} past the index past the first slice, registered already
 */
function namesOnce(defs, taken, path, past) {
    const seen = new KeptSet();
    for (let i = 0; i < defs.length; i++) {
        const d = defs[i];
        let name;
        try {
            name = d !== null && typeof d === "object" ? d.name : undefined;
        } catch (err) {
            throw cannotRead(`${path}[${i}]`, err); // a Proxy's trap, a getter: refused at once, in the words of the first slice's
        }
        if (typeof name !== "string") continue;
        const why = seen.has(name) ? "appears more than once in the batch" : i >= past && taken && taken.has(name) ? "already registered" : "";
        if (why) throw new TypeError(`${path}[${i}] (${quoteCut(name, goQuote)}): name: ${why}`);
        seen.add(name);
    }
}

/**
 * err, an error of a registration of a slice from index at, naming the
 * tool's index in the whole call ("tools[2]" of the slice at 2,560 is
 * "tools[2562]"; "config.tools[2562]" of config.tools).
 * @param {any} err
 * @param {number} at
 * @param {string} [path]
 */
export function renumbered(err, at, path = "tools") {
    if ((at > 0 || path !== "tools") && err instanceof Error) {
        try {
            err.message = err.message.replace(/^tools\[(\d+)\]/, (_, i) => `${path}[${Number(i) + at}]`);
        } catch {
            // a frozen error: as it is
        }
    }
    return err;
}
