// Worker mode: the page's side of the message protocol. The worker reports
// (started, info, done, pong, log, refused, console) and asks (call: a tool's
// execute, onToolCall, search.embed); each question gets exactly one reply,
// whatever the page's code does, since the run in the worker waits for it.
// Page code runs here: a throw, a getter, a result postMessage cannot clone
// become an error reply, never an exception out of the handler (in Node an
// unhandled rejection ends the process). A call is answered only while its
// run lives, with the error the core gives in-thread otherwise.

import { describeError, report, thrownByTool } from "./env.mjs";
import { jsonParse, jsonStringify, KeptMap, keptReflect, newAbortController, objectKeys, then } from "./intrinsics.mjs";
import { callTool, consoleLine, inputRefused, now, refusedCall, runOf } from "./runs.mjs";
import { askInterceptor } from "./page-hooks.mjs";
import { cutThrown, inputRejected, settleValue, validationFailed } from "./call.mjs";
import { inputValidator, outputCheck } from "./worker-tools.mjs";
import { decisionToWire, errorFields, rebuildError } from "./worker-wire.mjs";
import { dropHeld, forget, ownTools, watchOverrun } from "./worker-engine.mjs";
import { keepHelperModules } from "./helper-modules.mjs";

/**
 * A message from the current worker (worker-engine.mjs start passes on
 * only those).
 * @param {import("./worker-engine.mjs").Host} h
 * @param {any} m
 * @param {(v?: any) => void} ok the worker has started
 * @param {(e: any) => void} fail the worker could not start
 */
export function onMessage(h, m, ok, fail) {
    // Any message is a sign of life for the overrun backstop (worker-engine.mjs).
    h.lastSign = now();
    switch (m.t) {
        case "alive": {
            // rid: the run whose program polls, held: for how long it has
            // held the thread (worker.mjs pollNow); -rid: run rid's script
            // still compiling (sandbox/run.go), which ends by itself and is
            // waited for as another run's work is; 0: the core's own work.
            h.holder.rid = m.rid;
            h.holder.held = m.held;
            h.holder.n++;
            break;
        }
        case "ready":
            ok();
            break;
        case "failed":
            fail(rebuildError(m.error));
            break;
        case "info":
            // By index here and below: the page's Array iterator may be broken.
            const sids = objectKeys(m.sessions);
            for (let i = 0; i < sids.length; i++) {
                const info = m.sessions[sids[i]];
                const s = h.sessions.get(Number(sids[i]));
                if (s && info) s.info = info;
            }
            break;
        case "registerFailed": {
            const reg = h.registrations.get(m.id);
            h.registrations.delete(m.id);
            if (reg) forget(h, reg);
            dropHeld(h, m.id);
            // What the worker took of it earlier (its tools posted once shown).
            h.worker && h.worker.post({ t: "unregister", id: m.id });
            report(`Code Mode: the engine refused tools registered earlier: ${m.error.message}`);
            break;
        }
        case "sessionFailed":
            report(`Code Mode: the engine refused a session's tools: ${m.error.message}`);
            break;
        case "pong": {
            const p = h.pings.get(m.id);
            h.pings.delete(m.id);
            if (h.staleAfter && m.id >= h.staleAfter) h.staleAfter = 0;
            if (p) p.resolve();
            break;
        }
        case "started": {
            const p = h.pending.get(m.rid);
            if (p) {
                p.started = true;
                p.startedAt = now();
                watchOverrun(h, m.rid);
            } else if (h.stopping.has(m.rid)) h.stopping.set(m.rid, now());
            break;
        }
        case "done": {
            h.stopping.delete(m.rid);
            const p = h.pending.get(m.rid);
            if (!p) break;
            h.pending.delete(m.rid);
            if (m.ok) p.resolve(m.value);
            else p.reject(rebuildError(m.error));
            break;
        }
        case "call":
            answer(h, m);
            break;
        case "log": {
            const run = runOf(m.rid);
            if (run) consoleLine(run, m.level, m.message, h.factoryOnEvent);
            break;
        }
        case "refused": {
            const run = runOf(m.rid);
            if (run && typeof m.text === "string") refusedCall(run, m.text, h.factoryOnEvent);
            break;
        }
        case "console":
            if (m.level === "warn" || m.level === "error") keptReflect.apply(console[/** @type {"warn" | "error"} */ (m.level)], console, m.args);
            break;
        case "compiled":
            keepHelperModules(m.modules);
            break;
        case "verdict": {
            const settle = h.verdicts.get(m.cid);
            h.verdicts.delete(m.cid);
            if (settle) settle(typeof m.why === "string" ? m.why : "");
            break;
        }
        case "cancelCall": {
            const c = h.pageCalls.get(m.cid);
            if (c) c.abort(m.reason ? rebuildError(m.reason) : Object.assign(new Error("the run ended before the tool finished"), { name: "AbortError" }));
            break;
        }
    }
}

