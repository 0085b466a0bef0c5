#!/usr/bin/env node
// Builds the package twice (scripts/build-dist.mjs, into two temporary
// directories) and says whether every file is byte-identical: the build id
// is a hash of the core (scripts/build-id.mjs), not a random one, so two
// builds of one tree must not differ. Exits 1 naming the files that differ.
// The second build reuses wasm-opt's cached result (build/wasm-opt/), so it
// costs a Go build and esbuild.
//
// Usage: node scripts/check-reproducible.mjs   (environment as build-dist.mjs's)

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** @param {string} dir @returns {Map<string, string>} relative path -> sha256 */
function hashes(dir) {
    const out = new Map();
    const walk = (d) => {
        for (const name of readdirSync(d)) {
            const p = join(d, name);
            if (statSync(p).isDirectory()) walk(p);
            else out.set(relative(dir, p), createHash("sha256").update(readFileSync(p)).digest("hex"));
        }
    };
    walk(dir);
    return out;
}

const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), "code-mode-repro-")));
try {
    for (const dir of dirs) {
        const r = spawnSync(process.execPath, [join(root, "scripts", "build-dist.mjs")], { cwd: root, env: { ...process.env, OUT: dir }, stdio: ["ignore", "inherit", "inherit"] });
        if (r.status !== 0) throw new Error(`scripts/build-dist.mjs failed (status ${r.status})`);
    }
    const [a, b] = dirs.map(hashes);
    const differ = [...new Set([...a.keys(), ...b.keys()])].filter((f) => a.get(f) !== b.get(f)).sort();
    if (differ.length) {
        console.error(`check-reproducible: two builds of one tree differ in ${differ.join(", ")}`);
        process.exitCode = 1;
    } else {
        console.log(`check-reproducible: two builds are byte-identical (${a.size} files)`);
    }
} finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
