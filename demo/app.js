// The demo page: an order desk (the host application) with a copilot that
// works through Code Mode. This file wires the pieces together:
//   - the sandbox: IoCodeModeFactory with the page's policies (toolFilter
//     hides admin.*, onToolCall asks the person about payments.*), the
//     page's tools, one session;
//   - the copilot panel: editor, Run / Cancel, trace, settings;
//   - the optional agent loop against the person's own model;
//   - the courier widget's tools, which it offers through WebMCP and the
//     copilot consumes with @interopio/code-mode/webmcp (the trace names
//     where each tool comes from).

import { programs } from "./programs.js";
import { tools as pageTools } from "./tools.js";
import { resetData } from "./data.js";
import { mountDesk, el } from "./desk.js";
import { CodeEditor } from "./editor.js";
import { RunTrace, renderTrace } from "./trace.js";
import { ApprovalDesk } from "./approval.js";
import { runAgent } from "./agent.js";
import { mountCourierWidget } from "./widget.js";

const USER_ID = "agent-7";
// The timeout counts the time a person takes to approve a payment, so it
// leaves room for that (on the page's thread, ?worker=0, a CPU-bound
// program holds the page for as long).
const DEFAULTS = { timeout: 15000, memoryLimit: 64 };
// Where the engine runs: in a Worker (the default on a page), or with
// ?worker=0 on the page's own thread, to compare the two.
const WORKER = new URLSearchParams(location.search).get("worker") !== "0";
const BUNDLE_URL = new URL("../dist/index.mjs", import.meta.url).href;
const WASM_URL = new URL("../dist/emscripten-module.wasm", import.meta.url).href;
const WEBMCP_URL = new URL("../dist/webmcp.mjs", import.meta.url).href;
// Browsers without native WebMCP get the pinned polyfill.
const WEBMCP_POLYFILL_URL = new URL("../node_modules/@mcp-b/webmcp-polyfill/dist/index.js", import.meta.url).href;

const $ = (sel) => document.querySelector(sel);

// ------------------------------------------------------------------ state

let IoCodeModeFactory = null;
let webmcp = null; // @interopio/code-mode/webmcp, once the page's model context is ready
let engine = null; // { factory, session, executeCode, settings, visible }
let settings = { ...DEFAULTS };
let runSeq = 0;
const runs = new Map(); // run id -> RunTrace; how tool calls find their run
let active = null; // { trace, controller } of the run in progress
let agentController = null;
let shown = null; // the RunTrace on screen
let openResults = new Set();

// ------------------------------------------------------------- the desk

mountDesk($(".desk"));
$("#user-id").textContent = USER_ID;
$("#reset-data").addEventListener("click", () => resetData());

// ------------------------------------------------------------ the editor

const editor = new CodeEditor($("#editor"), { onRun: () => $("#run").click() });
const programSelect = $("#program");
for (const p of programs) programSelect.append(el("option", { value: p.id }, p.title));
programSelect.append(el("option", { value: "custom", hidden: true }, "Your own code"));

function loadProgram(id) {
    const p = programs.find((p) => p.id === id);
    if (!p) return;
    programSelect.value = id;
    editor.value = p.code;
    $("#program-hint").textContent = p.hint;
}
programSelect.addEventListener("change", () => loadProgram(programSelect.value));
$("#code").addEventListener("input", () => {
    const p = programs.find((p) => p.id === programSelect.value);
    if (p && p.code !== editor.value) {
        programSelect.value = "custom";
        $("#program-hint").textContent = "Your own code. Pick a program to start again from an example.";
    }
});
loadProgram(programs[0].id);

// ------------------------------------------------------ policies and tools

const approvals = new ApprovalDesk($("#approval"));

// payments.* always; a tool from outside the desk (the widget, through
// WebMCP) whenever it does not vouch for being read-only.
const needsApproval = (tool) => tool.name.startsWith("payments.") || (tool.annotations?.source !== undefined && tool.annotations.readOnlyHint !== true);

// Where a tool comes from, for the trace: the adapters set annotations.source.
const sourceOf = (tool) => tool.annotations?.source ?? "page";

