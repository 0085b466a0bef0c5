// Session 39: round two of what today's models send to executeCode and
// searchTools, in styles the earlier batches (model-outputs-cases.mjs,
// model-programs-cases.mjs, model-programs38-cases.mjs) did not cover:
// Python habits, console.log or JSON.stringify as the answer, Promise.all
// and allSettled with a failing call, for await over a tool's result,
// require("tools"), await chains, values JSON has no word for, tool names
// and calls in the wrong shape, searchTools' names inside the program,
// tool-call markup around the code, and the text's own bytes (CRLF, BOM,
// tabs, non-breaking and zero-width spaces). Written before reading how the
// product handles them. Rows are as in model-outputs-cases.mjs (ok, okLog,
// fail, found, any, warn, left), run against its catalog() plus
// model-programs38-cases.mjs's extraTools(); a row may add `check(res)`,
// which returns null or why the result is wrong.
import { any, fail, found, ok, okLog } from "./model-outputs-cases.mjs";

const L = (...lines) => lines.join("\n");
const fence = (lang, ...lines) => "```" + lang + "\n" + L(...lines) + "\n```";
/** ok with a warn log: the value, and a warning that says what was changed. */
const okWarn = (value, warn) => ({ ok: true, value, warn });
/** ok, whatever the value (the row's check judges it). */
const okAny = { ok: true };

/** The run's JSON (result, error and logs) mentions text. */
const says = (text) => (res) => (JSON.stringify(res).includes(text) ? null : `nothing says ${JSON.stringify(text)}`);
const hitCount = (n) => (res) => {
    if (res?.ok === false) return null; // a failure is judged by the row's expect
    const hits = Array.isArray(res) ? res : res?.hits ?? res?.result ?? res?.tools;
    return Array.isArray(hits) && hits.length === n ? null : `wanted ${n} hits: ${JSON.stringify(res).slice(0, 300)}`;
};

