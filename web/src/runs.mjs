// The page side of every run, in both modes (in-thread and worker): the
// tools' execute, toolFilter, interceptors.onToolCall, each run's context
// and signal, onEvent. The engine (the Go core, in this thread or in a
// worker) never sees a page object of a run: its `context` is an opaque run
// token, which this module maps back to the run. A run that has ended, or
// whose owner was disposed, gets no tool or interceptor call any more.

import { CallSignal, asFailure } from "./call.mjs";
import { KeptMap, KeptSet, arrayOf, forEachEntry, now } from "./intrinsics.mjs";
import { describeError, errorName, report, thrownByTool } from "./env.mjs";
import { prototypeHazard } from "./fields.mjs";
import { adopt } from "./thenable.mjs";
import { Converted } from "./tojson.mjs";

/**
 * @typedef {import("../index.d.ts").IoCodeMode.ToolDefinition} ToolDefinition
 * @typedef {import("../index.d.ts").IoCodeMode.CodeModeEvent} CodeModeEvent
 * @typedef {{
 *   id: number, context: unknown, ended: boolean, endReason: string,
 *   controllers: Set<{ abort(reason: unknown): void }>, onEvent: ((e: CodeModeEvent) => void) | undefined,
 *   owner: Owner, nextCall: number, abortHook?: (err: Error) => void, stopped?: Error,
 *   logged: number, inflight: Map<number, { name: string, t0: number }>,
 *   factoryOnEvent: ((e: CodeModeEvent) => void) | undefined, approved?: Map<string, number>,
 * }} Run
 * @typedef {{ runs: Set<Run>, disposed: string, parent?: Owner }} Owner
 */

let nextRunId = 1;

/**
 * @param {Owner} [parent]
 * @returns {Owner}
 */
export function newOwner(parent) {
    return { runs: new KeptSet(), disposed: "", parent };
}

/**
 * Runs by token: the token is what the engine carries as the run's context.
 * @type {Map<number, Run>}
 */
const runsByToken = new KeptMap();

/**
 * @param {Owner} owner
 * @param {unknown} context
 * @param {((e: CodeModeEvent) => void) | undefined} onEvent the run's own
 * @param {((e: CodeModeEvent) => void) | undefined} factoryOnEvent the factory's (inputRefused)
 * @returns {Run}
 */
export function startRun(owner, context, onEvent, factoryOnEvent) {
    /** @type {Run} */
    const run = { id: nextRunId++, context, ended: false, endReason: "", controllers: new KeptSet(), onEvent, owner, nextCall: 1, logged: 0, inflight: new KeptMap(), factoryOnEvent };
    runsByToken.set(run.id, run);
    owner.runs.add(run);
    if (owner.parent) owner.parent.runs.add(run);
    return run;
}

/**
 * Ends a run: its tool calls' signals abort (with `value` when given: the
 * caller's own abort reason) and nothing of it is called again.
 * @param {Run} run
 * @param {string} reason
 * @param {unknown} [value]
 */
export function endRun(run, reason, value) {
    if (run.ended) return;
    run.ended = true;
    run.endReason = reason;
    runsByToken.delete(run.id);
    run.owner.runs.delete(run);
    if (run.owner.parent) run.owner.parent.runs.delete(run);
    for (const c of run.controllers) {
        let err = value;
        if (err === undefined) {
            err = new Error(reason);
            /** @type {Error} */ (err).name = "AbortError";
        }
        try {
            c.abort(err);
        } catch {
            // a listener's throw must not stop the others
        }
    }
    run.controllers.clear();
}

/**
 * Ends every run of an owner: execute rejects with `message`, the engine
 * stops it, tool signals abort, nothing of it is called again.
 * @param {Owner} owner
 * @param {string} message
 */
export function stopRuns(owner, message) {
    // A copy first (abortHook removes the run from the set); by index, as
    // every array of a run's path: the page's Array iterator may be broken.
    const runs = arrayOf(owner.runs);
    for (let i = 0; i < runs.length; i++) {
        const run = runs[i];
        const err = new Error(message);
        err.name = "AbortError";
        if (typeof run.abortHook === "function") run.abortHook(err);
        // Its run-start is being reported (an onEvent that disposes):
        // execute ends it with these words once it is set up, as the hook
        // would a moment later, not with those of a call after dispose.
        else run.stopped = err;
    }
}

