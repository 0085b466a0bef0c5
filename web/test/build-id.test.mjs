// @mode-independent: a build script's function and the built files; no factory.
// scripts/build-id.mjs, the build's id: a hash of the core's bytes, so that
// two builds of one tree are byte-identical (the id was 6 random bytes a
// build: every loader and the core differed), while a core of other bytes
// has another id and the loaders refuse it (hostile35).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { BUILD_SECTION, buildIdOf, stampBuild, stampOf } from "../../scripts/build-id.mjs";
import { coreWasmPath, dist } from "./helpers.mjs";

// The smallest module: the magic number and version.
const EMPTY = Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

test("the id is a function of the core's bytes: the same bytes twice give one id, one byte changed another", () => {
    const core = readFileSync(coreWasmPath);
    const unstamped = core.subarray(0, core.lastIndexOf(BUILD_SECTION) - 3);
    const id = buildIdOf(unstamped);
    assert.match(id, /^[0-9a-f]{12}$/);
    assert.equal(buildIdOf(Buffer.from(unstamped)), id);
    const changed = Buffer.from(unstamped);
    changed[changed.length >> 1] ^= 1;
    assert.notEqual(buildIdOf(changed), id);
    assert.notEqual(buildIdOf(EMPTY), buildIdOf(Uint8Array.from([...EMPTY, 0x00, 0x01, 0x00])));
});

test("stampBuild appends the id of the bytes it is given, as the custom section the loaders read", () => {
    const { bytes, id } = stampBuild(EMPTY);
    assert.equal(id, buildIdOf(EMPTY));
    assert.equal(stampOf(bytes), id);
    assert.equal(stampOf(EMPTY), "");
    assert.deepEqual(bytes.subarray(0, EMPTY.length), Buffer.from(EMPTY));
    assert.deepEqual(stampBuild(EMPTY).bytes, bytes);
});

test("the built core is stamped with the hash of its own bytes, and the loaders carry that id", () => {
    const core = readFileSync(coreWasmPath);
    const id = stampOf(core);
    const unstamped = core.subarray(0, core.lastIndexOf(BUILD_SECTION) - 3);
    assert.equal(id, buildIdOf(unstamped), "dist/code-mode.wasm's build id is not the hash of the core: `make build` again");
    assert.deepEqual(stampBuild(unstamped).bytes, core);
    for (const loader of ["index.mjs", "code-mode.global.js"]) {
        assert.ok(readFileSync(join(dist, loader), "utf8").includes(JSON.stringify(id)), `dist/${loader} does not carry the core's build id ${id}`);
    }
});
