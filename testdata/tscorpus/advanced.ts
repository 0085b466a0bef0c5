// Less common erasable syntax: declare, import type, overloads, type
// guards, assertion functions, this parameters, namespaces of types.

// ---- import type at the top
import type { Order } from "./types";
const o: Order = await tools.orders.get({ id: "o-3" });
return o.total;

// ---- import type with braces and several names
import type { Customer, Tier } from "./crm";
const cs: Customer[] = await tools.customers.list({});
const tiers: Tier[] = cs.map((c: any) => c.tier);
return [...new Set(tiers)];

// ---- declare const
declare const __DEV__: boolean;
const dev = typeof __DEV__ !== "undefined" && __DEV__;
return dev;

// ---- declare function and global
declare function log(msg: string): void;
declare global {
  interface Window { app: unknown }
}
return typeof log;

// ---- function overloads at top level
function pad(value: string, width: number): string;
function pad(value: number, width: number): string;
function pad(value: string | number, width: number): string {
  return String(value).padStart(width, "0");
}
return [pad(7, 3), pad("ab", 4)];

// ---- assertion function
function assert(cond: unknown, msg: string): asserts cond {
  if (!cond) throw new Error(msg);
}
const w = await tools.weather.get({ city: "Tokyo" });
assert(w.tempC > 0, "freezing");
return "asserted";

// ---- assertion function with is
function assertIsString(v: unknown): asserts v is string {
  if (typeof v !== "string") throw new TypeError("not a string");
}
const val: unknown = (await tools.kv.get({ key: "greeting" }));
assertIsString(val);
return val.toUpperCase();

// ---- fails: assertion fails
function ensure(v: unknown): asserts v {
  if (!v) throw new Error("value is required");
}
const missing = await tools.kv.get({ key: "nothing-here" });
ensure(missing);
return missing;

// ---- this parameter
function describe(this: { name: string }, suffix: string): string {
  return this.name + suffix;
}
return describe.call({ name: "tool" }, "!");

// ---- type-only namespace
namespace Api {
  export interface Req { id: string }
  export type Res = { ok: boolean };
}
const req: Api.Req = { id: "o-1" };
return req.id;

// ---- declare module block
declare module "untyped-lib" {
  export function go(): void;
}
return "declared";

// ---- old style angle bracket cast
const n = <number>(<unknown>"5".length);
return n + 1;

// ---- unique symbol and readonly
const key: unique symbol = Symbol("k");
const frozen: readonly number[] = Object.freeze([1, 2]);
return [typeof key, frozen.length];

// ---- template literal types
type EventName = `order.${"created" | "shipped"}`;
const ev: EventName = "order.shipped";
return ev.split(".")[1];

// ---- function type in interface with generics
interface Handler<T = unknown> {
  (input: T): Promise<string>;
  label: string;
}
const h = (async (input: { id: string }) => `handled ${input.id}`) as Handler<{ id: string }>;
h.label = "x";
return await h({ id: "o-9" });

// ---- tuple with optional and rest
type Args = [string, number?, ...boolean[]];
const args: Args = ["a", 1, true, false];
return args.length;

// ---- intersection types
type A = { a: number };
type B = { b: string };
const ab: A & B = { a: 1, b: "x" };
return ab;

// ---- nested arrow returning object literal with cast
const mk = (id: string) => ({ id, at: 0 } as { id: string; at: number });
return mk("z");

// ---- arrow param with default object
const opts = ({ limit = 2, status = "open" }: { limit?: number; status?: string } = {}) => ({ limit, status });
return [opts(), opts({ limit: 5 })];

// ---- ternary with arrow functions
const pick = (flag: boolean) => (flag ? (x: number): number => x + 1 : (x: number): number => x - 1);
return [pick(true)(1), pick(false)(1)];

// ---- object with methods and return types
const api = {
  async count(status: string): Promise<number> {
    return (await tools.orders.search({ status })).length;
  },
  label(n: number): string {
    return n === 1 ? "order" : "orders";
  },
};
const cnt = await api.count("open");
return `${cnt} ${api.label(cnt)}`;

// ---- getter in object literal typed
const stats = {
  values: [1, 2, 3] as number[],
  get mean(): number {
    return this.values.reduce((a, b) => a + b, 0) / this.values.length;
  },
};
return stats.mean;

// ---- satisfies then as const
const cfg = { retries: 3, backoffMs: 10 } as const satisfies { retries: number; backoffMs: number };
return cfg.retries * cfg.backoffMs;

// ---- typeof type query
const base = { a: 1, b: [2] };
const copy: typeof base = { a: 3, b: [4] };
return copy;

// ---- labeled loop and switch with types
let hits: number = 0;
outer: for (const i of [1, 2, 3] as number[]) {
  switch (i) {
    case 2: {
      hits += 10;
      break outer;
    }
    default:
      hits += 1;
  }
}
return hits;

// ---- regex and division near types
const ratio: number = 10 / 4;
const re: RegExp = /o-(\d+)/;
const m = re.exec("order o-42")!;
return [ratio, Number(m[1]) / 2];

// ---- generators with types
function* range(n: number): Generator<number, void, unknown> {
  for (let i = 0; i < n; i++) yield i;
}
return [...range(4)];

// ---- async generator typed
async function* pages(): AsyncGenerator<string[]> {
  yield ["o-1", "o-2"];
  yield ["o-3"];
}
const seen: string[] = [];
for await (const page of pages()) seen.push(...page);
return seen;

// ---- bigint and numeric separators
const big: bigint = 1_000_000n * 3n;
return big.toString();

// ---- optional call and element access
const maybe: { fn?: (x: number) => number; arr?: number[] } = { arr: [7] };
return [maybe.fn?.(1), maybe.arr?.[0]];


// ---- unknown narrowing with in operator
const payload: unknown = JSON.parse('{"kind":"order","id":"o-1"}');
if (typeof payload === "object" && payload !== null && "kind" in payload) {
  return (payload as { kind: string }).kind;
}
return null;

// ---- type predicate filter
type Maybe = { id: string } | null;
const items: Maybe[] = [{ id: "a" }, null, { id: "b" }];
const present = items.filter((x): x is { id: string } => x !== null);
return present.map((x) => x.id);

// ---- const assertion on object for lookup
const LABELS = { open: "Open", shipped: "Shipped", cancelled: "Cancelled" } as const;
const os = await tools.orders.search({});
return os.map((o: { status: keyof typeof LABELS }) => LABELS[o.status]);

// ---- Readonly and ReadonlyArray params
function total(xs: ReadonlyArray<{ total: number }>): number {
  return xs.reduce((a, x) => a + x.total, 0);
}
const ro: Readonly<{ n: number }> = { n: 2 };
return Math.round(total(await tools.orders.search({ status: "open" })) * ro.n);

// ---- exhaustive check with never
type Kind = "a" | "b";
function label(k: Kind): string {
  switch (k) {
    case "a": return "A";
    case "b": return "B";
    default: {
      const never: never = k;
      return never;
    }
  }
}
return [label("a"), label("b")];
