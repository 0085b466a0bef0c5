// What real models send to executeCode and searchTools, and what each must
// get back: the right result, or an error or warning whose words let the
// model fix its program on the next turn. Never a silent wrong success.
//
// Written from models' habits before reading how the product handles them
// (so rows may have failed when written); each row's `src` says where the
// pattern was seen: "habit" for what models commonly write (GPT-4o/4.1/5,
// Claude 3.5-4.x, Gemini, Llama, Qwen, small local models), otherwise the
// public report that shows it.
//
// A row sends `code` (executeCode { code, explanation }), `args` (the
// executeCode arguments as they come) or `search` (searchTools' arguments),
// and expects one of:
//   ok(value)          ok: true and the result deep-equals value
//   okLog(re)          ok: true and a log line matches re (console.log used as the answer)
//   fail(re, code?)    ok: false and the message matches re (and error.code is code)
//   found(name)        a searchTools answer that lists the tool name
//   any(a, b, ...)     one of them
// plus optionally `warn: re` (a log line at level warn must match).
// A row the product does not meet yet carries `left: { why, got }`: why it
// was left, and what it gets now (still an error or warning the model
// reads, never a silent success), which the test holds it to.

/** The catalog every row runs against. */
export const ORDERS = [
    { id: "o-1", status: "open", total: 30, customerId: "c-1" },
    { id: "o-2", status: "open", total: 12, customerId: "c-2" },
    { id: "o-3", status: "shipped", total: 50, customerId: "c-1" },
];

export function catalog() {
    return [
        {
            name: "orders.search",
            description: "Search orders by status. Returns an array of orders.",
            inputSchema: {
                type: "object",
                properties: {
                    status: { type: "string", enum: ["open", "shipped", "cancelled"] },
                    limit: { type: "integer", minimum: 1, maximum: 100 },
                    includeItems: { type: "boolean" },
                },
                additionalProperties: false,
            },
            execute: async ({ status, limit }) => {
                const rows = ORDERS.filter((o) => !status || o.status === status);
                return limit ? rows.slice(0, limit) : rows;
            },
        },
        {
            name: "orders.get",
            description: "Get one order by its id.",
            inputSchema: {
                type: "object",
                properties: { id: { type: "string" } },
                required: ["id"],
                additionalProperties: false,
            },
            execute: async ({ id }) => {
                const o = ORDERS.find((x) => x.id === id);
                if (!o) throw new Error(`order ${id} not found`);
                return o;
            },
        },
        {
            name: "payments.refund",
            description: "Refund an amount of an order's payment.",
            inputSchema: {
                type: "object",
                properties: { orderId: { type: "string" }, amount: { type: "number" } },
                required: ["orderId", "amount"],
                additionalProperties: false,
            },
            execute: async ({ orderId, amount }) => ({ orderId, refunded: amount }),
        },
        {
            name: "customers.get",
            description: "Get a customer by id.",
            inputSchema: {
                type: "object",
                properties: { id: { type: "string" } },
                required: ["id"],
                additionalProperties: false,
            },
            execute: async ({ id }) => ({ id, name: id === "c-1" ? "Ada" : "Bob" }),
        },
    ];
}

export const ok = (value) => ({ ok: true, value });
export const okLog = (log) => ({ ok: true, log });
export const fail = (re, code) => ({ ok: false, re, code });
export const found = (name) => ({ found: name });
export const any = (...alts) => ({ any: alts });

const OPEN = ORDERS.filter((o) => o.status === "open");
const O1 = ORDERS[0];

/** What a message may never show the model: the product's own machinery. */
export const INTERNALS = /__[a-zA-Z]|\bprelude\b|tsstrip|\.go\b|jsbridge|goroutine|wazero|hints\.go|internal\/|\bwrapper\b/;

