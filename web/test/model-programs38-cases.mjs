// Session 38: a further batch of what today's models (GPT-4.1/5, Claude 4.x,
// Gemini 2.5/3, Llama, Qwen, small local models) send to executeCode and
// searchTools, written before reading how the product handles them. Rows
// are as in model-outputs-cases.mjs (ok, okLog, fail, found, any, warn,
// left), run against its catalog() plus extraTools() below; a row may add
// `check(res)`, which returns null or why the result is wrong (a hit count,
// say).
import { any, fail, found, ok, okLog } from "./model-outputs-cases.mjs";

const L = (...lines) => lines.join("\n");
const ts = (...lines) => "```ts\n" + L(...lines) + "\n```";

/** Tools beside the shared catalog: an array parameter and a plain integer one. */
export function extraTools() {
    return [
        {
            name: "orders.bulkGet",
            description: "Get several orders by their ids. Returns an array of orders.",
            inputSchema: {
                type: "object",
                properties: { ids: { type: "array", items: { type: "string" } } },
                required: ["ids"],
                additionalProperties: false,
            },
            execute: async ({ ids }) => ids.map((id) => ({ id })),
        },
        {
            name: "reports.top",
            description: "The largest orders, biggest first.",
            inputSchema: {
                type: "object",
                properties: { count: { type: "integer", minimum: 1 } },
                required: ["count"],
                additionalProperties: false,
            },
            execute: async ({ count }) => [50, 30, 12].slice(0, count),
        },
    ];
}

const hitCount = (n) => (res) => {
    const hits = Array.isArray(res) ? res : res?.hits ?? res?.result ?? res?.tools;
    return Array.isArray(hits) && hits.length === n ? null : `wanted ${n} hits: ${JSON.stringify(res).slice(0, 300)}`;
};

