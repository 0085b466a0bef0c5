// Whole programs as current models write them for executeCode (session 30's
// outside look): TypeScript with its type machinery, fences, module shapes,
// results JSON cannot hold, console.log as the answer, and tool calls with
// the wrong argument types or names. Written before reading how the product
// handles them; run against model-outputs-cases.mjs's catalog and judged by
// its judge() (same expectations: ok, okLog, fail, any, warn, left).
import { any, fail, ok, okLog } from "./model-outputs-cases.mjs";

const ts = (body) => "```ts\n" + body + "\n```";

export const programs = [
    // --- Results JSON cannot hold: each arrives converted, with a warning that says so
    { id: "p-map-string-keys", src: "habit (group totals by customer)", code: ts("const orders = await tools.orders.search({});\nconst byCustomer = new Map<string, number>();\nfor (const o of orders) byCustomer.set(o.customerId, (byCustomer.get(o.customerId) ?? 0) + o.total);\nreturn byCustomer;"), expect: ok({ "c-1": 80, "c-2": 12 }), warn: /Map/ },
    { id: "p-map-number-keys", src: "habit", code: "const m = new Map();\nfor (const o of await tools.orders.search({})) m.set(o.total, o.id);\nreturn m;", expect: ok([[30, "o-1"], [12, "o-2"], [50, "o-3"]]), warn: /Map/ },
    { id: "p-set", src: "habit (distinct values)", code: "const orders = await tools.orders.search({});\nreturn new Set(orders.map((o) => o.customerId));", expect: ok(["c-1", "c-2"]), warn: /Set/ },
    { id: "p-date", src: "habit", code: "const o = await tools.orders.get({ id: \"o-1\" });\nreturn { id: o.id, checkedAt: new Date(Date.UTC(2026, 0, 2)) };", expect: ok({ id: "o-1", checkedAt: "2026-01-02T00:00:00.000Z" }) },
    { id: "p-bigint", src: "habit (cents as BigInt)", code: "const orders = await tools.orders.search({});\nlet cents = 0n;\nfor (const o of orders) cents += BigInt(o.total) * 100n;\nreturn { cents };", expect: ok({ cents: "9200" }), warn: /BigInt|bigint/ },
    { id: "p-undefined-find", src: "habit (find that finds nothing)", code: "const orders = await tools.orders.search({ status: \"cancelled\" });\nreturn orders.find((o) => o.total > 10);", expect: ok(undefined) },
    // JSON's own rule ("{}") stands, and the warning says how to keep the entries (it was "{}" with no word).
    { id: "p-json-stringify-map", src: "habit (JSON.stringify of a Map is \"{}\")", code: "const m = new Map();\nfor (const o of await tools.orders.search({})) m.set(o.id, o.total);\nreturn JSON.stringify(m);", expect: ok("{}"), warn: /^JSON\.stringify wrote a Map as \{\} \(JSON keeps none of its entries\): convert it first, JSON\.stringify\(Object\.fromEntries\(map\)\)/ },
    { id: "p-json-stringify-set-inside", src: "habit (a Set inside a logged object)", code: "const statuses = new Set((await tools.orders.search({})).map((o) => o.status));\nconsole.log(JSON.stringify({ statuses }));", expect: okLog(/^\{"statuses":\{\}\}$/), warn: /^JSON\.stringify wrote a Set as \{\}.*JSON\.stringify\(\[\.\.\.set\]\)/ },
    { id: "p-console-log-map", src: "habit (a Map logged as the answer)", code: "const m = new Map();\nfor (const o of await tools.orders.search({})) m.set(o.id, o.total);\nconsole.log(m);", expect: okLog(/o-1.*30/) },
    { id: "p-console-log-set", src: "habit", code: "console.log(new Set((await tools.orders.search({})).map((o) => o.status)));", expect: okLog(/open.*shipped/) },
    { id: "p-console-table", src: "habit (console.table)", code: "console.table(await tools.orders.search({ status: \"open\" }));", expect: okLog(/o-1/) },

    // --- TypeScript
    { id: "p-ts-numeric-enum", src: "habit", code: ts("enum Priority { Low, Medium, High }\nconst p: Priority = Priority.High;\nreturn { p, name: Priority[p] };"), expect: any(ok({ p: 2, name: "High" }), fail(/enum/, "SYNTAX")) },
    { id: "p-ts-const-enum", src: "habit", code: ts("const enum Status { Open = \"open\" }\nreturn (await tools.orders.search({ status: Status.Open })).length;"), expect: any(ok(2), fail(/enum/, "SYNTAX")) },
    { id: "p-ts-generic-constraint", src: "habit", code: ts("function pluck<T extends object, K extends keyof T>(xs: T[], k: K): T[K][] {\n  return xs.map((x) => x[k]);\n}\ninterface Order { id: string; total: number }\nconst orders = (await tools.orders.search({ status: \"open\" })) as Order[];\nreturn pluck(orders, \"total\");"), expect: ok([30, 12]) },
    { id: "p-ts-overloads", src: "habit", code: ts("function fmt(n: number): string;\nfunction fmt(s: string): string;\nfunction fmt(x: number | string): string {\n  return typeof x === \"number\" ? x.toFixed(2) : x.toUpperCase();\n}\nreturn [fmt(3), fmt(\"a\")];"), expect: ok(["3.00", "A"]) },
    { id: "p-ts-abstract-implements", src: "habit", code: ts("interface Summary { count: number }\nabstract class Base implements Summary {\n  abstract get count(): number;\n}\nclass Orders extends Base {\n  constructor(private readonly rows: unknown[]) { super(); }\n  get count(): number { return this.rows.length; }\n}\nreturn new Orders(await tools.orders.search({})).count;"), expect: any(ok(3), fail(/parameter propert|field/)) },
    { id: "p-ts-angle-assertion", src: "habit (old-style type assertion)", code: ts("const orders = <Array<{ total: number }>>await tools.orders.search({});\nreturn orders.length;"), expect: any(ok(3), fail(/as /, "SYNTAX")) },
    { id: "p-ts-typeof-type", src: "habit", code: ts("type Order = Awaited<ReturnType<typeof tools.orders.get>>;\nconst o: Order = await tools.orders.get({ id: \"o-2\" });\nreturn o.total;"), expect: ok(12) },
    { id: "p-ts-record-satisfies", src: "habit", code: ts("const labels = { open: \"Open\", shipped: \"Shipped\" } satisfies Record<string, string>;\nconst counts: Record<string, number> = {};\nfor (const o of await tools.orders.search({})) counts[labels[o.status as keyof typeof labels]] = (counts[labels[o.status as keyof typeof labels]] ?? 0) + 1;\nreturn counts;"), expect: ok({ Open: 2, Shipped: 1 }) },
    { id: "p-ts-as-unknown-as", src: "habit", code: ts("const raw = await tools.orders.get({ id: \"o-3\" });\nconst o = raw as unknown as { total: number };\nreturn o!.total!;"), expect: ok(50) },
    { id: "p-ts-type-guard", src: "habit", code: ts("type Order = { id: string; total: number };\nfunction isBig(o: Order): o is Order & { big: true } { return o.total > 20; }\nconst orders: Order[] = await tools.orders.search({});\nreturn orders.filter(isBig).map((o) => o.id);"), expect: ok(["o-1", "o-3"]) },
    { id: "p-ts-declare-and-export-default", src: "habit (module shape with types)", code: ts("declare const tools: { orders: { search(i: { status?: string }): Promise<{ total: number }[]> } };\n\nexport default async function main(): Promise<number> {\n  const rows = await tools.orders.search({ status: \"open\" });\n  return rows.reduce((s, r) => s + r.total, 0);\n}"), expect: ok(42) },
    { id: "p-ts-optional-params-defaults", src: "habit", code: ts("async function top(n: number = 2, status?: string): Promise<string[]> {\n  const rows: Array<{ id: string; total: number }> = await tools.orders.search(status ? { status } : {});\n  return rows.sort((a, b) => b.total - a.total).slice(0, n).map((r) => r.id);\n}\nreturn await top();"), expect: ok(["o-3", "o-1"]) },
    { id: "p-ts-tuple-readonly", src: "habit", code: ts("const ids: readonly [string, string] = [\"o-1\", \"o-2\"] as const;\nconst [a, b]: [any, any] = await Promise.all(ids.map((id) => tools.orders.get({ id })));\nreturn a.total + b.total;"), expect: ok(42) },

    // --- Shapes of the whole program
    { id: "p-typescript-fence-prose", src: "habit (prose, a ```typescript block, prose)", code: "I'll sum the open orders.\n\n```typescript\nconst orders: { total: number }[] = await tools.orders.search({ status: \"open\" });\nconst total = orders.reduce((s, o) => s + o.total, 0);\nconsole.log(`Total: ${total}`);\nreturn total;\n```\n\nThe result is the total.", expect: ok(42) },
    { id: "p-iife-console-only", src: "habit (an IIFE that only logs)", code: "(async () => {\n  const orders = await tools.orders.search({ status: \"shipped\" });\n  console.log(orders.map((o) => o.id).join(\", \"));\n})();", expect: okLog(/^o-3$/) },
    { id: "p-iife-sync-arrow", src: "habit", code: "(() => {\n  return [1, 2, 3].map((x) => x * 2);\n})()", expect: ok([2, 4, 6]) },
    { id: "p-named-main-try-catch", src: "habit", code: "async function main() {\n  try {\n    const o = await tools.orders.get({ id: \"o-2\" });\n    return { ok: true, total: o.total };\n  } catch (err) {\n    return { ok: false, error: String(err) };\n  }\n}\n\nreturn await main();", expect: ok({ ok: true, total: 12 }) },
    // These four ended with "export is not available" or "main(...) is declared and never called":
    // the parameter is the sandbox's own tools, so the function runs as the program.
    { id: "p-export-default-of-tools", src: "habit (a module that is handed the tools)", code: "export default async function (tools) {\n  return (await tools.orders.search({ status: \"open\" })).length;\n}", expect: ok(2) },
    { id: "p-export-default-of-destructured-tools", src: "habit", code: ts("export default async function ({ tools }: { tools: any }) {\n  const o = await tools.orders.get({ id: \"o-3\" });\n  return o.total;\n}"), expect: ok(50) },
    { id: "p-main-of-destructured-tools-beside-helper", src: "habit", code: "const sum = (xs) => xs.reduce((s, o) => s + o.total, 0);\n\nasync function main({ tools }) {\n  return sum(await tools.orders.search({ status: \"open\" }));\n}", expect: ok(42) },
    { id: "p-const-arrow-of-tools", src: "habit", code: "const run = async (tools) => (await tools.orders.search({})).length;", expect: ok(3) },
    { id: "p-export-const-arrow", src: "habit", code: "export const run = async () => {\n  return (await tools.orders.search({})).length;\n};", expect: any(ok(3), fail(/export|return/)) },

    // --- Tool names and access
    { id: "p-destructure-namespaces", src: "habit", code: "const { orders, payments } = tools;\nconst o = await orders.get({ id: \"o-1\" });\nreturn await payments.refund({ orderId: o.id, amount: 5 });", expect: ok({ orderId: "o-1", refunded: 5 }) },
    { id: "p-destructure-tool", src: "habit", code: "const { search } = tools.orders;\nreturn (await search({ status: \"open\" })).length;", expect: ok(2) },
    { id: "p-bracket-full-name-var", src: "habit (a name from a search hit)", code: "const name = \"orders.search\";\nreturn (await tools[name]({ status: \"open\" })).length;", expect: ok(2) },
    { id: "p-misspelt-tool", src: "habit", code: "const orders = await tools.orders.serach({ status: \"open\" });\nreturn orders.length;", expect: fail(/unknown tool "orders\.serach".*orders\.search/s) },
    { id: "p-misspelt-namespace", src: "habit", code: "return await tools.payment.refund({ orderId: \"o-1\", amount: 5 });", expect: fail(/payments\.refund/) },
    // Was "invoices is undefined" / "o.serach is not a function" alone.
    { id: "p-destructure-missing", src: "habit (a namespace that does not exist, destructured)", code: "const { invoices } = tools;\nreturn await invoices.list({});", expect: fail(/invoices is undefined; tools has no invoices \(it was destructured from tools\); use tool_search/) },
    { id: "p-destructure-renamed-misspelt", src: "habit", code: "const { orders: o } = tools;\nreturn (await o.serach({ status: \"open\" })).length;", expect: fail(/o\.serach is not a function; did you mean orders\.search/) },

    // --- Wrong argument types
    { id: "p-limit-string", src: "habit (limit: \"5\")", code: "const orders = await tools.orders.search({ status: \"open\", limit: \"5\" });\nreturn orders.length;", expect: any(ok(2), fail(/limit.*pass the number 5/)) },
    { id: "p-amount-string-money", src: "habit (money as a formatted string)", code: "return await tools.payments.refund({ orderId: \"o-1\", amount: \"$12.50\" });", expect: fail(/amount/) },
    { id: "p-id-number", src: "habit (an id as a number)", code: "return await tools.customers.get({ id: 1 });", expect: fail(/\/id: type: got number, want string/) },
    { id: "p-extra-key", src: "habit (a parameter the schema does not have)", code: "return (await tools.orders.search({ status: \"open\", sortBy: \"total\" })).length;", expect: fail(/sortBy/) },
    { id: "p-null-optional", src: "habit (null for an optional parameter)", code: "return (await tools.orders.search({ status: \"open\", limit: null })).length;", expect: any(ok(2), fail(/limit/)) },
    { id: "p-array-for-scalar", src: "habit (several statuses at once)", code: "return (await tools.orders.search({ status: [\"open\", \"shipped\"] })).length;", expect: fail(/status/) },

    // --- Errors the model must be able to read
    { id: "p-uncaught-tool-error", src: "habit", code: "const o = await tools.orders.get({ id: \"o-77\" });\nreturn o.total;", expect: fail(/order o-77 not found/) },
    // Was [null, null] with "undefined, converted to null" and "calls still pending" warnings, no word of Promise.all.
    { id: "p-await-map-without-promise-all", src: "habit", code: "const ids = [\"o-1\", \"o-2\"];\nconst orders = await ids.map((id) => tools.orders.get({ id }));\nreturn orders.map((o) => o.total);", expect: ok([null, null]), warn: /^line 2: await of arr\.map\(\.\.\.\) does not wait for what its callback awaits or calls: .*await Promise\.all\(arr\.map\(async x => \.\.\.\)\)$/ },
    // Was "unexpected token: 'undefined'" alone.
    { id: "p-json-parse-mcp-optional", src: "habit (MCP content read with optional chaining)", code: "const r = await tools.orders.get({ id: \"o-1\" });\nconst data = JSON.parse(r.content?.[0]?.text);\nreturn data.total;", expect: fail(/^unexpected token: 'undefined': JSON\.parse was given undefined, not JSON text.*use it as it is\)$/, "RUNTIME") },
    // Were QuickJS's "empty array" and "'alert' is not defined" alone.
    { id: "p-reduce-empty", src: "habit (a sum over a search that found nothing)", code: "const orders = await tools.orders.search({ status: \"cancelled\" });\nreturn orders.reduce((a, b) => a + b.total);", expect: fail(/^empty array: reduce of an empty array with no initial value; give reduce its initial value/) },
    { id: "p-alert", src: "habit (browser code)", code: "const n = (await tools.orders.search({})).length;\nalert(`${n} orders`);", expect: fail(/'alert' is not defined: the sandbox has no page and no user to ask/) },
    { id: "p-throw-string", src: "habit", code: "const orders = await tools.orders.search({ status: \"cancelled\" });\nif (!orders.length) throw \"no cancelled orders\";\nreturn orders;", expect: fail(/no cancelled orders/) },
];
