// The page's end of the worker's channel, for the hostile suites that
// forge, replay or read its messages (hostile45, hostile46).
import { MessagePort, Worker } from "node:worker_threads";
import { assetPath, withFactory } from "./helpers.mjs";

// The page's end of the worker's channel: the listeners the factory adds
// while it is made (wrapped to record what they receive) and the ports it
// posts on. Only the factory made inside spyOn's call is spied on.
export async function spyOn(t, config) {
    const listeners = [];
    const inbox = [];
    const ports = new Set();
    const saved = [];
    let depth = 0;
    for (const P of [Worker.prototype, MessagePort.prototype]) {
        for (const k of ["on", "addListener", "addEventListener"]) {
            const orig = P[k];
            if (typeof orig !== "function") continue;
            saved.push([P, k, orig]);
            P[k] = function (ev, fn, ...rest) {
                if (ev !== "message" || typeof fn !== "function" || depth) return orig.call(this, ev, fn, ...rest);
                const byEvent = k === "addEventListener";
                const target = this;
                listeners.push({ fn, target, byEvent });
                const wrapped = function (arg) {
                    inbox.push(byEvent ? arg?.data : arg);
                    return fn.apply(this, arguments);
                };
                depth++;
                try { return orig.call(this, ev, wrapped, ...rest); } finally { depth--; }
            };
        }
        const post = P.postMessage;
        saved.push([P, "postMessage", post]);
        P.postMessage = function (...a) { ports.add(this); return post.apply(this, a); };
    }
    let api;
    try {
        api = await withFactory(t, { wasmLocation: assetPath, ...config, worker: true });
        await api.ready();
    } finally {
        for (const [P, k, orig] of saved) P[k] = orig;
    }
    // Hands data to the page's listeners as if the worker had posted it.
    const deliver = (data) => {
        for (const { fn, target, byEvent } of listeners) {
            try { fn.call(target, byEvent ? { data, type: "message", target } : data); } catch { /* a listener may refuse it */ }
        }
    };
    return { api, inbox, deliver, ports: [...ports], listeners };
}