export const rows38 = [
    // --- TypeScript that models like
    { id: "m38-ts-as-const-satisfies", src: "habit (GPT-5, Claude 4: a typed constant list)", code: ts('const STATUSES = ["open", "shipped"] as const satisfies readonly string[];', "type Status = (typeof STATUSES)[number];", "const counts = {} as Record<Status, number>;", "for (const s of STATUSES) counts[s] = (await tools.orders.search({ status: s })).length;", "return counts;"), expect: ok({ open: 2, shipped: 1 }) },
    { id: "m38-ts-generic-arrow-extends", src: "habit (generic arrow with constraints)", code: ts("const sumBy = <T extends Record<string, unknown>, K extends keyof T>(xs: readonly T[], key: K): number =>", "  xs.reduce((s, x) => s + Number(x[key]), 0);", "return sumBy(await tools.orders.search({ status: \"open\" }), \"total\");"), expect: ok(42) },
    { id: "m38-ts-call-signature-type", src: "habit (a function type with overloads)", code: ts("type Getter = {", "  (id: string): Promise<{ total: number }>;", "  (ids: string[]): Promise<{ total: number }[]>;", "};", "const get = ((x: string | string[]) => Array.isArray(x) ? Promise.all(x.map((id) => tools.orders.get({ id }))) : tools.orders.get({ id: x })) as Getter;", "return (await get(\"o-1\")).total + (await get([\"o-2\"]))[0].total;"), expect: ok(42) },
    { id: "m38-ts-declare-global", src: "habit (Claude: ambient types for the sandbox's globals)", code: ts("interface Order { id: string; status: string; total: number }", "declare global {", "  const tools: { orders: { search(i: { status?: string }): Promise<Order[]> } };", "}", "const open = await tools.orders.search({ status: \"open\" });", "return open.map((o) => o.id);"), expect: ok(["o-1", "o-2"]) },
    { id: "m38-ts-declare-function", src: "habit (declares a helper it was told exists)", code: ts("declare function tool_search(q: string): Promise<{ name: string }[]>;", "const hits = await tool_search(\"refund\");", "return hits[0].name;"), expect: ok("payments.refund") },
    { id: "m38-ts-abstract-protected", src: "habit (GPT-4.1: a small class hierarchy)", code: ts("abstract class Report<T> {", "  protected abstract load(): Promise<T[]>;", "  protected abstract value(row: T): number;", "  public async total(): Promise<number> {", "    const rows = await this.load();", "    return rows.reduce((s, r) => s + this.value(r), 0);", "  }", "}", "class OpenTotal extends Report<{ total: number }> {", "  protected override async load() { return tools.orders.search({ status: \"open\" }); }", "  protected value(r: { total: number }): number { return r.total; }", "}", "return await new OpenTotal().total();"), expect: ok(42) },
    { id: "m38-ts-inline-type-imports", src: "habit (TS 4.5 inline type modifiers)", code: ts("import { type Order, type Customer } from \"./types\";", "const o: Order = await tools.orders.get({ id: \"o-2\" });", "const c: Customer = await tools.customers.get({ id: o.customerId });", "return c.name;"), expect: ok("Bob") },
    { id: "m38-ts-export-type-interface", src: "habit (types exported from the script)", code: ts("export type Summary = { count: number; total: number };", "export interface Row { id: string; total: number }", "const rows: Row[] = await tools.orders.search({});", "const s: Summary = { count: rows.length, total: rows.reduce((a, r) => a + r.total, 0) };", "return s;"), expect: ok({ count: 3, total: 92 }) },
    { id: "m38-ts-class-definite-field", src: "habit (strictPropertyInitialization)", code: ts("class Cache {", "  rows!: { id: string; total: number }[];", "  private readonly byId = new Map<string, number>();", "  async fill(): Promise<this> {", "    this.rows = await tools.orders.search({});", "    for (const r of this.rows) this.byId.set(r.id, r.total);", "    return this;", "  }", "  total(id: string): number { return this.byId.get(id)!; }", "}", "return (await new Cache().fill()).total(\"o-3\");"), expect: ok(50) },
    { id: "m38-ts-non-null-chains", src: "habit (! after calls and index reads)", code: ts("const byCustomer = new Map<string, string[]>();", "for (const o of await tools.orders.search({})) {", "  if (!byCustomer.has(o.customerId)) byCustomer.set(o.customerId, []);", "  byCustomer.get(o.customerId)!.push(o.id);", "}", "return byCustomer.get(\"c-1\")!.length + byCustomer.get(\"c-2\")![0]!.length;"), expect: ok(5) },
    { id: "m38-ts-enum-computed", src: "habit (bit-flag enum)", code: ts("enum Flag { None = 0, Open = 1 << 0, Big = 1 << 1 }", "let flags = Flag.None;", "for (const o of await tools.orders.search({})) {", "  if (o.status === \"open\") flags |= Flag.Open;", "  if (o.total > 40) flags |= Flag.Big;", "}", "return flags;"), expect: any(ok(3), fail(/enum/, "SYNTAX")) },
    { id: "m38-ts-decorator", src: "habit (a logging decorator on a method)", code: ts("function logged(target: any, key: string, desc: PropertyDescriptor) {", "  const f = desc.value;", "  desc.value = async function (...args: any[]) { console.log(`call ${key}`); return f.apply(this, args); };", "}", "class Svc {", "  @logged", "  async count(): Promise<number> { return (await tools.orders.search({})).length; }", "}", "return await new Svc().count();"), expect: any(ok(3), fail(/decorator|@logged/, "SYNTAX")) },
    { id: "m38-ts-asserts-predicate", src: "habit (assertion function)", code: ts("function assertDefined<T>(x: T | undefined, msg: string): asserts x is T {", "  if (x === undefined) throw new Error(msg);", "}", "const o = (await tools.orders.search({})).find((x) => x.total > 40);", "assertDefined(o, \"no big order\");", "return o.id;"), expect: ok("o-3") },
    { id: "m38-ts-type-args-on-tool-call", src: "habit (a generic tool call)", code: ts("type Order = { id: string; total: number };", "const orders = await tools.orders.search<Order[]>({ status: \"open\" });", "return orders.length;"), expect: ok(2) },
    { id: "m38-ts-namespace", src: "habit (a namespace of helpers)", code: ts("namespace Util {", "  export const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);", "}", "return Util.sum((await tools.orders.search({})).map((o) => o.total));"), expect: any(ok(92), fail(/namespace/, "SYNTAX")) },
    { id: "m38-ts-labelled-tuple-index-signature", src: "habit", code: ts("type Pair = [id: string, total: number];", "const totals: { [customer: string]: number } = {};", "const pairs: Pair[] = (await tools.orders.search({})).map((o): Pair => [o.customerId, o.total]);", "for (const [id, total] of pairs) totals[id] = (totals[id] ?? 0) + total;", "return totals;"), expect: ok({ "c-1": 80, "c-2": 12 }) },
    { id: "m38-ts-object-enum-keyof-typeof", src: "habit (as const object instead of enum)", code: ts("const Status = { Open: \"open\", Shipped: \"shipped\" } as const;", "type Status = (typeof Status)[keyof typeof Status];", "const want: Status = Status.Shipped;", "return (await tools.orders.search({ status: want })).map((o) => o.id);"), expect: ok(["o-3"]) },
    { id: "m38-ts-satisfies-in-call", src: "habit (satisfies on an argument)", code: ts("type SearchInput = { status?: \"open\" | \"shipped\"; limit?: number };", "const rows = await tools.orders.search({ status: \"open\", limit: 1 } satisfies SearchInput);", "return rows.length;"), expect: ok(1) },
    { id: "m38-ts-this-param-optional-method", src: "habit", code: ts("interface Fmt { money?(n: number): string }", "const fmt: Fmt = { money(this: Fmt, n: number) { return `$${n.toFixed(2)}`; } };", "return fmt.money?.((await tools.orders.get({ id: \"o-1\" })).total);"), expect: ok("$30.00") },

    // --- Whole-module shapes
    { id: "m38-import-tools-from-tools", src: "habit (imports the global it was told of)", code: L("import { tools } from \"tools\";", "", "const open = await tools.orders.search({ status: \"open\" });", "return open.length;"), expect: any(ok(2), fail(/import.*tools.*(global|already)/s, "SYNTAX")) },
    { id: "m38-import-star-tools", src: "habit", code: L("import * as tools from \"./tools\";", "return (await tools.orders.search({})).length;"), expect: any(ok(3), fail(/import.*tools.*(global|already)/s, "SYNTAX")) },
    { id: "m38-export-default-async-arrow", src: "habit (a default-exported arrow)", code: L("export default async () => {", "  const o = await tools.orders.get({ id: \"o-3\" });", "  return o.total;", "};"), expect: ok(50) },
    { id: "m38-export-async-main-called", src: "habit (exported main, called below)", code: L("export async function main() {", "  return (await tools.orders.search({ status: \"shipped\" })).map((o) => o.id);", "}", "", "main();"), expect: ok(["o-3"]) },
    { id: "m38-require-main-module", src: "habit (Node's entry-point guard)", code: L("async function main() {", "  const orders = await tools.orders.search({ status: \"open\" });", "  console.log(orders.length);", "}", "", "if (require.main === module) {", "  main();", "}"), expect: any(okLog(/^2$/), fail(/require\.main|module/)) },
    { id: "m38-named-async-iife", src: "habit", code: L("(async function run() {", "  const c = await tools.customers.get({ id: \"c-1\" });", "  return c.name;", "})();"), expect: ok("Ada") },
    { id: "m38-void-iife-logs", src: "habit (void before a floating IIFE, for the linter)", code: L("void (async () => {", "  const n = (await tools.orders.search({})).length;", "  console.log(`orders: ${n}`);", "})();"), expect: okLog(/^orders: 3$/) },
    { id: "m38-iife-catch-console-error", src: "habit (IIFE with a catch, not awaited)", code: L("(async () => {", "  const o = await tools.orders.get({ id: \"o-2\" });", "  console.log(JSON.stringify({ id: o.id, total: o.total }));", "})().catch((e) => console.error(e));"), expect: okLog(/^\{"id":"o-2","total":12\}$/) },
    { id: "m38-export-default-object-run", src: "habit (an object with a run method)", code: L("export default {", "  async run() {", "    return (await tools.orders.search({ status: \"open\" })).length;", "  },", "};"), expect: any(ok(2), fail(/export default/)) },
    { id: "m38-smolagents-final-answer", src: "habit (smolagents-trained models end with final_answer)", code: L("const orders = await tools.orders.search({ status: \"open\" });", "final_answer(orders.length);"), expect: any(ok(2), fail(/final_answer.*return/)) },

    // --- The code string wrapped or escaped
    { id: "m38-code-is-json-object", src: "habit (the whole arguments object sent as the code)", code: JSON.stringify({ code: "const o = await tools.orders.get({ id: \"o-1\" });\nreturn o.total;", explanation: "total of o-1" }), expect: ok(30) },
    { id: "m38-code-is-json-string", src: "habit (the code sent as a JSON string literal, quotes and all)", code: JSON.stringify("const n = (await tools.orders.search({})).length;\nreturn n;"), expect: any(ok(3), fail(/string/)) },
    { id: "m38-code-trailing-escaped-newline", src: "habit (small models: a literal \\n after the last line)", code: "return (await tools.orders.search({})).length;\\n", expect: any(ok(3), fail(/\\n/, "SYNTAX")) },
    { id: "m38-code-escaped-tabs-newlines", src: "habit (an escaped program with \\t indents)", code: "for (const o of await tools.orders.search({})) {\\n\\tconsole.log(o.id);\\n}", expect: any(okLog(/^o-1$/), fail(/escaped|\\n/, "SYNTAX")) },

    // --- Python slips
    { id: "m38-py-fstring", src: "habit (Python f-string in JavaScript)", code: L("const total = (await tools.orders.search({})).reduce((s, o) => s + o.total, 0);", "console.log(f\"Total: {total}\");"), expect: fail(/f-string|template/, "SYNTAX") },
    { id: "m38-py-and-or", src: "habit (Python's and / or)", code: L("const orders = await tools.orders.search({});", "return orders.filter((o) => o.status === \"open\" and o.total > 20).length;"), expect: fail(/&&/, "SYNTAX") },
    { id: "m38-py-append", src: "habit (list.append)", code: L("const ids = [];", "for (const o of await tools.orders.search({})) ids.append(o.id);", "return ids;"), expect: any(ok(["o-1", "o-2", "o-3"]), fail(/push/)) },
    { id: "m38-py-true-in-tool-arg", src: "habit (True in an argument object)", code: "return (await tools.orders.search({ status: \"open\", includeItems: True })).length;", expect: any(ok(2), fail(/\btrue\b/)) },
    { id: "m38-py-none-compare", src: "habit", code: L("const o = await tools.orders.get({ id: \"o-1\" });", "return o.note === None ? \"no note\" : o.note;"), expect: any(ok("no note"), fail(/\bnull\b/)) },
    { id: "m38-py-inline-hash-comment", src: "habit (# comment after code)", code: L("const orders = await tools.orders.search({});  # every order", "return orders.length;"), expect: fail(/#.*\/\/|\/\/.*#/, "SYNTAX") },

    // --- Several fences: which one runs?
    { id: "m38-fence-types-then-code", src: "habit (Claude: the types in one block, the program in the next)", code: L("First, the shape of an order:", "```ts", "interface Order { id: string; status: string; total: number }", "```", "Now the program:", "```ts", "const orders: Order[] = await tools.orders.search({ status: \"open\" });", "return orders.reduce((s, o) => s + o.total, 0);", "```"), expect: any(ok(42), fail(/block/)) },
    { id: "m38-fence-json-then-js", src: "habit (an example input shown first)", code: L("The search takes:", "```json", "{ \"status\": \"open\" }", "```", "```js", "return (await tools.orders.search({ status: \"open\" })).length;", "```"), expect: ok(2) },
    { id: "m38-fence-bash-then-js", src: "habit (an install step, then the code)", code: L("```bash", "npm install lodash", "```", "", "```javascript", "const orders = await tools.orders.search({});", "return orders.length;", "```"), expect: ok(3) },
    { id: "m38-fence-js-then-output", src: "habit (the expected output shown after)", code: L("```js", "return (await tools.orders.search({ status: \"shipped\" })).length;", "```", "", "Expected output:", "```", "1", "```"), expect: ok(1) },
    { id: "m38-fence-tilde", src: "habit (~~~ fences)", code: L("~~~js", "return (await tools.orders.search({})).length;", "~~~"), expect: ok(3) },
    { id: "m38-fence-indented-in-list", src: "habit (a fence inside a numbered list)", code: L("1. Fetch the open orders and count them:", "", "   ```js", "   const open = await tools.orders.search({ status: \"open\" });", "   return open.length;", "   ```"), expect: ok(2) },

    // --- Tool calls in the program
    { id: "m38-bracket-literal-name", src: "habit (the full name from a search hit, literally)", code: "return (await tools[\"orders.search\"]({ status: \"open\" })).length;", expect: ok(2) },
    { id: "m38-positional-status", src: "habit (a positional value for the one field it matches)", code: "const open = await tools.orders.search(\"open\");\nreturn open.length;", expect: any(ok(2), fail(/\{ ?status: "open" ?\}/)) },
    { id: "m38-tools-call-by-name", src: "habit (an MCP-style dispatcher)", code: "const o = await tools.call(\"orders.get\", { id: \"o-1\" });\nreturn o.total;", expect: any(ok(30), fail(/tools\.orders\.get\(/)) },
    { id: "m38-call-tool-global", src: "habit (callTool(name, args))", code: "const o = await callTool(\"orders.get\", { id: \"o-2\" });\nreturn o.total;", expect: any(ok(12), fail(/tools\.orders\.get\(/)) },
    { id: "m38-arguments-envelope-in-call", src: "habit (MCP's { arguments } inside the call)", code: "return (await tools.orders.search({ arguments: { status: \"open\" } })).length;", expect: any(ok(2), fail(/arguments.*\{ ?"?status/s)) },
    { id: "m38-ids-scalar-for-array", src: "habit (one id where a list is wanted)", code: "return await tools.orders.bulkGet({ ids: \"o-1\" });", expect: any(ok([{ id: "o-1" }]), fail(/ids.*\["o-1"\]/)) },
    { id: "m38-ids-number-for-array", src: "brief (ids: 5 where an array is expected)", code: "return await tools.orders.bulkGet({ ids: 5 });", expect: fail(/ids.*(array|\[)/) },
    { id: "m38-ids-comma-string", src: "habit (a list as comma-separated text)", code: "return await tools.orders.bulkGet({ ids: \"o-1,o-2\" });", expect: any(ok([{ id: "o-1" }, { id: "o-2" }]), fail(/ids.*\["o-1", ?"o-2"\]/)) },
    { id: "m38-count-float-string", src: "habit (a count written as \"2.0\")", code: "return await tools.reports.top({ count: \"2.0\" });", expect: any(ok([50, 30]), fail(/count.*2/)) },
    { id: "m38-tool-search-positional-limit", src: "brief (tool_search('q', 3): the limit as a second argument)", code: "const hits = await tool_search(\"orders\", 1);\nreturn hits.length;", expect: ok(1) },
    { id: "m38-tool-search-limit-string", src: "habit", code: "const hits = await tool_search({ query: \"orders\", limit: \"1\" });\nreturn hits.length;", expect: ok(1) },
    { id: "m38-tool-search-limit-float-string", src: "brief (limit: \"2.0\")", code: "const hits = await tool_search({ query: \"orders\", limit: \"2.0\" });\nreturn hits.length;", expect: ok(2) },

    // --- Program endings
    { id: "m38-object-literal-last-line", src: "habit (the answer as a bare object literal, no return)", code: L("const open = (await tools.orders.search({ status: \"open\" })).length;", "const shipped = (await tools.orders.search({ status: \"shipped\" })).length;", "{ open: open, shipped: shipped }"), expect: any(ok({ open: 2, shipped: 1 }), fail(/\(\{|return \{/, "SYNTAX")) },
    { id: "m38-await-in-foreach-callback", src: "habit (await inside a callback that is not async)", code: L("const orders = await tools.orders.search({ status: \"open\" });", "const names = [];", "orders.forEach((o) => {", "  const c = await tools.customers.get({ id: o.customerId });", "  names.push(c.name);", "});", "return names;"), expect: fail(/async|for \(const/, "SYNTAX") },
    { id: "m38-last-expression-trailing-comment", src: "habit", code: L("const orders = await tools.orders.search({});", "orders.length // the answer"), expect: ok(3) },

    // --- searchTools' arguments
    { id: "m38-search-limit-float-string", src: "brief (searchTools limit: \"2.0\")", search: { query: "orders", limit: "2.0" }, expect: found("orders.search"), check: hitCount(2) },
    { id: "m38-search-json-text-limit-string", src: "habit (arguments as JSON text, limit as text)", search: "{\"query\":\"order\",\"limit\":\"1\"}", expect: any(found("orders.get"), found("orders.search"), found("orders.bulkGet")), check: hitCount(1) },
    { id: "m38-search-arguments-envelope", src: "habit (the call's envelope as the arguments)", search: { name: "searchTools", arguments: { query: "refund" } }, expect: any(found("payments.refund"), fail(/query/)) },
    { id: "m38-search-arguments-envelope-text", src: "habit (OpenAI's function object with arguments as text)", search: { name: "searchTools", arguments: "{\"query\":\"refund\"}" }, expect: any(found("payments.refund"), fail(/query/)) },
    { id: "m38-search-top-k", src: "habit (top_k for the limit)", search: { query: "orders", top_k: 1 }, expect: found("orders.search"), check: hitCount(1) },

    // --- executeCode's arguments
    { id: "m38-args-envelope-arguments-text", src: "habit (OpenAI's function object as the arguments)", args: { name: "executeCode", arguments: "{\"code\":\"return 2;\",\"explanation\":\"x\"}" }, expect: any(ok(2), fail(/code/, "INVALID_INPUT")) },
    { id: "m38-args-input-wrapper", src: "habit ({ input: { code } })", args: { input: { code: "return 4;", explanation: "x" } }, expect: any(ok(4), fail(/code/, "INVALID_INPUT")) },
    { id: "m38-args-javascript-key", src: "habit (the language as the key)", args: { javascript: "return 6;" }, expect: any(ok(6), fail(/code/, "INVALID_INPUT")) },
];