/** @param {unknown} token */
export function runOf(token) {
    return typeof token === "number" ? runsByToken.get(token) : undefined;
}

/**
 * @param {Run} run
 * @param {CodeModeEvent} event
 * @param {((e: CodeModeEvent) => void) | undefined} factoryOnEvent
 */
export function emit(run, event, factoryOnEvent) {
    tell(factoryOnEvent, event);
    tell(run.onEvent, event);
}

/**
 * @param {((e: CodeModeEvent) => void) | undefined} fn
 * @param {CodeModeEvent} event
 */
function tell(fn, event) {
    if (typeof fn !== "function") return;
    try {
        const r = /** @type {unknown} */ (fn(event));
        // An async observer's rejection, likewise: left unhandled, it
        // ended a Node process (the default for unhandled rejections).
        if (r !== null && typeof r === "object" && typeof (/** @type {any} */ (r).then) === "function") {
            /** @type {PromiseLike<unknown>} */ (r).then(undefined, (err) => report("Code Mode: onEvent rejected:", err));
        }
    } catch (err) {
        // An observer's bug must not change the run.
        report("Code Mode: onEvent threw:", err);
    }
}

// Taken at load, as a page may replace the global.
const clone = globalThis.structuredClone;
const { parse, stringify } = JSON;

/**
 * What an event shows of the run's own data (a tool-call's input, a
 * run-end's error): a copy, so that an observer that redacts the event for
 * its log (e.input.card = "***") does not change what the tool gets or what
 * execute resolves with, as it did (the event held the same object). Both
 * are JSON data, so the copy is exact.
 * @param {unknown} data
 */
function eventCopy(data) {
    try {
        return clone(data);
    } catch {
        return undefined;
    }
}

/**
 * What a tool-result event shows of the tool's value: what the program
 * got, the value as the engine converted it (its JSON, parsed: a copy of
 * its own), else a copy of the value. It was the tool's own object: an
 * observer that redacted it for its log edited what the tool returned (a
 * cache's entry, say), as the tool-call's input and the run-end's error
 * did before they were copies.
 * @param {unknown} value what execute returned
 * @param {unknown} out what the engine's settle step made of it
 */
function resultCopy(value, out) {
    if (out instanceof Converted) return out.json === undefined ? undefined : parse(out.json);
    return eventCopy(value);
}

/**
 * Whether a run has an observer: only then does the engine report console
 * lines as they are logged.
 * @param {Run} run
 * @param {((e: CodeModeEvent) => void) | undefined} factoryOnEvent
 */
export function observed(run, factoryOnEvent) {
    return typeof factoryOnEvent === "function" || typeof run.onEvent === "function";
}

/**
 * A console line of a run, as the engine reports it while the run goes on.
 * @param {Run} run
 * @param {string} level
 * @param {string} message
 * @param {((e: CodeModeEvent) => void) | undefined} factoryOnEvent
 */
export function consoleLine(run, level, message, factoryOnEvent) {
    if (run.ended) return;
    run.logged++;
    emit(run, { type: "console", runId: run.id, level: /** @type {any} */ (level), message }, factoryOnEvent);
}

/**
 * A call the engine ended before its tool started (an unknown or hidden
 * name, which read the same; onToolCall's denial or failure; an input its
 * schema refused; maxToolCalls passed), as the engine reports it while the
 * run goes on (wasm/session.go refusedJSON): a tool-call with the decision
 * { allowed: false, reason }, the reason its toolCalls record gives; or,
 * for an input the schema refused after the interceptor allowed it, a
 * tool-call allowed and its tool-result, ok: false with the error the
 * program gets. Its input is parsed from the engine's text: the event's own.
 * @param {Run} run
 * @param {string} text
 * @param {((e: CodeModeEvent) => void) | undefined} factoryOnEvent
 */
