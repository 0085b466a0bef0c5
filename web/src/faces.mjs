// What the page is given of a factory and of its sessions, in both engine
// modes: objects whose methods (and each LLM tool's execute, each
// registration's unregister) reach the factory's or the session's state
// through one box, which dispose() empties, putting there the answers of a
// disposed factory or session. Kept after dispose, they hold the box and
// those answers alone: an executeCode a page kept held its whole factory
// (in-thread, the engine and the page's tools: 8 held 60 MB of WebAssembly
// memory; in a worker, the page's tools and every session's state). Module
// functions, so that a face's closures close over its box and nothing of
// the factory's scope.

import { prototypeHazard } from "./fields.mjs";
import { isArray, keptReflect, objectKeys } from "./intrinsics.mjs";
import { notFromHook } from "./page-hooks.mjs";
import { argsOnce } from "./run-options.mjs";
import { REGISTERING } from "./registering.mjs";

/**
 * @typedef {import("../index.d.ts").IoCodeMode.API} API
 * @typedef {import("../index.d.ts").IoCodeMode.Session} Session
 * @typedef {API & { unregister: (id: number) => void, registering: (step: (n: number) => boolean) => Promise<void> | undefined }} ApiMethods
 * @typedef {{
 *   getLlmTools: () => any, getSystemInstruction: () => string, dispose: () => void,
 *   execute: (name: string, which: number, args: unknown, options: unknown) => Promise<any>,
 * }} SessionMethods
 * @typedef {{ disposed: boolean }} FactoryState what a disposed session's answers read of its factory
 */

const FACTORY_DISPOSED = "Code Mode: this instance has been disposed; create a new one with IoCodeModeFactory().";
export const SESSION_DISPOSED = "Code Mode: this session has been disposed; create a new one with createSession().";
export const FACTORY_OF_SESSION_DISPOSED = "Code Mode: this session's factory has been disposed.";

export const instanceDisposed = () => new Error(FACTORY_DISPOSED);

/**
 * A tool list given as one definition, or as an object of definitions keyed
 * by name (the AI SDK's tools), is refused saying how to give the array:
 * "expected an array of tool definitions, got an object" named no way.
 * Own data properties only, read without a getter or a throw of the page's;
 * anything else is left to the core's check.
 * @param {unknown} list
 * @param {string} path
 */
export function refuseToolObject(list, path) {
    if (list === null || typeof list !== "object" || isArray(list)) return;
    /** @type {(o: object, k: string) => any} */
    const value = (o, k) => keptReflect.getOwnPropertyDescriptor(o, k)?.value;
    let how;
    try {
        const keys = objectKeys(list);
        let tools = keys.length > 0;
        for (let i = 0; i < keys.length; i++) {
            const t = value(list, keys[i]);
            tools &&= t !== null && typeof t === "object" && typeof value(t, "execute") === "function";
        }
        if (typeof value(list, "name") === "string") how = "a single definition goes in an array too: [definition]";
        else if (tools) how = "an object of tools keyed by name, as the AI SDK's, converts with Object.entries(tools).map(([name, tool]) => ({ name, ...tool }))";
    } catch {
        return; // a Proxy's trap threw: the core's words
    }
    if (how) throw new TypeError(`${path}: expected an array of tool definitions, got an object: ${how}`);
}

/**
 * The factory the page gets.
 * @param {{ m: ApiMethods }} box
 * @returns {API}
 */
export function apiFace(box) {
    const live = () => box.m !== deadApi;
    return /** @type {API} */ ({
        registerTool: (tool) => {
            if (isArray(tool) && live()) throw new TypeError("tool: expected one tool definition, got an array: registerTools(list) registers a list");
            return box.m.registerTool(tool);
        },
        registerTools: (tools) => (live() && refuseToolObject(tools, "tools"), box.m.registerTools(tools)),
        listTools: () => box.m.listTools(),
        ready: () => box.m.ready(),
        createSession: (options) => {
            if (live() && options !== null && typeof options === "object") {
                let tools;
                try {
                    tools = keptReflect.getOwnPropertyDescriptor(options, "tools")?.value;
                } catch {
                    // a Proxy's trap: the core reads it and says so
                }
                refuseToolObject(tools, "options.tools");
            }
            return box.m.createSession(options);
        },
        dispose: () => box.m.dispose(),
        // An adapter's source's registration in slices (registering.mjs).
        [REGISTERING]: (/** @type {(n: number) => boolean} */ step) => box.m.registering(step),
    });
}

/**
 * A registration's unregister function.
 * @param {{ m: ApiMethods }} box
 * @param {number} id
 */
export const unregisterFace = (box, id) => () => box.m.unregister(id);

/**
 * A disposed factory's answers, as its methods gave them.
 * @type {ApiMethods}
 */
export const deadApi = {
    registerTool() {
        throw instanceDisposed();
    },
    registerTools() {
        throw instanceDisposed();
    },
    listTools() {
        notFromHook("listTools()");
        throw instanceDisposed();
    },
    ready: () => Promise.reject(instanceDisposed()),
    createSession() {
        throw instanceDisposed();
    },
    dispose() {},
    unregister() {},
    registering() {
        throw instanceDisposed();
    },
};

/**
 * A session the page gets.
 * @param {{ m: SessionMethods }} box
 * @returns {Session}
 */
export function sessionFace(box) {
    return {
        getLlmTools: () => box.m.getLlmTools(),
        getSystemInstruction: () => box.m.getSystemInstruction(),
        dispose: () => box.m.dispose(),
    };
}

/**
 * An LLM tool's execute: the session's, with the tool's name and index.
 * @param {{ m: SessionMethods }} box
 * @param {string} name
 * @param {number} which
 * @returns {(args: any, options?: any) => Promise<any>}
 */
export const executeFace = (box, name, which) => (args, options) => box.m.execute(name, which, args, options);

/**
 * A disposed session's answers, as its methods and its LLM tools gave them:
 * its factory's disposal first, then its own.
 * @param {FactoryState} factory
 * @returns {SessionMethods}
 */
export function deadSession(factory) {
    const why = () => new Error(factory.disposed ? FACTORY_OF_SESSION_DISPOSED : SESSION_DISPOSED);
    return {
        getLlmTools() {
            throw why();
        },
        getSystemInstruction() {
            notFromHook("session.getSystemInstruction()");
            throw why();
        },
        dispose() {},
        execute(name, which, args) {
            // As a live tool checks before it sees the session disposed.
            const hazard = prototypeHazard();
            if (hazard) return Promise.reject(hazard);
            argsOnce(args, name === "searchTools");
            return Promise.reject(why());
        },
    };
}
