// The module that scripts/build-dist.mjs generates from the Go toolchain's
// lib/wasm/wasm_exec.js: the bundle resolves "./wasm_exec.mjs" to it.
// defineGo(shadow) runs wasm_exec.js with `globalThis` bound to shadow and
// returns the Go class it defines.
export function defineGo(shadow: object): any;
