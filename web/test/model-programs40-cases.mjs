// Session 40: round three of what models send to executeCode and
// searchTools, written before reading how the product handles them, in
// styles the earlier batches (model-outputs-cases.mjs, model-programs-cases.mjs,
// model-programs38-cases.mjs, model-programs39-cases.mjs) lack: TypeScript's
// rarer syntax (namespaces with dots, declare module/namespace, abstract
// fields, parameter properties beside super(), decorators on classes and
// parameters, method overloads, satisfies on a return, definite fields,
// non-null chains, generic arrows, import type default/star, export type
// re-exports, unique symbol, accessor, asserts, <T> casts, template literal
// types); the habits of Gemini, Llama, Qwen and DeepSeek (tool_code fences,
// default_api, <think>, whole Python programs, def main(): with a JavaScript
// body, code after the closing fence, a corrected second fence, fence
// labels tsx/jsx/mjs/node, a program inside JSON text, require of Node's
// modules, fetch's neighbours, import() of packages, process/Deno/Bun,
// module shapes); tool-call markup that holds exactly one program; BigInt in
// JSON.stringify; and the arguments of searchTools and executeCode in
// shapes not tried before. Rows are as in model-outputs-cases.mjs (ok, okLog,
// fail, found, any, warn, left), run against its catalog() plus
// model-programs38-cases.mjs's extraTools(); a row may add `check(res)`.
import { any, fail, found, ok, okLog } from "./model-outputs-cases.mjs";

const L = (...lines) => lines.join("\n");
const fence = (lang, ...lines) => "```" + lang + "\n" + L(...lines) + "\n```";
const ts = (...lines) => fence("ts", ...lines);
/** ok, whatever the value, with a warning matching warn. */
const okWarned = (warn) => ({ ok: true, warn });

const hitsOf = (res) => (Array.isArray(res) ? res : res?.hits ?? res?.result ?? res?.tools);
const atMost = (n) => (res) => {
    if (res?.ok === false) return null;
    const hits = hitsOf(res);
    return Array.isArray(hits) && hits.length <= n ? null : `wanted at most ${n} hits: ${JSON.stringify(res).slice(0, 300)}`;
};
const someHits = (res) => {
    if (res?.ok === false) return null;
    const hits = hitsOf(res);
    return Array.isArray(hits) && hits.length > 0 ? null : `no hits: ${JSON.stringify(res).slice(0, 300)}`;
};
const OPEN_SEARCH = "return (await tools.orders.search({ status: \"open\" })).length;";

