// The in-thread factory: a Go core of its own (core.mjs) and the QuickJS
// asset, wrapped (wrap.mjs). index.mjs calls it for IoCodeModeFactory
// without `worker: true`; tests that bundle web/src call it with overrides of
// the core's globals, which the page cannot reach.

import { exitedError, loadCore } from "./core.mjs";
import { coreURL } from "./core-url.mjs";
import { callerStack, describe } from "./env.mjs";
import { isArray, race, settledOf, then } from "./intrinsics.mjs";
import { FIRST } from "./registering.mjs";
import { loadQuickJS } from "./wasm-load.mjs";
import { warmUp } from "./warm-up.mjs";
import { pagePipeline, wrapApi } from "./wrap.mjs";

// The first in-thread factory of the page warms the engine up before it
// returns (warm-up.mjs), so that its first run awaiting a tool or a timer
// does not pay, inside its timeout, for compiling the code of those paths.
// What that compiles belongs to the compiled modules, which every later
// factory shares (the core is compiled once per JavaScript module, and the
// engine compiles the same QuickJS asset's bytes once): they skip it.
let warmed = false;

/**
 * @param {import("../index.d.ts").IoCodeMode.Config} config checked by the caller
 *   for wasmLocation and worker
 * @param {Record<string, unknown>} [overrides] globals the Go core sees instead of the real ones
 * @returns {Promise<import("../index.d.ts").IoCodeMode.API>}
 */
export async function threadFactory(config, overrides) {
    if (config.onEvent !== undefined && typeof config.onEvent !== "function") {
        throw new TypeError(`config.onEvent: expected a function, got ${describe(config.onEvent)}`);
    }
    // Both loads at once; no Promise.allSettled nor race, nor destructuring:
    // they iterate with the page's Array iterator of the moment (intrinsics.mjs).
    const coreLoad = settledOf(loadCore(overrides, config.coreModule, coreURL));
    const moduleLoad = settledOf(loadQuickJS(config.wasmLocation, undefined, config.wasmModule));
    const core = await coreLoad;
    const module = await moduleLoad;
    if (core.status === "rejected") throw core.reason;
    // Until wrapApi has it, the core is this call's: a failure stops it.
    const c = core.value;
    const release = c.hold();
    try {
        const pipe = pagePipeline(config);
        // The config's own mistakes first (a bad timeout, an unknown zone):
        // fixing the asset's path alone met them next.
        if (module.status === "rejected") {
            c.api.checkConfig(pipe.goConfig);
            throw module.reason;
        }
        const exited = then(c.exited, () => {
            throw exitedError(c.state);
        });
        if (!warmed) {
            await race([warmUp(c, module.value, config.wasmLocation), exited]);
            warmed = true;
        }
        const api = await race([c.api.newFactory(pipe.goConfig, module.value), exited]);
        // config.tools past 2,048: the factory is the caller's once the
        // last slice is in (registering.mjs); a tool refused there fails it.
        const tools = /** @type {any} */ (config).tools;
        const face = wrapApi(api, c, pipe, isArray(tools) && tools.length > FIRST ? tools : undefined);
        const wait = pipe.regs.wait();
        if (wait) await race([wait, exited]);
        return face;
    } catch (err) {
        c.stop(err);
        throw callerStack(err, threadFactory);
    } finally {
        release();
    }
}
