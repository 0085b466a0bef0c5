// Session 42: round four of what models send to executeCode and
// searchTools, written before reading how the product handles them, in
// habits the earlier batches (model-outputs-cases.mjs, model-programs-cases.mjs,
// model-programs38/39/40-cases.mjs) lack: TypeScript's enum reverse
// mapping and string enums in a switch, const type parameters, generic
// defaults on classes and functions, static factories with a this type,
// optional calls on tools, type predicates in filter, this-type guards,
// using declarations, static blocks, #x in obj, import = require, an
// exported class never used; modern JavaScript (use strict, a shebang,
// @ts-check, leading-semicolon and ! IIFEs, logical assignment, numeric
// separators, with, labelled blocks, regex lookbehind, the v and d flags,
// change-by-copy arrays, Array.prototype.groupBy, iterator helpers,
// Promise.withResolvers, Promise.race timeouts, custom async iterators,
// Error.captureStackTrace, queueMicrotask, setImmediate, performance,
// AbortController); tools enumerated, proxied, called without input, with
// a second argument, a Set or a BigInt for a field; results that are
// circular, RegExps, URLs, objects with toJSON; console.group/count/assert/
// time/table columns; Intl's DateTimeFormat with a zone, RelativeTimeFormat,
// ListFormat, PluralRules, compact and currency formats, Segmenter,
// Collator; date arithmetic, local parsing and Temporal; node: imports,
// zod, crypto, util, import.meta, React hooks and createElement, Response;
// Python slipped into JavaScript (lambda, items(), raise, json.dumps,
// for x in y:, except, ", ".join); four-backtick and filename fences,
// three fences, special tokens small models leak (<|im_end|>, <|eot_id|>,
// <end_of_turn>, Llama 4's python tags), CodeAct's <execute>, the
// tool-call markup of DeepSeek, Mistral, gpt-oss (harmony), Kimi and GLM,
// cut-short programs, Chinese comments and full-width punctuation;
// executeCode arguments as JSON with trailing commas, comments, Python
// dict text, unquoted keys, prose after it, three encodings, a quoted
// program, other keys and OpenAI's tool-call shape; and searchTools'
// arguments by tool, name, names, id, namespace paths (tools., slashes,
// globs, a tool's full name), namespaces arrays, filter objects and text.
// Rows are as in model-outputs-cases.mjs (ok, okLog, fail, found, any,
// warn, left), run against its catalog() plus
// model-programs38-cases.mjs's extraTools(); a row may add `check(res)`.
import { any, fail, found, ok, okLog } from "./model-outputs-cases.mjs";

export const L = (...lines) => lines.join("\n");
export const fence = (lang, ...lines) => "```" + lang + "\n" + L(...lines) + "\n```";
export const ts = (...lines) => fence("ts", ...lines);
/** ok, whatever the value, with a warning matching warn. */
export const okWarned = (warn) => ({ ok: true, warn });

export const hitsOf = (res) => (Array.isArray(res) ? res : res?.hits ?? res?.result ?? res?.tools);
/** A searchTools answer listing every one of names. */
export const lists = (...names) => (res) => {
    const hits = hitsOf(res);
    const got = Array.isArray(hits) ? hits.map((h) => h.name) : [];
    const missing = names.filter((n) => !got.includes(n));
    return missing.length ? `${missing} not among ${got}` : null;
};
/** A log line (any level) matching each of res. */
export const logs = (...res) => (r) => {
    const lines = (r.logs ?? []).map((l) => l.message);
    const missing = res.filter((re) => !lines.some((m) => re.test(m)));
    return missing.length ? `no log matching ${missing.join(", ")}: ${JSON.stringify(lines)}` : null;
};
const OPEN_SEARCH = "return (await tools.orders.search({ status: \"open\" })).length;";
const TOOL_CALL = "Tool-call markup holding one executeCode call";

