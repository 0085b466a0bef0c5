// The Go core's session, as the loader uses it: the core makes a session as
// one function, op(kind, ...) (wasm/session.go), since every JavaScript
// value Go makes costs a finalizer there (about 1 ms a session when it
// built the object, a function per method and per LLM tool); the object is
// made here, where values are cheap.

const INSTRUCTION = 0;
const LLM_TOOLS = 1;
const EXECUTE = 2;
const DISPOSE = 3;
const ADD_TOOLS = 4;

/**
 * @typedef {{ name: string, description: string, inputSchema: any, execute: Function }} GoLlmTool
 * @typedef {{ getSystemInstruction: () => string, getLlmTools: () => GoLlmTool[], executeOf: (i: number) => Function, dispose: () => void, addTools: (tools: any[]) => void }} GoSession
 */

/**
 * @param {any} op the core's createSession() result
 * @returns {GoSession}
 */
export function goSession(op) {
    return {
        getSystemInstruction: () => op(INSTRUCTION),
        getLlmTools() {
            const tools = op(LLM_TOOLS);
            /** @type {GoLlmTool[]} */
            const out = [];
            // By index, and as literals: the page's Array methods and
            // Object.prototype setters of the moment are not on the way.
            for (let i = 0; i < tools.length; i++) {
                const t = tools[i];
                out[i] = { name: t.name, description: t.description, inputSchema: t.inputSchema, execute: executeOf(op, i) };
            }
            return out;
        },
        // The execute of the i-th LLM tool, as getLlmTools gives it.
        executeOf: (/** @type {number} */ i) => executeOf(op, i),
        dispose: () => op(DISPOSE),
        // More tools of the session's own (worker.mjs: one toolFilter hid until a run shows it).
        addTools: (/** @type {any[]} */ tools) => op(ADD_TOOLS, tools),
    };
}

// Apart, so that an execute closes over op and its index alone. Its
// arguments one by one (runs.mjs runInCore): a spread goes through the
// page's Array iterator of the moment.
/**
 * @param {any} op
 * @param {number} i
 */
function executeOf(op, i) {
    return (/** @type {any} */ text, /** @type {any} */ token, /** @type {any} */ signal, /** @type {any} */ onConsole, /** @type {any} */ given, /** @type {any} */ done, /** @type {any} */ onRefused) =>
        op(EXECUTE, i, text, token, signal, onConsole, given, done, onRefused);
}
