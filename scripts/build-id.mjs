// The build's id (scripts/build-dist.mjs): in the core, a custom section
// "code-mode.build"; in the loaders, globalThis.__CODE_MODE_BUILD__. A core
// given compiled (config.coreModule) of another build than the loader's is
// refused naming the field (web/src/index.mjs).
//
// The id is the start of the SHA-256 of the core as built, before its
// stamp: two builds of one tree are byte-identical (caches and integrity
// hashes stay), while a core of other sources, flags or toolchain has other
// bytes and so another id. Random ids made every build differ in every
// loader and the core. Loaders alone changed keep the id, rightly: the core
// they load is the same file.

import { createHash } from "node:crypto";
import { encodeU32 } from "./leb128.mjs";

export const BUILD_SECTION = "code-mode.build";

/** The id of a core's bytes (unstamped): 12 hex digits, as the loaders check them. @param {Uint8Array} core */
export function buildIdOf(core) {
    return createHash("sha256").update(core).digest("hex").slice(0, 12);
}

/** The id a core is stamped with, or "" when it has none. @param {Uint8Array} core */
export function stampOf(core) {
    const sections = WebAssembly.Module.customSections(new WebAssembly.Module(core), BUILD_SECTION);
    return sections.length ? Buffer.from(sections[0]).toString() : "";
}

/**
 * The core with its id appended as the custom section (id 0: a name, then
 * the bytes; sizes as LEB128), the id being that of the core as given.
 * @param {Uint8Array} core unstamped
 * @returns {{ bytes: Buffer, id: string }}
 */
export function stampBuild(core) {
    const id = buildIdOf(core);
    const name = Buffer.from(BUILD_SECTION);
    const payload = [...encodeU32(name.length), ...name, ...Buffer.from(id)];
    return { bytes: Buffer.concat([core, Buffer.from([0, ...encodeU32(payload.length), ...payload])]), id };
}
