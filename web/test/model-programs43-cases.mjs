// Session 43: round five of what models send to executeCode and
// searchTools, written before reading how the product handles them, in
// habits the earlier batches (model-outputs-cases.mjs, model-programs-cases.mjs,
// model-programs38/39/40/42-cases.mjs) lack: tool-call markup of GLM
// (<arg_key>/<arg_value>, multi-line), Qwen3-Coder (<parameter=code>), ReAct's
// Action Input and Cohere's Action json; arguments as Python dicts with
// None/True, JSON with Python literals, arrays of calls, code as an array of
// lines, LangChain's __arg1 and input, CRLF, HTML entities, escaped backticks;
// tool calls spelt as tools["a.b"], tools.a_b, .invoke, .call, a colon or
// case in tool_call's name, a JSON string or { arguments } as the input, an
// idempotency key, AbortSignal in the input, searching in code with
// { q }, an options object, and reading .results; Python's try/except block,
// str.format, upper(), dict.get, asyncio.gather, # comments, docstrings,
// `is None`, `x if c else y`, and `in` on an array; async habits: map(async)
// without Promise.all, a block-bodied map that returns nothing, forEach(async)
// that sums or refunds, await on an array, .then without await, reduce(async),
// retries with sleeps, setInterval polling, Atomics.wait, performance.mark,
// labelled loops with await; results that are Maps (number keys), Sets,
// class instances with getters, invalid Dates, sparse arrays, -0,
// -Infinity, caught errors; console.log of a huge array, a Map, a Set and a
// Date, %c, console.error(e), console.dir with options; JSON.stringify with
// replacers and BigInt, structuredClone of Dates and Maps, Object.hasOwn,
// String.raw, tagged templates, Set methods, iterator helpers, Array.fromAsync
// of an async generator, Promise.try, RegExp.escape, isWellFormed, error
// causes, AggregateError; Intl currency, unit and percent, long dates,
// 12-hour times, DST arithmetic, zone names, US and month-name date text;
// CSV and Markdown tables, regex parsing (named groups, lookahead, sticky,
// split captures, currency symbols); and searchTools' arguments by q, search,
// keywords text, tags, category, filter text, namespace case, singular and
// arrays, limit words, guessed names, globs, long sentences, "list all
// tools", Python literals and GLM markup.
// Rows are as in model-outputs-cases.mjs (ok, okLog, fail, found, any,
// warn, left), run against its catalog() plus
// model-programs38-cases.mjs's extraTools(); a row may add `check(res)`.
import { any, fail, found, ok, okLog } from "./model-outputs-cases.mjs";
import { L, fence, hitsOf, lists, logs, okWarned, ts } from "./model-programs42-cases.mjs";

/** ok with value, and a warning matching warn. */
const okWarn = (value, warn) => ({ ok: true, value, warn });

/** No log line (any level) matching re. */
const noLog = (re) => (r) => {
    const hit = (r.logs ?? []).find((l) => re.test(l.message));
    return hit ? `a log matching ${re}: ${hit.message.slice(0, 300)}` : null;
};
const both = (...checks) => (r) => checks.map((c) => c(r)).find(Boolean) ?? null;
const COUNT = "return (await tools.orders.search({})).length;";
const ALL = ["customers.get", "orders.bulkGet", "orders.get", "orders.search", "payments.refund", "reports.top"];