/**
 * @param {import("./worker-engine.mjs").Host} h
 * @param {any} m a tool call or interceptor question from the worker
 */
export async function answer(h, m) {
    if (m.kind === "embed") {
        // Tool search's embeddings: the page's endpoint, no run involved.
        try {
            const vectors = await h.cfg.search.embed(m.texts);
            // Typed arrays become arrays; anything else goes as it is,
            // for the core's error (Array.from would split a string).
            const value = Array.isArray(vectors) ? vectors.map((v) => (ArrayBuffer.isView(v) ? Array.from(/** @type {any} */ (v)) : v)) : vectors;
            h.worker && h.worker.post({ t: "reply", cid: m.cid, ok: true, value });
        } catch (err) {
            h.worker && h.worker.post({ t: "reply", cid: m.cid, ok: false, error: { name: "Error", message: describeError(err) } });
        }
        return;
    }
    const run = runOf(m.rid);
    const p = h.pending.get(m.rid);
    const s = p ? h.sessions.get(p.sid) : undefined;
    const def = (s && ownTools(s).tools.get(m.name)) || h.tools.get(m.name);
    let replied = false;
    const reply = (/** @type {any} */ r) => {
        replied = true;
        try {
            h.worker && h.worker.post({ t: "reply", cid: m.cid, ...r });
        } catch (err) {
            const what = m.kind === "intercept" ? "onToolCall returned a value that is not JSON data" : "the tool returned a value that is not JSON data";
            h.worker && h.worker.post({ t: "reply", cid: m.cid, ok: false, error: { name: "Error", message: `${what}: ${describeError(err)}` } });
        }
    };
    try {
        if (!run || run.ended) throw Object.assign(new Error(run && run.endReason ? run.endReason : "the run has ended"), { name: "AbortError" });
        // Unregistered on the page after the worker's core began the
        // call: the error the core gives a call made after it took the
        // unregister (toolcall.go errUnregistered).
        if (!def) throw new Error(`tool ${JSON.stringify(m.name)} was unregistered during this run; use tool_search to find tools`);
        if (m.kind === "intercept") {
            let value;
            try {
                value = await askInterceptor(h.onToolCall, { tool: def, input: m.input, callContext: run.context }, m.name);
            } catch (err) {
                throw thrownByTool(err, "onToolCall");
            }
            if (run.ended) throw new Error(run.endReason);
            // A denial's tool-call event is the worker core's ("refused").
            // Not as postMessage would clone it (worker-wire.mjs).
            const decision = decisionToWire(value, h.cfg.memoryLimit);
            // What the page approved, the page runs: one call of the name
            // and the input approved for each approval (below), whatever
            // else reaches its channel. By name alone, an approval the
            // worker's core never used (the schema refused the input) ran
            // a call forged with another input.
            // Own keys only: a page's Object.prototype.input replaces nothing (page-prototype.test).
            const replaced = keptReflect.getOwnPropertyDescriptor(decision, "input");
            const key = decision.value && decision.value.allowed === true && ticket(m.name, replaced ? approvedInput(replaced.value) : m.input);
            if (key) {
                const approved = (run.approved ||= new KeptMap());
                approved.set(key, (approved.get(key) || 0) + 1);
            }
            reply({ ok: true, decision });
            return;
        }
        const key = ticket(m.name, m.input);
        const tickets = key && run.approved && run.approved.get(key);
        if (h.onToolCall && !tickets) throw new Error(`tool ${JSON.stringify(m.name)}: onToolCall did not approve this call`);
        if (tickets) /** @type {Map<string, number>} */ (run.approved).set(key, tickets - 1);
        const validate = inputValidator(def);
        /** @type {[unknown] | undefined} */
        let parsed;
        if (validate) {
            // As in-thread (call.mjs): the refusal is reported, then fails the
            // call; what the check made of the input is execute's.
            let verdict;
            const t0 = now();
            try {
                verdict = await validate(m.input);
            } catch (err) {
                const message = validationFailed(def.name, describeError(err));
                inputRefused(m.rid, def.name, m.input, message, t0);
                throw new Error(message);
            }
            if (!verdict.ok) {
                const message = inputRejected(def.name, String(verdict.message));
                inputRefused(m.rid, def.name, m.input, message, t0);
                throw new Error(message);
            }
            parsed = verdict.value;
        }
        const ctrl = newAbortController();
        h.pageCalls.set(m.cid, ctrl);
        const out = outputCheck(def);
        // execute's value as on the calling thread (call.mjs settleValue),
        // converted here by the rules of tojson.mjs, not by the structured
        // clone of postMessage: that would drop a class's toJSON and refuse
        // a method, a Symbol or a URL that the rules convert. With an
        // outputSchema, the answer goes before the call is reported: the
        // worker's core checks it, and the call's tool-result waits for
        // its verdict.
        const settle = (/** @type {unknown} */ v) => {
            // A large result is reported to the worker's core as it is
            // converted (call.mjs Answering): this thread is busy with it,
            // the worker is not, and its run may time out meanwhile.
            const c = settleValue(v, def.name, out && out.validate, m.limit, (bytes, final) => h.worker && h.worker.post({ t: "answering", cid: m.cid, bytes, final }));
            if (!out) return c;
            const send = (/** @type {import("./tojson.mjs").Converted} */ converted) => () => reply({ ok: true, json: converted.json, warnings: converted.warnings, verdict: true });
            return then(c, (converted) => then(awaitVerdict(h, run, m.cid, ctrl.signal, send(converted)), () => converted));
        };
        /** @type {any} */
        let value;
        try {
            value = await callTool(run, def, m.input, ctrl.signal, h.factoryOnEvent, settle, parsed);
        } finally {
            h.pageCalls.delete(m.cid);
        }
        if (!replied) reply({ ok: true, json: value.json, warnings: value.warnings });
    } catch (err) {
        // An answer already sent (its check failed) is not answered twice.
        // A long message is cut here, as the calling thread cuts it
        // (call.mjs cutThrown, wrap.mjs), not once it is in the worker's
        // heap. (By index: the page's Array iterator may be broken.)
        if (replied) return;
        const cut = cutThrown(err);
        reply({ ok: false, error: errorFields(cut[0]), dropped: cut[1] });
    }
}

