// Session 46: round eight of what models send to executeCode and searchTools,
// written before reading how the product handles them, in habits the
// earlier batches (model-outputs-cases.mjs, model-programs-cases.mjs,
// model-programs38/39/40/42/43/44/45-cases.mjs) lack. Tool-call markup the
// serving engines' parsers read, of the models of late 2025 and 2026:
// DeepSeek V3.2's DSML (<｜DSML｜function_calls><｜DSML｜invoke>, and the
// ASCII-pipe form it writes in its reasoning), LongCat-Flash's
// <longcat_tool_call>, Step-3's <steptml:invoke> inside DeepSeek-style
// tokens, OLMo 3's <function_calls> of Python calls, gpt-oss harmony with the
// recipient in the role header and with an analysis message first, GLM-4.7's
// <arg_key> with no newline after the name, and end tokens left after the
// program (Phi's <|end|>, harmony's <|return|>, <|endoftext|>); arguments as
// JSON text twice encoded or with a byte order mark; a tool's arguments of the
// wrong kind through its schema (a boolean as "true", a list as "a,b", the
// input as JSON text, an enum's value in capitals, a number with its
// currency, a float for an integer, strict mode's null, snake_case keys);
// ES2026's Math.sumPrecise and Error.isError; Python's dict.get, dict.items(),
// list.append and json.dumps as JavaScript. Rows are as in
// model-outputs-cases.mjs (ok, okLog, fail, found, any, warn, left), run
// against its catalog() plus model-programs38-cases.mjs's extraTools(); a row
// may add `check(res)`.
import { any, fail, found, ok } from "./model-outputs-cases.mjs";
import { L, fence } from "./model-programs42-cases.mjs";

const COUNT = "return (await tools.orders.search({})).length;";
const CALL = { name: "executeCode", arguments: { code: COUNT, explanation: "count the orders" } };
const ARGS = JSON.stringify(CALL.arguments);
/** What a model's markup may fail with: words naming the markup or executeCode, never a bare parse error. */
const MARKUP = /executeCode|tool-call|markup|arguments/;
/** What a tool's wrong argument may fail with: the field's name and what it takes. */
const field = (name) => new RegExp(name);

