// Session 45: round seven of what models send to executeCode and searchTools,
// written before reading how the product handles them, in habits the
// earlier batches (model-outputs-cases.mjs, model-programs-cases.mjs,
// model-programs38/39/40/42/43/44-cases.mjs) lack. Tool-call markup the
// serving engines' parsers read (sglang's and vLLM's detectors): Hunyuan's
// <answer><tool_calls>, Phi-4-mini's <|tool_call|>...<|/tool_call|>, DeepSeek
// V3.1's name<｜tool▁sep｜>arguments (no "function" type, no fence), Hermes
// <tool_call> around a Python dict (single quotes, as Qwen-Coder models write
// it), a ```tool_call fence of a Python dict (prompted Gemma), Gemma 3's
// "args" key, xLAM's { tool_calls: [...] }, a bare JSON array of one call, end
// of sequence tokens left after the program (</s>, DeepSeek's
// <｜end▁of▁sentence｜>) and Claude's <thinking> before the fence; the
// arguments of strict mode (every optional field null), a whole assistant
// message with tool_calls, a shell tool's { command }, and each tool given
// the other's arguments; programs written for fetch (res.json(), res.ok),
// an arrow returning an object literal without parentheses, Math.round(x, 2),
// Python's enumerate/zip/max/int, slices, startswith, other languages'
// contains and .last, Object.entries of a Map and for...of over a plain
// object. Rows are as in model-outputs-cases.mjs (ok, okLog, fail, found,
// any, warn, left), run against its catalog() plus model-programs38-cases.mjs's
// extraTools(); a row may add `check(res)`.
import { any, fail, found, ok } from "./model-outputs-cases.mjs";
import { L, fence, okWarned } from "./model-programs42-cases.mjs";

const COUNT = "return (await tools.orders.search({})).length;";
const CALL = { name: "executeCode", arguments: { code: COUNT, explanation: "count the orders" } };
const ARGS = JSON.stringify(CALL.arguments);
/** What a model's markup may fail with: words naming the markup or executeCode, never a bare parse error. */
const MARKUP = /executeCode|tool-call|markup|arguments/;
/** A Python dict of CALL, as models write one (single quotes). */
const PYDICT = `{'name': 'executeCode', 'arguments': {'code': '${COUNT.replaceAll("'", "\\'")}', 'explanation': 'count the orders'}}`;

