// Builds a Go program for GOOS=js, rewrites its binary with one of the
// build's post-link steps (scripts/wasm-*.mjs), and runs both binaries
// under Go's own wasm_exec_node.js: the rewrite tests compare the outputs.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * @template {{ bytes: Uint8Array }} R
 * @param {string} program main.go's text
 * @param {(wasm: Uint8Array) => R} rewrite
 * @returns {{ original: Uint8Array, result: R, want: string, got: string }}
 *   the build, the rewrite's result, and what each binary printed
 */
export function runRewritten(program, rewrite) {
    const go = process.env.GO || "go";
    const env = spawnSync(go, ["env", "GOROOT"], { encoding: "utf8" });
    assert.equal(env.status, 0, env.stderr);
    const goroot = env.stdout.trim();
    const dir = mkdtempSync(join(tmpdir(), "go-wasm-"));
    try {
        writeFileSync(join(dir, "go.mod"), "module rewritten\n\ngo 1.24\n");
        writeFileSync(join(dir, "main.go"), program);
        const build = spawnSync(go, ["build", "-o", "main.wasm", "."], {
            cwd: dir,
            encoding: "utf8",
            env: { ...process.env, GOOS: "js", GOARCH: "wasm", GOFLAGS: "" },
        });
        assert.equal(build.status, 0, build.stderr);
        const original = readFileSync(join(dir, "main.wasm"));
        const result = rewrite(original);
        writeFileSync(join(dir, "rewritten.wasm"), result.bytes);
        const run = (/** @type {string} */ f) => {
            const p = spawnSync(process.execPath, [join(goroot, "lib", "wasm", "wasm_exec_node.js"), f], { cwd: dir, encoding: "utf8" });
            assert.equal(p.status, 0, p.stderr);
            return p.stdout;
        };
        return { original, result, want: run("main.wasm"), got: run("rewritten.wasm") };
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
}