export function refusedCall(run, text, factoryOnEvent) {
    if (run.ended) return;
    let c;
    try {
        c = parse(text);
    } catch {
        return;
    }
    const callId = run.nextCall++;
    const call = { type: /** @type {const} */ ("tool-call"), runId: run.id, callId, name: c.name, input: c.input };
    if (!c.allowed) {
        emit(run, { ...call, decision: { allowed: false, reason: c.reason } }, factoryOnEvent);
        return;
    }
    emit(run, { ...call, decision: { allowed: true } }, factoryOnEvent);
    if (!run.ended) emit(run, { type: "tool-result", runId: run.id, callId, name: c.name, ok: false, durationMs: Math.round(c.durationMs), error: c.error }, factoryOnEvent);
}

/**
 * A call whose input its schema library's own check (a Zod refinement,
 * which runs on the page, in both modes) refused: reported as the core
 * reports an input its JSON Schema refused (refusedCall), a tool-call
 * allowed and its tool-result with the error the program gets. Its
 * durationMs is the check's, from t0 (it said 0, as if the check took no
 * time, where the core's refusal says how long its took).
 * @param {unknown} token the run's, as the engine carries it
 * @param {string} name
 * @param {unknown} input what was checked (the event shows a copy)
 * @param {string} error
 * @param {number} t0 when the check started (now())
 */
export function inputRefused(token, name, input, error, t0) {
    const run = runOf(token);
    if (!run || run.ended || !observed(run, run.factoryOnEvent)) return;
    const callId = run.nextCall++;
    emit(run, { type: "tool-call", runId: run.id, callId, name, input: eventCopy(input), decision: { allowed: true } }, run.factoryOnEvent);
    if (!run.ended) emit(run, { type: "tool-result", runId: run.id, callId, name, ok: false, durationMs: Math.round(now() - t0), error: asFailure(error) }, run.factoryOnEvent);
}

/**
 * At the end of a run, the result's log entries that were not reported as
 * they were logged (warnings the engine adds at the end).
 * @param {Run} run
 * @param {any} result
 * @param {((e: CodeModeEvent) => void) | undefined} factoryOnEvent
 */
export function finishLogs(run, result, factoryOnEvent) {
    if (!result || !Array.isArray(result.logs)) return;
    const logs = result.logs;
    for (let i = run.logged; i < logs.length; i++) {
        const l = logs[i];
        emit(run, { type: "console", runId: run.id, level: l.level, message: l.message }, factoryOnEvent);
    }
}

/** @param {Run} run */
function endedError(run) {
    const err = new Error(run.endReason || "the run has ended");
    err.name = "AbortError";
    return err;
}

/**
 * The interceptor step of one call, on the page: the decision of the
 * caller's onToolCall (with the run's own context), as the engine expects
 * it. A run that has ended gets no call.
 * @param {any} onToolCall
 * @param {Run | undefined} run
 * @param {ToolDefinition | undefined} tool
 * @param {unknown} input
 */
export async function intercept(onToolCall, run, tool, input) {
    if (!run || run.ended) throw run ? endedError(run) : new Error("the run has ended");
    return onToolCall({ tool, input, callContext: run.context });
}

/**
 * Calls a page tool for a run: execute(input, {context, signal}), with a
 * signal that aborts when the run ends or the engine gives up the call.
 * @param {Run | undefined} run
 * @param {ToolDefinition} tool
 * @param {unknown} input
 * @param {AbortSignal | CallSignal | undefined} engine the engine's signal of the call, or its CallSignal (call.mjs)
 * @param {((e: CodeModeEvent) => void) | undefined} factoryOnEvent
 * @param {((value: unknown) => unknown) | undefined} [settle] the engine's steps on execute's value
 *   (call.mjs SETTLE: the output schema's checks, the conversion), run before the call is
 *   reported: a value they refuse fails the call, and its tool-result says why. callTool
 *   then returns what settle returns.
 * @param {[unknown]} [parsed] what the input schema's library made of the input (call.mjs
 *   PARSED), which execute gets; the tool-call event shows the input as the model wrote it
 */