export const rows42 = [
    // --- TypeScript the earlier rows did not try
    { id: "m42-ts-enum-reverse-mapping", src: "habit (a numeric enum's name read back)", code: ts("enum Level { Low, Mid, High }", "const level = (t: number): Level => (t >= 50 ? Level.High : t >= 20 ? Level.Mid : Level.Low);", "const rows = await tools.orders.search({});", "return rows.map((o) => Level[level(o.total)]);"), expect: ok(["Mid", "Low", "High"]) },
    { id: "m42-ts-string-enum-switch", src: "habit (a string enum in a switch)", code: ts("enum Status { Open = \"open\", Shipped = \"shipped\" }", "let open = 0, shipped = 0;", "for (const o of await tools.orders.search({})) {", "  switch (o.status as Status) {", "    case Status.Open: open++; break;", "    case Status.Shipped: shipped++; break;", "  }", "}", "return { open, shipped };"), expect: ok({ open: 2, shipped: 1 }) },
    { id: "m42-ts-enum-after-function", src: "habit (an enum declared below the helper that reads it)", code: ts("function label(s: string): string { return s === Kind.Open ? \"O\" : \"S\"; }", "enum Kind { Open = \"open\", Shipped = \"shipped\" }", "return (await tools.orders.search({})).map((o) => label(o.status)).join(\"\");"), expect: ok("OOS") },
    { id: "m42-ts-const-type-parameter", src: "habit (TS 5.0 const type parameter)", code: ts("function fields<const K extends readonly string[]>(keys: K): K { return keys; }", "const keys = fields([\"id\", \"total\"]);", "const rows = await tools.orders.search({ limit: 1 });", "return rows.map((o: Record<string, unknown>) => keys.map((k) => o[k]));"), expect: ok([["o-1", 30]]) },
    { id: "m42-ts-class-generic-defaults", src: "habit (a class with defaulted type parameters and a defaulted parameter property)", code: ts("class Page<T = { id: string }, M extends object = {}> {", "  constructor(public items: T[], public meta: M = {} as M) {}", "  get size(): number { return this.items.length; }", "}", "const p = new Page(await tools.orders.search({ status: \"open\" }));", "return [p.size, p.meta];"), expect: ok([2, {}]) },
    { id: "m42-ts-function-generic-default", src: "habit (a generic default and an explicit type argument on a call)", code: ts("async function load<T = unknown>(p: Promise<T[]>, n: number = 1): Promise<T[]> {", "  return (await p).slice(0, n);", "}", "const rows = await load<{ id: string }>(tools.orders.search({}), 2);", "return rows.map((o) => o.id);"), expect: ok(["o-1", "o-2"]) },
    { id: "m42-ts-static-factory-this-type", src: "habit (a static async factory typed with this)", code: ts("abstract class Loader {", "  static async create<T extends Loader>(this: new () => T): Promise<T> {", "    const l = new this();", "    await l.init();", "    return l;", "  }", "  protected abstract init(): Promise<void>;", "}", "class Orders extends Loader {", "  rows: Array<{ id: string }> = [];", "  protected async init(): Promise<void> { this.rows = await tools.orders.search({}); }", "}", "return (await Orders.create()).rows.length;"), expect: ok(3) },
    { id: "m42-ts-declare-process", src: "habit (declares process, then reads an env var)", code: ts("declare const process: { env: Record<string, string | undefined> };", "const limit = Number(process.env.LIMIT ?? 2);", "return (await tools.orders.search({ limit })).length;"), expect: any(ok(2), fail(/process/)) },
    { id: "m42-ts-optional-call-on-tool", src: "habit (optional chaining on the tool and its call)", code: ts("const rows = (await tools.orders?.search?.({ status: \"open\" })) ?? [];", "return rows.length;"), expect: ok(2) },
    { id: "m42-ts-non-null-optional-call", src: "habit (! after an index and after an optional call)", code: ts("const first = (await tools.orders.search({ limit: 1 }))[0]!;", "return first.customerId!.toUpperCase?.()!;"), expect: ok("C-1") },
    { id: "m42-ts-filter-type-predicate", src: "habit (a type predicate in filter after catch(() => null))", code: ts("interface Order { id: string; total: number }", "const got = await Promise.all([\"o-1\", \"o-9\", \"o-3\"].map((id) => tools.orders.get({ id }).catch(() => null)));", "const found = got.filter((o): o is Order => o !== null);", "return found.map((o) => o.id);"), expect: ok(["o-1", "o-3"]) },
    { id: "m42-ts-keyof-typeof-keys", src: "habit (Object.keys cast to keyof typeof)", code: ts("const weights = { open: 1, shipped: 2 } as const;", "let score = 0;", "for (const k of Object.keys(weights) as Array<keyof typeof weights>) {", "  score += (await tools.orders.search({ status: k })).length * weights[k];", "}", "return score;"), expect: ok(4) },
    { id: "m42-ts-partial-record", src: "habit (Partial<Record<...>> counts)", code: ts("type Counts = Partial<Record<\"open\" | \"shipped\" | \"cancelled\", number>>;", "const c: Counts = {};", "for (const o of await tools.orders.search({})) {", "  const k = o.status as keyof Counts;", "  c[k] = (c[k] ?? 0) + 1;", "}", "return c;"), expect: ok({ open: 2, shipped: 1 }) },
    { id: "m42-ts-this-type-guard", src: "habit (a method returning this is ...)", code: ts("class Ord {", "  constructor(public readonly data: { status: string; total: number }) {}", "  isOpen(): this is Ord & { open: true } { return this.data.status === \"open\"; }", "}", "const rows = (await tools.orders.search({})).map((r) => new Ord(r));", "return rows.filter((o) => o.isOpen()).length;"), expect: ok(2) },
    { id: "m42-ts-using-declaration", src: "habit (TS 5.2 using with Symbol.dispose)", code: ts("class Timer {", "  constructor(private label: string) { console.log(`start ${label}`); }", "  [Symbol.dispose]() { console.log(`end ${this.label}`); }", "}", "{", "  using t = new Timer(\"search\");", "  return (await tools.orders.search({})).length;", "}"), expect: any(ok(3), fail(/using/)) },
    { id: "m42-ts-optional-method", src: "habit (an optional method declared without a body)", code: ts("class Report {", "  onRow?(id: string): void;", "  rows: string[] = [];", "  async run(): Promise<number> {", "    for (const o of await tools.orders.search({})) { this.onRow?.(o.id); this.rows.push(o.id); }", "    return this.rows.length;", "  }", "}", "return await new Report().run();"), expect: ok(3) },
    { id: "m42-ts-destructured-typed-params", src: "habit (an arrow with destructured, typed parameters)", code: ts("const line = ({ id, total }: { id: string; total: number }, i: number): string => `${i + 1}. ${id} $${total.toFixed(2)}`;", "return (await tools.orders.search({})).map(line);"), expect: ok(["1. o-1 $30.00", "2. o-2 $12.00", "3. o-3 $50.00"]) },
    { id: "m42-ts-as-const-tuple-return", src: "habit (returns a tuple as const)", code: ts("const open: number = (await tools.orders.search({ status: \"open\" })).length;", "const shipped: number = (await tools.orders.search({ status: \"shipped\" })).length;", "return [open, shipped] as const;"), expect: ok([2, 1]) },
    { id: "m42-ts-promise-all-as-const", src: "habit (Promise.all of a tuple as const)", code: ts("const [order, customer] = await Promise.all([", "  tools.orders.get({ id: \"o-3\" }),", "  tools.customers.get({ id: \"c-1\" }),", "] as const);", "return `${order.id}:${customer.name}`;"), expect: ok("o-3:Ada") },
    { id: "m42-ts-static-block", src: "habit (a class static block)", code: ts("class Config {", "  static statuses: string[];", "  static { Config.statuses = [\"open\", \"shipped\"]; }", "}", "return await Promise.all(Config.statuses.map(async (s) => (await tools.orders.search({ status: s })).length));"), expect: ok([2, 1]) },
    { id: "m42-ts-private-in-brand-check", src: "habit (#field in obj as a type guard)", code: ts("class Money {", "  #cents: number;", "  constructor(cents: number) { this.#cents = cents; }", "  static is(x: unknown): x is Money { return typeof x === \"object\" && x !== null && #cents in x; }", "  get dollars(): number { return this.#cents / 100; }", "}", "const m = new Money((await tools.orders.get({ id: \"o-2\" })).total * 100);", "return [Money.is(m), Money.is({}), m.dollars];"), expect: ok([true, false, 12]) },
    { id: "m42-ts-import-equals-require", src: "habit (TS import = require)", code: ts("import fs = require(\"fs\");", "const ids: string[] = JSON.parse(fs.readFileSync(\"ids.json\", \"utf8\"));", "return ids.length;"), expect: fail(/fs|require|import/) },
    { id: "m42-ts-export-default-class-unused", src: "habit (exports a class and stops)", code: ts("export default class OrderReport {", "  async run(): Promise<number> { return (await tools.orders.search({})).length; }", "}"), expect: any(ok(3), okWarned(/OrderReport/), fail(/OrderReport|export.*return the result/)) },
    { id: "m42-ts-plan-satisfies-tool-call", src: "habit (a plan of tool calls as const satisfies, run by tool_call)", code: ts("const plan = {", "  steps: [{ tool: \"orders.search\", input: { status: \"open\" } }],", "} as const satisfies { steps: readonly { tool: string; input: object }[] };", "const out: unknown[][] = [];", "for (const s of plan.steps) out.push((await tool_call(s.tool, s.input)) as unknown[]);", "return out[0].length;"), expect: ok(2) },
    { id: "m42-ts-optional-element-call", src: "habit (a lookup table of handlers called with ?.())", code: ts("const handlers: Record<string, ((o: { id: string }) => string) | undefined> = { open: (o) => o.id };", "return (await tools.orders.search({})).map((o) => handlers[o.status]?.(o) ?? \"-\");"), expect: ok(["o-1", "o-2", "-"]) },
    { id: "m42-ts-bigint-type", src: "habit (a bigint annotation and literal)", code: ts("const big: bigint = 10n ** 18n;", "const n: number = (await tools.orders.search({})).length;", "return `${big / 10n ** 17n}:${n}`;"), expect: ok("10:3") },

    // --- Modern JavaScript, directives and headers
    { id: "m42-use-strict", src: "habit (\"use strict\" on the first line)", code: L("\"use strict\";", OPEN_SEARCH), expect: ok(2) },
    { id: "m42-shebang", src: "habit (a Node shebang line)", code: L("#!/usr/bin/env node", "const rows = await tools.orders.search({});", "return rows.length;"), expect: ok(3) },
    { id: "m42-ts-check-jsdoc", src: "habit (@ts-check, a triple-slash reference, JSDoc types)", code: L("// @ts-check", "/// <reference lib=\"es2022\" />", "/** @type {Array<{ id: string }>} */", "const rows = await tools.orders.search({ status: \"open\" });", "return rows.map((o) => o.id);"), expect: ok(["o-1", "o-2"]) },
    { id: "m42-leading-semicolon-iife", src: "habit (a ;(async () => {})() that logs)", code: L(";(async () => {", "  const rows = await tools.orders.search({});", "  console.log(rows.length);", "})();"), expect: okLog(/^3$/) },
    { id: "m42-bang-function-iife", src: "habit (!async function () {}())", code: L("!async function () {", "  console.log((await tools.orders.search({ status: \"open\" })).length);", "}();"), expect: okLog(/^2$/) },
    { id: "m42-logical-assignment", src: "habit (??=, += and ||=)", code: L("const totals = {};", "for (const o of await tools.orders.search({})) {", "  totals[o.customerId] ??= 0;", "  totals[o.customerId] += o.total;", "}", "let note;", "note ||= \"none\";", "return { totals, note };"), expect: ok({ totals: { "c-1": 80, "c-2": 12 }, note: "none" }) },
    { id: "m42-numeric-separators", src: "habit (1_000 and 2_500)", code: L("const LIMIT = 1_000;", "const rows = await tools.orders.search({});", "return rows.filter((o) => o.total * 100 > 2_500 && o.total < LIMIT).length;"), expect: ok(2) },
    { id: "m42-with-statement", src: "habit (with (Math))", code: L("const totals = (await tools.orders.search({})).map((o) => o.total);", "with (Math) {", "  return max(...totals) - min(...totals);", "}"), expect: any(ok(38), fail(/with/)) },
    { id: "m42-labelled-block-break", src: "habit (break out of a labelled block)", code: L("const rows = await tools.orders.search({});", "let hit = null;", "search: {", "  for (const o of rows) {", "    if (o.total > 40) { hit = o.id; break search; }", "  }", "  hit = \"none\";", "}", "return hit;"), expect: ok("o-3") },
    { id: "m42-regex-lookbehind", src: "habit (amounts after a $ by lookbehind)", code: L("const text = \"Refund $30.00 for o-1, fee $1.50\";", "return [...text.matchAll(/(?<=\\$)\\d+(?:\\.\\d+)?/g)].map((m) => Number(m[0]));"), expect: ok([30, 1.5]) },
    { id: "m42-regex-v-flag", src: "habit (a v-flag set difference)", code: L("const upper = /^[\\p{L}--[a-z]]+$/v;", "return [\"ABC\", \"abc\", \"Été\"].map((s) => upper.test(s));"), expect: any(ok([true, false, false]), fail(/flag|regular expression|\bv\b/i)) },
    { id: "m42-regex-d-flag", src: "habit (match indices with the d flag)", code: L("const m = /o-(?<n>\\d+)/d.exec(\"order o-3 shipped\");", "return [m.indices[0], m.indices.groups.n];"), expect: ok([[6, 9], [8, 9]]) },
    { id: "m42-regex-dotall-pictographic", src: "habit (the s flag and \\p{Extended_Pictographic})", code: L("const body = /BEGIN(.*)END/s.exec(\"BEGIN\\nx\\nEND\")[1];", "const icons = \"Shipped 🚚 today ✅\".match(/\\p{Extended_Pictographic}/gu);", "return [body, icons];"), expect: ok(["\nx\n", ["🚚", "✅"]]) },
    { id: "m42-array-change-by-copy", src: "habit (toReversed, with, toSpliced)", code: L("const totals = (await tools.orders.search({})).map((o) => o.total);", "return [totals.toReversed(), totals.with(0, 0), totals.toSpliced(1, 1), totals];"), expect: ok([[50, 12, 30], [0, 12, 50], [30, 50], [30, 12, 50]]) },
    { id: "m42-array-groupby-method", src: "habit (the withdrawn Array.prototype.groupBy)", code: L("const orders = await tools.orders.search({});", "const byStatus = orders.groupBy((o) => o.status);", "return Object.keys(byStatus);"), expect: any(ok(["open", "shipped"]), fail(/Object\.groupBy/)) },
    { id: "m42-iterator-helpers", src: "habit (ES2025 iterator helpers on a Map's keys)", code: L("const byId = new Map((await tools.orders.search({})).map((o) => [o.id, o]));", "return byId.keys().filter((id) => id !== \"o-2\").toArray();"), expect: any(ok(["o-1", "o-3"]), fail(/toArray|filter|Array\.from/)) },
    { id: "m42-promise-with-resolvers", src: "habit (Promise.withResolvers)", code: L("const { promise, resolve } = Promise.withResolvers();", "tools.orders.search({}).then((r) => resolve(r.length));", "return await promise;"), expect: any(ok(3), fail(/withResolvers/)) },
    { id: "m42-promise-race-timeout", src: "habit (a Promise.race timeout around a tool call)", code: L("const withTimeout = (p, ms) => Promise.race([", "  p,", "  new Promise((_, reject) => setTimeout(() => reject(new Error(\"timeout\")), ms)),", "]);", "return (await withTimeout(tools.orders.search({}), 5000)).length;"), expect: ok(3) },
    { id: "m42-custom-async-iterable", src: "habit (an object with [Symbol.asyncIterator])", code: L("const pages = {", "  async *[Symbol.asyncIterator]() {", "    for (const status of [\"open\", \"shipped\"]) yield await tools.orders.search({ status });", "  },", "};", "let n = 0;", "for await (const page of pages) n += page.length;", "return n;"), expect: ok(3) },
    { id: "m42-generator-spread", src: "habit (a generator spread into ids)", code: L("function* ids() { yield* [\"o-1\", \"o-3\"]; }", "const rows = await Promise.all([...ids()].map((id) => tools.orders.get({ id })));", "return rows.reduce((s, o) => s + o.total, 0);"), expect: ok(80) },
    { id: "m42-error-capture-stack-trace", src: "habit (a custom error calling Error.captureStackTrace)", code: L("class NotFound extends Error {", "  constructor(id) {", "    super(`order ${id} not found`);", "    this.name = \"NotFound\";", "    Error.captureStackTrace(this, NotFound);", "  }", "}", "try {", "  await tools.orders.get({ id: \"o-9\" });", "} catch {", "  const e = new NotFound(\"o-9\");", "  return [e.name, e.message, e instanceof NotFound];", "}"), expect: any(ok(["NotFound", "order o-9 not found", true]), fail(/captureStackTrace/)) },
    { id: "m42-queue-microtask", src: "habit (queueMicrotask)", code: L("const order = [];", "queueMicrotask(() => order.push(\"micro\"));", "order.push((await tools.orders.search({})).length);", "return order;"), expect: ok(["micro", 3]) },
    { id: "m42-set-immediate", src: "habit (Node's setImmediate to yield)", code: L("await new Promise((resolve) => setImmediate(resolve));", "return (await tools.orders.search({})).length;"), expect: any(ok(3), fail(/setImmediate/)) },
    { id: "m42-performance-now", src: "habit (timing a call with performance.now)", code: L("const t0 = performance.now();", "await tools.orders.search({});", "const ms = performance.now() - t0;", "return typeof ms === \"number\" && ms >= 0;"), expect: any(ok(true), fail(/performance/)) },
    { id: "m42-abort-controller", src: "habit (an AbortController timeout around the work)", code: L("const ac = new AbortController();", "const timer = setTimeout(() => ac.abort(), 5000);", "try {", "  return (await tools.orders.search({})).length;", "} finally {", "  clearTimeout(timer);", "}"), expect: any(ok(3), fail(/AbortController/)) },
    { id: "m42-abort-signal-timeout-arg", src: "habit ({ signal: AbortSignal.timeout() } beside the input)", code: "return (await tools.orders.search({ status: \"open\" }, { signal: AbortSignal.timeout(5000) })).length;", expect: any(ok(2), fail(/AbortSignal|signal/)) },

    // --- The tools object itself, and tool inputs
    { id: "m42-tool-second-argument", src: "habit (options as a second argument)", code: "return (await tools.orders.search({ status: \"open\" }, { timeout: 5000 })).length;", expect: any(ok(2), fail(/argument|timeout/)) },
    { id: "m42-tool-no-argument", src: "habit (a tool with optional fields called with nothing)", code: "return (await tools.orders.search()).length;", expect: any(ok(3), fail(/input|argument/)) },
    { id: "m42-object-keys-tools", src: "habit (lists the namespaces with Object.keys)", code: "return Object.keys(tools).sort();", expect: ok(["customers", "orders", "payments", "reports"]) },
    { id: "m42-object-keys-namespace", src: "habit (lists a namespace's tools with Object.keys)", code: "return Object.keys(tools.orders).sort();", expect: ok(["bulkGet", "get", "search"]) },
    { id: "m42-for-in-tools", src: "habit (for...in over tools and a namespace)", code: L("const names = [];", "for (const ns in tools) for (const fn in tools[ns]) names.push(`${ns}.${fn}`);", "return names.sort();"), expect: ok(["customers.get", "orders.bulkGet", "orders.get", "orders.search", "payments.refund", "reports.top"]) },
    { id: "m42-console-log-tools", src: "habit (logs the tools object to see what is there)", code: L("console.log(tools);", "return typeof tools.orders.search;"), expect: ok("function"), check: logs(/orders/) },
    { id: "m42-globalthis-tools", src: "habit (globalThis.tools)", code: "return (await globalThis.tools.orders.search({})).length;", expect: ok(3) },
    { id: "m42-node-global-tools", src: "habit (Node's global.tools)", code: "return (await global.tools.orders.search({})).length;", expect: any(ok(3), fail(/globalThis/)) },
    { id: "m42-proxy-around-namespace", src: "habit (a logging Proxy around a namespace)", code: L("const traced = new Proxy(tools.orders, {", "  get(target, prop) {", "    const f = target[prop];", "    return async (...args) => { console.log(\"call\", String(prop)); return f(...args); };", "  },", "});", "return (await traced.search({ status: \"open\" })).length;"), expect: any(ok(2), fail(/frozen.*new Proxy\(\{\}/)) },
    { id: "m42-dynamic-namespace-and-name", src: "habit (tools[ns][fn] from variables)", code: L("const ns = \"orders\", fn = \"get\";", "return (await tools[ns][fn]({ id: \"o-1\" })).total;"), expect: ok(30) },
    { id: "m42-bigint-tool-input", src: "habit (a BigInt amount)", code: "return await tools.payments.refund({ orderId: \"o-1\", amount: 30n });", expect: any(ok({ orderId: "o-1", refunded: 30 }), fail(/amount/)) },
    { id: "m42-set-for-array-input", src: "habit (a Set of ids where the tool wants an array)", code: L("const ids = new Set((await tools.orders.search({})).map((o) => o.id));", "return await tools.orders.bulkGet({ ids });"), expect: any(ok([{ id: "o-1" }, { id: "o-2" }, { id: "o-3" }]), fail(/ids/)) },
    { id: "m42-tool-call-object-form", src: "habit (tool_call({ name, input }))", code: L("const o = await tool_call({ name: \"orders.get\", input: { id: \"o-1\" } });", "return o.total;"), expect: any(ok(30), fail(/tool_call\(/)) },
    { id: "m42-tool-call-tools-prefix", src: "habit (tool_call of \"tools.x.y\")", code: "return (await tool_call(\"tools.orders.get\", { id: \"o-3\" })).total;", expect: any(ok(50), fail(/orders\.get/)) },
    { id: "m42-tool-call-slash-name", src: "habit (tool_call of \"ns/name\")", code: "return (await tool_call(\"orders/get\", { id: \"o-2\" })).total;", expect: any(ok(12), fail(/orders\.get/)) },
    { id: "m42-tool-search-name-in-code", src: "habit (tool_search({ name }) in the program)", code: L("const [t] = await tool_search({ name: \"payments.refund\" });", "return t.name;"), expect: any(ok("payments.refund"), fail(/query/)) },
    { id: "m42-tool-search-then-call", src: "habit (search, then call the first hit by name)", code: L("const hits = await tool_search({ query: \"refund\" });", "return await tool_call(hits[0].name, { orderId: \"o-1\", amount: 5 });"), expect: ok({ orderId: "o-1", refunded: 5 }) },
    { id: "m42-tool-search-signature", src: "habit (reads the signature of a hit)", code: L("const [h] = await tool_search({ query: \"customer\" });", "return [h.name, h.signature.includes(\"id: string\")];"), expect: ok(["customers.get", true]) },

    // --- Results
    { id: "m42-return-circular", src: "habit (a node that points at itself)", code: L("const o = await tools.orders.get({ id: \"o-1\" });", "o.self = o;", "return o;"), expect: any(fail(/circular|cycl/i), okWarned(/circular|cycl/i)) },
    { id: "m42-return-regexp", src: "habit (a RegExp in the result)", code: L("const pattern = /o-\\d+/g;", "return { pattern, ids: (await tools.orders.search({})).map((o) => o.id) };"), expect: any(ok({ pattern: "/o-\\d+/g", ids: ["o-1", "o-2", "o-3"] }), okWarned(/RegExp|pattern/)) },
    { id: "m42-return-url", src: "habit (returns a URL object)", code: L("const u = new URL(\"https://shop.example/orders\");", "u.searchParams.set(\"status\", \"open\");", "return u;"), expect: ok("https://shop.example/orders?status=open") },
    { id: "m42-return-tojson-class", src: "habit (a class with toJSON)", code: L("class Money { constructor(c) { this.c = c; } toJSON() { return `$${this.c}`; } }", "return (await tools.orders.search({})).map((o) => new Money(o.total));"), expect: ok(["$30", "$12", "$50"]) },
    { id: "m42-urlsearchparams", src: "habit (URLSearchParams to build a query)", code: L("const rows = await tools.orders.search({ status: \"open\" });", "return new URLSearchParams({ status: \"open\", q: \"big orders\", n: String(rows.length) }).toString();"), expect: ok("status=open&q=big+orders&n=2") },
    { id: "m42-btoa-unicode", src: "habit (btoa of UTF-8 bytes)", code: "return btoa(String.fromCharCode(...new TextEncoder().encode(\"Zoë\")));", expect: ok("Wm/Dqw==") },

    // --- console
    { id: "m42-console-group", src: "habit (console.group around lines)", code: L("const rows = await tools.orders.search({});", "console.group(\"Orders\");", "for (const o of rows) console.log(o.id);", "console.groupEnd();", "return rows.length;"), expect: ok(3), check: logs(/Orders/, /o-1/, /o-3/) },
    { id: "m42-console-count-assert", src: "habit (console.count and console.assert)", code: L("const rows = await tools.orders.search({});", "for (const o of rows) console.count(o.status);", "console.assert(rows.length === 4, \"expected 4 orders\");", "return rows.length;"), expect: ok(3), check: logs(/open: 2/, /expected 4 orders/) },
    { id: "m42-console-time", src: "habit (console.time around a call)", code: L("console.time(\"search\");", "const rows = await tools.orders.search({});", "console.timeEnd(\"search\");", "return rows.length;"), expect: ok(3), check: logs(/^search: \d/) },
    { id: "m42-console-table-columns", src: "habit (console.table with columns)", code: L("const rows = await tools.orders.search({});", "console.table(rows, [\"id\", \"total\"]);"), expect: okLog(/o-1/) },

    // --- Intl and dates
    { id: "m42-intl-datetime-zone", src: "habit (a time in New York)", code: L("const fmt = new Intl.DateTimeFormat(\"en-US\", { timeZone: \"America/New_York\", hour: \"2-digit\", minute: \"2-digit\", hourCycle: \"h23\" });", "return fmt.format(new Date(\"2025-01-15T15:30:00Z\"));"), expect: ok("10:30") },
    { id: "m42-intl-relative-time", src: "habit (Intl.RelativeTimeFormat)", code: L("const rtf = new Intl.RelativeTimeFormat(\"en\", { numeric: \"auto\" });", "return [rtf.format(-1, \"day\"), rtf.format(3, \"day\")];"), expect: any(ok(["yesterday", "in 3 days"]), fail(/RelativeTimeFormat/)) },
    { id: "m42-intl-list-format", src: "habit (Intl.ListFormat of ids)", code: L("const ids = (await tools.orders.search({})).map((o) => o.id);", "return new Intl.ListFormat(\"en\", { style: \"long\", type: \"conjunction\" }).format(ids);"), expect: any(ok("o-1, o-2, and o-3"), fail(/ListFormat/)) },
    { id: "m42-intl-plural-rules", src: "habit (Intl.PluralRules for a label)", code: L("const n = (await tools.orders.search({})).length;", "const pr = new Intl.PluralRules(\"en-US\");", "return [1, n].map((k) => `${k} order${pr.select(k) === \"one\" ? \"\" : \"s\"}`);"), expect: ok(["1 order", "3 orders"]) },
    { id: "m42-intl-compact-currency", src: "habit (compact notation and a euro amount)", code: L("return [", "  new Intl.NumberFormat(\"en\", { notation: \"compact\" }).format(1234567),", "  new Intl.NumberFormat(\"de-DE\", { style: \"currency\", currency: \"EUR\" }).format(1234.5),", "];"), expect: any(ok(["1.2M", "1.234,50\u00a0€"]), okWarned(/en-US only: "de-DE"/)) },
    { id: "m42-intl-segmenter", src: "habit (Intl.Segmenter words)", code: L("const seg = new Intl.Segmenter(\"en\", { granularity: \"word\" });", "return [...seg.segment(\"Refund the big order\")].filter((s) => s.isWordLike).length;"), expect: any(ok(4), fail(/Segmenter/)) },
    { id: "m42-intl-collator-numeric", src: "habit (Collator and localeCompare numeric)", code: L("const names = [\"b\", \"a\", \"C\"].sort(new Intl.Collator(\"en\").compare);", "const ids = [\"o-10\", \"o-2\", \"o-1\"].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));", "return [names, ids];"), expect: ok([["a", "b", "C"], ["o-1", "o-2", "o-10"]]) },
    { id: "m42-date-diff-days", src: "habit (days between two dates by subtraction)", code: "return Math.round((new Date(\"2025-03-10\") - new Date(\"2025-02-28\")) / 86_400_000);", expect: ok(10) },
    { id: "m42-date-month-overflow", src: "habit (a month added to Jan 31)", code: L("const d = new Date(Date.UTC(2025, 0, 31));", "d.setUTCMonth(d.getUTCMonth() + 1);", "return d.toISOString().slice(0, 10);"), expect: ok("2025-03-03") },
    { id: "m42-date-local-parse", src: "habit (a date-time without T or zone)", code: "return new Date(\"2025-01-15 10:00\").getHours();", expect: ok(10) },
    { id: "m42-date-locale-options", src: "habit (toLocaleDateString en-GB with options)", code: "return new Date(\"2025-01-15T12:00:00Z\").toLocaleDateString(\"en-GB\", { day: \"2-digit\", month: \"short\", year: \"numeric\", timeZone: \"UTC\" });", expect: any(ok("15 Jan 2025"), okWarned(/en-US only: "en-GB"/)) },
    { id: "m42-temporal", src: "habit (Temporal for date arithmetic)", code: L("const today = Temporal.Now.plainDateISO();", "return today.add({ days: 7 }).toString();"), expect: fail(/Temporal/) },

    // --- Modules, host objects, React-ish code
    { id: "m42-import-node-fs-promises", src: "habit (node:fs/promises)", code: L("import { readFile } from \"node:fs/promises\";", "const cfg = JSON.parse(await readFile(\"config.json\", \"utf8\"));", "return cfg;"), expect: fail(/import|module|fs/) },
    { id: "m42-import-zod", src: "habit (zod to validate the result)", code: ts("import { z } from \"zod\";", "const Order = z.object({ id: z.string(), total: z.number() });", "const rows = z.array(Order).parse(await tools.orders.search({}));", "return rows.length;"), expect: fail(/zod|import/) },
    { id: "m42-require-crypto-uuid", src: "habit (require(\"crypto\").randomUUID)", code: L("const crypto = require(\"crypto\");", "return crypto.randomUUID().length;"), expect: any(ok(36), fail(/require|crypto/)) },
    { id: "m42-crypto-subtle-digest", src: "habit (SHA-256 by crypto.subtle)", code: L("const data = new TextEncoder().encode(\"o-1\");", "const buf = await crypto.subtle.digest(\"SHA-256\", data);", "return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, \"0\")).join(\"\").length;"), expect: any(ok(64), fail(/subtle|digest/)) },
    { id: "m42-require-util-inspect", src: "habit (util.inspect of the rows)", code: L("const util = require(\"node:util\");", "console.log(util.inspect(await tools.orders.search({}), { depth: null }));"), expect: fail(/require|util/) },
    { id: "m42-import-meta", src: "habit (import.meta.url)", code: L("const here = import.meta.url;", "return here;"), expect: fail(/import\.meta|module/) },
    { id: "m42-react-use-state", src: "habit (React's useState outside a component)", code: L("const [orders, setOrders] = useState([]);", "setOrders(await tools.orders.search({}));", "return orders.length;"), expect: fail(/useState/) },
    { id: "m42-react-create-element", src: "habit (React.createElement for a list)", code: L("import React from \"react\";", "const rows = await tools.orders.search({});", "return React.createElement(\"ul\", null, rows.map((o) => React.createElement(\"li\", { key: o.id }, o.id)));"), expect: fail(/react|import/i) },
    { id: "m42-hook-named-helper", src: "habit (a useX-named helper that is a plain function)", code: L("function useOrders(status) {", "  return tools.orders.search({ status });", "}", "const open = await useOrders(\"open\");", "return open.length;"), expect: ok(2) },
    { id: "m42-return-response", src: "habit (Workers: returns a Response)", code: L("const rows = await tools.orders.search({});", "return new Response(JSON.stringify(rows), { headers: { \"content-type\": \"application/json\" } });"), expect: fail(/Response/) },

    // --- Python slipped into JavaScript
    { id: "m42-py-lambda-sort", src: "habit (sort(key=lambda ...))", code: L("const orders = await tools.orders.search({});", "orders.sort(key=lambda o: o.total);", "return orders.map((o) => o.id);"), expect: fail(/lambda|=>/) },
    { id: "m42-py-items", src: "habit (.items() on an object)", code: L("const counts = {};", "for (const o of await tools.orders.search({})) counts[o.status] = (counts[o.status] ?? 0) + 1;", "const out = [];", "for (const [k, v] of counts.items()) out.push(`${k}=${v}`);", "return out;"), expect: any(ok(["open=2", "shipped=1"]), fail(/Object\.entries/)) },
    { id: "m42-py-raise", src: "habit (raise ValueError in a JavaScript block)", code: L("const rows = await tools.orders.search({ status: \"cancelled\" });", "if (rows.length === 0) {", "  raise ValueError(\"no cancelled orders\");", "}", "return rows;"), expect: fail(/raise|throw/) },
    { id: "m42-py-json-dumps", src: "habit (json.dumps for JSON.stringify)", code: L("const rows = await tools.orders.search({});", "return json.dumps(rows);"), expect: fail(/JSON\.stringify/) },
    { id: "m42-py-for-in-colon", src: "habit (a Python for loop in JavaScript)", code: L("const rows = await tools.orders.search({});", "let total = 0;", "for o in rows:", "    total += o.total", "return total;"), expect: fail(/Python|for/) },
    { id: "m42-py-except", src: "habit (except for catch)", code: L("try {", "  return await tools.orders.get({ id: \"o-9\" });", "} except (e) {", "  return null;", "}"), expect: fail(/except|catch/) },
    { id: "m42-py-str-join", src: "habit (\", \".join(ids))", code: L("const ids = (await tools.orders.search({})).map((o) => o.id);", "return \", \".join(ids);"), expect: any(ok("o-1, o-2, o-3"), fail(/\.join\(/)) },

    // --- Fences, special tokens, tool-call markup
    { id: "m42-fence-four-backticks", src: "habit (a ```` fence)", code: L("````js", OPEN_SEARCH, "````"), expect: ok(2) },
    { id: "m42-fence-lang-colon-filename", src: "habit (```typescript:run.ts)", code: fence("typescript:run.ts", "const n: number = (await tools.orders.search({})).length;", "return n;"), expect: ok(3) },
    { id: "m42-fence-es6", src: "habit (```es6)", code: fence("es6", OPEN_SEARCH), expect: ok(2) },
    { id: "m42-fence-three-blocks", src: "habit (types, the program, then how to run it)", code: L("First the types:", fence("ts", "interface Order { id: string; total: number }"), "Then the program:", fence("js", "const rows = await tools.orders.search({});", "return rows.length;"), "Run it with:", fence("bash", "node run.js")), expect: ok(3) },
    { id: "m42-fence-then-im-end", src: "habit (Qwen/ChatML: <|im_end|> after the fence)", code: fence("js", OPEN_SEARCH) + "<|im_end|>", expect: ok(2) },
    { id: "m42-code-then-eot-id", src: "habit (Llama 3: <|eot_id|> after the program)", code: L(OPEN_SEARCH, "<|eot_id|>"), expect: ok(2) },
    { id: "m42-code-then-end-of-turn", src: "habit (Gemma: <end_of_turn> after the fence)", code: L(fence("javascript", OPEN_SEARCH), "<end_of_turn>"), expect: ok(2) },
    { id: "m42-llama4-python-tags", src: "habit (Llama 4: <|python_start|> ... <|python_end|>)", code: L("<|python_start|>", OPEN_SEARCH, "<|python_end|>"), expect: ok(2) },
    { id: "m42-codeact-execute-tags", src: "habit (CodeAct: <execute> ... </execute>)", code: L("<execute>", OPEN_SEARCH, "</execute>"), expect: ok(2) },
    { id: "m42-deepseek-tool-markup", src: "habit (DeepSeek V3's tool-call tokens)", code: "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>executeCode\n```json\n{\"code\": \"return (await tools.orders.search({})).length;\", \"explanation\": \"count\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>", expect: any(ok(3), fail(/tool-call markup/)) },
    { id: "m42-mistral-tool-calls", src: "habit (Mistral's [TOOL_CALLS])", code: "[TOOL_CALLS][{\"name\": \"executeCode\", \"arguments\": {\"code\": \"return 2;\", \"explanation\": \"x\"}}]", expect: any(ok(2), fail(/tool-call markup/)) },
    { id: "m42-harmony-markup", src: "habit (gpt-oss harmony: to=functions.executeCode)", code: "<|channel|>commentary to=functions.executeCode <|constrain|>json<|message|>{\"code\":\"return 2;\",\"explanation\":\"x\"}<|call|>", expect: any(ok(2), fail(/tool-call markup/)) },
    { id: "m42-kimi-markup", src: "habit (Kimi K2's tool-call sections)", code: "<|tool_calls_section_begin|><|tool_call_begin|>functions.executeCode:0<|tool_call_argument_begin|>{\"code\": \"return 2;\"}<|tool_call_end|><|tool_calls_section_end|>", expect: any(ok(2), fail(/tool-call markup/)) },
    { id: "m42-glm-arg-key-markup", src: "habit (GLM 4.5's <arg_key>/<arg_value>)", code: "<tool_call>executeCode\n<arg_key>code</arg_key>\n<arg_value>return 2;</arg_value>\n<arg_key>explanation</arg_key>\n<arg_value>x</arg_value>\n</tool_call>", expect: any(ok(2), fail(/tool-call markup/)) },
    { id: "m42-cut-short", src: "habit (the model ran out of tokens mid-call)", code: L("const rows = await tools.orders.search({", "  status: \"open\","), expect: fail(/end|unexpected|expect|cut/i, "SYNTAX") },
    { id: "m42-chinese-comments", src: "habit (Qwen/DeepSeek: Chinese comments and strings)", code: L("// 查询所有未完成的订单", "const rows = await tools.orders.search({ status: \"open\" });", "console.log(\"订单数量：\", rows.length);", "return rows.length;"), expect: ok(2) },
    { id: "m42-fullwidth-semicolons", src: "habit (full-width semicolons after Chinese prose)", code: L("const rows = await tools.orders.search({ status: \"open\" })；", "return rows.length；"), expect: any(ok(2), fail(/；|U\+FF1B|full-?width/i)) },

    // --- executeCode's arguments
    { id: "m42-args-text-trailing-comma", src: "habit (JSON text with a trailing comma)", args: "{\"code\": \"return 2;\", \"explanation\": \"x\",}", expect: ok(2) },
    { id: "m42-args-text-comment", src: "habit (JSON text with a // comment)", args: "{\n  // the program\n  \"code\": \"return 2;\"\n}", expect: ok(2) },
    { id: "m42-args-python-dict-text", src: "habit (a Python dict's repr as the arguments)", args: "{'code': 'return 2;', 'explanation': 'x'}", expect: any(ok(2), fail(/code|JSON/)) },
    { id: "m42-args-unquoted-keys-text", src: "habit (a JavaScript object literal as the arguments)", args: "{ code: \"return 2;\", explanation: \"x\" }", expect: any(ok(2), fail(/code|JSON/)) },
    { id: "m42-args-text-then-prose", src: "habit (prose after the JSON)", args: "{\"code\": \"return 2;\"}\nI will now run this code.", expect: any(ok(2), fail(/code|JSON/)) },
    { id: "m42-args-triple-encoded", src: "habit (arguments encoded three times)", args: JSON.stringify(JSON.stringify(JSON.stringify({ code: "return 5;" }))), expect: any(ok(5), fail(/code/)) },
    { id: "m42-args-code-quoted-string", src: "habit (the program as a JSON string literal inside code)", args: { code: JSON.stringify("return (await tools.orders.search({})).length;"), explanation: "x" }, expect: any(ok(3), fail(/string|quot/)) },
    { id: "m42-args-typescript-key", src: "habit ({ typescript })", args: { typescript: "const n: number = 2;\nreturn n;" }, expect: any(ok(2), fail(/code/, "INVALID_INPUT")) },
    { id: "m42-args-snippet-key", src: "habit ({ snippet })", args: { snippet: "return 2;", explanation: "x" }, expect: any(ok(2), fail(/code/, "INVALID_INPUT")) },
    { id: "m42-args-openai-function-shape", src: "habit (OpenAI's tool_call function object as the arguments)", args: { function: { name: "executeCode", arguments: "{\"code\":\"return 2;\",\"explanation\":\"x\"}" } }, expect: any(ok(2), fail(/code/, "INVALID_INPUT")) },
    { id: "m42-args-extra-dependencies", src: "habit (a dependencies list beside the code)", args: { code: "return 2;", explanation: "x", dependencies: ["lodash"] }, expect: any(ok(2), fail(/dependencies/)) },

    // --- searchTools' arguments
    { id: "m42-search-tool-key", src: "habit ({ tool } of the tool it wants)", search: { tool: "payments.refund" }, expect: found("payments.refund") },
    { id: "m42-search-tool-name-key", src: "habit ({ tool_name })", search: { tool_name: "orders.get" }, expect: found("orders.get") },
    { id: "m42-search-name-word", src: "habit ({ name } of a word)", search: { name: "refund" }, expect: found("payments.refund") },
    { id: "m42-search-name-snake", src: "habit ({ name } of the flattened name)", search: { name: "payments_refund" }, expect: found("payments.refund") },
    { id: "m42-search-name-and-namespace", src: "habit ({ name, namespace })", search: { name: "refund", namespace: "payments" }, expect: found("payments.refund") },
    { id: "m42-search-names-array", src: "habit ({ names: [...] } of two tools)", search: { names: ["payments.refund", "customers.get"] }, expect: found("payments.refund"), check: lists("payments.refund", "customers.get") },
    { id: "m42-search-id-key", src: "habit ({ id } of the tool)", search: { id: "payments.refund" }, expect: found("payments.refund") },
    { id: "m42-search-namespace-tools-prefix", src: "habit (namespace: \"tools.payments\")", search: { query: "refund", namespace: "tools.payments" }, expect: found("payments.refund") },
    { id: "m42-search-namespace-trailing-slash", src: "habit (namespace: \"orders/\")", search: { query: "", namespace: "orders/" }, expect: found("orders.get") },
    { id: "m42-search-namespace-slash-path", src: "habit (namespace: \"tools/orders\")", search: { query: "", namespace: "tools/orders" }, expect: found("orders.get") },
    { id: "m42-search-namespace-leading-slash", src: "habit (namespace: \"/payments\")", search: { query: "refund", namespace: "/payments" }, expect: found("payments.refund") },
    { id: "m42-search-namespace-glob", src: "habit (namespace: \"orders.*\")", search: { query: "get", namespace: "orders.*" }, expect: any(found("orders.get"), fail(/no namespace "orders\.\*" \(did you mean "orders"\?\)/)) },
    { id: "m42-search-namespace-full-name", src: "habit (the tool's full name as namespace)", search: { query: "refund", namespace: "payments.refund" }, expect: found("payments.refund") },
    { id: "m42-search-namespaces-array", src: "habit ({ namespaces: [...] })", search: { query: "refund", namespaces: ["payments"] }, expect: found("payments.refund") },
    { id: "m42-search-filter-object", src: "habit ({ filter: { namespace } })", search: { query: "refund", filter: { namespace: "payments" } }, expect: found("payments.refund") },
    { id: "m42-search-query-tools-path", src: "habit (query: \"tools.payments.refund\")", search: { query: "tools.payments.refund" }, expect: found("payments.refund") },
    { id: "m42-search-query-signature", src: "habit (a call's shape as the query)", search: { query: "payments.refund({ orderId, amount })" }, expect: found("payments.refund") },
    { id: "m42-search-query-slash", src: "habit (query: \"orders/get\")", search: { query: "orders/get" }, expect: found("orders.get") },
    { id: "m42-search-query-comma-names", src: "habit (two names in one query)", search: { query: "customers.get, orders.get" }, expect: found("customers.get"), check: lists("customers.get", "orders.get") },
    { id: "m42-search-limit-all", src: "habit (limit: \"all\")", search: { query: "order", limit: "all" }, expect: any(found("orders.get"), fail(/limit/)) },
    { id: "m42-search-extra-key", src: "habit (detail: \"full\" beside the query)", search: { query: "refund", detail: "full" }, expect: any(found("payments.refund"), fail(/detail/)) },
    { id: "m42-search-text-trailing-comma", src: "habit (JSON text with a trailing comma)", search: "{\"query\": \"refund\",}", expect: found("payments.refund") },
    { id: "m42-search-text-comment", src: "habit (JSON text with a /* */ comment)", search: "{\"query\": \"refund\" /* the payment tool */}", expect: found("payments.refund") },
    { id: "m42-search-double-encoded", src: "habit (arguments encoded twice)", search: JSON.stringify(JSON.stringify({ query: "refund" })), expect: found("payments.refund") },
    { id: "m42-search-python-dict-text", src: "habit (a Python dict's repr)", search: "{'query': 'refund'}", expect: any(found("payments.refund"), fail(/double quotes/)) },
    { id: "m42-search-unquoted-keys-text", src: "habit (a JavaScript object literal as text)", search: "{ query: \"refund\", limit: 3 }", expect: any(found("payments.refund"), fail(/double quotes/)) },
];