export const rows43 = [
    // --- Tool-call markup and argument text
    { id: "m43-glm-markup-multiline", src: "habit (GLM 4.5/4.6: <arg_key>/<arg_value> of a multi-line program)", code: L("<tool_call>executeCode", "<arg_key>code</arg_key>", "<arg_value>const rows = await tools.orders.search({ status: \"open\" });", "return rows.length;</arg_value>", "<arg_key>explanation</arg_key>", "<arg_value>count open orders</arg_value>", "</tool_call>"), expect: ok(2) },
    { id: "m43-glm-markup-lone-string-args", src: "habit (GLM markup as the whole arguments)", args: "<tool_call>executeCode\n<arg_key>code</arg_key>\n<arg_value>return (await tools.orders.search({})).length;</arg_value>\n</tool_call>", expect: ok(3) },
    { id: "m43-glm-markup-code-with-lt", src: "habit (GLM markup whose program compares with <)", code: "<tool_call>executeCode\n<arg_key>code</arg_key>\n<arg_value>const rows = await tools.orders.search({});\nreturn rows.filter((o) => o.total < 40).length;</arg_value>\n</tool_call>", expect: ok(2) },
    { id: "m43-qwen3-coder-parameter-markup", src: "habit (Qwen3-Coder: <function=...><parameter=code>)", code: L("<tool_call>", "<function=executeCode>", "<parameter=code>", COUNT, "</parameter>", "<parameter=explanation>", "count orders", "</parameter>", "</function>", "</tool_call>"), expect: ok(3) },
    { id: "m43-react-action-input", src: "habit (LangChain ReAct: Action / Action Input)", code: L("Thought: I should count the open orders.", "Action: executeCode", "Action Input: {\"code\": \"return (await tools.orders.search({ status: \\\"open\\\" })).length;\"}"), expect: any(ok(2), fail(/line 1 is prose, not code/, "SYNTAX")) },
    { id: "m43-cohere-action-json", src: "habit (Command R: Action: ```json [{tool_name, parameters}]```)", code: "Action: ```json\n[{\"tool_name\": \"executeCode\", \"parameters\": {\"code\": \"return 2;\"}}]\n```", expect: any(ok(2), fail(/tool-call|executeCode|Action/)) },
    { id: "m43-python-kwarg-executecode", src: "habit (calls the tool in Python keyword syntax as the program)", code: "executeCode(code=\"return (await tools.orders.search({})).length;\")", expect: any(ok(3), fail(/executeCode/)) },
    { id: "m43-args-python-dict-none", src: "habit (a Python dict's repr with None)", args: "{'code': 'return 2;', 'explanation': None}", expect: ok(2) },
    { id: "m43-args-json-python-false", src: "habit (JSON text with a Python False)", args: "{\"code\": \"return 2;\", \"explanation\": \"x\", \"dry_run\": False}", expect: ok(2) },
    { id: "m43-args-array-of-one-call", src: "habit (the arguments wrapped in an array)", args: [{ code: "return 2;", explanation: "x" }], expect: any(ok(2), fail(/array|one object|\{ code/)) },
    { id: "m43-args-array-text-two-calls", src: "habit (two calls' arguments in one array)", args: "[{\"code\": \"return 1;\"}, {\"code\": \"return 2;\"}]", expect: fail(/expected the arguments to be an object .*got an array/, "INVALID_INPUT") },
    { id: "m43-args-code-lines-array", src: "habit (code as an array of lines)", args: { code: ["const n = 2;", "return n;"], explanation: "x" }, expect: any(ok(2), fail(/code.*(string|array|lines)/)) },
    { id: "m43-args-langchain-arg1", src: "habit (LangChain's single-input __arg1)", args: { __arg1: "return 2;" }, expect: ok(2) },
    { id: "m43-args-input-string", src: "habit (LangChain DynamicTool's { input: string })", args: { input: COUNT }, expect: any(ok(3), fail(/code/, "INVALID_INPUT")) },
    { id: "m43-args-crlf-fence", src: "habit (Windows line ends in and around a fence)", code: "```js\r\nconst rows = await tools.orders.search({});\r\nreturn rows.length;\r\n```\r\n", expect: ok(3) },
    { id: "m43-args-html-entities", src: "habit (code HTML-escaped on its way: =&gt; and &amp;&amp;)", code: "const rows = await tools.orders.search({});\nreturn rows.filter((o) =&gt; o.total &gt; 20 &amp;&amp; o.status === &quot;open&quot;).length;", expect: any(ok(1), fail(/&gt;|&amp;|entit|HTML/)) },
    { id: "m43-args-escaped-backticks", src: "habit (backticks escaped as if inside a template)", code: "const n = (await tools.orders.search({})).length;\nreturn \\`orders: ${n}\\`;", expect: fail(/write the backtick itself/, "SYNTAX") },
    { id: "m43-args-code-tag", src: "habit (the program in <code> tags)", code: L("<code>", COUNT, "</code>"), expect: any(ok(3), fail(/<code>|tag|markup/)) },

    // --- How the program names and calls tools
    { id: "m43-tools-bracket-full-name", src: "habit (tools[\"orders.get\"])", code: "return (await tools[\"orders.get\"]({ id: \"o-1\" })).total;", expect: any(ok(30), fail(/tools\.orders\.get/)) },
    { id: "m43-tools-flat-underscore", src: "habit (the flattened name on tools)", code: "return (await tools.orders_get({ id: \"o-1\" })).total;", expect: fail(/did you mean orders\.get/) },
    { id: "m43-tool-invoke-method", src: "habit (LangChain's tool.invoke(input))", code: "return (await tools.orders.get.invoke({ id: \"o-1\" })).total;", expect: any(ok(30), fail(/tools\.orders\.get\(/)) },
    { id: "m43-tool-function-call-method", src: "habit (fn.call(input), as if call meant invoke)", code: "return (await tools.orders.get.call({ id: \"o-1\" })).total;", expect: fail(/^tools\.orders\.get\.call\(x\) passes x as this, not as the input: call tools\.orders\.get\(x\)$/) },
    { id: "m43-tool-call-colon-name", src: "habit (tool_call of \"orders:get\")", code: "return (await tool_call(\"orders:get\", { id: \"o-2\" })).total;", expect: any(ok(12), fail(/orders\.get/)) },
    { id: "m43-tool-call-underscore-name", src: "habit (tool_call of the flattened name)", code: "return (await tool_call(\"orders_get\", { id: \"o-2\" })).total;", expect: any(ok(12), fail(/orders\.get/)) },
    { id: "m43-tool-call-capitalised-name", src: "habit (tool_call of \"Orders.Get\")", code: "return (await tool_call(\"Orders.Get\", { id: \"o-3\" })).total;", expect: any(ok(50), fail(/orders\.get/)) },
    { id: "m43-input-json-string", src: "habit (the input as JSON text)", code: "return (await tools.orders.get(JSON.stringify({ id: \"o-1\" }))).total;", expect: any(ok(30), fail(/JSON\.stringify|object|text/)) },
    { id: "m43-input-arguments-wrapper", src: "habit ({ arguments: input }, as MCP's callTool)", code: "return (await tools.orders.get({ arguments: { id: \"o-1\" } })).total;", expect: any(ok(30), fail(/arguments/)) },
    { id: "m43-mcp-client-call-tool", src: "habit (an MCP client's callTool)", code: "const r = await mcp.callTool({ name: \"orders.get\", arguments: { id: \"o-1\" } });\nreturn r.total;", expect: fail(/mcp|tools\.orders\.get/) },
    { id: "m43-refund-idempotency-key", src: "habit (a randomUUID idempotency key the tool does not take)", code: "return await tools.payments.refund({ orderId: \"o-1\", amount: 5, idempotencyKey: crypto.randomUUID() });", expect: fail(/idempotencyKey/) },
    { id: "m43-abort-signal-in-input", src: "habit (AbortSignal.timeout inside the input)", code: "return (await tools.orders.search({ status: \"open\", signal: AbortSignal.timeout(5000) })).length;", expect: any(ok(2), fail(/AbortSignal/)) },
    { id: "m43-tool-search-q-in-code", src: "habit (tool_search({ q }))", code: "const hits = await tool_search({ q: \"refund\" });\nreturn hits[0].name;", expect: any(ok("payments.refund"), fail(/query/)) },
    { id: "m43-tool-search-options-object", src: "habit (tool_search(text, { limit }))", code: "const hits = await tool_search(\"refund\", { limit: 3 });\nreturn hits[0].name;", expect: any(ok("payments.refund"), fail(/limit/)) },
    { id: "m43-tool-search-results-field", src: "habit (reads .results of tool_search's answer)", code: "const res = await tool_search({ query: \"refund\" });\nreturn res.results[0].name;", expect: any(ok("payments.refund"), fail(/array|results/)) },

    // --- Python slipped in
    { id: "m43-py-try-except-block", src: "habit (a Python try/except block)", code: L("try:", "    o = await tools.orders.get({ id: \"o-9\" })", "except Exception as e:", "    print(e)"), expect: fail(/Python|JavaScript|try|catch/) },
    { id: "m43-py-str-format", src: "habit (\"{}\".format(x))", code: L("const n = (await tools.orders.search({})).length;", "return \"{} orders\".format(n);"), expect: any(ok("3 orders"), fail(/template|`/)) },
    { id: "m43-py-upper", src: "habit (s.upper())", code: L("const o = await tools.orders.get({ id: \"o-1\" });", "return o.status.upper();"), expect: fail(/o\.status\.toUpperCase\(\)/) },
    { id: "m43-py-dict-get-default", src: "habit (obj.get(key, default) on a plain object)", code: L("const counts = {};", "for (const o of await tools.orders.search({})) counts[o.status] = (counts[o.status] ?? 0) + 1;", "return counts.get(\"cancelled\", 0);"), expect: any(ok(0), fail(/\?\?|\[/)) },
    { id: "m43-py-asyncio-gather", src: "habit (asyncio.gather for Promise.all)", code: L("const [a, b] = await asyncio.gather(tools.orders.get({ id: \"o-1\" }), tools.orders.get({ id: \"o-2\" }));", "return a.total + b.total;"), expect: fail(/Promise\.all\(\[a, b\]\)/) },
    { id: "m43-py-hash-comment", src: "habit (a # comment line)", code: L("# count the open orders", "const rows = await tools.orders.search({ status: \"open\" });", "return rows.length;"), expect: any(ok(2), fail(/#|\/\//)) },
    { id: "m43-py-docstring", src: "habit (a triple-quoted docstring on top)", code: L("\"\"\"Count the open orders.\"\"\"", "const rows = await tools.orders.search({ status: \"open\" });", "return rows.length;"), expect: any(ok(2), fail(/"""|docstring|\/\*/)) },
    { id: "m43-py-is-none", src: "habit (x is None)", code: L("const o = (await tools.orders.search({})).find((x) => x.total > 100);", "if (o is None) return \"none\";", "return o.id;"), expect: fail(/null|is None|===/) },
    { id: "m43-py-conditional-expression", src: "habit (a if c else b)", code: L("const n = (await tools.orders.search({})).length;", "return \"many\" if n > 1 else \"one\";"), expect: fail(/\?|if.*else|ternary/) },
    { id: "m43-py-in-array", src: "habit (Python's in on a list: JavaScript's in reads indexes)", code: L("const ids = (await tools.orders.search({})).map((o) => o.id);", "return \"o-1\" in ids;"), expect: any(ok(true), okWarned(/includes/)),
        left: { why: "JavaScript's own rule (in reads an array's indexes): the run cannot see that ids is an array where the code says in, and a warning for every string in a name would fire on objects, where in is meant; Python's in in a syntax error's line has its hint (xs.includes(x))", got: ok(false) } },

    // --- Async habits
    { id: "m43-map-async-no-promise-all", src: "habit (map(async) returned without Promise.all)", code: L("const rows = await tools.orders.search({ status: \"open\" });", "const names = rows.map(async (o) => (await tools.customers.get({ id: o.customerId })).name);", "return names;"), expect: okWarn([null, null], /await Promise\.all/) },
    { id: "m43-map-block-without-return", src: "habit (a block-bodied arrow in Promise.all that returns nothing)", code: L("const ids = [\"o-1\", \"o-2\"];", "const orders = await Promise.all(ids.map((id) => { tools.orders.get({ id }); }));", "return orders.map((o) => o.total);"), expect: any(ok([30, 12]), fail(/return/), okWarned(/return/)) },
    { id: "m43-foreach-async-sum", src: "habit (forEach(async) adding to a total it returns)", code: L("let total = 0;", "const rows = await tools.orders.search({});", "rows.forEach(async (o) => {", "  const c = await tools.customers.get({ id: o.customerId });", "  if (c.name === \"Ada\") total += o.total;", "});", "return total;"), expect: any(ok(80), okWarned(/forEach/)) },
    { id: "m43-foreach-async-refund", src: "habit (forEach(async) of refunds, then a report)", code: L("const ids = [\"o-1\", \"o-2\"];", "ids.forEach(async (id) => {", "  await tools.payments.refund({ orderId: id, amount: 1 });", "});", "return `refunded ${ids.length} orders`;"), expect: okWarned(/forEach|await/) },
    { id: "m43-await-array-of-promises", src: "habit (await on an array of promises)", code: L("const ids = [\"o-1\", \"o-2\"];", "const orders = await ids.map((id) => tools.orders.get({ id }));", "return orders.map((o) => o.total);"), expect: any(ok([30, 12]), okWarned(/Promise\.all/), fail(/Promise\.all/)) },
    { id: "m43-then-without-await", src: "habit (.then(console.log) as the last statement)", code: "tools.orders.search({}).then((rows) => console.log(rows.length));", expect: any(okLog(/^3$/), okWarned(/await/)) },
    { id: "m43-reduce-async-chain", src: "habit (an async reduce that awaits its accumulator)", code: L("const rows = await tools.orders.search({});", "return await rows.reduce(async (accP, o) => {", "  const acc = await accP;", "  const c = await tools.customers.get({ id: o.customerId });", "  return c.name === \"Ada\" ? acc + o.total : acc;", "}, Promise.resolve(0));"), expect: ok(80) },
    { id: "m43-reduce-async-no-await-acc", src: "habit (an async reduce that adds to a promise)", code: L("const rows = await tools.orders.search({});", "return await rows.reduce(async (acc, o) => acc + (await tools.orders.get({ id: o.id })).total, 0);"), expect: okWarn("[object Promise]50", /\[object Promise\].*reduce\(async/) },
    { id: "m43-retry-sleep-loop", src: "habit (three tries with a sleep between)", code: L("const sleep = (ms) => new Promise((r) => setTimeout(r, ms));", "let last;", "for (let attempt = 1; attempt <= 3; attempt++) {", "  try {", "    return await tools.orders.get({ id: \"o-9\" });", "  } catch (e) {", "    last = e;", "    console.log(`attempt ${attempt} failed`);", "    await sleep(50 * attempt);", "  }", "}", "return `gave up: ${last.message}`;"), expect: { ok: true }, check: both(logs(/attempt 3 failed/), (r) => (/^gave up: .*o-9 not found/.test(r.result) ? null : `result ${JSON.stringify(r.result)}`)) },
    { id: "m43-set-interval-poll", src: "habit (polls with setInterval until a condition)", code: L("let tries = 0;", "const rows = await new Promise((resolve) => {", "  const timer = setInterval(async () => {", "    tries++;", "    if (tries < 3) return;", "    clearInterval(timer);", "    resolve(await tools.orders.search({ status: \"open\" }));", "  }, 20);", "});", "return [tries, rows.length];"), expect: ok([3, 2]) },
    { id: "m43-atomics-wait-sleep", src: "habit (Atomics.wait as a synchronous sleep)", code: L("Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);", COUNT), expect: any(ok(3), fail(/setTimeout/)) },
    { id: "m43-performance-mark-measure", src: "habit (performance.mark/measure around a call)", code: L("performance.mark(\"a\");", "await tools.orders.search({});", "performance.mark(\"b\");", "const m = performance.measure(\"search\", \"a\", \"b\");", "return typeof m.duration;"), expect: any(ok("number"), fail(/performance\.(mark|measure)|performance\.now/)) },
    { id: "m43-labelled-break-with-await", src: "habit (break outer from a loop over awaited pages)", code: L("let hit = null;", "outer: for (const status of [\"open\", \"shipped\"]) {", "  for (const o of await tools.orders.search({ status })) {", "    if (o.total > 40) { hit = o.id; break outer; }", "  }", "}", "return hit;"), expect: ok("o-3") },
    { id: "m43-labelled-continue-with-await", src: "habit (continue outer)", code: L("const kept = [];", "outer: for (const status of [\"open\", \"shipped\"]) {", "  for (const o of await tools.orders.search({ status })) {", "    if (o.total < 20) continue outer;", "    kept.push(o.id);", "  }", "}", "return kept;"), expect: ok(["o-1", "o-3"]) },
    { id: "m43-paginate-while-cursor", src: "habit (while (cursor) over a tool that has no cursor)", code: L("const all = [];", "let cursor;", "do {", "  const page = await tools.orders.search({ limit: 2, cursor });", "  all.push(...page.items);", "  cursor = page.nextCursor;", "} while (cursor);", "return all.length;"), expect: fail(/page\.items is undefined; page holds what tools\.orders\.search gives/) },
    { id: "m43-paginate-page-number", src: "habit (page numbers until an empty page)", code: L("const all = [];", "for (let page = 1; ; page++) {", "  const rows = await tools.orders.search({ page, limit: 2 });", "  if (rows.length === 0) break;", "  all.push(...rows);", "}", "return all.length;"), expect: fail(/page/) },

    // --- Results JSON cannot hold as they are
    { id: "m43-return-map-number-keys", src: "habit (a Map keyed by index)", code: L("const rows = await tools.orders.search({});", "return new Map(rows.map((o, i) => [i, o.id]));"), expect: okWarn([[0, "o-1"], [1, "o-2"], [2, "o-3"]], /Map/) },
    { id: "m43-return-map-of-arrays", src: "habit (orders grouped by customer in a Map)", code: L("const by = new Map();", "for (const o of await tools.orders.search({})) {", "  if (!by.has(o.customerId)) by.set(o.customerId, []);", "  by.get(o.customerId).push(o.id);", "}", "return { byCustomer: by };"), expect: okWarn({ byCustomer: { "c-1": ["o-1", "o-3"], "c-2": ["o-2"] } }, /byCustomer: a Map/) },
    { id: "m43-return-set-of-customers", src: "habit (the distinct customers as a Set)", code: "return new Set((await tools.orders.search({})).map((o) => o.customerId));", expect: okWarn(["c-1", "c-2"], /Set/) },
    { id: "m43-return-class-prototype-getter", src: "habit (a class whose total is a getter)", code: L("class Summary {", "  constructor(rows) { this.rows = rows.map((o) => o.id); this._t = rows.reduce((s, o) => s + o.total, 0); }", "  get total() { return this._t; }", "}", "return new Summary(await tools.orders.search({}));"), expect: any(ok({ rows: ["o-1", "o-2", "o-3"], _t: 92, total: 92 }), okWarned(/total|getter/)) },
    { id: "m43-return-object-getter", src: "habit (a getter in a returned object literal)", code: L("const rows = await tools.orders.search({});", "return { rows: rows.length, get open() { return rows.filter((o) => o.status === \"open\").length; } };"), expect: ok({ rows: 3, open: 2 }) },
    { id: "m43-return-invalid-date", src: "habit (a Date of a field the data lacks)", code: L("const o = await tools.orders.get({ id: \"o-1\" });", "return { id: o.id, created: new Date(o.createdAt) };"), expect: any(okWarn({ id: "o-1", created: null }, /Invalid Date|createdAt/), fail(/Invalid Date|createdAt/)),
        left: { why: "an Invalid Date's own toJSON gives null before the result's converter sees it, which only the holder's property read again would tell (a getter or a Proxy trap would run twice); toISOString of one has its hint", got: ok({ id: "o-1", created: null }) } },
    { id: "m43-return-dates-nested", src: "habit (Date objects in the result)", code: L("const day = new Date(Date.UTC(2025, 0, 15));", "return { from: day, to: new Date(day.getTime() + 7 * 86_400_000) };"), expect: ok({ from: "2025-01-15T00:00:00.000Z", to: "2025-01-22T00:00:00.000Z" }) },
    { id: "m43-return-sparse-array", src: "habit (an array filled by index)", code: L("const slots = [];", "for (const o of await tools.orders.search({})) slots[Number(o.id.slice(2)) * 2] = o.id;", "return slots;"), expect: ok([null, null, "o-1", null, "o-2", null, "o-3"]) },
    { id: "m43-return-undefined-in-array", src: "habit (an array with undefined holes from find)", code: L("const rows = await tools.orders.search({});", "return [\"o-1\", \"o-9\"].map((id) => rows.find((o) => o.id === id)?.total);"), expect: any(ok([30, null]), okWarn([30, null], /undefined/)) },
    { id: "m43-return-negative-zero", src: "habit (a rounded negative change)", code: "return { change: Math.round(-0.4), ratio: -0 / 5 };", expect: ok({ change: 0, ratio: 0 }) },
    { id: "m43-return-max-of-empty", src: "habit (Math.max of no values)", code: L("const big = (await tools.orders.search({})).filter((o) => o.total > 100);", "return Math.max(...big.map((o) => o.total));"), expect: any(okWarn("-Infinity", /Infinity/), fail(/Infinity/)) },
    { id: "m43-return-caught-errors", src: "habit (collects the caught errors in the result)", code: L("const errors = [];", "for (const id of [\"o-1\", \"o-9\"]) {", "  try { await tools.orders.get({ id }); } catch (e) { errors.push(e); }", "}", "return { errors };"), expect: { ok: true }, check: (r) => (/o-9 not found/.test(JSON.stringify(r.result)) ? null : `result ${JSON.stringify(r.result)}`) },

    // --- console
    { id: "m43-console-log-huge-array", src: "habit (logs 20,000 rows to look at them)", code: L("const rows = [];", "for (let i = 0; i < 20000; i++) rows.push({ id: `o-${i}`, total: i % 97, note: \"x\".repeat(20) });", "console.log(rows);", "return rows.length;"), expect: ok(20000), check: logs(/o-0/) },
    { id: "m43-console-log-map", src: "habit (logs a Map)", code: L("const by = new Map((await tools.orders.search({})).map((o) => [o.id, o.total]));", "console.log(\"totals:\", by);", "return by.size;"), expect: ok(3), check: logs(/totals:.*o-1.*30/) },
    { id: "m43-console-log-set-and-date", src: "habit (logs a Set and a Date)", code: L("console.log(new Set([\"c-1\", \"c-2\"]), new Date(Date.UTC(2025, 0, 15)));", "return 1;"), expect: ok(1), check: logs(/c-1.*c-2.*2025-01-15/) },
    { id: "m43-console-log-css-c", src: "habit (%c styling from the browser console)", code: L("console.log(\"%cOrders: %d\", \"color: green; font-weight: bold\", 3);", "return 3;"), expect: ok(3), check: both(logs(/Orders: 3/), noLog(/color: green/)) },
    { id: "m43-console-error-caught-error", src: "habit (console.error(\"failed:\", e))", code: L("try {", "  await tools.orders.get({ id: \"o-9\" });", "} catch (e) {", "  console.error(\"failed:\", e);", "}", "return \"done\";"), expect: ok("done"), check: logs(/failed:.*o-9 not found/) },
    { id: "m43-console-dir-options", src: "habit (console.dir(obj, { depth: null }))", code: L("const o = await tools.orders.get({ id: \"o-1\" });", "console.dir({ order: o }, { depth: null });", "return o.id;"), expect: ok("o-1"), check: both(logs(/o-1/), noLog(/depth/)) },

    // --- JSON, cloning, strings
    { id: "m43-json-replacer-function", src: "habit (JSON.stringify with a replacer dropping a key)", code: L("const rows = await tools.orders.search({ status: \"open\" });", "return JSON.stringify(rows, (k, v) => (k === \"customerId\" ? undefined : v));"), expect: ok("[{\"id\":\"o-1\",\"status\":\"open\",\"total\":30},{\"id\":\"o-2\",\"status\":\"open\",\"total\":12}]") },
    { id: "m43-json-replacer-array", src: "habit (JSON.stringify with a key list and an indent)", code: L("const o = await tools.orders.get({ id: \"o-3\" });", "return JSON.stringify(o, [\"id\", \"total\"], 1);"), expect: ok("{\n \"id\": \"o-3\",\n \"total\": 50\n}") },
    { id: "m43-json-stringify-bigint", src: "habit (JSON.stringify of a BigInt)", code: "return JSON.stringify({ cents: 3000n });", expect: fail(/BigInt/i) },
    { id: "m43-json-stringify-map-field", src: "habit (JSON.stringify of an object holding a Map)", code: L("const by = new Map([[\"open\", 2]]);", "return JSON.stringify({ byStatus: by });"), expect: okWarn("{\"byStatus\":{}}", /Object\.fromEntries/) },
    { id: "m43-structured-clone-date-map", src: "habit (structuredClone keeps Dates and Maps)", code: L("const src = { when: new Date(0), by: new Map([[\"o-1\", 30]]) };", "const c = structuredClone(src);", "return [c.when instanceof Date, c.by instanceof Map, c.by.get(\"o-1\"), c.when !== src.when];"), expect: ok([true, true, 30, true]) },
    { id: "m43-structured-clone-tool-result", src: "habit (structuredClone a tool's result, then sort the copy)", code: L("const rows = await tools.orders.search({});", "const sorted = structuredClone(rows).sort((a, b) => b.total - a.total);", "return [rows[0].id, sorted[0].id];"), expect: ok(["o-1", "o-3"]) },
    { id: "m43-object-hasown", src: "habit (Object.hasOwn on a tool's result)", code: L("const o = await tools.orders.get({ id: \"o-1\" });", "return [Object.hasOwn(o, \"total\"), Object.hasOwn(o, \"createdAt\"), Object.hasOwn(o, \"toString\")];"), expect: ok([true, false, false]) },
    { id: "m43-string-raw-regex", src: "habit (String.raw for a RegExp source)", code: L("const re = new RegExp(String.raw`^o-(\\d+)$`);", "return (await tools.orders.search({})).map((o) => Number(re.exec(o.id)[1]));"), expect: ok([1, 2, 3]) },
    { id: "m43-tagged-template-sql", src: "habit (a sql`` tag building a parameterised query)", code: L("const sql = (strings, ...values) => ({ text: strings.reduce((t, s, i) => t + \"$\" + i + s), values });", "const status = \"open\";", "const q = sql`SELECT * FROM orders WHERE status = ${status} AND total > ${20}`;", "return q;"), expect: ok({ text: "SELECT * FROM orders WHERE status = $1 AND total > $2", values: ["open", 20] }) },
    { id: "m43-tagged-template-money", src: "habit (a tag formatting numbers as money)", code: L("const usd = (s, ...v) => s.reduce((out, part, i) => out + (typeof v[i - 1] === \"number\" ? `$${v[i - 1].toFixed(2)}` : v[i - 1]) + part);", "const o = await tools.orders.get({ id: \"o-2\" });", "return usd`Order ${o.id} totals ${o.total}.`;"), expect: ok("Order o-2 totals $12.00.") },

    // --- Newer built-ins
    { id: "m43-set-union-intersection", src: "habit (ES2025 Set methods)", code: L("const open = new Set((await tools.orders.search({ status: \"open\" })).map((o) => o.customerId));", "const shipped = new Set((await tools.orders.search({ status: \"shipped\" })).map((o) => o.customerId));", "return [[...open.union(shipped)].sort(), [...open.intersection(shipped)], [...open.difference(shipped)], shipped.isSubsetOf(open)];"), expect: any(ok([["c-1", "c-2"], ["c-1"], ["c-2"], true]), fail(/union|Set/)) },
    { id: "m43-iterator-map-take", src: "habit (iterator helpers map and take on values())", code: L("const rows = await tools.orders.search({});", "return rows.values().map((o) => o.id).take(2).toArray();"), expect: any(ok(["o-1", "o-2"]), fail(/take|map|Array\.from|slice/)) },
    { id: "m43-iterator-from-drop-reduce", src: "habit (Iterator.from a generator, drop and reduce)", code: L("function* totals(rows) { for (const o of rows) yield o.total; }", "const rows = await tools.orders.search({});", "return Iterator.from(totals(rows)).drop(1).reduce((a, b) => a + b, 0);"), expect: any(ok(62), fail(/Iterator/)) },
    { id: "m43-array-fromasync-generator", src: "habit (Array.fromAsync of an async generator of pages)", code: L("async function* pages() {", "  for (const status of [\"open\", \"shipped\"]) yield* await tools.orders.search({ status });", "}", "return (await Array.fromAsync(pages())).map((o) => o.id);"), expect: ok(["o-1", "o-2", "o-3"]) },
    { id: "m43-promise-try", src: "habit (ES2025 Promise.try)", code: "return (await Promise.try(() => tools.orders.get({ id: \"o-1\" }))).total;", expect: any(ok(30), fail(/Promise\.try/)) },
    { id: "m43-regexp-escape", src: "habit (ES2025 RegExp.escape of a user string)", code: L("const needle = \"o-1 (open)\";", "return new RegExp(RegExp.escape(needle)).test(\"order o-1 (open) total 30\");"), expect: any(ok(true), fail(/RegExp\.escape/)) },
    { id: "m43-string-is-well-formed", src: "habit (isWellFormed/toWellFormed before sending text)", code: "const s = \"ab\\uD800\";\nreturn [s.isWellFormed(), s.toWellFormed()];", expect: any(ok([false, "ab\uFFFD"]), fail(/isWellFormed/)) },
    { id: "m43-error-cause", src: "habit (rethrow with { cause })", code: L("try {", "  await tools.orders.get({ id: \"o-9\" });", "} catch (e) {", "  throw new Error(\"lookup failed\", { cause: e });", "}"), expect: any(fail(/lookup failed.*o-9 not found/s), fail(/lookup failed/)) },
    { id: "m43-aggregate-error", src: "habit (Promise.any where every call fails)", code: "return await Promise.any([\"o-8\", \"o-9\"].map((id) => tools.orders.get({ id })));", expect: fail(/o-8|o-9|not found|AggregateError|rejected/) },

    // --- Intl and dates
    { id: "m43-intl-currency-variants", src: "habit (USD, JPY without decimals, a signed percent)", code: L("return [", "  new Intl.NumberFormat(\"en-US\", { style: \"currency\", currency: \"USD\" }).format(92),", "  new Intl.NumberFormat(\"en-US\", { style: \"currency\", currency: \"JPY\" }).format(1234.5),", "  new Intl.NumberFormat(\"en-US\", { style: \"percent\", signDisplay: \"always\" }).format(0.05),", "];"), expect: ok(["$92.00", "¥1,235", "+5%"]) },
    { id: "m43-tolocalestring-currency", src: "habit (number.toLocaleString with a currency)", code: L("const total = (await tools.orders.search({})).reduce((s, o) => s + o.total, 0) * 13.5;", "return total.toLocaleString(\"en-US\", { style: \"currency\", currency: \"USD\" });"), expect: ok("$1,242.00") },
    { id: "m43-intl-unit", src: "habit (a unit format)", code: "return new Intl.NumberFormat(\"en-US\", { style: \"unit\", unit: \"kilogram\", unitDisplay: \"short\" }).format(12);", expect: any(ok("12 kg"), fail(/unit/)) },
    { id: "m43-date-long-weekday", src: "habit (toLocaleDateString with weekday and long month)", code: "return new Date(\"2025-01-15T12:00:00Z\").toLocaleDateString(\"en-US\", { weekday: \"long\", year: \"numeric\", month: \"long\", day: \"numeric\", timeZone: \"UTC\" });", expect: ok("Wednesday, January 15, 2025") },
    { id: "m43-date-short-month-day", src: "habit (toLocaleDateString(undefined, { month: \"short\", day: \"numeric\" }))", code: "return new Date(\"2025-01-15T12:00:00Z\").toLocaleDateString(undefined, { month: \"short\", day: \"numeric\", timeZone: \"UTC\" });", expect: ok("Jan 15") },
    { id: "m43-time-12-hour", src: "habit (toLocaleTimeString with numeric hour)", code: "return new Date(\"2025-01-15T15:30:00Z\").toLocaleTimeString(\"en-US\", { hour: \"numeric\", minute: \"2-digit\", timeZone: \"UTC\" });", expect: { ok: true }, check: (r) => (/^3:30\sPM$/u.test(r.result) ? null : `result ${JSON.stringify(r.result)}`) },
    { id: "m43-dst-plus-24-hours", src: "habit (24 hours added across New York's spring change)", code: L("const hour = (d) => Number(new Intl.DateTimeFormat(\"en-US\", { timeZone: \"America/New_York\", hour: \"numeric\", hourCycle: \"h23\" }).format(d));", "const start = new Date(\"2025-03-09T06:30:00Z\");", "const next = new Date(start.getTime() + 24 * 3600 * 1000);", "return [hour(start), hour(next)];"), expect: ok([1, 2]) },
    { id: "m43-dst-zone-names", src: "habit (the zone's short name in winter and summer)", code: L("const name = (d) => new Intl.DateTimeFormat(\"en-US\", { timeZone: \"America/New_York\", timeZoneName: \"short\" }).formatToParts(d).find((p) => p.type === \"timeZoneName\").value;", "return [name(new Date(\"2025-01-15T12:00:00Z\")), name(new Date(\"2025-07-15T12:00:00Z\"))];"), expect: ok(["EST", "EDT"]) },
    { id: "m43-date-start-of-week", src: "habit (the Monday of a date's week, in UTC)", code: L("const d = new Date(\"2025-01-15T00:00:00Z\");", "d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));", "return d.toISOString().slice(0, 10);"), expect: ok("2025-01-13") },
    { id: "m43-date-last-day-of-month", src: "habit (day 0 of the next month)", code: "return [new Date(Date.UTC(2024, 2, 0)).getUTCDate(), new Date(Date.UTC(2025, 2, 0)).getUTCDate()];", expect: ok([29, 28]) },
    { id: "m43-date-parse-us-format", src: "habit (new Date(\"01/15/2025\"))", code: "const d = new Date(\"01/15/2025\");\nreturn [d.getFullYear(), d.getMonth() + 1, d.getDate()];", expect: any(ok([2025, 1, 15]), fail(/Date|01\/15\/2025/)) },
    { id: "m43-date-parse-month-name", src: "habit (new Date(\"Jan 15, 2025\"))", code: "const d = new Date(\"Jan 15, 2025\");\nreturn [d.getFullYear(), d.getMonth() + 1, d.getDate()];", expect: any(ok([2025, 1, 15]), fail(/Date|Jan 15/)) },

    // --- Text building and parsing
    { id: "m43-csv-with-quoting", src: "habit (CSV with a header and quoted fields)", code: L("const rows = await tools.orders.search({});", "const esc = (v) => (/[\",\\n]/.test(String(v)) ? `\"${String(v).replaceAll('\"', '\"\"')}\"` : String(v));", "const lines = [[\"id\", \"note\", \"total\"], ...rows.map((o) => [o.id, o.total > 40 ? 'big, \"priority\"' : \"\", o.total])];", "return lines.map((r) => r.map(esc).join(\",\")).join(\"\\n\");"), expect: ok("id,note,total\no-1,,30\no-2,,12\no-3,\"big, \"\"priority\"\"\",50") },
    { id: "m43-markdown-table", src: "habit (a Markdown table with padEnd)", code: L("const rows = await tools.orders.search({});", "const head = \"| id  | status  | total |\\n|-----|---------|------:|\";", "const body = rows.map((o) => `| ${o.id} | ${o.status.padEnd(7)} | ${String(o.total).padStart(5)} |`);", "return [head, ...body].join(\"\\n\");"), expect: ok("| id  | status  | total |\n|-----|---------|------:|\n| o-1 | open    |    30 |\n| o-2 | open    |    12 |\n| o-3 | shipped |    50 |") },
    { id: "m43-regex-log-named-groups", src: "habit (log lines parsed with named groups and matchAll)", code: L("const log = `2025-01-15T10:00:00Z ERROR order=o-1 payment declined", "2025-01-15T10:01:00Z INFO order=o-2 shipped", "2025-01-15T10:02:00Z ERROR order=o-1 retry failed`;", "const re = /^(?<ts>\\S+) (?<level>[A-Z]+) order=(?<id>o-\\d+) (?<msg>.+)$/gm;", "const errors = {};", "for (const { groups } of log.matchAll(re)) if (groups.level === \"ERROR\") errors[groups.id] = (errors[groups.id] ?? 0) + 1;", "return errors;"), expect: ok({ "o-1": 2 }) },
    { id: "m43-regex-thousands", src: "habit (thousands separators by lookahead)", code: "return String(1234567).replace(/\\B(?=(\\d{3})+(?!\\d))/g, \",\");", expect: ok("1,234,567") },
    { id: "m43-regex-sticky-tokenizer", src: "habit (a tokenizer with the y flag)", code: L("const re = /\\s*(\\d+|[a-z]+|[=<>]+)/y;", "const src = \"total >= 30\";", "const out = [];", "let m;", "while ((m = re.exec(src))) out.push(m[1]);", "return out;"), expect: ok(["total", ">=", "30"]) },
    { id: "m43-regex-split-capture", src: "habit (split keeping the separators)", code: "return \"o-1,o-2;o-3\".split(/([,;])/);", expect: ok(["o-1", ",", "o-2", ";", "o-3"]) },
    { id: "m43-regex-currency-symbol", src: "habit (amounts after any currency sign, \\p{Sc})", code: "return [...\"Paid €12.50, refunded $30 and ¥500\".matchAll(/(\\p{Sc})\\s?(\\d+(?:\\.\\d+)?)/gu)].map((m) => [m[1], Number(m[2])]);", expect: ok([["€", 12.5], ["$", 30], ["¥", 500]]) },
    { id: "m43-regex-replace-named-fn", src: "habit (replace with a function reading named groups)", code: "return \"call orders.get and payments.refund\".replace(/(?<ns>[a-z]+)\\.(?<fn>[a-z]+)/g, (...a) => { const g = a.at(-1); return `${g.ns}_${g.fn}`; });", expect: ok("call orders_get and payments_refund") },

    // --- searchTools' arguments
    { id: "m43-search-q", src: "habit ({ q })", search: { q: "refund" }, expect: found("payments.refund") },
    { id: "m43-search-search-key", src: "habit ({ search })", search: { search: "refund" }, expect: found("payments.refund") },
    { id: "m43-search-keywords-text", src: "habit ({ keywords } as text)", search: { keywords: "refund payment" }, expect: found("payments.refund") },
    { id: "m43-search-tags", src: "habit ({ tags: [...] })", search: { tags: ["refund"] }, expect: any(found("payments.refund"), fail(/query/)) },
    { id: "m43-search-category", src: "habit ({ category } of a namespace)", search: { category: "payments" }, expect: any(found("payments.refund"), fail(/namespace|query/)) },
    { id: "m43-search-category-beside-query", src: "habit ({ query, category })", search: { query: "refund", category: "payments" }, expect: found("payments.refund") },
    { id: "m43-search-filter-text", src: "habit ({ query, filter: \"payments\" })", search: { query: "refund", filter: "payments" }, expect: found("payments.refund") },
    { id: "m43-search-limit-word", src: "habit (limit: \"ten\")", search: { query: "order", limit: "ten" }, expect: any(found("orders.get"), fail(/limit/)) },
    { id: "m43-search-limit-with-unit", src: "habit (limit: \"5 results\")", search: { query: "order", limit: "5 results" }, expect: any(found("orders.get"), fail(/limit/)) },
    { id: "m43-search-namespace-capital", src: "habit (namespace: \"Orders\")", search: { query: "get", namespace: "Orders" }, expect: any(found("orders.get"), fail(/"orders"/)) },
    { id: "m43-search-namespace-singular", src: "habit (namespace: \"order\")", search: { query: "get", namespace: "order" }, expect: any(found("orders.get"), fail(/did you mean "orders"/)) },
    { id: "m43-search-namespace-array", src: "habit (namespace: [two])", search: { query: "get", namespace: ["orders", "customers"] }, expect: any(found("orders.get"), fail(/namespace/)), check: (r) => (Array.isArray(hitsOf(r)) ? lists("orders.get", "customers.get")(r) : null) },
    { id: "m43-search-query-uppercase", src: "habit (query in capitals)", search: { query: "REFUND" }, expect: found("payments.refund") },
    { id: "m43-search-query-camel-guess", src: "habit (a camelCase name it guessed)", search: { query: "refundOrder" }, expect: found("payments.refund") },
    { id: "m43-search-query-glob", src: "habit (query: \"orders.*\")", search: { query: "orders.*" }, expect: found("orders.get") },
    { id: "m43-search-query-double-colon", src: "habit (query: \"payments::refund\")", search: { query: "payments::refund" }, expect: found("payments.refund") },
    { id: "m43-search-query-long-sentence", src: "habit (the user's request as the query)", search: { query: "I need to give the customer back $30 for order o-1, please refund it" }, expect: found("payments.refund") },
    { id: "m43-search-list-all-tools", src: "habit (asks the search for every tool)", search: { query: "list all available tools" }, expect: found("orders.get"), check: lists(...ALL) },
    { id: "m43-search-python-dict-true", src: "habit (a Python dict with True)", search: "{'query': 'refund', 'limit': 5, 'detailed': True}", expect: found("payments.refund") },
    { id: "m43-search-json-none", src: "habit (JSON with a Python None)", search: "{\"query\": \"refund\", \"namespace\": None}", expect: found("payments.refund") },
    { id: "m43-search-glm-markup", src: "habit (GLM markup as the search's arguments)", search: "<tool_call>searchTools\n<arg_key>query</arg_key>\n<arg_value>refund</arg_value>\n</tool_call>", expect: found("payments.refund") },
    { id: "m43-search-lone-query-prefix", src: "habit (the text \"query: refund\")", search: "query: refund", expect: found("payments.refund") },
];