export async function callTool(run, tool, input, engine, factoryOnEvent, settle, parsed) {
    if (!run || run.ended) throw run ? endedError(run) : new Error("the run has ended");
    // The engine's own signal of the call (call.mjs) serves when this
    // thread made it: the engine and the run's end both abort it. Either
    // way the tool's signal is made only if the tool reads it.
    const own = engine instanceof CallSignal ? engine : undefined;
    const engineSignal = own ? undefined : /** @type {AbortSignal | undefined} */ (engine);
    const cs = own || new CallSignal();
    const onEngineAbort = () => cs.abort(engineSignal && engineSignal.reason);
    if (engineSignal) {
        if (engineSignal.aborted) onEngineAbort();
        else engineSignal.addEventListener("abort", onEngineAbort, { once: true });
    }
    run.controllers.add(cs);
    const callId = run.nextCall++;
    const t0 = now();
    run.inflight.set(callId, { name: tool.name, t0 });
    if (observed(run, factoryOnEvent)) {
        emit(run, { type: "tool-call", runId: run.id, callId, name: tool.name, input: eventCopy(input), decision: { allowed: true } }, factoryOnEvent);
    }
    let ok = false;
    let error;
    let value;
    /** @type {unknown} */
    let out;
    try {
        // An observer of tool-call may end the run (dispose the factory or
        // the session, abort it): the tool is then not called at all.
        if (run.ended) throw endedError(run);
        value = (
            await adopt(
                tool.execute(parsed ? parsed[0] : input, {
                    context: run.context,
                    get signal() {
                        return cs.signal;
                    },
                }),
                "the tool's value",
            )
        ).value;
        // Aborted meanwhile (its run ended): nobody takes the value, so
        // none of the tool's code in it (a toJSON, a getter) runs after
        // the run, and a large one costs no conversion.
        if (cs.aborted) throw cs.reason;
        out = value;
        if (settle) {
            out = settle(value);
            if (out instanceof Promise) out = await out;
        }
        ok = true;
        return out;
    } catch (thrown) {
        // Aborted meanwhile, as for a value: nobody takes the error, so
        // none of the tool's code in it (its message's getter, a toJSON)
        // runs after the run.
        const err = cs.aborted ? cs.reason : thrownByTool(thrown);
        error = describeError(err);
        throw err;
    } finally {
        run.controllers.delete(cs);
        if (engineSignal) engineSignal.removeEventListener("abort", onEngineAbort);
        // A call the run's end closed already (closeCalls) has had its
        // event; a run nobody observes makes no copy.
        if (run.inflight.delete(callId) && observed(run, factoryOnEvent)) {
            /** @type {any} */
            const end = { type: "tool-result", runId: run.id, callId, name: tool.name, ok, durationMs: Math.round(now() - t0) };
            if (ok) end.result = resultCopy(value, out);
            // As the program and the call's toolCalls record get it.
            else end.error = asFailure(/** @type {string} */ (error));
            emit(run, end, factoryOnEvent);
        }
    }
}

/**
 * Why a run ended, as its closed tool calls' tool-result events say it:
 * "it returned" when the program finished, its error's code when the run
 * ended with one (TIMEOUT, MEMORY_LIMIT, RUNTIME, ...), as the toolCalls
 * records say "not finished: the run ended (TIMEOUT)", or what the run
 * rejected with (an abort's reason, a disposal).
 * @param {boolean} settled whether execute resolved (v: its result) or rejected (v: the reason)
 * @param {any} v
 */
export function endedWhy(settled, v) {
    if (!settled) return describeError(v);
    return v && v.ok === false && v.error && typeof v.error.code === "string" ? v.error.code : "it returned";
}

/**
 * When a run ends with tool calls still in flight (their signals abort),
 * each gets its tool-result now, before run-end: every tool-call event of
 * a run is answered before the run's last event.
 * @param {Run} run
 * @param {string} why
 * @param {((e: CodeModeEvent) => void) | undefined} factoryOnEvent
 */
export function closeCalls(run, why, factoryOnEvent) {
    forEachEntry(run.inflight, (c, callId) => {
        emit(run, { type: "tool-result", runId: run.id, callId, name: c.name, ok: false, durationMs: Math.round(now() - c.t0), error: asFailure(`the run ended before the tool finished (${why})`) }, factoryOnEvent);
    });
    run.inflight.clear();
}