export const rows = [
    // --- A. Plain programs and how models hand back data
    { id: "plain", src: "habit", code: 'const orders = await tools.orders.search({ status: "open" });\nreturn orders.length;', expect: ok(2) },
    { id: "last-expression", src: "habit", code: 'const orders = await tools.orders.search({ status: "open" });\norders.reduce((s, o) => s + o.total, 0)', expect: ok(42) },
    { id: "last-expression-object", src: "habit", code: 'const o = await tools.orders.get({ id: "o-1" });\n({ id: o.id, total: o.total })', expect: ok({ id: "o-1", total: 30 }) },
    { id: "return-json-string", src: "habit", code: 'const orders = await tools.orders.search({ status: "open" });\nreturn JSON.stringify(orders.map(o => o.id));', expect: ok('["o-1","o-2"]') },
    { id: "console-log-json", src: "habit (smolagents-style print as the answer)", code: 'const orders = await tools.orders.search({ status: "open" });\nconsole.log(JSON.stringify({ count: orders.length }));', expect: okLog(/^\{"count":2\}$/) },
    { id: "console-log-object", src: "habit", code: 'const o = await tools.orders.get({ id: "o-3" });\nconsole.log("order:", o);', expect: okLog(/order: .*"total":50/) },

    // --- B. TypeScript
    { id: "ts-interface", src: "habit; opencode#50577 (`const x: number = 1` failed there)", code: 'interface Order { id: string; status: string; total: number }\nconst orders: Order[] = await tools.orders.search({ status: "open" });\nconst total: number = orders.reduce((s: number, o: Order) => s + o.total, 0);\nreturn total;', expect: ok(42) },
    { id: "ts-generics-as", src: "habit", code: "function sum<T>(xs: T[], f: (x: T) => number): number { return xs.reduce((s, x) => s + f(x), 0); }\nconst orders = (await tools.orders.search({ status: \"open\" })) as Array<{ total: number }>;\nreturn sum<{ total: number }>(orders, (o) => o.total);", expect: ok(42) },
    { id: "ts-non-null", src: "habit", code: 'const o = (await tools.orders.search({})).find((o: any) => o.id === "o-3")!;\nreturn o.total;', expect: ok(50) },
    { id: "ts-satisfies", src: "habit", code: 'const input = { status: "open" } satisfies { status: string };\nreturn (await tools.orders.search(input)).length;', expect: ok(2) },
    { id: "ts-enum", src: "habit", code: 'enum Status { Open = "open", Shipped = "shipped" }\nreturn (await tools.orders.search({ status: Status.Open })).length;', expect: any(ok(2), fail(/const Status = \{/, "SYNTAX")) },
    { id: "ts-type-alias-as-const", src: "habit", code: 'type S = "open" | "shipped";\nconst s: S = "shipped";\nconst all = ["open", "shipped"] as const;\nreturn [(await tools.orders.search({ status: s })).length, all.length];', expect: ok([1, 2]) },
    { id: "ts-async-fn-promise-type", src: "habit", code: 'async function count(status: string): Promise<number> {\n  const r: any[] = await tools.orders.search({ status });\n  return r.length;\n}\nreturn await count("shipped");', expect: ok(1) },
    { id: "ts-declare-tools", src: "habit (models redeclare the globals they were told about)", code: "declare const tools: any;\nconst r = await tools.orders.get({ id: \"o-2\" });\nreturn r.total;", expect: ok(12) },
    { id: "ts-class-modifiers", src: "habit", code: "class Totals {\n  private sum: number = 0;\n  add(n: number): void { this.sum += n; }\n  get value(): number { return this.sum; }\n}\nconst t = new Totals();\nfor (const o of await tools.orders.search({})) t.add(o.total);\nreturn t.value;", expect: ok(92) },
    { id: "ts-parameter-property", src: "habit", code: "class Box { constructor(private readonly n: number) {} get(): number { return this.n; } }\nreturn new Box(3).get();", expect: any(ok(3), fail(/field/, "SYNTAX")) },
    { id: "ts-import-type", src: "habit", code: 'import type { Order } from "./types";\nconst o: Order = await tools.orders.get({ id: "o-1" });\nreturn o.id;', expect: ok("o-1") },
    { id: "ts-export-empty", src: "habit (TS module marker)", code: 'const n = (await tools.orders.search({})).length;\nexport {};\nreturn n;', expect: ok(3) },
    { id: "ts-generic-arrow", src: "habit", code: "const first = <T,>(xs: T[]): T | undefined => xs[0];\nreturn first(await tools.orders.search({ status: \"shipped\" }))?.id;", expect: ok("o-3") },
    { id: "ts-definite-assignment", src: "habit", code: "let total!: number;\ntotal = (await tools.orders.get({ id: \"o-1\" })).total;\nreturn total;", expect: ok(30) },
    { id: "ts-catch-typed", src: "habit", code: 'try {\n  await tools.orders.get({ id: "o-9" });\n  return "found";\n} catch (e: unknown) {\n  return (e as Error).message;\n}', expect: ok("order o-9 not found") },

    // --- C. Markdown fences and prose
    { id: "fence-ts-prose", src: "habit; Nutlope/llamacoder#1 (```tsx left in the code)", code: "Here is the code to count the open orders:\n\n```ts\nconst orders = await tools.orders.search({ status: \"open\" });\nreturn orders.length;\n```\n\nThis returns the number of open orders.", expect: ok(2) },
    { id: "fence-javascript", src: "habit", code: "```javascript\nconst o = await tools.orders.get({ id: \"o-2\" });\nreturn o.total;\n```", expect: ok(12) },
    { id: "fence-bare", src: "habit", code: "```\nreturn (await tools.orders.search({})).length;\n```", expect: ok(3) },
    { id: "fence-capital-lang", src: "habit (Gemini, small models)", code: "```JavaScript\nreturn (await tools.orders.search({})).length;\n```", expect: ok(3) },
    { id: "prose-no-fence", src: "habit", code: "Here is the code:\nconst orders = await tools.orders.search({});\nreturn orders.length;", expect: any(ok(3), fail(/prose/, "SYNTAX")) },
    { id: "fence-end-code-marker", src: "huggingface/smolagents#1219, #1851 (<end_code> after the fence)", code: "Code:\n```js\nreturn (await tools.orders.search({ status: \"open\" })).length;\n```<end_code>", expect: ok(2) },
    { id: "fence-unclosed", src: "habit (output cut at a stop sequence)", code: "```js\nconst orders = await tools.orders.search({});\nreturn orders.length;", expect: ok(3) },
    { id: "fence-python", src: "huggingface/smolagents#201 (models answer in Python)", code: "```python\norders = tools.orders.search(status=\"open\")\nprint(len(orders))\n```", expect: fail(/python|JavaScript/, "SYNTAX") },
    { id: "fence-prose-block-first", src: "huggingface/smolagents#1219 (a fence inside the thought before the code)", code: "Thought: I will call\n```\ntools.orders.search\n```\nCode:\n```js\nreturn (await tools.orders.search({ status: \"open\" })).length;\n```", expect: any(ok(2), fail(/block|fence|```/)), left: { why: "the warning names the block that did not run and says to send one block; running the labelled block instead of the first would be a guess", got: { ok: true, warn: /line 6: this code block did not run/ } } },
    { id: "html-code-tags", src: "huggingface/smolagents#1251 (<code>...</code> around the program)", code: "<code>\nconst orders = await tools.orders.search({});\nreturn orders.length;\n</code>", expect: any(ok(3), fail(/<code>|tag|HTML/i)) },
    { id: "html-script-tags", src: "habit (a program for a page, in its <script> element; was the JSX hint)", code: "<script type=\"module\">\nconst orders = await tools.orders.search({});\nreturn orders.length;\n</script>", expect: ok(3) },
    { id: "html-script-in-template", src: "habit (a program that builds a page; its script element is markup, not a wrapper)", code: "const n = (await tools.orders.search({})).length;\nreturn `<p>${n}</p>\n<script>\nconsole.log(1)\n</script>`;", expect: ok("<p>3</p>\n<script>\nconsole.log(1)\n</script>") },
    { id: "fence-two-js-blocks", src: "habit (step 1 / step 2)", code: "```js\nconst a = (await tools.orders.search({})).length;\nreturn a;\n```\nThen:\n```js\nreturn 0;\n```", expect: ok(3), warn: /did not run/ },

    // --- D. Whole-program functions and module shapes
    { id: "export-default-main", src: "habit", code: "export default async function main() {\n  const orders = await tools.orders.search({ status: \"open\" });\n  return orders.map(o => o.id);\n}", expect: ok(["o-1", "o-2"]) },
    { id: "main-called-no-await", src: "habit", code: "async function main() {\n  const o = await tools.orders.get({ id: \"o-3\" });\n  return o.total;\n}\nmain();", expect: ok(50) },
    { id: "main-then-log", src: "habit", code: "async function main() {\n  return (await tools.orders.search({})).length;\n}\nmain().then(console.log);", expect: okLog(/^3$/) },
    { id: "iife-async", src: "habit", code: "(async () => {\n  const o = await tools.orders.get({ id: \"o-1\" });\n  return o.customerId;\n})();", expect: ok("c-1") },
    { id: "main-never-called", src: "habit", code: "async function main() {\n  return (await tools.orders.search({ status: \"shipped\" })).length;\n}", expect: ok(1) },
    { id: "main-catch-console-error", src: "habit", code: "const main = async () => {\n  return (await tools.orders.get({ id: \"o-404\" })).total;\n};\nmain().catch(console.error);", expect: any(okLog(/order o-404 not found/), fail(/order o-404 not found/)) },
    { id: "module-exports-value", src: "habit (CommonJS)", code: "const orders = await tools.orders.search({});\nmodule.exports = { count: orders.length };", expect: any(ok({ count: 3 }), fail(/return/)) },
    { id: "module-exports-fn", src: "habit (CommonJS)", code: "module.exports = async function () {\n  return (await tools.orders.search({})).length;\n};", expect: any(ok(3), fail(/return/)) },
    { id: "exports-handler", src: "habit (serverless shape)", code: "exports.handler = async () => {\n  return (await tools.orders.search({})).length;\n};", expect: any(ok(3), fail(/return/)) },
    { id: "main-of-input-never-called", src: "habit (a handler's shape: main(input), main(args))", code: "async function main(input) {\n  const orders = await tools.orders.search({ status: \"open\" });\n  return orders.length;\n}", expect: ok(undefined), warn: /^line 1: main\(\.\.\.\) is declared and never called, so none of its code ran and the run has no result; send its body as the program/ },
    { id: "handler-of-event-never-called", src: "habit (serverless shape)", code: "export default async function handler(event) {\n  return (await tools.orders.search({})).length;\n}", expect: ok(undefined), warn: /^line 1: handler\(\.\.\.\) is declared and never called/ },
    { id: "main-of-params-beside-data-never-called", src: "habit", code: "const STATUS = \"shipped\";\n\nasync function main(params) {\n  return (await tools.orders.search({ status: STATUS })).length;\n}", expect: ok(undefined), warn: /^line 3: main\(\.\.\.\) is declared and never called/ },
    { id: "lone-const-arrow-expression-body", src: "habit (an arrow's expression body, not called)", code: "const run = async () => (await tools.orders.search({ status: \"open\" })).length;", expect: ok(2) },
    { id: "lone-const-arrow-of-input-never-called", src: "habit (a handler's shape as a const)", code: "const handler = async (input) => {\n  return (await tools.orders.search({ status: input.status })).length;\n};", expect: ok(undefined), warn: /^line 1: handler\(\.\.\.\) is declared and never called, so none of its code ran/ },
    { id: "last-line-declares-the-answer", src: "habit (return left out after the last step)", code: "const orders = await tools.orders.search({ status: \"open\" });\nconst ids = orders.map((o) => o.id);", expect: ok(undefined), warn: /^line 2: the program ends by declaring ids and returns nothing, so the run has no result; to give its value back, end with return ids$/ },
    { id: "sync-main-returns-promise", src: "habit", code: "function run() {\n  return tools.orders.search({}).then((r) => r.length);\n}", expect: ok(3) },

    // --- E. Modules, network, host globals, timers
    { id: "require", src: "habit; opencode#50577", code: 'const _ = require("lodash");\nconst orders = await tools.orders.search({});\nreturn _.sumBy(orders, "total");', expect: fail(/tools/) },
    { id: "import-default", src: "opencode#50577 (`import fs from \"node:fs\"`)", code: 'import fs from "node:fs";\nreturn fs.readFileSync("orders.json", "utf8");', expect: fail(/import/, "SYNTAX") },
    { id: "import-named", src: "habit", code: 'import { sumBy } from "lodash";\nreturn sumBy(await tools.orders.search({}), "total");', expect: fail(/import/, "SYNTAX") },
    { id: "fetch", src: "habit", code: 'const res = await fetch("https://api.example.com/orders?status=open");\nconst data = await res.json();\nreturn data.length;', expect: fail(/tools/) },
    { id: "process-env", src: "habit", code: 'const key = process.env.ORDERS_API_KEY;\nreturn (await tools.orders.search({})).length;', expect: fail(/process/) },
    { id: "document", src: "habit (browser assumption)", code: 'const el = document.querySelector("#orders");\nreturn el.textContent;', expect: fail(/document/) },
    { id: "window-location", src: "habit (browser assumption)", code: "return window.location.href;", expect: fail(/window/) },
    { id: "localstorage", src: "habit", code: 'const token = localStorage.getItem("token");\nreturn token;', expect: fail(/localStorage/) },
    { id: "typeof-window-guard", src: "habit (isomorphic code)", code: 'return typeof window === "undefined" ? "server" : "browser";', expect: ok("server") },
    { id: "sleep-settimeout", src: "habit", code: "await new Promise((r) => setTimeout(r, 20));\nreturn \"done\";", expect: ok("done") },
    { id: "ts-sleep-helper", src: "habit", code: "const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));\nawait sleep(10);\nreturn (await tools.orders.search({})).length;", expect: ok(3) },
    { id: "settimeout-not-awaited", src: "habit (fire-and-forget timer)", code: "setTimeout(async () => {\n  const orders = await tools.orders.search({});\n  console.log(orders.length);\n}, 10);", expect: any(okLog(/^3$/), { ok: true, warn: /timer|setTimeout/ }, fail(/timer|setTimeout/)) },
    { id: "buffer", src: "habit (Node)", code: 'return Buffer.from("o-1").toString("base64");', expect: fail(/Buffer/) },

    // --- F. Async patterns
    { id: "promise-all-map", src: "habit", code: 'const ids = ["o-1", "o-2"];\nconst totals = await Promise.all(ids.map(async (id) => (await tools.orders.get({ id })).total));\nreturn totals;', expect: ok([30, 12]) },
    { id: "foreach-async", src: "habit", code: 'const totals = [];\n["o-1", "o-2"].forEach(async (id) => {\n  totals.push((await tools.orders.get({ id })).total);\n});\nreturn totals;', expect: any(ok([30, 12]), { ok: true, warn: /forEach/ }) },
    { id: "missing-await-length", src: "habit", code: 'const orders = tools.orders.search({ status: "open" });\nreturn orders.length;', expect: any(ok(2), fail(/await/), { ok: true, warn: /await/ }) },
    { id: "missing-await-filter", src: "habit", code: 'const orders = tools.orders.search({});\nreturn orders.filter((o) => o.status === "open").length;', expect: fail(/await/) },
    { id: "await-precedence", src: "habit", code: 'return await tools.orders.search({ status: "open" }).length;', expect: any(ok(2), fail(/await/), { ok: true, warn: /await/ }) },
    { id: "for-await", src: "habit", code: 'let sum = 0;\nfor await (const o of ["o-1", "o-3"].map((id) => tools.orders.get({ id }))) sum += o.total;\nreturn sum;', expect: ok(80) },
    { id: "then-chain-last", src: "habit", code: 'tools.orders.search({ status: "open" }).then((r) => r.map((o) => o.total))', expect: ok([30, 12]) },
    { id: "promise-all-one-rejects", src: "habit", code: 'const ids = ["o-1", "o-2", "9"];\nreturn await Promise.all(ids.map(async (id) => {\n  if (!id.startsWith("o-")) throw new Error(`bad order id ${id}`);\n  return (await tools.orders.get({ id })).total;\n}));', expect: fail(/^bad order id 9$/), warn: /^2 calls were still pending when the error ended the run, and cancelled \(tool orders\.get, tool orders\.get\)$/ },
    { id: "allsettled", src: "habit", code: 'const r = await Promise.allSettled(["o-1", "o-404"].map((id) => tools.orders.get({ id })));\nreturn r.map((x) => x.status);', expect: ok(["fulfilled", "rejected"]) },

    // --- G. Tool names
    { id: "name-underscore", src: "habit (MCP flattens names with _)", code: 'return (await tools.orders_search({ status: "open" })).length;', expect: any(ok(2), fail(/did you mean orders\.search/)) },
    { id: "name-slash-tool-call", src: "habit", code: 'return (await tool_call("orders/search", { status: "open" })).length;', expect: any(ok(2), fail(/orders\.search/)) },
    { id: "name-camel", src: "habit", code: 'return (await tools.ordersSearch({ status: "open" })).length;', expect: any(ok(2), fail(/did you mean orders\.search/)) },
    { id: "name-flat-key", src: "habit (the dotted name as one key)", code: 'return (await tools["orders.search"]({ status: "open" })).length;', expect: any(ok(2), fail(/tools\.orders\.search/)) },
    { id: "name-other-namespace", src: "habit (searchTools showed payments.refund)", code: 'return await tools.orders.refund({ orderId: "o-1", amount: 5 });', expect: any(ok({ orderId: "o-1", refunded: 5 }), fail(/payments\.refund/)) },
    { id: "name-case", src: "habit", code: 'return (await tools.Orders.Search({ status: "open" })).length;', expect: any(ok(2), fail(/did you mean orders\.search/)) },
    { id: "name-reversed", src: "habit", code: 'return (await tools.search_orders({ status: "open" })).length;', expect: any(ok(2), fail(/orders\.search/)) },
    { id: "name-dot-execute", src: "habit (AI SDK tool objects have .execute)", code: 'return (await tools.orders.search.execute({ status: "open" })).length;', expect: any(ok(2), fail(/await tools\.orders\.search\(/)) },
    { id: "searchtools-in-code", src: "anomalyco/opencode#50384 (models call the outer tools from code)", code: 'const hits = await searchTools({ query: "refund" });\nreturn hits.map((h) => h.name);', expect: any(ok(["payments.refund"]), fail(/tool_search/)) },
    { id: "tools-search", src: "anomalyco/opencode#49249, #43925 (tools.search)", code: 'const hits = await tools.search({ query: "refund" });\nreturn hits.map((h) => h.name);', expect: any(ok(["payments.refund"]), fail(/tool_search/)) },
    { id: "bare-search", src: "anomalyco/opencode#48912 (search(...))", code: 'const hits = await search({ query: "refund" });\nreturn hits.map((h) => h.name);', expect: any(ok(["payments.refund"]), fail(/tool_search/)) },
    // The options beside a query string were ignored: two hits came back.
    { id: "tool-search-string-and-options", src: "habit", code: 'const hits = await tool_search("orders", { limit: 1 });\nreturn hits.length;', expect: ok(1) },
    { id: "tool-search-q", src: "habit", code: 'const hits = await tool_search({ q: "refund" });\nreturn hits[0].name;', expect: any(ok("payments.refund"), fail(/query/)) },
    { id: "tool-search-keywords", src: "habit", code: 'const hits = await tool_search({ keywords: "refund" });\nreturn hits[0].name;', expect: any(ok("payments.refund"), fail(/query/)) },
    { id: "tool-search-string", src: "habit", code: 'const hits = await tool_search("refund");\nreturn hits[0].name;', expect: ok("payments.refund") },
    { id: "tool-search-sync", src: "anomalyco/opencode#50417 (.catch chained on search)", code: 'const hits = await tool_search({ query: "refund" }).catch(() => []);\nreturn hits[0].name;', expect: ok("payments.refund") },

    // --- H. Tool arguments
    { id: "arg-positional-string", src: "habit", code: 'return (await tools.orders.get("o-1")).total;', expect: any(ok(30), fail(/\{ ?id/)) },
    { id: "arg-positional-two", src: "habit", code: 'return await tools.payments.refund("o-1", 5);', expect: fail(/orderId/) },
    { id: "arg-json-string", src: "habit (JSON-stringified arguments)", code: 'return (await tools.orders.get(JSON.stringify({ id: "o-1" }))).total;', expect: any(ok(30), fail(/object/)) },
    { id: "arg-limit-nan", src: "habit (a number parsed from text)", code: 'const limit = Number("2 orders");\nreturn (await tools.orders.search({ limit })).length;', expect: fail(/^orders\.search: invalid input: \/limit: type: got string, want integer \(the string "NaN": the program passed NaN, which is no JSON number; check what computed it/), warn: /^input\.limit: NaN, converted to the string "NaN"$/ },
    { id: "arg-limit-string", src: "habit", code: 'return (await tools.orders.search({ limit: "2" })).length;', expect: any(ok(2), fail(/limit/)) },
    { id: "arg-bool-string", src: "habit", code: 'return (await tools.orders.search({ status: "shipped", includeItems: "true" })).length;', expect: any(ok(1), fail(/includeItems/)) },
    { id: "arg-python-kwargs", src: "habit (Python keyword arguments)", code: 'const orders = await tools.orders.search(status="open");\nreturn orders.length;', expect: fail(/\{ ?status|object/) },
    { id: "arg-snake-case", src: "habit", code: 'return await tools.payments.refund({ order_id: "o-1", amount: 5 });', expect: fail(/orderId/) },
    { id: "arg-enum-case", src: "habit", code: 'return (await tools.orders.search({ status: "OPEN" })).length;', expect: fail(/"open"/) },
    { id: "arg-wrong-key", src: "habit", code: 'return await tools.orders.get({ orderId: "o-1" });', expect: fail(/\bid\b/) },
    { id: "arg-missing", src: "habit", code: "return await tools.orders.get();", expect: fail(/\bid\b/) },
    { id: "arg-over-max", src: "habit", code: "return (await tools.orders.search({ limit: 500 })).length;", expect: fail(/limit/) },

    // --- I. Text artifacts
    { id: "escaped-twice", src: "ggml-org/llama.cpp#24667, openclaw/openclaw#110823 (\\\\n in code arguments)", code: 'const orders = await tools.orders.search({ status: \\"open\\" });\\nreturn orders.length;', expect: fail(/escaped|\\n/, "SYNTAX") },
    { id: "escaped-twice-newlines-only", src: "openclaw/openclaw#110823", code: "const orders = await tools.orders.search({});\\nreturn orders.length;", expect: fail(/escaped|\\n/, "SYNTAX") },
    { id: "newline-in-string-literal", src: "habit (a real \\n in a string must stay valid)", code: 'return ["a", "b"].join("\\n");', expect: ok("a\nb") },
    { id: "html-entities-arrow", src: "habit (code copied through HTML)", code: "const orders = await tools.orders.search({});\nreturn orders.filter((o) =&gt; o.total &gt; 20).length;", expect: any(ok(2), fail(/&gt;|entit/)) },
    { id: "html-entities-and", src: "habit (code copied through HTML)", code: "const orders = await tools.orders.search({});\nreturn orders.filter((o) => o.total > 20 &amp;&amp; o.status === \"open\").length;", expect: any(ok(1), fail(/&amp;|entit/)) },
    { id: "html-entities-lt-expression", src: "habit (&lt; parses as bitwise & and a name)", code: "const orders = await tools.orders.search({});\nlet n = 0;\nfor (const o of orders) if (o.total &lt; 40) n++;\nreturn n;", expect: any(ok(2), fail(/&lt;|entit/)) },
    { id: "html-entities-quot", src: "habit", code: "return (await tools.orders.get({ id: &quot;o-1&quot; })).total;", expect: any(ok(30), fail(/&quot;|entit/)) },
    { id: "smart-quotes", src: "habit (text smartened by a UI)", code: "return (await tools.orders.get({ id: “o-1” })).total;", expect: fail(/"|'/, "SYNTAX") },
    { id: "crlf", src: "habit (Windows line endings)", code: "const orders = await tools.orders.search({});\r\nreturn orders.length;\r\n", expect: ok(3) },
    { id: "bom-nbsp", src: "habit (copied text)", code: "\uFEFFconst orders = await tools.orders.search({});\n\u00a0\u00a0return orders.length;", expect: ok(3) },

    // --- J. Python habits inside JavaScript
    { id: "py-print", src: "habit (smolagents-trained models)", code: "const orders = await tools.orders.search({});\nprint(orders.length);", expect: any(okLog(/^3$/), fail(/console\.log|return/)) },
    { id: "py-true", src: "habit", code: "const orders = await tools.orders.search({});\nreturn orders.length > 0 ? True : False;", expect: any(ok(true), fail(/\btrue\b/)) },
    { id: "py-none", src: "habit", code: "let best = None;\nfor (const o of await tools.orders.search({})) if (!best || o.total > best.total) best = o;\nreturn best.id;", expect: any(ok("o-3"), fail(/\bnull\b/)) },
    { id: "py-len", src: "habit", code: "const orders = await tools.orders.search({});\nreturn len(orders);", expect: any(ok(3), fail(/\.length/)) },
    { id: "py-whole-unfenced", src: "habit", code: 'orders = tools.orders.search(status="open")\nprint(len(orders))', expect: fail(/JavaScript|Python|print/) },
    { id: "py-def", src: "habit", code: "def main():\n    return len(tools.orders.search())\n", expect: fail(/JavaScript|Python/, "SYNTAX") },
    { id: "py-hash-comment", src: "habit (Python and shell comments; was QuickJS's bare 'invalid first character of private name')", code: "# count the open orders\nconst orders = await tools.orders.search({ status: \"open\" });\nreturn orders.length;", expect: fail(/# begins a comment in Python .*write comments on line 1 with \/\//, "SYNTAX") },

    // --- K. MCP-shaped habits with results
    { id: "mcp-content-text", src: "habit (MCP tool results are { content: [{ type: \"text\", text }] })", code: 'const r = await tools.orders.get({ id: "o-1" });\nconst data = JSON.parse(r.content[0].text);\nreturn data.total;', expect: fail(/r\.content is undefined; a tool's result is its data itself/) },
    { id: "json-parse-result", src: "habit (assumes tools return JSON text)", code: 'const data = JSON.parse(await tools.orders.get({ id: "o-1" }));\nreturn data.total;', expect: fail(/JSON/) },

    { id: "wrapper-assumed", src: "habit (assumes a { orders: [...] } envelope)", code: 'const data = await tools.orders.search({ status: "open" });\nreturn data.orders.length;', expect: fail(/data\.orders is undefined/) },
    { id: "destructure-wrong-shape", src: "habit", code: 'const { orders } = await tools.orders.search({});\nreturn orders.map((o) => o.id);', expect: fail(/orders is undefined/) },
    { id: "object-not-array", src: "habit", code: 'const o = await tools.orders.get({ id: "o-1" });\nreturn o.filter((x) => x.total > 10);', expect: fail(/o\.filter is not a function/) },

    // --- L. executeCode's own arguments
    { id: "args-json-text", src: "habit (OpenAI function.arguments as is)", args: JSON.stringify({ code: "return 1 + 1;", explanation: "add" }), expect: ok(2) },
    { id: "args-json-fence", src: "habit (JSON mode as in a chat: the arguments in a ```json fence)", args: "```json\n" + JSON.stringify({ code: "return (await tools.orders.search({})).length;", explanation: "count" }) + "\n```", expect: ok(3) },
    { id: "args-no-explanation", src: "habit", args: { code: "return (await tools.orders.search({})).length;" }, expect: ok(3) },
    { id: "args-script-key", src: "habit", args: { script: "return 1;" }, expect: fail(/code/, "INVALID_INPUT") },
    { id: "args-llama-envelope", src: "ollama/ollama#12413, #18388 (name + parameters envelope)", args: { name: "executeCode", parameters: { code: "return 2;", explanation: "x" } }, expect: any(ok(2), fail(/code/, "INVALID_INPUT")) },
    { id: "args-arguments-envelope", src: "ollama/ollama#12413 (arguments envelope)", args: { arguments: { code: "return 2;" } }, expect: any(ok(2), fail(/code/, "INVALID_INPUT")) },
    { id: "args-language-key", src: "habit", args: { code: "const n: number = 4; return n;", language: "typescript" }, expect: ok(4) },
    { id: "args-code-lines-array", src: "habit (small models)", args: { code: ["const a = 1;", "return a + 1;"] }, expect: any(ok(2), fail(/code.*string/, "INVALID_INPUT")) },
    { id: "args-double-encoded", src: "livekit/agents#5409, oracle/langchain-oracle#52", args: JSON.stringify(JSON.stringify({ code: "return 5;" })), expect: ok(5) },
    { id: "args-code-with-explanation-swapped", src: "habit", args: { code: "Count the open orders.", explanation: "return (await tools.orders.search({ status: \"open\" })).length;" }, expect: fail(/./) },

    // --- M. searchTools' arguments
    { id: "search-query", src: "habit", search: { query: "refund a payment" }, expect: found("payments.refund") },
    { id: "search-q", src: "habit", search: { q: "refund" }, expect: any(found("payments.refund"), fail(/query/)) },
    { id: "search-keywords-array", src: "habit", search: { keywords: ["refund", "payment"] }, expect: any(found("payments.refund"), fail(/query/)) },
    { id: "search-limit-string", src: "habit", search: { query: "orders", limit: "5" }, expect: found("orders.search") },
    { id: "search-lone-string", src: "habit", search: "refund", expect: found("payments.refund") },
    { id: "search-query-array", src: "habit", search: { query: ["refund", "orders"] }, expect: any(found("payments.refund"), fail(/query/)) },
    { id: "search-empty", src: "habit", search: {}, expect: found("customers.get") },
    { id: "search-namespace", src: "habit", search: { query: "refund", namespace: "payments" }, expect: found("payments.refund") },
    { id: "search-json-text", src: "habit", search: '{"query":"customer"}', expect: found("customers.get") },
    { id: "search-star", src: "habit (wildcard)", search: { query: "*" }, expect: any(found("orders.get"), fail(/query/)) },
    { id: "search-query-dotted-name", src: "habit (model searches the name it guessed)", search: { query: "orders_refund" }, expect: found("payments.refund") },
];

/** Judges a result against a row's expectation; returns null or why it failed. */
export function judge(row, res) {
    const why = judgeOne(row.left ? row.left.got : row.expect, res);
    if (why) return why;
    if (row.warn && !(res.logs ?? []).some((l) => l.level === "warn" && row.warn.test(l.message))) {
        return `no warn log matching ${row.warn}`;
    }
    // quiet: a program that means what it did hears no warning matching it.
    const loud = row.quiet && (res.logs ?? []).find((l) => l.level === "warn" && row.quiet.test(l.message));
    if (loud) return `a warn log matching ${row.quiet}: ${loud.message}`;
    const text = JSON.stringify(res.error ?? "") + JSON.stringify((res.logs ?? []).filter((l) => l.level === "warn"));
    if (INTERNALS.test(text)) return `a message names the product's internals: ${text.match(INTERNALS)[0]}`;
    return null;
}

function judgeOne(e, res) {
    if (e.any) {
        const whys = e.any.map((a) => judgeOne(a, res));
        return whys.every(Boolean) ? whys.join(" | ") : null;
    }
    if (e.found) {
        const hits = Array.isArray(res) ? res : res?.hits ?? res?.result ?? res?.tools;
        if (!Array.isArray(hits)) return `not a list of hits: ${JSON.stringify(res).slice(0, 300)}`;
        return hits.some((h) => h.name === e.found) ? null : `${e.found} not among ${hits.map((h) => h.name)}`;
    }
    if (e.ok === true) {
        if (res.ok !== true) return `failed: ${res.error?.code} ${res.error?.message}`;
        if ("value" in e) {
            try {
                assertDeepEqual(res.result, e.value);
            } catch {
                return `result ${JSON.stringify(res.result)}, wanted ${JSON.stringify(e.value)}`;
            }
        }
        if (e.log && !(res.logs ?? []).some((l) => e.log.test(l.message))) return `no log matching ${e.log}: ${JSON.stringify(res.logs)}`;
        if (e.warn && !(res.logs ?? []).some((l) => l.level === "warn" && e.warn.test(l.message))) {
            return `no warn matching ${e.warn}: ${JSON.stringify(res.logs)}`;
        }
        return null;
    }
    if (res.ok !== false) return `succeeded with ${JSON.stringify(res.result ?? res).slice(0, 200)}; wanted an error matching ${e.re}`;
    if (e.code && res.error?.code !== e.code) return `code ${res.error?.code}, wanted ${e.code}: ${res.error?.message}`;
    if (!e.re.test(res.error?.message ?? "")) return `message does not match ${e.re}: ${res.error?.message}`;
    return null;
}

function assertDeepEqual(a, b) {
    if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error("differ");
}

/** How a row reaches the LLM tools: [tool name, the arguments as sent]. */
export function callOf(row) {
    if ("search" in row) return ["searchTools", row.search];
    if ("args" in row) return ["executeCode", row.args];
    return ["executeCode", { code: row.code, explanation: "answer the question" }];
}

export { O1, OPEN };