export const rows39 = [
    // --- Python habits
    { id: "m39-py-print-template", src: "habit (print() of a JavaScript template)", code: L("const n = (await tools.orders.search({ status: \"open\" })).length;", "print(`open: ${n}`);"), expect: any(okLog(/^open: 2$/), fail(/print.*console\.log|console\.log.*print/)) },
    { id: "m39-py-async-def-asyncio", src: "habit (a Python entry point)", code: L("async def main():", "    orders = await tools.orders.search({\"status\": \"open\"})", "    print(len(orders))", "", "asyncio.run(main())"), expect: fail(/Python|JavaScript/, "SYNTAX") },
    { id: "m39-py-fstring-single-quotes", src: "habit (f'...' in a return)", code: L("const open = await tools.orders.search({ status: \"open\" });", "const shipped = await tools.orders.search({ status: \"shipped\" });", "return f'{open.length} open, {shipped.length} shipped';"), expect: fail(/template|`/, "SYNTAX") },
    { id: "m39-py-none-in-tool-arg", src: "habit (None for an optional field)", code: "return (await tools.orders.search({ status: \"open\", limit: None })).length;", expect: any(ok(2), fail(/\bnull\b|undefined|leave .*out|omit/)) },
    { id: "m39-py-elif", src: "habit (elif for else if)", code: L("const o = await tools.orders.get({ id: \"o-3\" });", "if (o.total > 100) { return \"big\"; }", "elif (o.total > 40) { return \"medium\"; }", "else { return \"small\"; }"), expect: fail(/else if/, "SYNTAX") },
    { id: "m39-py-is-none", src: "habit (is None)", code: L("const c = await tools.customers.get({ id: \"c-1\" });", "if (c.email is None) return \"no email\";", "return c.email;"), expect: fail(/===? ?null|== null/, "SYNTAX") },
    { id: "m39-py-not-in", src: "habit (not in)", code: L("const ids = (await tools.orders.search({})).map((o) => o.id);", "return \"o-9\" not in ids;"), expect: fail(/includes/, "SYNTAX") },
    { id: "m39-py-list-comprehension", src: "habit (a list comprehension)", code: L("const orders = await tools.orders.search({});", "return [o.id for o in orders if o.total > 20];"), expect: fail(/\.map|\.filter/, "SYNTAX") },
    { id: "m39-py-str-format", src: "habit (str.format)", code: L("const open = await tools.orders.search({ status: \"open\" });", "return \"{} open orders\".format(open.length);"), expect: fail(/template|`/) },
    { id: "m39-py-range", src: "habit (range() in a loop)", code: L("const orders = await tools.orders.search({});", "let total = 0;", "for (const i of range(orders.length)) total += orders[i].total;", "return total;"), expect: any(ok(92), fail(/range.*(Array\.from|for \(let|\.keys\(\))/)) },
    { id: "m39-py-dict-get", src: "habit (dict.get with a default)", code: L("const c = await tools.customers.get({ id: \"c-1\" });", "return c.get(\"name\", \"unknown\");"), expect: any(ok("Ada"), fail(/c\.name|c\["name"\]|\?\?/)) },
    { id: "m39-py-docstring", src: "habit (a docstring first)", code: L("\"\"\"Count the open orders.\"\"\"", "const open = await tools.orders.search({ status: \"open\" });", "return open.length;"), expect: any(ok(2), fail(/"""|\/\/|comment/, "SYNTAX")) },

    // --- console.log (and friends) instead of return
    { id: "m39-log-format-specifier", src: "habit (printf-style console.log)", code: L("const open = await tools.orders.search({ status: \"open\" });", "console.log(\"%d open orders, %s\", open.length, open.map((o) => o.id).join(\",\"));"), expect: okLog(/^2 open orders, o-1,o-2$/) },
    { id: "m39-log-array-of-objects", src: "habit (the rows logged as they are)", code: L("const orders = await tools.orders.search({ status: \"open\" });", "console.log(orders.map((o) => ({ id: o.id, total: o.total })));"), expect: okLog(/o-1.*30.*o-2.*12/) },
    { id: "m39-console-dir-depth", src: "habit (Node's console.dir with options)", code: L("const summary = { open: (await tools.orders.search({ status: \"open\" })).length };", "console.dir(summary, { depth: null });"), expect: okLog(/"?open"?: ?2/), check: (res) => ((res.logs ?? []).some((l) => /depth/.test(l.message)) ? "the options object was logged as data" : null) },
    { id: "m39-process-stdout-write", src: "habit (Node's stdout)", code: L("const open = await tools.orders.search({ status: \"open\" });", "process.stdout.write(JSON.stringify({ open: open.length }) + \"\\n\");"), expect: any(okLog(/^\{"open":2\}\n?$/), fail(/console\.log|return/)) },
    { id: "m39-log-then-bare-return", src: "habit (logs the answer, then return;)", code: L("const total = (await tools.orders.search({})).reduce((s, o) => s + o.total, 0);", "console.log(`Total: $${total}`);", "return;"), expect: okLog(/^Total: \$92$/) },
    { id: "m39-console-info-lines", src: "habit (console.info per row)", code: L("for (const o of await tools.orders.search({ status: \"open\" })) {", "  console.info(`${o.id}\\t${o.total}`);", "}"), expect: okLog(/^o-2\t12$/) },

    // --- JSON.stringify'd answers
    { id: "m39-return-json-pretty", src: "habit (pretty JSON text as the result)", code: L("const open = await tools.orders.search({ status: \"open\" });", "return JSON.stringify({ open: open.length }, null, 2);"), expect: ok("{\n  \"open\": 2\n}") },
    { id: "m39-json-stringify-bigint", src: "habit (BigInt sums, then JSON.stringify)", code: L("const total = (await tools.orders.search({})).reduce((s, o) => s + BigInt(o.total), 0n);", "return JSON.stringify({ total });"), expect: fail(/BigInt/) },
    { id: "m39-log-json-with-date", src: "habit", code: L("const o = await tools.orders.get({ id: \"o-1\" });", "console.log(JSON.stringify({ id: o.id, at: new Date(0) }));"), expect: okLog(/^\{"id":"o-1","at":"1970-01-01T00:00:00\.000Z"\}$/) },

    // --- Promise.all, allSettled, any, for await
    { id: "m39-promise-all-map-tool-ref", src: "habit (the tool itself as the map callback)", code: "return await Promise.all([\"o-1\", \"o-2\"].map(tools.orders.get));", expect: any(ok([{ id: "o-1", status: "open", total: 30, customerId: "c-1" }, { id: "o-2", status: "open", total: 12, customerId: "c-2" }]), fail(/\{ ?id: "o-1" ?\}|\(id\) => tools\.orders\.get\(\{ ?id ?\}\)/)) },
    { id: "m39-promise-all-one-missing", src: "habit (Promise.all where one call fails)", code: L("const ids = [\"o-1\", \"o-9\"];", "const orders = await Promise.all(ids.map((id) => tools.orders.get({ id })));", "return orders.map((o) => o.total);"), expect: fail(/order o-9 not found/) },
    { id: "m39-allsettled-returned-raw", src: "habit (the settled results returned as they are)", code: L("const ids = [\"o-1\", \"o-9\"];", "return await Promise.allSettled(ids.map((id) => tools.orders.get({ id })));"), expect: okAny, check: says("order o-9 not found") },
    { id: "m39-allsettled-ts-predicate", src: "habit (TypeScript's fulfilled-result predicate)", code: fence("ts", "type Order = { id: string; total: number };", "const results = await Promise.allSettled([\"o-1\", \"o-9\", \"o-3\"].map((id) => tools.orders.get({ id })));", "const ok = results.filter((r): r is PromiseFulfilledResult<Order> => r.status === \"fulfilled\").map((r) => r.value.total);", "const failed = results.filter((r): r is PromiseRejectedResult => r.status === \"rejected\").map((r) => String(r.reason.message));", "return { ok, failed };"), expect: ok({ ok: [30, 50], failed: ["order o-9 not found"] }) },
    { id: "m39-promise-any", src: "habit (the first that succeeds)", code: L("const first = await Promise.any([\"o-9\", \"o-2\"].map((id) => tools.orders.get({ id })));", "return first.id;"), expect: ok("o-2") },
    { id: "m39-for-await-unawaited-call", src: "habit (for await over the call itself)", code: L("let total = 0;", "for await (const o of tools.orders.search({})) total += o.total;", "return total;"), expect: any(ok(92), fail(/for \(const \w+ of await|await tools\.orders\.search/)) },
    { id: "m39-for-await-array-of-promises", src: "habit (for await over mapped calls)", code: L("const orders = await tools.orders.search({});", "const names = [];", "for await (const c of orders.map((o) => tools.customers.get({ id: o.customerId }))) names.push(c.name);", "return names;"), expect: ok(["Ada", "Bob", "Ada"]) },

    // --- require / import of tools, await chains
    { id: "m39-require-tools", src: "habit (CommonJS require of the global)", code: L("const tools = require(\"tools\");", "return (await tools.orders.search({ status: \"open\" })).length;"), expect: any(ok(2), fail(/require.*tools|tools.*(global|already)/s)) },
    { id: "m39-require-destructure-namespace", src: "habit", code: L("const { orders } = require(\"tools\");", "return (await orders.search({})).length;"), expect: any(ok(3), fail(/require.*tools|tools.*(global|already)/s)) },
    { id: "m39-dynamic-import-tools", src: "habit (dynamic import)", code: L("const { tools } = await import(\"tools\");", "return (await tools.orders.search({})).length;"), expect: any(ok(3), fail(/import.*tools|tools.*(global|already)/s)) },
    { id: "m39-await-then-chain", src: "habit (await on a .then chain)", code: L("const n = await tools.orders.search({ status: \"open\" }).then((r) => r.length);", "return n;"), expect: ok(2) },
    { id: "m39-await-nested-chain", src: "habit (one expression, two calls)", code: "return (await tools.customers.get({ id: (await tools.orders.get({ id: \"o-2\" })).customerId })).name;", expect: ok("Bob") },
    { id: "m39-then-log-last-line", src: "habit (a .then that logs, not awaited)", code: "tools.orders.search({}).then((r) => console.log(r.length));", expect: okLog(/^3$/) },

    // --- values JSON has no word for
    // NaN: USAGE's "What comes back" gives the string "NaN" and a warning (the row guessed null before reading it).
    { id: "m39-return-nan", src: "habit (an average of nothing)", code: L("const big = (await tools.orders.search({})).filter((o) => o.total > 100);", "return big.reduce((s, o) => s + o.total, 0) / big.length;"), expect: any(okWarn("NaN", /^result: NaN, converted to the string "NaN"/), fail(/NaN/)) },
    { id: "m39-return-typed-array", src: "habit (numbers in a Float64Array)", code: "return new Float64Array((await tools.orders.search({})).map((o) => o.total));", expect: ok([30, 12, 50]) },
    { id: "m39-return-error-object", src: "habit (an Error returned, not thrown)", code: L("const big = (await tools.orders.search({})).filter((o) => o.total > 100);", "if (!big.length) return new Error(\"no big orders\");", "return big;"), expect: any(okAny, fail(/no big orders/)), check: says("no big orders") },
    { id: "m39-return-function", src: "habit (returns the helper instead of calling it)", code: L("async function summary() {", "  return (await tools.orders.search({})).length;", "}", "return summary;"), expect: any({ ok: true, warn: /function|summary\(\)/ }, fail(/function|summary\(\)/)) },
    { id: "m39-return-set-inside", src: "habit (a Set in the answer object)", code: L("const orders = await tools.orders.search({});", "return { statuses: new Set(orders.map((o) => o.status)), count: orders.length };"), expect: ok({ statuses: ["open", "shipped"], count: 3 }) },
    { id: "m39-return-date-inside", src: "habit", code: "return { n: (await tools.orders.search({})).length, checkedAt: new Date(0) };", expect: ok({ n: 3, checkedAt: "1970-01-01T00:00:00.000Z" }) },

    // --- tool names and calls in the wrong shape
    { id: "m39-namespace-called", src: "habit (the namespace called as the tool)", code: "return (await tools.orders({ status: \"open\" })).length;", expect: fail(/tools\.orders\.search/) },
    { id: "m39-tools-called", src: "habit (tools as a dispatcher function)", code: "return (await tools(\"orders.get\", { id: \"o-1\" })).total;", expect: any(ok(30), fail(/tools\.orders\.get\(|tool_call\("orders\.get"/)) },
    { id: "m39-camel-method-name", src: "habit (getCustomer for customers.get)", code: "return (await tools.customers.getCustomer({ id: \"c-1\" })).name;", expect: any(ok("Ada"), fail(/customers\.get\b/)) },
    { id: "m39-snake-method-suffix", src: "habit (refund_payment for payments.refund)", code: "return await tools.payments.refund_payment({ orderId: \"o-1\", amount: 5 });", expect: any(ok({ orderId: "o-1", refunded: 5 }), fail(/payments\.refund\b/)) },
    { id: "m39-full-name-under-namespace", src: "habit (the full name under its namespace)", code: "return (await tools.orders[\"orders.get\"]({ id: \"o-1\" })).total;", expect: any(ok(30), fail(/tools\.orders\.get/)) },
    { id: "m39-positional-integer", src: "habit (a positional count)", code: "return await tools.reports.top(2);", expect: any(ok([50, 30]), fail(/\{ ?count: 2 ?\}/)) },
    { id: "m39-tools-searchTools", src: "habit (searchTools as a member of tools)", code: L("const hits = await tools.searchTools({ query: \"refund\" });", "return hits[0].name;"), expect: any(ok("payments.refund"), fail(/tool_search/)) },
    { id: "m39-search-tools-snake", src: "habit (search_tools)", code: L("const hits = await search_tools(\"refund\");", "return hits[0].name;"), expect: any(ok("payments.refund"), fail(/tool_search/)) },
    { id: "m39-execute-code-inside", src: "habit (executeCode called from the program)", code: "return await executeCode({ code: \"return (await tools.orders.search({})).length;\" });", expect: any(ok(3), fail(/already|call .*tools\./)) },
    { id: "m39-call-tool-named", src: "round one's leftover (callTool: name the tool the model meant)", code: "const c = await callTool(\"customers.get\", { id: \"c-2\" });\nreturn c.name;", expect: any(ok("Bob"), fail(/tools\.customers\.get\(/)) },

    // --- markup around the code
    { id: "m39-hermes-tool-call-markup", src: "habit (Qwen/Hermes <tool_call> JSON as the code)", code: L("<tool_call>", JSON.stringify({ name: "executeCode", arguments: { code: "return (await tools.orders.search({})).length;" } }), "</tool_call>"), expect: any(ok(3), fail(/tool-call markup/)) },
    { id: "m39-llama-function-tag", src: "habit (Llama 3.1 <function=...> markup)", code: "<function=executeCode>" + JSON.stringify({ code: "return (await tools.orders.search({ status: \"open\" })).length;" }) + "</function>", expect: any(ok(2), fail(/tool-call markup/)) },
    { id: "m39-invoke-parameter-xml", src: "habit (XML tool-call markup with the code as a parameter)", code: L("<invoke name=\"executeCode\">", "<parameter name=\"code\">", "const o = await tools.orders.get({ id: \"o-3\" });", "return o.total;", "</parameter>", "</invoke>"), expect: any(ok(50), fail(/tool-call markup/)) },
    { id: "m39-code-tag-language-class", src: "habit (<code class=\"language-javascript\">)", code: L("<code class=\"language-javascript\">", "const orders = await tools.orders.search({ status: \"shipped\" });", "return orders.length;", "</code>"), expect: any(ok(1), fail(/<code|tag|HTML/i)) },
    { id: "m39-python-tag-prefix", src: "habit (Llama's <|python_tag|> before code)", code: "<|python_tag|>return (await tools.orders.search({})).length;", expect: any(ok(3), fail(/python_tag/)) },

    // --- fences and the text's own bytes
    { id: "m39-fence-prose-after-inline-code", src: "habit (```javascript, then prose with `inline` code)", code: L("```javascript", "const orders = await tools.orders.search({ status: \"open\" });", "return orders.reduce((s, o) => s + o.total, 0);", "```", "", "This calls `tools.orders.search` with `{ status: \"open\" }` and sums `total`; the result is a number."), expect: ok(42) },
    { id: "m39-fence-crlf", src: "habit (a fence with Windows line ends)", code: "```js\r\nconst orders = await tools.orders.search({});\r\nreturn orders.length;\r\n```\r\n", expect: ok(3) },
    { id: "m39-fence-after-bom", src: "habit (a BOM before the fence)", code: "\uFEFF```ts\nconst n: number = (await tools.orders.search({})).length;\nreturn n;\n```", expect: ok(3) },
    { id: "m39-template-literal-crlf", src: "habit (CRLF inside a template literal: JavaScript reads it as \\n)", code: "const n = (await tools.orders.search({ status: \"open\" })).length;\r\nreturn `open:\r\n${n}`;\r\n", expect: ok("open:\n2") },
    { id: "m39-nbsp-indent-in-fence", src: "habit (copied from a page: non-breaking spaces as the indent)", code: "```js\nlet total = 0;\nfor (const o of await tools.orders.search({})) {\n\u00a0\u00a0total += o.total;\n}\nreturn total;\n```", expect: ok(92) },
    { id: "m39-nbsp-inside-string-kept", src: "habit (a non-breaking space the string means)", code: "const o = await tools.orders.get({ id: \"o-1\" });\nreturn `total:\u00a0${o.total}`;", expect: ok("total:\u00a030") },
    { id: "m39-tabs-crlf", src: "habit (tab indents, CRLF)", code: "let n = 0;\r\nfor (const o of await tools.orders.search({})) {\r\n\tif (o.status === \"open\") {\r\n\t\tn++;\r\n\t}\r\n}\r\nreturn n;", expect: ok(2) },
    { id: "m39-zero-width-space", src: "habit (a zero-width space from copied text)", code: "const orders =\u200b await tools.orders.search({});\nreturn orders.length;", expect: any(ok(3), fail(/U\+200B|zero-width/i, "SYNTAX")) },
    { id: "m39-ideographic-space", src: "habit (a full-width space)", code: "const orders = await tools.orders.search({});\u3000return orders.length;", expect: ok(3) },

    // --- endings round one left
    { id: "m39-single-key-object-last-line", src: "round one's leftover ({ count: n } as the last line)", code: L("const n = (await tools.orders.search({})).length;", "{ count: n }"), expect: any(ok({ count: 3 }), fail(/\(\{|return \{/, "SYNTAX"), okWarn(3, /^line 2 starts with \{, so it is a block, not an object literal; to give the object back, return it: return \{ \.\.\. \}$/)) },
    { id: "m39-single-key-string-last-line", src: "habit ({ answer: \"...\" } as the last line)", code: L("const c = await tools.customers.get({ id: \"c-1\" });", "{ answer: c.name }"), expect: any(ok({ answer: "Ada" }), fail(/\(\{|return \{/, "SYNTAX"), okWarn("Ada", /^line 2 starts with \{, so it is a block, not an object literal; to give the object back, return it: return \{ \.\.\. \}$/)) },
    { id: "m39-export-default-object-handler", src: "round one's leftover (export default { handler() })", code: L("export default {", "  async handler() {", "    return (await tools.orders.search({ status: \"open\" })).length;", "  },", "};"), expect: any(ok(2), fail(/export default \{|handler/)) },

    // --- searchTools' arguments
    { id: "m39-search-queries-array", src: "habit (several queries at once)", search: { queries: ["refund", "customer"] }, expect: any(found("payments.refund"), fail(/query/)) },
    { id: "m39-search-search-query-key", src: "habit (search_query)", search: { search_query: "refund" }, expect: any(found("payments.refund"), fail(/query/)) },
    { id: "m39-search-max-results", src: "habit (max_results for the limit)", search: { query: "orders", max_results: 1 }, expect: any(found("orders.search"), found("orders.get"), found("orders.bulkGet"), fail(/limit/)), check: hitCount(1) },
    { id: "m39-search-bom-json-text", src: "habit (JSON text with a BOM)", search: "\uFEFF{\"query\":\"refund\"}", expect: any(found("payments.refund"), fail(/query/)) },

    // --- executeCode's arguments
    { id: "m39-args-code-capitalised", src: "habit ({ Code })", args: { Code: "return 5;" }, expect: any(ok(5), fail(/code/, "INVALID_INPUT")) },
    { id: "m39-args-source-key", src: "habit ({ source })", args: { source: "return 5;" }, expect: any(ok(5), fail(/code/, "INVALID_INPUT")) },
    { id: "m39-args-code-nested", src: "habit ({ code: { code } })", args: { code: { code: "return 7;", explanation: "x" } }, expect: any(ok(7), fail(/code/, "INVALID_INPUT")) },
    { id: "m39-args-bom-json-text", src: "habit (arguments as JSON text with a BOM)", args: "\uFEFF" + JSON.stringify({ code: "return 9;" }), expect: ok(9) },
    { id: "m39-args-crlf-code", src: "habit (CRLF in the code string of JSON text)", args: JSON.stringify({ code: "const a = 4;\r\nreturn a * 2;\r\n", explanation: "x" }), expect: ok(8) },
];