// onToolCall: every call the model makes passes here first. The run's
// context tells which run (and so which trace) it belongs to.
async function onToolCall({ tool, input, callContext }) {
    const run = runs.get(callContext?.runId);
    const call = run?.asked(tool.name, input, callContext, sourceOf(tool));
    let decision;
    if (needsApproval(tool)) {
        if (call) {
            call.decision = { pending: true };
            run.changed();
        }
        decision = await approvals.ask({
            tool,
            input,
            runId: callContext?.runId ?? "?",
            userId: callContext?.userId ?? "unknown",
            // performance.now() time at which the run times out.
            deadline: run ? run.started + (engine?.settings.timeout ?? settings.timeout) : undefined,
        });
    } else {
        decision = { allowed: true, by: "policy" };
    }
    if (call) run.decided(call, decision);
    if (!decision.allowed) return { allowed: false, reason: decision.reason };
    return decision.input !== undefined ? { allowed: true, input: decision.input } : { allowed: true };
}

const toolFilter = (tool) => !tool.name.startsWith("admin.");

// ------------------------------------------------------------- the engine

function setEngineStatus(state, text) {
    const s = $("#engine-status");
    s.dataset.state = state;
    s.textContent = text;
}

const fmtMs = (n) => (n % 1000 === 0 ? `${n / 1000} s` : `${n} ms`);

function showLoadError(message) {
    const b = $("#load-error");
    b.replaceChildren(el("strong", {}, "The sandbox is not available. "), message);
    b.hidden = false;
}

async function startEngine(next) {
    starting = true;
    refresh();
    setEngineStatus("loading", "Starting the sandbox…");
    if (engine) {
        const old = engine;
        engine = null;
        active?.controller.abort(new DOMException("The sandbox was restarted with new settings.", "AbortError"));
        agentController?.abort(new DOMException("The sandbox was restarted with new settings.", "AbortError"));
        old.widget?.close();
        old.unexpose();
        try {
            old.session.dispose();
        } catch {
            /* already gone */
        }
        await old.factory.dispose();
    }
    try {
        const factory = await IoCodeModeFactory({
            wasmLocation: WASM_URL,
            timeout: next.timeout,
            memoryLimit: next.memoryLimit,
            toolFilter,
            interceptors: { onToolCall },
            worker: WORKER,
        });
        factory.registerTools(pageTools);
        // The widget's WebMCP tools, followed as it adds or removes them.
        const widget = webmcp ? await webmcp.fromWebMcp({ namespace: "webmcp" }) : null;
        widget?.registerTools(factory);
        const session = factory.createSession();
        // And the other way: a browser agent can drive the copilot through WebMCP.
        const unexpose = webmcp ? await webmcp.exposeToWebMcp(session, { context: { userId: USER_ID, runId: "webmcp" } }) : () => {};
        const llmTools = session.getLlmTools();
        const visible = (await factory.listTools()).filter((t) => sourceOf(t) === "page");
        engine = { factory, session, llmTools, executeCode: llmTools.find((t) => t.name === "executeCode"), settings: next, visible, widget, unexpose };
        settings = next;
        setEngineStatus("ready", `Sandbox ready · timeout ${fmtMs(next.timeout)} · memory ${next.memoryLimit} MB · ${WORKER ? "in a worker" : "on the page's thread"}`);
        $("#settings-summary").textContent = `· timeout ${fmtMs(next.timeout)}, memory ${next.memoryLimit} MB`;
        const hidden = pageTools.length - visible.length;
        $("#tool-summary").textContent =
            `The model writes JavaScript that calls the page's tools: ${visible.length} of ${pageTools.length} are visible to it` +
            (hidden ? ` (toolFilter hides ${hidden} admin.* tools)` : "") +
            (widget ? `, plus ${widget.tools.length} tools the courier widget offers through WebMCP (tools.webmcp.*).` : ".");
        // In a worker the engine takes the tools registered above a message
        // later: ready() waits for it, so the instruction lists them.
        await factory.ready();
        $("#system-instruction").textContent = session.getSystemInstruction();
        $("#load-error").hidden = true;
    } catch (err) {
        setEngineStatus("error", "Sandbox failed to start");
        showLoadError(`${err?.name ?? "Error"}: ${err?.message ?? err}`);
        throw err;
    } finally {
        starting = false;
        refresh();
    }
}

// ------------------------------------------------------------ running code

const traceRoot = $("#trace");
let renderQueued = false;
function scheduleTraceRender(trace) {
    if (trace !== shown || renderQueued) return;
    renderQueued = true;
    requestAnimationFrame(() => {
        renderQueued = false;
        renderTrace(traceRoot, shown, openResults);
    });
}

