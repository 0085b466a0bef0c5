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
const uncurry = (f) => /** @type {any} */ (bindCall(f));

const mapValues = uncurry(Map.prototype.values);
const mapIteratorNext = uncurry(Object.getPrototypeOf(new Map().values()).next);

/**
 * Calls `each` with every value of `map`, by the Map iteration the page
 * had at load.
 * @template V
 * @param {Map<unknown, V>} map
 * @param {(v: V) => void} each
 */
export function forEachValue(map, each) {
    const it = mapValues(map);
    for (let r = mapIteratorNext(it); !r.done; r = mapIteratorNext(it)) each(r.value);
}