/**
 * Sends a call's answer (send) and waits for the verdict of the worker's
 * core on its result: resolves when it passed, rejects with the core's
 * message when it did not, or with why the call ended first (the worker
 * cancelled it, the run ended).
 * @param {import("./worker-engine.mjs").Host} h
 * @param {any} run
 * @param {number} cid
 * @param {AbortSignal} signal the call's, aborted when the worker cancels it
 * @param {() => void} send
 * @returns {Promise<void>}
 */
function awaitVerdict(h, run, cid, signal, send) {
    return new Promise((resolve, reject) => {
        if (run.ended || signal.aborted) {
            reject(signal.aborted ? signal.reason : new Error(run.endReason || "the run has ended"));
            return;
        }
        const ended = { abort: (/** @type {unknown} */ reason) => finish(reason instanceof Error ? reason : new Error(String(reason))) };
        const onAbort = () => finish(signal.reason instanceof Error ? signal.reason : new Error("the run ended before the tool finished"));
        /** @param {string | Error} why */
        const finish = (why) => {
            h.verdicts.delete(cid);
            run.controllers.delete(ended);
            signal.removeEventListener("abort", onAbort);
            if (why === "") resolve();
            else reject(typeof why === "string" ? new Error(why) : why);
        };
        h.verdicts.set(cid, finish);
        run.controllers.add(ended);
        signal.addEventListener("abort", onAbort);
        send();
    });
}

/**
 * The key of an approval: the tool's name and the JSON text of the input
 * approved ("" for an input that has none: no call runs on it).
 * @param {string} name
 * @param {unknown} input
 */
function ticket(name, input) {
    try {
        const text = jsonStringify(input);
        return typeof text === "string" ? `${name}\u0000${text}` : "";
    } catch {
        return "";
    }
}

/**
 * A replacement input as the core gets it (decisionToWire's): the value of
 * its JSON text; one that is not JSON data (marked, thrown) the core
 * refuses, so it approves no call.
 * @param {any} w
 */
function approvedInput(w) {
    const own = (/** @type {string} */ k) => {
        const d = w && keptReflect.getOwnPropertyDescriptor(w, k);
        return d && d.value;
    };
    const text = own("text");
    if (own("thrown") !== undefined || own("marked") || typeof text !== "string") return undefined;
    try {
        return jsonParse(text);
    } catch {
        return undefined;
    }
}
