// One throwaway run before a factory's first real one, in a factory of its
// own on the same Go core, so that what the first run of a page (or of a
// worker) would otherwise pay inside its timeout is paid while the factory
// is made. A run's first await of a tool and its first timer take code
// paths nothing else takes: the engine's WebAssembly compiles their
// functions on first use (~30 ms of the thread's time for the Go core's,
// measured in Node), the JavaScript around a tool call is compiled on first
// use, and the functions the run makes hot start V8's optimizing compiles,
// which then share two cores with the program. Measured in fresh Node
// processes and in Chromium: the first run that awaited a tool took 70-180
// ms where the same run took 6-12 ms after it, and a short timeout failed
// that run only.
//
// Nothing of it is seen: the throwaway factory has no onEvent, no
// interceptors and no tool of the page's, its run logs nothing and gives
// its result to no one, and it is disposed before the real factory exists
// (every run of a factory gets a fresh QuickJS runtime and context anyway).

import { goSession } from "./go-session.mjs";

// Awaits a timer (the sandbox's setTimeout, a host timer in Go), then a
// host tool: the two ways a program waits. The timer is of 1 ms so that Go
// goes back to the page's event loop, as a real wait does: in a Node.js
// script with nothing else on its loop, Node then waits there for every
// compile V8 has running in the background (the optimizing tier-ups the
// warm-up started), here in the factory instead of in the first run. With
// 0 ms (Go fires it without going back), the factory was ~150 ms shorter
// and the first run awaiting a timer as slow as with no warm-up
// (bench/first-await.mjs: 261-284 ms against 270-304).
const WARM_CODE = "await new Promise((r) => setTimeout(r, 1)); return await tools.warm({})";
const WARM_ARGS = JSON.stringify({ code: WARM_CODE, explanation: "warm-up" });

/**
 * Runs the warm-up on `core`; its result is not looked at (a run that fails
 * has still compiled what it reached). Rejects only when the throwaway
 * factory cannot be made, as the real one then could not either.
 * @param {import("./core.mjs").Core} core
 * @param {WebAssembly.Module} module the QuickJS asset, compiled
 * @param {string} wasmLocation
 * @returns {Promise<void>}
 */
export async function warmUp(core, module, wasmLocation) {
    const warm = await core.api.newFactory({ wasmLocation, tools: [{ name: "warm", execute: () => 1 }] }, module);
    try {
        // Index by index: the page may have replaced Array's methods
        // since the package loaded (in-thread, this is the page's realm).
        const tools = goSession(warm.createSession()).getLlmTools();
        /** @type {any} */
        let exec;
        for (let i = 0; i < tools.length; i++) if (tools[i].name === "executeCode") exec = tools[i];
        // The core's own execute, with the arguments as JSON text and a
        // callback: nothing of the page's (JSON, the run bookkeeping of
        // wrap.mjs) is on the way.
        await new Promise((resolve) => exec.execute(WARM_ARGS, undefined, undefined, undefined, undefined, resolve));
    } finally {
        warm.dispose();
    }
}
