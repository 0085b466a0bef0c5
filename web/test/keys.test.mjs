// @mode-independent: compares key tables; no engine runs.
// Worker mode checks tool definitions and session options on the page
// (web/src/keys.mjs), so that they throw synchronously as in-thread: its
// tables must stay those of the Go core (wasm/config.go).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { goStringList, root } from "./helpers.mjs";

const go = readFileSync(join(root, "wasm", "config.go"), "utf8");
const keys = await import(pathToFileURL(join(root, "web", "src", "keys.mjs")).href);

const goList = (name) => goStringList("wasm/config.go", name);

function goMap(name) {
    const m = go.match(new RegExp(`\\b${name}\\s*=\\s*map\\[string\\]string\\{([\\s\\S]*?)\\n\\s*\\}`));
    assert.ok(m, `wasm/config.go has no ${name}`);
    const out = {};
    for (const x of m[1].matchAll(/"([^"]+)":\s*(?:"((?:[^"\\]|\\.)*)"|`([^`]*)`)/g)) out[x[1]] = x[2] !== undefined ? JSON.parse(`"${x[2]}"`) : x[3];
    return out;
}

test("the page's key tables are the Go core's", () => {
    assert.deepEqual(keys.CONFIG_KEYS, goList("configKeys"));
    assert.deepEqual(keys.INTERCEPTOR_KEYS, goList("interceptorKeys"));
    assert.deepEqual(keys.TOOL_KEYS, goList("toolKeys"));
    assert.deepEqual(keys.TOOL_HINTS, goMap("toolHints"));
    assert.deepEqual(keys.SESSION_KEYS, goList("sessionKeys"));
    assert.deepEqual(keys.SESSION_HINTS, goMap("sessionHints"));
});

test("unknownKeyError words errors as internal/keys does", () => {
    assert.equal(keys.unknownKeyError("tool", ["name", "exec"], keys.TOOL_KEYS).message, 'tool: unknown key "exec" (did you mean "execute"?); valid keys are ' + keys.TOOL_KEYS.join(", "));
    assert.equal(keys.unknownKeyError("tool", ["name"], keys.TOOL_KEYS), null);
    assert.match(keys.unknownKeyError("o", ["zzzzzz"], ["tools"]).message, /^o: unknown key "zzzzzz"; valid keys are tools$/);
});