// runCode runs a program through executeCode with this run's signal and
// context, and shows it in the trace. It resolves with the run's result;
// a cancelled run rejects with the signal's reason.
async function runCode(code, title, { signal } = {}) {
    if (!engine) throw new Error("The sandbox is not ready.");
    const id = ++runSeq;
    const trace = new RunTrace(id, title, scheduleTraceRender);
    runs.set(id, trace);
    if (runs.size > 50) runs.delete(runs.keys().next().value);
    const controller = new AbortController();
    const forward = () => controller.abort(signal.reason);
    signal?.addEventListener("abort", forward, { once: true });
    active = { trace, controller };
    shown = trace;
    openResults = new Set();
    editor.clearError();
    refresh();
    renderTrace(traceRoot, trace, openResults);
    // Let the browser paint "Running…" first: a CPU-bound program keeps
    // the page's thread busy until it ends or times out.
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    try {
        const res = await engine.executeCode.execute(
            { code, explanation: title },
            { signal: controller.signal, context: { userId: USER_ID, runId: id }, onEvent: (e) => trace.event(e) },
        );
        trace.finish(res);
        if (!res.ok && res.error?.line) editor.showError(res.error.line, `${res.error.name}: ${res.error.message}`);
        return res;
    } catch (err) {
        if (controller.signal.aborted) {
            trace.cancelled(err);
            throw err;
        }
        trace.crashed(err);
        return { ok: false, error: { name: err?.name ?? "Error", message: err?.message ?? String(err) } };
    } finally {
        signal?.removeEventListener("abort", forward);
        approvals.withdraw(id, "The run ended before anyone decided.");
        if (active?.trace === trace) active = null;
        refresh();
        renderTrace(traceRoot, trace, openResults);
    }
}

// refresh enables and disables the controls from the page's state.
let starting = false;
function refresh() {
    const ready = engine !== null && !starting;
    const running = active !== null || agentController !== null;
    $("#run").disabled = !ready || running;
    $("#cancel").disabled = !running;
    $("#agent-run").disabled = !ready || running;
    $("#agent-stop").disabled = agentController === null;
    $("#apply-settings").disabled = starting;
    programSelect.disabled = running;
    editor.readOnly = running;
    document.body.dataset.busy = starting ? "engine" : agentController ? "agent" : active ? "run" : "";
}
const isBusy = () => starting || active !== null || agentController !== null;

$("#run").addEventListener("click", async () => {
    if (isBusy() || !engine) return;
    const p = programs.find((p) => p.id === programSelect.value);
    try {
        await runCode(editor.value, p ? p.title : "Your own code");
    } catch (err) {
        if (err?.name !== "AbortError") throw err;
        // Cancelled: the trace says so.
    }
});

$("#cancel").addEventListener("click", () => {
    const reason = new DOMException("Cancelled by the user.", "AbortError");
    if (agentController) agentController.abort(reason);
    else active?.controller.abort(reason);
});

// ---------------------------------------------------------------- settings

const timeoutInput = $("#set-timeout");
const memoryInput = $("#set-memory");
timeoutInput.value = String(settings.timeout);
memoryInput.value = String(settings.memoryLimit);

$("#settings-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const msg = $("#settings-message");
    const timeout = Number(timeoutInput.value);
    const memoryLimit = Number(memoryInput.value);
    const problems = [];
    if (!Number.isFinite(timeout) || timeout < 100 || timeout > 600000) problems.push("timeout: 100 to 600000 ms");
    if (!Number.isInteger(memoryLimit) || memoryLimit < 8 || memoryLimit > 1024) problems.push("memory limit: a whole number from 8 to 1024 MB");
    timeoutInput.setAttribute("aria-invalid", String(problems.some((p) => p.startsWith("timeout"))));
    memoryInput.setAttribute("aria-invalid", String(problems.some((p) => p.startsWith("memory"))));
    if (problems.length) {
        msg.className = "small bad";
        msg.textContent = `Expected ${problems.join("; ")}.`;
        return;
    }
    msg.className = "small muted";
    msg.textContent = "Restarting the sandbox…";
    try {
        await startEngine({ timeout, memoryLimit });
        msg.className = "small ok";
        msg.textContent = `Applied: timeout ${fmtMs(timeout)}, memory ${memoryLimit} MB.`;
    } catch (err) {
        msg.className = "small bad";
        msg.textContent = err?.message ?? String(err);
    }
});

// --------------------------------------------------------- your own model

