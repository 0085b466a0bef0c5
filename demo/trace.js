// The trace of a run: each tool call (input, decision, duration, result),
// the console logs and the final result or error, drawn live while the run
// goes on.
//
// It follows the run's events (execute's onEvent option): each tool call's
// start and end and each console line as they happen, so a slow run shows
// its calls while it waits on them, even when the engine runs in a worker.
// The interceptor (onToolCall) adds what only it knows: a call waiting for
// a person, and who decided. Calls the engine refused before their tool
// (unknown tools, inputs the schema rejected) have their events too; when
// the run ends, the result's toolCalls (the engine's own account) complete
// each call's record.

import { el } from "./desk.js";

const json = (v) => {
    if (v === undefined) return "undefined";
    try {
        return JSON.stringify(v, null, 2);
    } catch {
        return String(v);
    }
};
const compact = (v) => {
    try {
        return JSON.stringify(v) ?? "undefined";
    } catch {
        return String(v);
    }
};
const same = (a, b) => compact(a) === compact(b);
const ms = (n) => (n === undefined || n === null ? "" : n < 10 ? `${n.toFixed(1)} ms` : n < 10000 ? `${Math.round(n)} ms` : `${(n / 1000).toFixed(1)} s`);

export class RunTrace {
    constructor(id, title, onChange) {
        this.id = id;
        this.title = title;
        this.calls = [];
        this.logs = [];
        this.state = "running"; // running | ok | error | cancelled | crashed
        this.result = undefined;
        this.error = undefined;
        this.durationMs = undefined;
        this.started = performance.now();
        this.onChange = onChange;
    }

    changed() {
        this.onChange?.(this);
    }

    // From onToolCall: the model asked for a call. source says where the
    // tool comes from ("page", or an adapter's annotations.source).
    asked(name, input, context, source) {
        const call = { name, input, context, source, state: "deciding", decision: null, t0: performance.now() };
        this.calls.push(call);
        this.changed();
        return call;
    }

    decided(call, decision) {
        call.decision = decision;
        call.state = decision.allowed ? "allowed" : "denied";
        this.changed();
    }

    // One of the run's events (onEvent).
    event(e) {
        if (e.type === "tool-call") this.callStarted(e);
        else if (e.type === "tool-result") this.callEnded(e);
        else if (e.type === "console") {
            this.logs.push({ level: e.level, message: e.message });
            this.changed();
        }
    }

    // A call starts (allowed: it runs with e.input, after any edit in the
    // approval dialog) or was denied: the call the interceptor added, or a
    // new one; a denial no interceptor call matches is the engine's (an
    // unknown tool, the call limit): blocked.
    callStarted(e) {
        const allowed = e.decision.allowed;
        const free = this.calls.filter((c) => c.name === e.name && c.callId === undefined && (allowed ? c.decision?.allowed : c.decision && !c.decision.allowed));
        let call = free.find((c) => same(c.decision.input ?? c.input, e.input)) ?? free[0];
        if (!call) {
            call = { name: e.name, input: e.input, decision: allowed ? null : e.decision, state: allowed ? "allowed" : "blocked", t0: performance.now() };
            this.calls.push(call);
        }
        call.callId = e.callId;
        if (allowed) {
            call.ranInput = e.input;
            call.state = "running";
        }
        this.changed();
    }

    callEnded(e) {
        const call = this.calls.find((c) => c.callId === e.callId);
        if (!call) return;
        call.toolMs = e.durationMs;
        if (e.ok) {
            call.state = "done";
            call.result = e.result;
        } else {
            call.state = "failed";
            call.toolError = e.error;
        }
        this.changed();
    }

    // The run ended: merge the engine's account of the calls.
    finish(res) {
        this.durationMs = res.durationMs;
        // The same lines as the events, and the engine's end-of-run warnings.
        this.logs = res.logs ?? this.logs;
        const used = new Set();
        for (const tc of res.toolCalls ?? []) {
            let call = this.calls.find((c) => !used.has(c) && c.name === tc.name);
            if (!call) {
                call = { name: tc.name, input: undefined, decision: null, state: "blocked" };
                this.calls.push(call);
            }
            used.add(call);
            call.engine = tc;
            if (!tc.allowed && call.state !== "denied") call.state = "blocked";
            if (tc.allowed && !tc.ok && call.state === "allowed") call.state = "rejected"; // allowed, but never ran (schema)
        }
        if (res.ok) {
            this.state = "ok";
            this.result = res.result;
        } else {
            this.state = "error";
            this.error = res.error;
        }
        this.changed();
    }

    cancelled(err) {
        this.state = "cancelled";
        this.error = { name: err?.name ?? "AbortError", message: err?.message ?? String(err) };
        this.durationMs = performance.now() - this.started;
        this.changed();
    }

    crashed(err) {
        this.state = "crashed";
        this.error = { name: err?.name ?? "Error", message: err?.message ?? String(err) };
        this.durationMs = performance.now() - this.started;
        this.changed();
    }
}

function decisionChip(call) {
    const d = call.decision;
    const tc = call.engine;
    if (call.state === "blocked") return el("span", { class: "chip chip-bad" }, tc?.reason ? "blocked" : "not allowed");
    if (!d) return call.state === "deciding" ? el("span", { class: "chip chip-wait" }, "deciding…") : null;
    if (d.pending) return el("span", { class: "chip chip-wait" }, "awaiting approval…");
    if (!d.allowed) return el("span", { class: "chip chip-bad" }, d.by === "person" ? "denied by you" : "denied");
    if (d.by === "person") return el("span", { class: "chip chip-ok" }, d.edited ? "approved with edits" : "approved by you");
    return el("span", { class: "chip chip-neutral" }, "allowed by policy");
}

