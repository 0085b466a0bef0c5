// The shadow global
//
// wasm_exec.js writes `globalThis.Go`, `globalThis.fs`, ... and the Go program
// sees `globalThis` as js.Global(). Both get this shadow instead: reads fall
// through to the real global (with the real global as receiver, so that
// accessors such as `crypto` and `performance`, which check their receiver,
// keep working); writes stay on the shadow.

import { KeptWeakMap, uncurry } from "./intrinsics.mjs";

// Builtins taken at load: the Go program reads its globals through here
// on every call out to JavaScript, and a page that replaced
// Function.prototype.call (or bind, or Reflect.get) afterwards made each
// read throw, which stopped the engine for good.
const hasOwnProperty = uncurry(Object.prototype.hasOwnProperty);
const bindTo = uncurry(Function.prototype.bind);
const reflectGet = Reflect.get;

/**
 * @param {any} realGlobal
 * @returns {any}
 */
export function createShadow(realGlobal) {
    /** @type {Record<PropertyKey, any>} */
    const own = Object.create(null);
    const bound = new KeptWeakMap();
    /** @param {PropertyKey} key */
    const hasOwn = (key) => key in own; // own has no prototype
    return new Proxy(own, {
        get(target, key) {
            if (hasOwn(key)) return own[key];
            const value = reflectGet(realGlobal, key);
            // Go's js.Global().Call("fetch", ...) calls with this = the
            // shadow, which browsers reject ("Illegal invocation") for the
            // global's own methods. Methods (functions without a prototype,
            // so not constructors) are bound to the real global.
            if (
                typeof value === "function" &&
                !hasOwnProperty(value, "prototype") &&
                hasOwnProperty(realGlobal, key)
            ) {
                let b = bound.get(value);
                if (!b) {
                    b = bindTo(value, realGlobal);
                    bound.set(value, b);
                }
                return b;
            }
            return value;
        },
        set(target, key, value) {
            own[key] = value;
            return true;
        },
        has(target, key) {
            return hasOwn(key) || key in realGlobal;
        },
        deleteProperty(target, key) {
            delete own[key];
            return true;
        },
    });
}
