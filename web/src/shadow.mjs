// The shadow global
//
// wasm_exec.js writes `globalThis.Go`, `globalThis.fs`, ... and the Go program
// sees `globalThis` as js.Global(). Both get this shadow instead: reads fall
// through to the real global (with the real global as receiver, so that
// accessors such as `crypto` and `performance`, which check their receiver,
// keep working); writes stay on the shadow.

/**
 * @param {any} realGlobal
 * @returns {any}
 */
export function createShadow(realGlobal) {
    /** @type {Record<PropertyKey, any>} */
    const own = Object.create(null);
    const bound = new WeakMap();
    /** @param {PropertyKey} key */
    const hasOwn = (key) => Object.prototype.hasOwnProperty.call(own, key);
    return new Proxy(own, {
        get(target, key) {
            if (hasOwn(key)) return own[key];
            const value = Reflect.get(realGlobal, key);
            // Go's js.Global().Call("fetch", ...) calls with this = the
            // shadow, which browsers reject ("Illegal invocation") for the
            // global's own methods. Methods (functions without a prototype,
            // so not constructors) are bound to the real global.
            if (
                typeof value === "function" &&
                !Object.prototype.hasOwnProperty.call(value, "prototype") &&
                Object.prototype.hasOwnProperty.call(realGlobal, key)
            ) {
                let b = bound.get(value);
                if (!b) {
                    b = value.bind(realGlobal);
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