export const rows45 = [
    // --- Tool-call markup the serving engines read, sent as the code
    { id: "m45-hunyuan-answer-tool-calls", src: "sglang HunyuanDetector (Hunyuan-A13B: <answer><tool_calls>[{name, arguments}]</tool_calls></answer>)", code: L("<think>Count the orders.</think>", "<answer>", `<tool_calls>[${JSON.stringify(CALL)}]</tool_calls>`, "</answer>"), expect: any(ok(3), fail(MARKUP)) },
    { id: "m45-phi4-mini-tool-call-close", src: "sglang#17132, llama.cpp#12288 (Phi-4-mini: <|tool_call|>[...]<|/tool_call|>)", code: `<|tool_call|>[${JSON.stringify(CALL)}]<|/tool_call|>`, expect: any(ok(3), fail(MARKUP)) },
    { id: "m45-deepseek-v31-tool-sep", src: "vLLM DeepSeekV31ToolParser (DeepSeek V3.1: name<｜tool▁sep｜>arguments, no type, no fence)", code: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>executeCode<｜tool▁sep｜>${ARGS}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`, expect: any(ok(3), fail(MARKUP)) },
    { id: "m45-hermes-python-dict", src: "waybarrios/vllm-mlx#63, NousResearch/atropos#478 (<tool_call> around a single-quoted Python dict)", code: L("<tool_call>", PYDICT, "</tool_call>"), expect: any(ok(3), fail(MARKUP)) },
    { id: "m45-tool-call-fence-python-dict", src: "minpeter/ai-sdk-tool-call-middleware gemma prompt (a ```tool_call fence of {'name', 'arguments'})", code: fence("tool_call", PYDICT), expect: any(ok(3), fail(MARKUP)) },
    { id: "m45-tool-call-args-key", src: "BruinAI/cactus gemma_tool_use (Gemma 3 270M: <tool_call>{name, args}</tool_call>)", code: `<tool_call>${JSON.stringify({ name: "executeCode", args: { code: COUNT } })}</tool_call>`, expect: any(ok(3), fail(MARKUP)) },
    { id: "m45-xlam-tool-calls-object", src: "habit (xLAM/ToolACE: {\"tool_calls\": [{name, arguments}]} as the reply)", code: JSON.stringify({ tool_calls: [CALL] }), expect: any(ok(3), fail(MARKUP)) },
    { id: "m45-bare-json-array-one-call", src: "jyjeanne/crustly#39 (Qwen2.5-Coder: a bare JSON list of one call, no tags)", code: JSON.stringify([CALL]), expect: any(ok(3), fail(MARKUP)) },
    // models44's left rows: two calls in one list of a template's markup, which TypeScript's reading took for a cast and an array
    { id: "m45-lfm2-two-calls", src: "models44's leftover (LFM2: two calls in one <|tool_call_start|> list)", code: `<|tool_call_start|>[${JSON.stringify(CALL)}, ${JSON.stringify({ name: "executeCode", arguments: { code: "return 2;" } })}]<|tool_call_end|>`, expect: fail(/one call at a time/) },
    { id: "m45-granite-two-calls", src: "models44's leftover (Granite: two calls after <|tool_call|>)", code: `<|tool_call|>[${JSON.stringify(CALL)}, ${JSON.stringify(CALL)}]`, expect: fail(/one call at a time/) },
    { id: "m45-command-r7b-two-actions", src: "models44's leftover (Command R7B: two actions in one <|START_ACTION|> list)", code: `<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "executeCode", "parameters": ${ARGS}}, {"tool_call_id": "1", "tool_name": "executeCode", "parameters": ${ARGS}}]<|END_ACTION|>`, expect: fail(/one call at a time/) },
    { id: "m45-eos-s-after-code", src: "habit (Mistral/Llama 2: </s> left after the program)", code: COUNT + "</s>", expect: any(ok(3), fail(/<\/s>/)) },
    { id: "m45-deepseek-eos-after-code", src: "habit (DeepSeek: <｜end▁of▁sentence｜> left after the fence)", code: fence("javascript", COUNT) + "<｜end▁of▁sentence｜>", expect: any(ok(3), fail(/end▁of▁sentence/)) },
    { id: "m45-thinking-tag-then-fence", src: "habit (Claude-style <thinking> before the fence)", code: L("<thinking>", "I need the number of orders, so I will search them all and count.", "</thinking>", "", fence("javascript", COUNT)), expect: any(ok(3), fail(/thinking/)) },

    // --- executeCode's and searchTools' arguments
    { id: "m45-args-strict-null-explanation", src: "habit (OpenAI strict mode: an optional field sent as null)", args: { code: COUNT, explanation: null }, expect: ok(3) },
    { id: "m45-args-openai-assistant-message", src: "habit (the whole assistant message with tool_calls as the arguments)", args: { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "executeCode", arguments: ARGS } }] }, expect: any(ok(3), fail(/code|tool_calls/, "INVALID_INPUT")) },
    { id: "m45-args-command-key", src: "habit (a shell tool's { command } sent to executeCode)", args: { command: COUNT }, expect: any(ok(3), fail(/command/)) },
    { id: "m45-args-search-to-execute", src: "habit (searchTools' arguments sent to executeCode)", args: { query: "refund" }, expect: fail(/searchTools/) },
    { id: "m45-search-code-to-search", src: "habit (executeCode's arguments sent to searchTools)", search: { code: COUNT, explanation: "count" }, expect: fail(/executeCode/) },
    { id: "m45-search-strict-nulls", src: "habit (OpenAI strict mode: namespace and limit null)", search: { query: "refund", namespace: null, limit: null }, expect: found("payments.refund") },

    // --- Programs written for fetch
    { id: "m45-fetch-json-on-tool-result", src: "habit (await res.json() on a tool's result, as on fetch's Response)", code: L("const res = await tools.orders.search({});", "const data = await res.json();", "return data.length;"), expect: fail(/\.json\(\)/) },
    { id: "m45-fetch-ok-check", src: "habit (if (!res.ok) throw, as after fetch)", code: L("const res = await tools.orders.search({});", "if (!res.ok) throw new Error(\"request failed: \" + res.status);", "return res.length;"), expect: any(ok(3), fail(/\.ok\b/)) },

    // --- JavaScript habits that read as something else
    { id: "m45-arrow-object-literal-two-keys", src: "habit (=> { id: o.id, total: o.total } without parentheses)", code: L("const rows = await tools.orders.search({});", "return rows.map((o) => { id: o.id, total: o.total });"), expect: fail(/\(\{/, "SYNTAX") },
    { id: "m45-arrow-object-literal-one-key", src: "habit (=> { id: o.id }: a block with a label, so undefined)", code: L("const rows = await tools.orders.search({});", "return rows.map((o) => { id: o.id });"), expect: any(okWarned(/\(\{/), fail(/\(\{/)) },
    { id: "m45-math-round-two-args", src: "habit (Python's round(x, 2) written as Math.round(x, 2))", code: L("const rows = await tools.orders.search({});", "return Math.round(rows.reduce((s, o) => s + o.total, 0) / rows.length, 2);"), expect: any(ok(30.67), okWarned(/Math\.round/), fail(/Math\.round/)) },
    { id: "m45-object-entries-of-map", src: "habit (Object.entries of a Map: [], so {})", code: L("const by = new Map();", "for (const o of await tools.orders.search({})) by.set(o.customerId, (by.get(o.customerId) ?? 0) + o.total);", "return Object.fromEntries(Object.entries(by));"), expect: any(ok({ "c-1": 80, "c-2": 12 }), okWarned(/Map/)) },
    { id: "m45-for-of-plain-object", src: "habit (for...of over a plain object's counts)", code: L("const counts = {};", "for (const o of await tools.orders.search({})) counts[o.status] = (counts[o.status] ?? 0) + 1;", "const out = [];", "for (const [k, v] of counts) out.push(`${k}: ${v}`);", "return out;"), expect: fail(/Object\.entries/) },
    { id: "m45-array-last-property", src: "habit (Ruby/Swift's .last on an array)", code: L("const rows = await tools.orders.search({});", "return rows.last.id;"), expect: fail(/at\(-1\)/) },
    { id: "m45-string-contains", src: "habit (Java/C#'s s.contains(x))", code: L("const rows = await tools.orders.search({});", "return rows.filter((o) => o.status.contains(\"open\")).length;"), expect: fail(/includes/) },

    // --- Python builtins and syntax
    { id: "m45-py-enumerate", src: "habit (Python's enumerate())", code: L("const rows = await tools.orders.search({});", "const out = [];", "for (const [i, o] of enumerate(rows)) out.push(`${i + 1}. ${o.id}`);", "return out;"), expect: fail(/entries\(\)/) },
    { id: "m45-py-zip", src: "habit (Python's zip())", code: L("const rows = await tools.orders.search({});", "const ids = rows.map((o) => o.id);", "const totals = rows.map((o) => o.total);", "return zip(ids, totals);"), expect: fail(/\.map\(/) },
    { id: "m45-py-max-of-list", src: "habit (Python's max(list))", code: L("const rows = await tools.orders.search({});", "return max(rows.map((o) => o.total));"), expect: fail(/Math\.max\(\.\.\./) },
    { id: "m45-py-int-builtin", src: "habit (Python's int())", code: L("const o = await tools.orders.get({ id: \"o-1\" });", "return int(o.id.slice(2)) + 1;"), expect: fail(/Number\(|parseInt/) },
    { id: "m45-py-slice-syntax", src: "habit (Python's xs[:2] slice)", code: L("const ids = (await tools.orders.search({})).map((o) => o.id);", "return ids[:2];"), expect: fail(/slice\(0, 2\)/, "SYNTAX") },
    { id: "m45-py-startswith", src: "habit (Python's s.startswith())", code: L("const rows = await tools.orders.search({});", "return rows.filter((o) => o.id.startswith(\"o-\")).length;"), expect: fail(/startsWith/) },
];

/** Rows the product did not meet when they were written (before any fix of session 45), and what each gets now. */
const T = "todo (session 45): written before reading the handling code";
const LEFT = {
    "m45-fetch-ok-check": fail(/^request failed: undefined$/),
    "m45-arrow-object-literal-one-key": okWarned(/^result\[0\]: undefined, converted to null$/),
    "m45-math-round-two-args": ok(31),
    "m45-object-entries-of-map": ok({}),
};
/** Why a row stays left after session 45's fixes. */
const HABIT = "session 46: a warning is rebuilt (tsstrip/habit.go: the literal's scan, then a regular expression on its line only and its tokens, 0.6 us natively on a 211-char program, on branch habits46-full), not landed: with the slice's and the arrow's syntax hints, which landed, +12.6 KB of the core's raw bytes (+2.1 KB brotli measured), over the share of 1.0 KB";
const WHY = {
    "m45-arrow-object-literal-one-key": HABIT + "; the result's warnings say each item is undefined",
    "m45-math-round-two-args": HABIT,
    "m45-fetch-ok-check": "the program's own error; that res.ok of a tool's result is undefined (a tool gives its data, not a Response) would need the run to see where the thrown message came from: left; session 46: judged possible on the error path only (the program's own throw, and the code reads res.ok where res holds a tool's result whose type, declared or inferred, has no ok: nanHint's machinery), left for time",
    "m45-object-entries-of-map": "JavaScript's own rule (a Map's entries are no own properties); a warning needs Object.entries of a Map seen at run time: left; session 46: judged not cheap at run time (Object.entries wrapped in the prelude: a cost on every call of a native built-in), and imprecise by scan (a name bound to new Map given to Object.entries/keys/values, only when the result came out empty): left",
};
for (const row of rows45) if (LEFT[row.id]) row.left = { why: WHY[row.id] ?? T, got: LEFT[row.id] };