export const rows40 = [
    // --- TypeScript the earlier rows did not try
    { id: "m40-ts-enum-member-reference", src: "habit (an enum member computed from another)", code: ts("enum Size { Small = 20, Large = Small * 2 }", "const orders = await tools.orders.search({});", "return orders.filter((o) => o.total >= Size.Large).map((o) => o.id);"), expect: any(ok(["o-3"]), fail(/enum/, "SYNTAX")) },
    { id: "m40-ts-export-const-enum", src: "habit (an exported const enum)", code: ts("export const enum Status { Open = \"open\", Shipped = \"shipped\" }", "return (await tools.orders.search({ status: Status.Open })).length;"), expect: any(ok(2), fail(/enum/, "SYNTAX")) },
    { id: "m40-ts-namespace-dotted", src: "habit (namespace A.B)", code: ts("namespace App.Util {", "  export function sum(xs: number[]): number { return xs.reduce((a, b) => a + b, 0); }", "}", "return App.Util.sum((await tools.orders.search({})).map((o) => o.total));"), expect: any(ok(92), fail(/namespace/, "SYNTAX")) },
    { id: "m40-ts-declare-namespace-types", src: "habit (ambient namespace of types)", code: ts("declare namespace Api {", "  interface Order { id: string; total: number }", "}", "const o: Api.Order = await tools.orders.get({ id: \"o-1\" });", "return o.total;"), expect: ok(30) },
    { id: "m40-ts-declare-module", src: "habit (Claude: types for the sandbox's module)", code: ts("declare module \"tools\" {", "  export const orders: { search(i: { status?: string }): Promise<{ id: string }[]> };", "}", OPEN_SEARCH), expect: ok(2) },
    { id: "m40-ts-abstract-field", src: "habit (an abstract property a subclass sets)", code: ts("abstract class Source {", "  abstract readonly status: string;", "  async count(): Promise<number> { return (await tools.orders.search({ status: this.status })).length; }", "}", "class Open extends Source { readonly status = \"open\"; }", "return await new Open().count();"), expect: ok(2) },
    { id: "m40-ts-param-props-defaults", src: "habit (parameter properties with a default and an optional)", code: ts("class Line {", "  constructor(public readonly id: string, public total: number = 0, private note?: string) {}", "  label(): string { return `${this.id}=${this.total}`; }", "}", "const lines = (await tools.orders.search({ status: \"open\" })).map((o) => new Line(o.id, o.total));", "return lines.map((l) => l.label());"), expect: ok(["o-1=30", "o-2=12"]) },
    { id: "m40-ts-param-props-super", src: "habit (parameter properties in a subclass, after super())", code: ts("class Base { constructor(readonly kind: string) {} }", "class OrderRow extends Base {", "  constructor(public id: string, protected total: number) { super(\"order\"); }", "  get big(): boolean { return this.total > 20; }", "}", "const rows = (await tools.orders.search({})).map((o) => new OrderRow(o.id, o.total));", "return rows.filter((r) => r.big).map((r) => `${r.kind}:${r.id}`);"), expect: ok(["order:o-1", "order:o-3"]) },
    { id: "m40-ts-class-decorator-factory", src: "habit (a class decorator factory)", code: ts("function tag(name: string) { return (cls: any) => { cls.tag = name; return cls; }; }", "@tag(\"report\")", "class Report { async run() { return (await tools.orders.search({})).length; } }", "return [(Report as any).tag, await new Report().run()];"), expect: any(ok(["report", 3]), fail(/decorator/)) },
    { id: "m40-ts-parameter-decorator", src: "habit (Nest/Angular-style parameter decorator)", code: ts("function Inject(token: string) { return (target: any, key: any, index: number) => {}; }", "class Svc {", "  constructor(@Inject(\"tools\") private readonly t: any) {}", "  async n(): Promise<number> { return (await this.t.orders.search({})).length; }", "}", "return await new Svc(tools).n();"), expect: any(ok(3), fail(/decorator/)) },
    { id: "m40-ts-method-overloads", src: "habit (overload signatures on a method)", code: ts("class Repo {", "  get(id: string): Promise<{ total: number }>;", "  get(ids: string[]): Promise<{ total: number }[]>;", "  async get(x: string | string[]): Promise<any> {", "    return Array.isArray(x) ? Promise.all(x.map((id) => tools.orders.get({ id }))) : tools.orders.get({ id: x });", "  }", "}", "const r = new Repo();", "return (await r.get(\"o-1\")).total + (await r.get([\"o-2\", \"o-3\"])).reduce((s, o) => s + o.total, 0);"), expect: ok(92) },
    { id: "m40-ts-export-function-overloads", src: "habit (exported overloads, then the call)", code: ts("export function count(): Promise<number>;", "export function count(status: string): Promise<number>;", "export async function count(status?: string): Promise<number> {", "  return (await tools.orders.search(status ? { status } : {})).length;", "}", "return [await count(), await count(\"open\")];"), expect: ok([3, 2]) },
    { id: "m40-ts-satisfies-return", src: "habit (satisfies on the returned object)", code: ts("type Summary = { open: number; shipped: number };", "const open = (await tools.orders.search({ status: \"open\" })).length;", "const shipped = (await tools.orders.search({ status: \"shipped\" })).length;", "return { open, shipped } satisfies Summary;"), expect: ok({ open: 2, shipped: 1 }) },
    { id: "m40-ts-as-const-arguments", src: "habit (as const arguments, a readonly cast on the result)", code: ts("const query = { status: \"shipped\", limit: 5 } as const;", "const rows = await tools.orders.search(query);", "return rows.map((o) => o.id) as readonly string[];"), expect: ok(["o-3"]) },
    { id: "m40-ts-definite-fields", src: "habit (definite assignment on class fields)", code: ts("class Totals {", "  sum!: number;", "  count!: number;", "  static async load(): Promise<Totals> {", "    const t = new Totals();", "    const rows = await tools.orders.search({});", "    t.sum = rows.reduce((s, o) => s + o.total, 0);", "    t.count = rows.length;", "    return t;", "  }", "}", "const t = await Totals.load();", "return { sum: t.sum, count: t.count };"), expect: ok({ sum: 92, count: 3 }) },
    { id: "m40-ts-let-definite-pair", src: "habit (two definite lets in one declaration)", code: ts("let first!: string, count!: number;", "const rows = await tools.orders.search({ status: \"open\" });", "first = rows[0].id;", "count = rows.length;", "return `${first}/${count}`;"), expect: ok("o-1/2") },
    { id: "m40-ts-non-null-chain", src: "habit (non-null after calls, brackets and members)", code: ts("const byId = new Map((await tools.orders.search({})).map((o) => [o.id, o] as const));", "const o3 = byId.get(\"o-3\")!;", "return byId.get(\"o-1\")!.total + o3!.total! + byId.get(\"o-2\")![\"total\"];"), expect: ok(92) },
    { id: "m40-ts-non-null-before-operators", src: "habit (x! before ], ,, !== and in a template)", code: ts("const rows = await tools.orders.search({});", "const first = rows.at(0);", "const last = rows.at(-1);", "return [first!.id, `${last!.id}`, first! !== last!];"), expect: ok(["o-1", "o-3", true]) },
    { id: "m40-ts-generic-arrow-async", src: "habit (an async generic arrow with <T,>)", code: ts("const firstOf = async <T,>(p: Promise<T[]>): Promise<T | undefined> => (await p)[0];", "const o = await firstOf(tools.orders.search({ status: \"shipped\" }));", "return o?.id;"), expect: ok("o-3") },
    { id: "m40-ts-generic-arrow-tsx", src: "habit (a generic arrow in a tsx fence)", code: fence("tsx", "const pick = <T extends { id: string },>(xs: T[], id: string): T | undefined => xs.find((x) => x.id === id);", "return pick(await tools.orders.search({}), \"o-2\")?.total;"), expect: ok(12) },
    { id: "m40-ts-import-type-default-star", src: "habit (import type of a default and of a namespace)", code: ts("import type Order from \"./order\";", "import type * as Api from \"./api\";", "const o: Order = await tools.orders.get({ id: \"o-3\" });", "const c: Api.Customer = await tools.customers.get({ id: o.customerId });", "return c.name;"), expect: ok("Ada") },
    { id: "m40-ts-export-type-reexport", src: "habit (export type { } from and a local export type)", code: ts("export type { Order, Customer } from \"./types\";", "export type Totals = Record<string, number>;", "const t: Totals = {};", "for (const o of await tools.orders.search({})) t[o.status] = (t[o.status] ?? 0) + o.total;", "return t;"), expect: ok({ open: 42, shipped: 50 }) },
    { id: "m40-ts-import-tools-with-type", src: "habit (the tools import with a type beside it)", code: ts("import { tools, type ToolMap } from \"tools\";", "const t: ToolMap = tools;", OPEN_SEARCH), expect: ok(2) },
    { id: "m40-ts-import-type-and-value-package", src: "habit (a type and a value from a package)", code: ts("import { type Dictionary, groupBy } from \"lodash\";", "const g: Dictionary<unknown[]> = groupBy(await tools.orders.search({}), \"status\");", "return Object.keys(g);"), expect: fail(/import|lodash/) },
    { id: "m40-ts-unique-symbol", src: "habit (a unique symbol key)", code: ts("const KIND: unique symbol = Symbol(\"kind\");", "type Tagged = { [KIND]: string; id: string };", "const rows: Tagged[] = (await tools.orders.search({})).map((o) => ({ [KIND]: \"order\", id: o.id }));", "return rows.map((r) => r[KIND] + \":\" + r.id);"), expect: ok(["order:o-1", "order:o-2", "order:o-3"]) },
    { id: "m40-ts-declare-unique-symbol-brand", src: "habit (a branded id type)", code: ts("declare const brand: unique symbol;", "type OrderId = string & { readonly [brand]: \"OrderId\" };", "const asId = (s: string) => s as OrderId;", "const o = await tools.orders.get({ id: asId(\"o-2\") });", "return o.total;"), expect: ok(12) },
    { id: "m40-ts-accessor", src: "habit (TS 4.9 auto-accessor)", code: ts("class Counter {", "  accessor count: number = 0;", "}", "const c = new Counter();", "for (const o of await tools.orders.search({ status: \"open\" })) c.count++;", "return c.count;"), expect: any(ok(2), fail(/accessor/)) },
    { id: "m40-ts-asserts-and-this-param", src: "habit (an assertion function and a this parameter)", code: ts("function assertString(x: unknown, name: string): asserts x is string {", "  if (typeof x !== \"string\") throw new Error(`${name} is not a string`);", "}", "function label(this: { prefix: string }, id: string): string { return this.prefix + id; }", "const o = await tools.orders.get({ id: \"o-1\" });", "assertString(o.customerId, \"customerId\");", "return label.call({ prefix: \"#\" }, o.customerId);"), expect: ok("#c-1") },
    { id: "m40-ts-angle-bracket-cast", src: "habit (old-style <T>x casts)", code: ts("const rows = <Array<{ total: number }>>await tools.orders.search({});", "const n = <number>rows.length;", "return n;"), expect: any(ok(3), fail(/\bas\b/)) },
    { id: "m40-ts-class-index-signature-declare-field", src: "habit (index signature, optional and declare fields)", code: ts("class Bag {", "  [key: string]: unknown;", "  name?: string;", "  declare readonly kind: string;", "}", "const b = new Bag();", "b.count = (await tools.orders.search({})).length;", "return b.count;"), expect: ok(3) },
    { id: "m40-ts-template-literal-type", src: "habit (a template literal type)", code: ts("type OrderId = `o-${number}`;", "const ids: OrderId[] = [\"o-1\", \"o-3\"];", "const rows = await Promise.all(ids.map((id) => tools.orders.get({ id })));", "return rows.reduce((s, o) => s + o.total, 0);"), expect: ok(80) },
    { id: "m40-ts-arrow-object-return-type", src: "habit (an arrow whose return type is an object type)", code: ts("const brief = (o: { id: string; total: number }): { id: string; big: boolean } => ({ id: o.id, big: o.total > 20 });", "return (await tools.orders.search({ status: \"open\" })).map(brief);"), expect: ok([{ id: "o-1", big: true }, { id: "o-2", big: false }]) },
    { id: "m40-ts-conditional-infer", src: "habit (infer from the tool's own type)", code: ts("type ElementOf<T> = T extends readonly (infer E)[] ? E : never;", "type Order = ElementOf<Awaited<ReturnType<typeof tools.orders.search>>>;", "const rows: Order[] = await tools.orders.search({ status: \"open\" });", "return rows.length;"), expect: ok(2) },
    { id: "m40-ts-labelled-tuple", src: "habit (a labelled tuple type)", code: ts("type Pair = [id: string, total: number];", "const pairs: Pair[] = (await tools.orders.search({})).map((o): Pair => [o.id, o.total]);", "return Object.fromEntries(pairs);"), expect: ok({ "o-1": 30, "o-2": 12, "o-3": 50 }) },
    { id: "m40-ts-private-hash-static", src: "habit (typed #private and static #private)", code: ts("class Cache {", "  static #hits: number = 0;", "  #rows: Map<string, unknown> = new Map();", "  async get(id: string): Promise<any> {", "    if (!this.#rows.has(id)) this.#rows.set(id, await tools.orders.get({ id }));", "    else Cache.#hits++;", "    return this.#rows.get(id);", "  }", "  static get hits(): number { return Cache.#hits; }", "}", "const c = new Cache();", "await c.get(\"o-1\");", "await c.get(\"o-1\");", "return Cache.hits;"), expect: ok(1) },
    { id: "m40-ts-generic-call-on-tool", src: "habit (a type argument on the tool call)", code: ts("interface Order { id: string; total: number }", "const rows = await tools.orders.search<Order[]>({ status: \"open\" });", "return rows.map((o) => o.id);"), expect: ok(["o-1", "o-2"]) },
    { id: "m40-ts-optional-and-union-params", src: "habit (optional, union and defaulted parameters)", code: ts("async function count(status?: \"open\" | \"shipped\", limit: number = 10): Promise<number> {", "  return (await tools.orders.search(status ? { status, limit } : { limit })).length;", "}", "return [await count(), await count(\"shipped\")];"), expect: ok([3, 1]) },
    { id: "m40-ts-function-type-annotation", src: "habit (a variable typed as a function type)", code: ts("interface Order { id: string; total: number }", "let fmt: (o: Order, i?: number) => string = (o) => `${o.id}:${o.total}`;", "return (await tools.orders.search({ status: \"open\" })).map((o) => fmt(o));"), expect: ok(["o-1:30", "o-2:12"]) },
    { id: "m40-ts-interface-generic-default-extends", src: "habit (interface with a default type argument)", code: ts("interface Base { total: number }", "interface Page<T = unknown> extends Base { rows: T[] }", "const rows = await tools.orders.search({});", "const page: Page<{ id: string }> = { rows, total: rows.length };", "return page.total;"), expect: ok(3) },

    // --- Gemini, Llama, Qwen, DeepSeek: fences, wrappers, Python
    { id: "m40-fence-tsx", src: "habit (```tsx for a plain TypeScript program)", code: fence("tsx", "const n: number = (await tools.orders.search({})).length;", "return n;"), expect: ok(3) },
    { id: "m40-fence-jsx", src: "habit (```jsx)", code: fence("jsx", OPEN_SEARCH), expect: ok(2) },
    { id: "m40-fence-mjs", src: "habit (```mjs)", code: fence("mjs", OPEN_SEARCH), expect: ok(2) },
    { id: "m40-fence-node", src: "habit (```node)", code: fence("node", OPEN_SEARCH), expect: ok(2) },
    { id: "m40-fence-cjs", src: "habit (```cjs)", code: fence("cjs", OPEN_SEARCH), expect: ok(2) },
    { id: "m40-fence-title-attribute", src: "habit (an info string with a title)", code: fence("javascript title=\"count.js\"", OPEN_SEARCH), expect: ok(2) },
    { id: "m40-fence-typescript-capital", src: "habit (```TypeScript)", code: fence("TypeScript", "const n: number = (await tools.orders.search({})).length;", "return n;"), expect: ok(3) },
    { id: "m40-fence-tildes", src: "habit (a ~~~ fence)", code: L("~~~js", "return (await tools.orders.search({})).length;", "~~~"), expect: any(ok(3), fail(/~~~/)) },
    { id: "m40-fence-code-after-close", src: "habit (main() called after the closing fence)", code: L("```js", "async function main() {", "  return (await tools.orders.search({})).length;", "}", "```", "main();"), expect: any(ok(3), fail(/after|outside|fence|```/), okWarned(/after the|outside|did not run/)) },
    { id: "m40-two-fences-corrected", src: "habit (a first attempt, then \"Corrected:\" and the real program)", code: L("```js", "const orders = tools.orders.search({});", "```", "Oops, I forgot the await. Corrected:", "```js", "const orders = await tools.orders.search({});", "return orders.length;", "```"), expect: any(ok(3), okWarned(/did not run/)) },
    { id: "m40-think-then-fence", src: "habit (DeepSeek-R1/Qwen3: <think> before the fence)", code: L("<think>", "The user wants the open orders. I'll call `tools.orders.search` with `{ status: \"open\" }`.", "</think>", "", fence("js", OPEN_SEARCH)), expect: any(ok(2), fail(/think/)) },
    { id: "m40-think-no-fence", src: "habit (<think> then the bare program)", code: L("<think>", "count them", "</think>", "const n = (await tools.orders.search({})).length;", "return n;"), expect: any(ok(3), fail(/think/)) },
    { id: "m40-gemini-tool-code-fence", src: "habit (Gemini: a tool_code fence of Python)", code: fence("tool_code", "print(default_api.orders_search(status=\"open\"))"), expect: fail(/Python|JavaScript|tools\.orders\.search/) },
    { id: "m40-gemini-default-api", src: "habit (Gemini: default_api. before a flattened name)", code: L("const r = await default_api.orders_search({ status: \"open\" });", "return r.length;"), expect: any(ok(2), fail(/tools\.orders\.search/)) },
    { id: "m40-py-whole-program", src: "habit (a whole Python program with imports and __main__)", code: L("import json", "", "def main():", "    orders = tools.orders.search({\"status\": \"open\"})", "    total = sum(o[\"total\"] for o in orders)", "    print(json.dumps({\"total\": total}))", "", "if __name__ == \"__main__\":", "    main()"), expect: fail(/Python|JavaScript/) },
    { id: "m40-def-main-js-body", src: "habit (def main(): above a JavaScript body)", code: L("def main():", "    const orders = await tools.orders.search({});", "    return orders.length;", "", "main()"), expect: any(ok(3), fail(/function/, "SYNTAX")) },
    { id: "m40-async-def-braces", src: "habit (async def with braces)", code: L("async def main() {", "  return (await tools.orders.search({})).length;", "}", "await main();"), expect: any(ok(3), fail(/function/, "SYNTAX")) },
    { id: "m40-py-print-fstring", src: "habit (print(f\"...\"))", code: L("const n = (await tools.orders.search({ status: \"open\" })).length;", "print(f\"open: {n}\");"), expect: any(okLog(/^open: 2$/), fail(/template|`/)) },
    { id: "m40-json-code-as-code", src: "habit (the arguments' JSON sent as the code)", code: JSON.stringify({ code: "const n = (await tools.orders.search({})).length;\nreturn n;" }), expect: any(ok(3), fail(/JSON|\bcode\b/)) },
    { id: "m40-json-fence-code-as-code", src: "habit (a ```json fence of the arguments, as the code)", code: fence("json", JSON.stringify({ code: "return 4;", explanation: "four" })), expect: any(ok(4), fail(/JSON|\bcode\b/)) },

    // --- modules, the open web and runtimes' globals
    { id: "m40-require-node-fs", src: "habit (read a file with fs)", code: L("const fs = require(\"node:fs\");", "const data = JSON.parse(fs.readFileSync(\"orders.json\", \"utf8\"));", "return data.length;"), expect: fail(/require|file|tools/) },
    { id: "m40-require-axios", src: "habit (axios for HTTP)", code: L("const axios = require(\"axios\");", "const { data } = await axios.get(\"https://api.example.com/orders\");", "return data.length;"), expect: fail(/tools/) },
    { id: "m40-xmlhttprequest", src: "habit (XMLHttpRequest)", code: L("const xhr = new XMLHttpRequest();", "xhr.open(\"GET\", \"https://api.example.com/orders\");", "xhr.send();"), expect: fail(/XMLHttpRequest|tools/) },
    { id: "m40-fetch-post-json", src: "habit (fetch with a JSON body)", code: L("const res = await fetch(\"https://api.example.com/refunds\", {", "  method: \"POST\",", "  headers: { \"Content-Type\": \"application/json\" },", "  body: JSON.stringify({ orderId: \"o-1\", amount: 5 }),", "});", "return await res.json();"), expect: fail(/tools|fetch/) },
    { id: "m40-dynamic-import-lodash", src: "habit (await import of a package)", code: L("const _ = await import(\"lodash\");", "return _.sumBy(await tools.orders.search({}), \"total\");"), expect: fail(/import|lodash/) },
    { id: "m40-dynamic-import-url", src: "habit (import from a CDN URL)", code: L("const { sum } = await import(\"https://esm.sh/lodash-es\");", "return sum((await tools.orders.search({})).map((o) => o.total));"), expect: fail(/import/) },
    { id: "m40-process-env-default", src: "habit (configuration from the environment)", code: L("const limit = Number(process.env.LIMIT ?? \"2\");", "return (await tools.orders.search({ limit })).length;"), expect: fail(/process/) },
    { id: "m40-process-argv", src: "habit (a command-line argument)", code: L("const status = process.argv[2] ?? \"open\";", "return (await tools.orders.search({ status })).length;"), expect: fail(/process/) },
    { id: "m40-deno-env", src: "habit (Deno)", code: L("const status = Deno.env.get(\"STATUS\") ?? \"open\";", "return (await tools.orders.search({ status })).length;"), expect: fail(/^'Deno' is not defined: the sandbox has no page, DOM, storage or Node\.js objects/) },
    { id: "m40-deno-write-file", src: "habit (Deno writes the answer to a file)", code: L("const rows = await tools.orders.search({});", "await Deno.writeTextFile(\"orders.json\", JSON.stringify(rows));", "return rows.length;"), expect: fail(/^'Deno' is not defined: the sandbox has no page, DOM, storage or Node\.js objects/) },
    { id: "m40-bun-file", src: "habit (Bun)", code: L("const cfg = await Bun.file(\"config.json\").json();", "return (await tools.orders.search({ status: cfg.status })).length;"), expect: fail(/^'Bun' is not defined: the sandbox has no page, DOM, storage or Node\.js objects/) },
    { id: "m40-imports-then-top-level-return", src: "habit (a module's imports, then a top-level return)", code: L("import { tools } from \"tools\";", "import type { Order } from \"./types\";", "", "const rows: Order[] = await tools.orders.search({ status: \"open\" });", "return rows.length;"), expect: ok(2) },
    { id: "m40-module-exports-main-property", src: "habit (module.exports.main = ...)", code: "module.exports.main = async () => (await tools.orders.search({})).length;", expect: any(ok(3), fail(/return|module/)) },
    { id: "m40-export-const-result", src: "habit (the answer as an exported const)", code: "export const result = (await tools.orders.search({ status: \"open\" })).length;", expect: any(ok(2), fail(/return/), okWarned(/return/)) },
    { id: "m40-require-main-module", src: "habit (Node's if (require.main === module))", code: L("async function main() {", "  return (await tools.orders.search({})).length;", "}", "if (require.main === module) {", "  main();", "}"), expect: any(ok(3), fail(/require|module|main\(\)/)) },
    { id: "m40-main-catch-process-exit", src: "habit (process.exit in a catch that does not run)", code: L("async function main() {", "  return (await tools.orders.search({})).length;", "}", "main().catch((e) => { console.error(e); process.exit(1); });"), expect: any(ok(3), fail(/process/)) },

    // --- models39's leftovers: BigInt in JSON text, process.stdout.write
    { id: "m40-json-stringify-bigint-log", src: "models39's leftover (BigInt sums logged as JSON)", code: L("const sum = (await tools.orders.search({})).map((o) => BigInt(o.total)).reduce((a, b) => a + b, 0n);", "console.log(JSON.stringify({ sum }));"), expect: fail(/String\(|Number\(/) },
    { id: "m40-json-stringify-bigint-return", src: "models39's leftover (a large BigInt as JSON text)", code: "return JSON.stringify({ big: 2n ** 64n, n: (await tools.orders.search({})).length });", expect: fail(/String\(|Number\(/) },
    { id: "m40-stdout-write", src: "models39's leftover (process.stdout.write of the answer)", code: L("const n = (await tools.orders.search({})).length;", "process.stdout.write(`${n}\\n`);"), expect: any(okLog(/^3\n?$/), fail(/console\.log/)) },

    // --- tool-call markup that holds one program: it runs
    { id: "m40-tool-call-json-runs", src: "habit (Hermes/Qwen <tool_call> around executeCode's arguments)", code: L("<tool_call>", JSON.stringify({ name: "executeCode", arguments: { code: "return (await tools.orders.search({})).length;" } }), "</tool_call>"), expect: ok(3) },
    { id: "m40-tool-call-arguments-text", src: "habit (OpenAI-style arguments as JSON text inside <tool_call>)", code: "<tool_call>" + JSON.stringify({ name: "executeCode", arguments: JSON.stringify({ code: "return 2;", explanation: "two" }) }) + "</tool_call>", expect: ok(2) },
    { id: "m40-invoke-function-calls-runs", src: "habit (<function_calls><invoke><parameter name=\"code\">)", code: L("<function_calls>", "<invoke name=\"executeCode\">", "<parameter name=\"code\">const o = await tools.orders.get({ id: \"o-3\" });", "return o.total;</parameter>", "<parameter name=\"explanation\">the total of o-3</parameter>", "</invoke>", "</function_calls>"), expect: ok(50) },
    { id: "m40-invoke-code-with-lt", src: "habit (the program inside <parameter> uses < and &&)", code: L("<invoke name=\"executeCode\">", "<parameter name=\"code\">", "const rows = await tools.orders.search({});", "return rows.filter((o) => o.total < 40 && o.status === \"open\").length;", "</parameter>", "</invoke>"), expect: ok(2) },
    { id: "m40-llama-function-runs", src: "habit (Llama 3.1 <function=executeCode>{...}</function>)", code: "<function=executeCode>" + JSON.stringify({ code: OPEN_SEARCH }) + "</function>", expect: ok(2) },
    { id: "m40-tool-call-two-programs", src: "habit (two <tool_call> blocks: which one is meant is a guess)", code: L("<tool_call>", JSON.stringify({ name: "executeCode", arguments: { code: "return 1;" } }), "</tool_call>", "<tool_call>", JSON.stringify({ name: "executeCode", arguments: { code: "return 2;" } }), "</tool_call>"), expect: fail(/tool-call markup/) },
    { id: "m40-tool-call-search-tools", src: "habit (a searchTools call in markup, sent as the code)", code: L("<tool_call>", JSON.stringify({ name: "searchTools", arguments: { query: "refund" } }), "</tool_call>"), expect: fail(/searchTools|tool_search/) },

    // --- searchTools' arguments
    { id: "m40-search-queries-one", src: "habit ({ queries: [one] })", search: { queries: ["refund"] }, expect: any(found("payments.refund"), fail(/query/)) },
    { id: "m40-search-q-and-limit", src: "habit ({ q, limit })", search: { q: "refund", limit: 2 }, expect: any(found("payments.refund"), fail(/query/)) },
    { id: "m40-search-limit-string-two", src: "habit (limit: \"2\")", search: { query: "orders", limit: "2" }, expect: any(found("orders.search"), found("orders.get"), found("orders.bulkGet"), fail(/limit/)), check: atMost(2) },
    { id: "m40-search-limit-negative", src: "habit (limit: -1 for \"no limit\")", search: { query: "orders", limit: -1 }, expect: any(found("orders.search"), fail(/limit/)), check: someHits },
    { id: "m40-search-limit-zero", src: "habit (limit: 0)", search: { query: "refund", limit: 0 }, expect: any(found("payments.refund"), fail(/limit/)), check: someHits },
    { id: "m40-search-limit-fraction", src: "habit (limit: 2.5)", search: { query: "orders", limit: 2.5 }, expect: any(found("orders.search"), found("orders.get"), fail(/limit/)) },
    { id: "m40-search-namespace-null", src: "habit (namespace: null for \"any\")", search: { query: "refund", namespace: null }, expect: found("payments.refund") },
    { id: "m40-search-namespace-capital", src: "habit (namespace: \"Payments\")", search: { query: "refund", namespace: "Payments" }, expect: any(found("payments.refund"), fail(/namespace|payments/)) },
    { id: "m40-search-string-array", src: "habit (the arguments as an array of words)", search: ["refund"], expect: any(found("payments.refund"), fail(/query/)) },
    { id: "m40-search-input-envelope", src: "habit ({ input: { query } })", search: { input: { query: "refund" } }, expect: any(found("payments.refund"), fail(/query/)) },
    { id: "m40-search-name-key", src: "habit ({ name } of the tool it guessed)", search: { name: "payments.refund" }, expect: any(found("payments.refund"), fail(/query/)) },
    { id: "m40-search-null", src: "habit (null arguments)", search: null, expect: any(found("orders.get"), fail(/query|object/)) },
    { id: "m40-search-query-null", src: "habit ({ query: null })", search: { query: null }, expect: any(found("orders.get"), fail(/query/)) },
    { id: "m40-search-text-key", src: "habit ({ text })", search: { text: "refund" }, expect: any(found("payments.refund"), fail(/query/)) },

    // --- executeCode's arguments
    { id: "m40-args-script-json-text", src: "habit ({ script } as JSON text)", args: JSON.stringify({ script: "return 1;" }), expect: any(ok(1), fail(/code/, "INVALID_INPUT")) },
    { id: "m40-args-code-lines-no-semicolons", src: "habit (lines without semicolons)", args: { code: ["const a = 2", "return a * 3"] }, expect: any(ok(6), fail(/code/, "INVALID_INPUT")) },
    { id: "m40-args-code-language-source", src: "habit ({ code: { language, source } })", args: { code: { language: "javascript", source: "return 7;" } }, expect: any(ok(7), fail(/code/, "INVALID_INPUT")) },
    { id: "m40-args-code-keyed-by-language", src: "habit ({ code: { javascript } })", args: { code: { javascript: "return 7;" } }, expect: any(ok(7), fail(/code/, "INVALID_INPUT")) },
    { id: "m40-args-code-empty", src: "habit (an empty program)", args: { code: "" }, expect: fail(/code|empty|program/) },
    { id: "m40-args-code-null", src: "habit ({ code: null })", args: { code: null }, expect: fail(/code/, "INVALID_INPUT") },
    { id: "m40-args-program-key", src: "habit ({ program })", args: { program: "return 5;" }, expect: any(ok(5), fail(/code/, "INVALID_INPUT")) },
    { id: "m40-args-javascript-key", src: "habit ({ javascript })", args: { javascript: "return 5;" }, expect: any(ok(5), fail(/code/, "INVALID_INPUT")) },
    { id: "m40-args-input-envelope", src: "habit ({ input: { code } })", args: { input: { code: "return 2;" } }, expect: any(ok(2), fail(/code/, "INVALID_INPUT")) },
    { id: "m40-args-extra-timeout", src: "habit (a timeout beside the code)", args: { code: "return 5;", timeout: 1000 }, expect: any(ok(5), fail(/timeout/)) },
    { id: "m40-args-bare-program-text", src: "habit (the program itself as the arguments)", args: "return (await tools.orders.search({})).length;", expect: any(ok(3), fail(/code/, "INVALID_INPUT")) },
    { id: "m40-args-language-python", src: "habit (language: python, and Python)", args: { code: "print(len(tools.orders.search()))", language: "python" }, expect: fail(/JavaScript|Python/) },
    { id: "m40-args-array", src: "habit (the arguments in an array)", args: [{ code: "return 1;" }], expect: any(ok(1), fail(/code|object/, "INVALID_INPUT")) },
];
