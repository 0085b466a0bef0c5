// A page value that may be a thenable (a tool's return value, onToolCall's
// decision) is adopted here, not by await: a thenable that resolves with a
// thenable (itself: then(r) { r(this) }) is followed by the engine's
// promise jobs for ever, and microtasks that never end starve the page's
// timers, the run's timeout among them: the page hangs. Here each level
// counts, and past MAX_THENABLE_DEPTH the value fails with an error that
// says so. (A native promise the page made resolve with such a thenable,
// an async execute returning one, spins inside the engine before it
// reaches here: nothing in JavaScript can stop that.)

import { prototypeHazard } from "./fields.mjs";
import { followNativePromise } from "./intrinsics.mjs";

export const MAX_THENABLE_DEPTH = 32;

/**
 * The value a page function gave, adopted as await would adopt it, in a
 * box without a prototype that nothing adopts again.
 * @param {unknown} value
 * @param {string} what names the value in the error ("the tool's value")
 * @returns {Promise<{ value: any }>}
 */
export function adopt(value, what) {
    return new Promise((resolve, reject) => {
        let depth = 0;
        /** @param {unknown} v */
        const step = (v) => {
            // A native promise is followed as await follows it, whatever
            // then it reads now (a page may have replaced Promise.prototype.then);
            // its value counts as a level, as a thenable's does.
            if (v !== null && typeof v === "object" && followNativePromise(v, (x) => (++depth > MAX_THENABLE_DEPTH ? reject(deepThenable(what)) : step(x)), reject)) {
                return;
            }
            let then;
            try {
                then = v !== null && (typeof v === "object" || typeof v === "function") ? /** @type {any} */ (v).then : undefined;
            } catch (err) {
                reject(err);
                return;
            }
            // A then that Object.prototype (or another shared prototype)
            // holds is not the value's: following it would give the
            // pollution's answer (fields.mjs).
            const hazard = typeof then === "function" ? prototypeHazard() : undefined;
            if (hazard) {
                reject(hazard);
                return;
            }
            if (typeof then !== "function") {
                const box = Object.create(null);
                box.value = v;
                resolve(box);
                return;
            }
            if (++depth > MAX_THENABLE_DEPTH) {
                reject(deepThenable(what));
                return;
            }
            let once = false;
            try {
                then.call(
                    v,
                    (/** @type {unknown} */ x) => {
                        if (once) return;
                        once = true;
                        step(x);
                    },
                    (/** @type {unknown} */ err) => {
                        if (once) return;
                        once = true;
                        reject(err);
                    },
                );
            } catch (err) {
                if (!once) {
                    once = true;
                    reject(err);
                }
            }
        };
        step(value);
    });
}

/** @param {string} what */
function deepThenable(what) {
    return new TypeError(`${what} is a thenable that resolved with a thenable ${MAX_THENABLE_DEPTH} times over (one whose then resolves with itself?); return a value or a Promise of one`);
}