const steps = $("#agent-steps");
function addStep(kind, ...children) {
    steps.querySelector(".step-thinking")?.remove();
    const li = el("li", { class: `step step-${kind}` }, ...children);
    steps.append(li);
    li.scrollIntoView({ block: "nearest" });
    return li;
}

function stepView(s) {
    if (s.kind === "thinking") return addStep("thinking", el("span", { class: "icon spin" }), ` Step ${s.step}: waiting for the model…`);
    if (s.kind === "note") return addStep("note", el("span", { class: "step-label" }, "Model"), el("p", {}, s.text));
    if (s.kind === "answer") return addStep("answer", el("span", { class: "step-label" }, "Answer"), el("p", { class: "answer" }, s.text || "(empty answer)"));
    if (s.kind === "tool" && s.name === "executeCode") {
        const r = s.result ?? {};
        const chip = r.ok ? el("span", { class: "chip chip-ok" }, "ok") : el("span", { class: "chip chip-bad" }, r.error?.code ?? "error");
        return addStep(
            "tool",
            el("code", { class: "step-label" }, "executeCode"),
            chip,
            el("span", { class: "muted small" }, ` ${s.args?.explanation ?? ""}`),
            el("details", {}, el("summary", {}, "code"), el("pre", {}, s.args?.code ?? "")),
        );
    }
    if (s.kind === "tool") {
        const found = Array.isArray(s.result) ? `${s.result.length} found: ${s.result.map((t) => t.name).join(", ")}` : JSON.stringify(s.result);
        return addStep("tool", el("code", { class: "step-label" }, s.name ?? "?"), el("span", { class: "small" }, ` ${JSON.stringify(s.args)} → ${found}`));
    }
}

$("#agent-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    if (isBusy() || !engine) return;
    const form = new FormData(e.target);
    const prompt = String(form.get("prompt") ?? "").trim();
    if (!prompt) return;
    agentController = new AbortController();
    const signal = agentController.signal;
    refresh();
    steps.replaceChildren();
    addStep("user", el("span", { class: "step-label" }, "You"), el("p", {}, prompt));
    try {
        await runAgent({
            baseURL: String(form.get("baseURL") ?? ""),
            model: String(form.get("model") ?? ""),
            apiKey: String(form.get("apiKey") ?? ""),
            prompt,
            session: engine.session,
            signal,
            hooks: {
                step: stepView,
                executeCode: async (args) => {
                    editor.value = String(args?.code ?? "");
                    programSelect.value = "custom";
                    $("#program-hint").textContent = "Written by your model.";
                    return runCode(String(args?.code ?? ""), args?.explanation || "The model's program", { signal });
                },
            },
        });
    } catch (err) {
        if (signal.aborted) addStep("stopped", el("span", { class: "step-label" }, "Stopped"), el("p", {}, String(signal.reason?.message ?? "Stopped.")));
        else addStep("error", el("span", { class: "step-label" }, "Error"), el("p", { class: "agent-error", role: "alert" }, err?.message ?? String(err)));
    } finally {
        steps.querySelector(".step-thinking")?.remove();
        agentController = null;
        refresh();
    }
});
$("#agent-stop").addEventListener("click", () => agentController?.abort(new DOMException("Stopped by the user.", "AbortError")));

// ------------------------------------------------------------------- start

starting = true;
refresh();
try {
    ({ IoCodeModeFactory } = await import(BUNDLE_URL));
} catch (err) {
    setEngineStatus("error", "Bundle missing");
    showLoadError(
        el("span", {}, `Could not load the Code Mode bundle (${BUNDLE_URL}): ${err?.message ?? err}. Build it with `, el("code", {}, "make build"), ", or run ", el("code", {}, "make demo"), ", which builds it and serves this page."),
    );
}
// The page's WebMCP model context (native, else the polyfill) and the
// courier widget on it. Without it the copilot has the desk's tools only.
try {
    if (!document.modelContext) (await import(WEBMCP_POLYFILL_URL)).initializeWebMCPPolyfill();
    await mountCourierWidget(document.modelContext);
    webmcp = await import(WEBMCP_URL);
} catch (err) {
    // A DOMException may have no message (the polyfill's SecurityError): its name then.
    console.warn(`The courier widget is not available (WebMCP: ${err?.message || err?.name || err}); the copilot has the desk's tools only.`);
}
starting = false;
if (IoCodeModeFactory) {
    try {
        await startEngine(settings);
    } catch {
        // Shown in the banner.
    }
}