export const rows46 = [
    // --- Tool-call markup the serving engines read, sent as the code
    { id: "m46-deepseek-v32-dsml", src: "sglang DeepSeekV32Detector (DeepSeek V3.2: <｜DSML｜function_calls><｜DSML｜invoke name><｜DSML｜parameter string=\"true\">)", code: L("<｜DSML｜function_calls>", "<｜DSML｜invoke name=\"executeCode\">", `<｜DSML｜parameter name="code" string="true">${COUNT}</｜DSML｜parameter>`, "<｜DSML｜parameter name=\"explanation\" string=\"true\">count the orders</｜DSML｜parameter>", "</｜DSML｜invoke>", "</｜DSML｜function_calls>"), expect: any(ok(3), fail(MARKUP)) },
    { id: "m46-deepseek-dsml-ascii-pipes", src: "DSML reasoning parsers (DeepSeek: DSML with ASCII | in its reasoning)", code: L("<|DSML|function_calls>", "<|DSML|invoke name=\"executeCode\">", `<|DSML|parameter name="code" string="true">${COUNT}</|DSML|parameter>`, "</|DSML|invoke>", "</|DSML|function_calls>"), expect: any(ok(3), fail(MARKUP)) },
    { id: "m46-longcat-tool-call", src: "vLLM LongcatFlashToolParser (LongCat-Flash: <longcat_tool_call>{name, arguments}</longcat_tool_call>)", code: `<longcat_tool_call>${JSON.stringify(CALL)}</longcat_tool_call>`, expect: any(ok(3), fail(MARKUP)) },
    { id: "m46-step3-steptml", src: "sglang Step3Detector (Step-3: function<｜tool_sep｜><steptml:invoke><steptml:parameter>)", code: `<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="executeCode"><steptml:parameter name="code">${COUNT}</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>`, expect: any(ok(3), fail(MARKUP)) },
    { id: "m46-olmo3-function-calls", src: "vLLM Olmo3PythonicToolParser (OLMo 3: <function_calls> of name(k=\"v\") lines)", code: L("<function_calls>", `executeCode(code="${COUNT}", explanation="count the orders")`, "</function_calls>"), expect: any(ok(3), fail(MARKUP)) },
    { id: "m46-harmony-recipient-in-header", src: "harmony grammar (gpt-oss: <|start|>assistant to=functions.NAME<|channel|>commentary json<|message|>)", code: `<|start|>assistant to=functions.executeCode<|channel|>commentary json<|message|>${ARGS}<|call|>`, expect: any(ok(3), fail(MARKUP)) },
    { id: "m46-harmony-analysis-then-call", src: "harmony format (gpt-oss: an analysis message before the call)", code: `<|channel|>analysis<|message|>I need the number of orders.<|end|><|start|>assistant<|channel|>commentary to=functions.executeCode <|constrain|>json<|message|>${ARGS}<|call|>`, expect: any(ok(3), fail(MARKUP)) },
    { id: "m46-glm47-no-newline", src: "sglang/vLLM glm47 parser (GLM-4.7/GLM-5: <tool_call>name<arg_key> with no newline)", code: `<tool_call>executeCode<arg_key>code</arg_key><arg_value>${COUNT}</arg_value><arg_key>explanation</arg_key><arg_value>count the orders</arg_value></tool_call>`, expect: any(ok(3), fail(MARKUP)) },
    { id: "m46-harmony-return-after-code", src: "habit (gpt-oss: the final channel's <|return|> left after the program)", code: COUNT + "<|return|>", expect: any(ok(3), fail(/<\|return\|>/)) },
    { id: "m46-phi-end-after-fence", src: "habit (Phi-4: <|end|> left after the fence)", code: fence("javascript", COUNT) + "<|end|>", expect: any(ok(3), fail(/<\|end\|>/)) },
    { id: "m46-endoftext-after-code", src: "habit (Qwen/GPT-2 vocabularies: <|endoftext|> on the program's last line)", code: COUNT + "<|endoftext|>", expect: any(ok(3), fail(/endoftext/)) },

    // --- executeCode's and searchTools' arguments as text
    { id: "m46-args-json-twice-encoded", src: "habit (the arguments' JSON text encoded again as a JSON string)", args: JSON.stringify(ARGS), expect: any(ok(3), fail(/code|JSON/, "INVALID_INPUT")) },
    { id: "m46-args-json-bom", src: "habit (JSON text with a byte order mark)", args: "\uFEFF" + ARGS, expect: ok(3) },
    { id: "m46-search-json-twice-encoded", src: "habit (searchTools' JSON text encoded again)", search: JSON.stringify(JSON.stringify({ query: "refund" })), expect: any(found("payments.refund"), fail(/query|JSON/)) },

    // --- A tool's arguments of the wrong kind, through its schema
    { id: "m46-tool-boolean-as-text", src: "habit ({ includeItems: \"true\" })", code: L("const rows = await tools.orders.search({ includeItems: \"true\" });", "return rows.length;"), expect: any(ok(3), fail(/includeItems.*boolean|boolean.*includeItems/)) },
    { id: "m46-tool-list-as-comma-text", src: "habit ({ ids: \"o-1,o-2\" } for an array)", code: "return await tools.orders.bulkGet({ ids: \"o-1,o-2\" });", expect: any(ok([{ id: "o-1" }, { id: "o-2" }]), fail(/ids.*array|array.*ids/)) },
    { id: "m46-tool-input-json-text", src: "habit (the tool's input as JSON text)", code: "return (await tools.orders.search(JSON.stringify({ status: \"open\" }))).length;", expect: any(ok(2), fail(/object|JSON\.stringify/)) },
    { id: "m46-tool-enum-capitals", src: "habit ({ status: \"OPEN\" } for an enum of lower-case values)", code: "return (await tools.orders.search({ status: \"OPEN\" })).length;", expect: any(ok(2), fail(/"open"/)) },
    { id: "m46-tool-number-with-currency", src: "habit ({ amount: \"$5.00\" })", code: "return await tools.payments.refund({ orderId: \"o-1\", amount: \"$5.00\" });", expect: any(ok({ orderId: "o-1", refunded: 5 }), fail(/amount.*number|number.*amount/)) },
    { id: "m46-tool-float-for-integer", src: "habit ({ count: 2.5 } for an integer)", code: "return await tools.reports.top({ count: 2.5 });", expect: fail(/count.*integer|integer.*count/) },
    { id: "m46-tool-strict-null-optional", src: "habit (OpenAI strict mode: a tool's optional field as null)", code: "return (await tools.orders.search({ status: null, limit: null })).length;", expect: any(ok(3), fail(/status|limit/)) },
    { id: "m46-tool-snake-case-key", src: "habit ({ order_id } for orderId)", code: "return await tools.payments.refund({ order_id: \"o-1\", amount: 5 });", expect: fail(field("orderId")) },

    // --- ES2026 and Python habits in programs
    { id: "m46-math-sum-precise", src: "habit (ES2026's Math.sumPrecise)", code: L("const rows = await tools.orders.search({});", "return Math.sumPrecise(rows.map((o) => o.total));"), expect: any(ok(92), fail(/sumPrecise|reduce/)) },
    { id: "m46-error-is-error", src: "habit (ES2026's Error.isError in a catch)", code: L("try {", "  return await tools.orders.get({ id: \"o-9\" });", "} catch (e) {", "  return Error.isError(e) ? \"failed: \" + e.message : \"failed\";", "}"), expect: any(ok("failed: order o-9 not found"), fail(/isError|instanceof/)) },
    { id: "m46-py-dict-get", src: "habit (Python's d.get(\"k\", 0) on an object)", code: L("const rows = await tools.orders.search({});", "return rows.reduce((s, o) => s + o.get(\"total\", 0), 0);"), expect: fail(/\?\?|o\.total|\["total"\]/) },
    { id: "m46-py-dict-items", src: "habit (Python's d.items() on an object)", code: L("const counts = {};", "for (const o of await tools.orders.search({})) counts[o.status] = (counts[o.status] ?? 0) + 1;", "return counts.items().map(([k, v]) => `${k}: ${v}`);"), expect: fail(/Object\.entries/) },
    { id: "m46-py-list-append", src: "habit (Python's list.append)", code: L("const ids = [];", "for (const o of await tools.orders.search({})) ids.append(o.id);", "return ids;"), expect: fail(/push/) },
    { id: "m46-py-json-dumps", src: "habit (Python's json.dumps)", code: L("const rows = await tools.orders.search({});", "return json.dumps(rows.map((o) => o.id));"), expect: fail(/JSON\.stringify/) },
];

/** Rows the product did not meet when they were written (before any fix of session 46), and what each gets now. */
const T = "todo (session 46): written before reading the handling code";
const LEFT = {
};
/** Why a row stays left after session 46's fixes. */
const WHY = {};
for (const row of rows46) if (LEFT[row.id]) row.left = { why: WHY[row.id] ?? T, got: LEFT[row.id] };
