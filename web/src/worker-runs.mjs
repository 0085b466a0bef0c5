// Worker mode: the runs, on the page's side. A run's context, signal and
// onEvent stay here (the worker sees a run id); its events are emitted
// here, from what the worker reports, as the calling thread emits them
// (runs.mjs). A run is sent once the worker is ready, and kept in
// host.pending until it settles, so that a replaced worker gets the runs
// it had not started (worker-engine.mjs). A run holds the factory and the
// worker's ref while in flight (holdInFlight).

import { executeFace } from "./faces.mjs";
import { prototypeHazard } from "./fields.mjs";
import { jsonParse, jsonStringify, map, objectKeys, then } from "./intrinsics.mjs";
import { overwriteVerdict } from "./page-hooks.mjs";
import { abortReason, argsOnce, markSchema, normalizeRunOptions, toModelOutput, whenAborted } from "./run-options.mjs";
import { emit, finishRun, now, observed, settledAs, startRun } from "./runs.mjs";
import { cancelOnWorker, clearOverrun, holdInFlight } from "./worker-engine.mjs";

/** @typedef {import("./worker-engine.mjs").Host} Host */

/**
 * The system instruction as overwriteSystemInstruction makes it.
 * @param {Host} h
 * @param {string} raw
 */
export const applyOverwrite = (h, raw) => (h.overwrite ? overwriteVerdict(h.overwrite, raw) : raw);

/**
 * A session's LLM tools (executeCode and the rest the worker reported), as
 * the page gets them: each execute reaches the session through its box
 * (faces.mjs), a run of the live session's (runLlmTool).
 * @param {Host} h
 * @param {number} sid
 * @param {{ m: import("./faces.mjs").SessionMethods }} box the session's
 * @param {import("./lifetime.mjs").Lifetime} life the session's: the tools keep it
 */
export function llmTools(h, sid, box, life) {
    const s = h.sessions.get(sid);
    if (!s || !s.info) return [];
    const raw = s.info.instruction;
    // The load-time map (intrinsics.mjs): a page's map giving its array back
    // gave the worker's plain descriptions, without execute.
    return /** @type {any} */ (map(s.info.llmTools, (/** @type {any} */ t, /** @type {number} */ which) =>
        life.attach({
            name: t.name,
            description: t.description === raw ? applyOverwrite(h, raw) : t.description,
            // A fresh copy per call, with the load-time JSON: a page's stub
            // answering "[]" gave each tool the schema [].
            inputSchema: markSchema(jsonParse(jsonStringify(t.inputSchema))),
            execute: executeFace(box, t.name, which),
            toModelOutput,
        }),
    ));
}

/**
 * A run of a live session's LLM tool (its execute): settled once, by the
 * worker's answer, the run's signal, stopRuns (runs.mjs), or the worker's
 * failure, whichever comes first.
 * @param {Host} h
 * @param {number} sid
 * @param {any} owner
 * @param {() => string} deadReason why the session can no longer run, or ""
 * @param {import("./lifetime.mjs").Lifetime} life the session's: a run holds it
 * @param {string} name the tool's
 * @param {number} which its index in the worker's list
 * @param {any} args
 * @param {any} options
 * @returns {Promise<any>}
 */
export function runLlmTool(h, sid, owner, deadReason, life, name, which, args, options) {
    const isSearch = name === "searchTools";
    // Checked first: a toJSON there would change what argsOnce reads.
    const hazard = prototypeHazard();
    if (hazard) return Promise.reject(hazard);
    let opts;
    // JSON data (argsOnce), which postMessage always clones.
    args = argsOnce(args, isSearch);
    try {
        const why = deadReason();
        if (why) throw new Error(why);
        opts = normalizeRunOptions(options);
    } catch (err) {
        return Promise.reject(err);
    }
    const signal = opts.signal;
    if (signal && signal.aborted) return Promise.reject(abortReason(signal));
    const onEvent = opts.onEvent;
    // The keys the caller wrote, for the core's unknown-key check, by
    // the load-time Object.keys: one answering [] let a typo through.
    const given = options !== null && typeof options === "object" ? objectKeys(options) : undefined;
    const run = startRun(owner, opts.context, onEvent, h.factoryOnEvent);
    // A run nobody observes (no onEvent) makes no events, as in-thread.
    const watched = name === "executeCode" && observed(run, h.factoryOnEvent);
    const t0 = now();
    if (watched) emit(run, { type: "run-start", runId: run.id, code: args && args.code }, h.factoryOnEvent);
    const release = holdInFlight(h, life);
    return new Promise((resolve, reject) => {
        let unwatch = () => {};
        const settle = (/** @type {boolean} */ good, /** @type {any} */ v) => {
            const out = settledAs(good, v);
            h.pending.delete(run.id);
            unwatch();
            clearOverrun(h, run.id);
            release();
            finishRun(run, out.good, out.v, t0, watched, h.factoryOnEvent);
            (out.good ? resolve : reject)(out.v);
        };
        // The caller's signal or stopRuns (dispose): the worker is
        // told to stop the run, and the run settles now, unless the
        // worker's answer or its failure settled it first.
        const abort = (/** @type {any} */ reason) => {
            if (!h.pending.has(run.id)) return;
            // Before the delete: it reads whether the worker started it.
            cancelOnWorker(h, run.id);
            h.pending.delete(run.id);
            settle(false, reason);
        };
        // Aborted by an onEvent from run-start, after the check
        // above: 'abort' fires only once, so the run ends here,
        // before the worker hears of it (nothing to cancel there).
        if (signal && signal.aborted) return settle(false, abortReason(signal));
        // Disposed (factory or session) by an onEvent from run-start
        // (stopRuns), or the worker gone: the run ends here.
        if (run.stopped) return settle(false, run.stopped);
        const why = deadReason();
        if (why) return settle(false, new Error(why));
        h.pending.set(run.id, {
            run,
            sid,
            started: false,
            message: null,
            resolve: (v) => settle(true, v),
            reject: (e) => settle(false, e),
        });
        run.abortHook = abort;
        try {
            if (signal) unwatch = whenAborted(signal, () => abort(abortReason(signal)));
        } catch (err) {
            // A signal whose addEventListener throws: the run, started
            // (run-start) and never to be stopped by it, ends with that.
            return settle(false, err);
        }
        const go = () =>
            then(
                h.ready,
                () => {
                    const p = h.pending.get(run.id);
                    if (!p || !h.worker) return;
                    const message = { t: "run", rid: run.id, sid, which, args, given, visible: h.filter && h.visibleNames(), logs: watched };
                    h.worker.post(message);
                    p.message = message;
                },
                (err) => {
                    const p = h.pending.get(run.id);
                    if (p) p.reject(err);
                },
            );
        // After the registrations in flight (registering.mjs), failed or
        // not: the run sees every tool of a big registerTools call or a
        // source's listing.
        const wait = h.regs.wait();
        if (wait) then(wait, go, go);
        else go();
    });
}