/** @param {unknown} s a string is cut as a tool's error, anything else stays @returns {any} */
const eventText = (s) => (typeof s === "string" ? asFailure(s) : s);

/**
 * Ends a run of an LLM tool once it settled, in either engine mode: when
 * watched (executeCode with an observer), the result's log lines not yet
 * reported, a tool-result for each call still in flight, then run-end; then
 * the run itself (endRun), its tools' signals aborting with the reason the
 * run rejected with. A run ended already (stopRuns without a hook) makes no
 * event.
 * @param {Run} run
 * @param {boolean} settled whether execute resolved (v: its result) or rejected (v: the reason)
 * @param {any} v
 * @param {number} t0 when the run started (now())
 * @param {boolean} watched
 * @param {((e: CodeModeEvent) => void) | undefined} factoryOnEvent
 */
export function finishRun(run, settled, v, t0, watched, factoryOnEvent) {
    if (watched && !run.ended) {
        if (settled) finishLogs(run, v, factoryOnEvent);
        closeCalls(run, endedWhy(settled, v), factoryOnEvent);
        /** @type {any} */
        const end = { type: "run-end", runId: run.id, ok: settled ? !!(v && v.ok) : false, durationMs: Math.round(now() - t0) };
        // A copy: an observer that redacts the error for its log
        // (e.error.message = ...) changed what execute resolved with.
        if (settled && v && !v.ok) end.error = eventCopy(v.error);
        // The page's own abort reason, cut as a tool's error is (execute
        // rejects with it whole): a reason of a million characters was
        // handed to every observer whole.
        if (!settled) end.error = { name: eventText(errorName(v)), message: eventText(describeError(v)) };
        emit(run, end, factoryOnEvent);
    }
    endRun(run, settled ? "the run has ended" : describeError(v), settled ? undefined : v);
}

/**
 * How an LLM tool's execute settles, in either engine mode, once the run
 * gave good (resolve) or not (reject) and v: a value resolves execute only
 * while no shared prototype holds a then (or toJSON: fields.mjs). A page
 * that set Object.prototype.then during the run made the result a
 * thenable, which the promise followed: the then's answer became the run's
 * result, a then that never called back left execute pending, one that
 * resolved with itself spun the page's microtasks for ever (the page froze).
 * Such a run rejects with the error that says why.
 * @param {boolean} good
 * @param {any} v
 * @returns {{ good: boolean, v: any }} an object, not a pair: destructuring
 *   one iterates it with the page's Array iterator, which may be broken
 */
export function settledAs(good, v) {
    const hazard = good ? prototypeHazard() : undefined;
    return hazard ? { good: false, v: hazard } : { good, v };
}

/**
 * Runs one LLM tool call (executeCode, searchTools) in the Go core. The
 * core's execute takes (argsJSON, token, signal, onConsole, given, done,
 * onRefused) and answers once through done: (true, the result's JSON text) or (false, the
 * error). Arguments with no JSON form (a cycle, a BigInt, a throwing getter)
 * go as "{", which the tool answers with INVALID_INPUT.
 * @param {Function} goExecute the core's execute
 * @param {unknown} args
 * @param {unknown} token the run's context as the engine carries it
 * @param {AbortSignal | undefined} signal
 * @param {((level: string, message: string) => void) | undefined} onConsole
 * @param {unknown} given the options as the caller wrote them, for the core's unknown-key check
 * @param {((text: string) => void) | undefined} [onRefused] the calls the run refuses, as they are (refusedCall)
 * @returns {Promise<{ value: any }>} the result in a box without a prototype, which no polluted then adopts (settledAs)
 */
export function runInCore(goExecute, args, token, signal, onConsole, given, onRefused) {
    let text;
    try {
        text = stringify(args);
    } catch {
        text = "{";
    }
    return new Promise((resolve, reject) => {
        goExecute(text, token, signal, onConsole, given, (/** @type {boolean} */ ok, /** @type {any} */ v) => {
            if (!ok) reject(v);
            else resolve(Object.assign(Object.create(null), { value: typeof v === "string" ? parse(v) : undefined }));
        }, onRefused);
    });
}

// Durations on the clock the page had at load (fake timers come later).
export { now };