function stateIcon(call) {
    switch (call.state) {
        case "done":
            return el("span", { class: "icon ok", title: "returned" }, "✓");
        case "running":
        case "deciding":
        case "allowed":
            return el("span", { class: "icon spin", title: "in progress" }, "");
        default:
            return el("span", { class: "icon bad", title: call.state }, "✕");
    }
}

function renderCall(call, i, openSet) {
    const dur = call.engine?.durationMs ?? call.toolMs;
    const who = call.context?.userId;
    const head = el(
        "div",
        { class: "call-head" },
        stateIcon(call),
        el("code", { class: "call-name" }, call.name),
        call.source ? el("span", { class: `chip chip-source source-${call.source === "page" ? "page" : "adapter"}`, title: "where the tool comes from" }, call.source) : null,
        decisionChip(call),
        el("span", { class: "call-meta" }, [dur !== undefined ? ms(dur) : "", who ? `context.userId: ${who}` : ""].filter(Boolean).join(" · ")),
    );
    const rows = [];
    if (call.input !== undefined) rows.push(["input", compact(call.input)]);
    if (call.ranInput !== undefined && !same(call.ranInput, call.input)) rows.push(["ran with", compact(call.ranInput), "edited"]);
    if (call.decision?.allowed === false) rows.push(["reason", call.decision.reason, "bad"]);
    else if (call.state === "blocked" && call.engine?.reason) rows.push(["reason", call.engine.reason, "bad"]);
    else if (call.state === "rejected") rows.push(["reason", call.engine?.reason ?? "rejected before running (see the error below)", "bad"]);
    if (call.toolError) rows.push(["error", call.toolError, "bad"]);
    const body = el(
        "dl",
        { class: "call-body" },
        rows.map(([k, v, cls]) => [el("dt", {}, k), el("dd", { class: cls }, v)]),
    );
    const li = el("li", { class: `call state-${call.state}`, dataset: { name: call.name, state: call.state, source: call.source ?? "" } }, head, body);
    if (call.state === "done") {
        const text = json(call.result);
        const det = el("details", { class: "call-result" }, el("summary", {}, `result · ${text.length > 60 ? text.replace(/\s+/g, " ").slice(0, 60) + "…" : text.replace(/\s+/g, " ")}`), el("pre", {}, text));
        if (openSet.has(i)) det.open = true;
        det.addEventListener("toggle", () => (det.open ? openSet.add(i) : openSet.delete(i)));
        li.append(det);
    }
    return li;
}

// Draws a RunTrace into root.
export function renderTrace(root, run, openSet) {
    const status = {
        running: ["Running…", "wait"],
        ok: ["Finished", "ok"],
        error: [run.error?.code ?? "Error", "bad"],
        cancelled: ["Cancelled", "warn"],
        crashed: ["Failed", "bad"],
    }[run.state];
    const children = [
        el(
            "div",
            { class: "trace-head" },
            el("h3", {}, `Run ${run.id}`, el("span", { class: "trace-title" }, run.title)),
            el("span", { class: `chip chip-${status[1]}`, id: "run-status", dataset: { state: run.state } }, status[0]),
            el("span", { class: "call-meta" }, run.durationMs !== undefined ? ms(run.durationMs) : ""),
        ),
    ];

    children.push(el("h4", {}, `Tool calls (${run.calls.length})`));
    children.push(
        run.calls.length
            ? el("ol", { class: "calls", id: "trace-calls" }, run.calls.map((c, i) => renderCall(c, i, openSet)))
            : el("p", { class: "muted small" }, run.state === "running" ? "Waiting for the first call…" : "No tool calls."),
    );

    if (run.state !== "running" || run.logs.length) {
        children.push(el("h4", {}, `Console (${run.logs.length})`));
        children.push(
            run.logs.length
                ? el("ol", { class: "logs", id: "trace-logs" }, run.logs.map((l) => el("li", { class: `log log-${l.level}` }, el("span", { class: "level" }, l.level), el("span", { class: "msg" }, l.message))))
                : el("p", { class: "muted small" }, "No output."),
        );
    }

    if (run.state === "ok") {
        children.push(el("h4", {}, "Result"));
        children.push(el("pre", { class: "result", id: "trace-result" }, json(run.result)));
    } else if (run.state !== "running") {
        const e = run.error ?? {};
        const where = e.line ? `line ${e.line}${e.column ? `, column ${e.column}` : ""}` : "";
        children.push(el("h4", {}, run.state === "cancelled" ? "Cancelled" : "Error"));
        children.push(
            el(
                "div",
                { class: `error-box ${run.state === "cancelled" ? "warn" : ""}`, id: "trace-error", role: "alert" },
                el(
                    "div",
                    { class: "error-title" },
                    e.code ? el("span", { class: "chip chip-bad", id: "error-code" }, e.code) : null,
                    el("strong", { id: "error-name" }, e.name ?? "Error"),
                    where ? el("span", { class: "error-where", id: "error-where" }, where) : null,
                ),
                el("div", { class: "error-message", id: "error-message" }, e.message ?? ""),
                e.stack ? el("details", {}, el("summary", {}, "stack"), el("pre", {}, e.stack)) : null,
            ),
        );
    }
    root.replaceChildren(...children);
}
