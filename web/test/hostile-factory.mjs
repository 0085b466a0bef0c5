// The factory of the hostile suites' injection rows (hostile43, hostile44):
// admin.wipe, the tool no injected program may reach, and mail.send and
// a.mark, which record what the program as written sends.
import assert from "node:assert/strict";
import { assetPath, run, tool, within, withFactory } from "./helpers.mjs";

/** The injected program: it calls admin.wipe. */
export const INNER = "await tools.admin.wipe({}); return 'INJECTED'";

/** The wrappers a model's text puts around a program: [open, close]. */
export const fenced = [
    ["```js\n", "\n```"],
    ["```\n", "\n```"],
    ["~~~javascript\n", "\n~~~"],
    ["```json\n", "\n```"],
    ["<execute>\n", "\n</execute>"],
];

/**
 * Asserts that a factory still runs a program after a row.
 * @param {any} api
 */
export async function alive(api) {
    const r = await within(run(api.createSession(), "return 1 + 1"), 120_000);
    assert.equal(r.ok && r.result, 2, `the factory after the row: ${JSON.stringify(r.error ?? r)}`);
}

/**
 * A factory for one test, with a session; wiped counts admin.wipe's calls,
 * sent what mail.send and a.mark were given.
 * @param {any} t the test's context
 * @param {any} [extra] more of the factory's config
 */
export async function executeFactory(t, extra = {}) {
    /** @type {number[]} */
    const wiped = [];
    /** @type {string[]} */
    const sent = [];
    const api = await withFactory(t, {
        wasmLocation: assetPath,
        timeout: 20_000,
        tools: [
            tool("admin.wipe", () => (wiped.push(1), "WIPED")),
            tool("mail.send", (/** @type {any} */ i) => (sent.push(i.body), "sent"), { inputSchema: { type: "object", properties: { body: { type: "string" } }, required: ["body"] } }),
            tool("a.mark", (/** @type {any} */ i) => (sent.push(i.v), i.v), { inputSchema: { type: "object", properties: { v: { type: "string" } } } }),
        ],
        ...extra,
    });
    return { api, wiped, sent, s: api.createSession() };
}

/**
 * Runs code that must send one mail as written (executeFactory's): "" if it
 * did, else what went wrong (the injected program ran, or another error).
 * @param {any} executeCode the session's LLM tool
 * @param {string} code
 * @param {{ wiped: number[], sent: string[] }} seen executeFactory's records
 */
export async function asWritten(executeCode, code, { wiped, sent }) {
    sent.length = 0;
    wiped.length = 0;
    const r = await within(executeCode.execute({ code, explanation: "" }), 60_000);
    assert.notEqual(r, "hung");
    if (wiped.length) return `${JSON.stringify(code.slice(0, 100))}: THE COMMENT'S PROGRAM RAN`;
    if (!(r.ok && r.result === "sent" && sent.length === 1)) return `${JSON.stringify(code.slice(0, 100))}: ${JSON.stringify(r.error?.message ?? r).slice(0, 200)}`;
    return "";
}

/**
 * Runs each code of codes as asWritten does and asserts that every one
 * sent its mail as written, listing those that did not.
 * @param {any} executeCode
 * @param {string[]} codes
 * @param {{ wiped: number[], sent: string[] }} seen
 */
export async function allAsWritten(executeCode, codes, seen) {
    const failed = [];
    for (const code of codes) {
        const wrong = await asWritten(executeCode, code, seen);
        if (wrong) failed.push(wrong);
    }
    assert.deepEqual(failed, [], `programs that did not run as written:\n${failed.join("\n")}`);
}
