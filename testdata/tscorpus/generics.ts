// Generic helpers, utility types and type arguments at call sites.

// ---- generic identity arrow with trailing comma
const id = <T,>(x: T): T => x;
return [id(1), id("a")];

// ---- generic groupBy
function groupBy<T, K extends string | number>(xs: T[], key: (x: T) => K): Record<K, T[]> {
  const out = {} as Record<K, T[]>;
  for (const x of xs) (out[key(x)] ||= []).push(x);
  return out;
}
const os: { id: string; status: string }[] = await tools.orders.search({});
const g = groupBy(os, (o) => o.status);
return Object.keys(g).sort().map((k) => `${k}:${g[k].length}`);

// ---- generic keyBy with keyof
function keyBy<T, K extends keyof T>(xs: T[], k: K): Map<T[K], T> {
  return new Map(xs.map((x) => [x[k], x] as [T[K], T]));
}
const cs = await tools.customers.list({});
return keyBy(cs as { id: string; name: string }[], "id").get("c-3")?.name;

// ---- reduce with type argument
const totals = (await tools.orders.search({})).reduce<Record<string, number>>((acc, o) => {
  acc[o.customerId] = (acc[o.customerId] ?? 0) + o.total;
  return acc;
}, {});
return totals;

// ---- new Map with type arguments
const m = new Map<string, Array<{ sku: string; qty: number }>>();
m.set("o-1", [{ sku: "a", qty: 1 }]);
return [...m.entries()];

// ---- new Set with type argument and spread
const s = new Set<number>([3, 1, 3, 2]);
return [...s].sort((a: number, b: number) => a - b);

// ---- Promise with type argument
const p = new Promise<number>((resolve) => resolve(42));
return await p;

// ---- Partial and Pick
interface Settings { theme: string; pageSize: number; locale: string }
const defaults: Settings = { theme: "light", pageSize: 20, locale: "en" };
function withOverrides(o: Partial<Settings>): Settings {
  return { ...defaults, ...o };
}
const picked: Pick<Settings, "theme" | "locale"> = { theme: "dark", locale: "fr" };
return withOverrides(picked);

// ---- Omit and Required
type Full = { a: number; b?: string; c: boolean };
const x: Omit<Full, "c"> = { a: 1 };
const y: Required<Omit<Full, "a">> = { b: "two", c: false };
return { ...x, ...y };

// ---- ReturnType and Awaited
async function load() { return { rows: [1, 2, 3] }; }
type Loaded = Awaited<ReturnType<typeof load>>;
const l: Loaded = await load();
return l.rows.length;

// ---- generic class container
class Box<T> {
  private items: T[] = [];
  add(item: T): this {
    this.items.push(item);
    return this;
  }
  get size(): number {
    return this.items.length;
  }
  map<U>(f: (t: T) => U): U[] {
    return this.items.map(f);
  }
}
const b = new Box<number>().add(1).add(2);
return [b.size, b.map((n) => n * 10)];

// ---- generic constraint with extends object
function pluck<T extends object, K extends keyof T>(xs: T[], key: K): T[K][] {
  return xs.map((x) => x[key]);
}
return pluck(await tools.customers.list({}) as { email: string }[], "email");

// ---- generic async mapper with concurrency limit
async function mapLimit<T, R>(xs: T[], limit: number, fn: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(xs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < xs.length) {
      const i = next++;
      out[i] = await fn(xs[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, xs.length) }, worker));
  return out;
}
const ids = ["o-1", "o-2", "o-3", "o-5"];
const statuses = await mapLimit(ids, 2, async (id: string) => (await tools.orders.get({ id })).status as string);
return statuses;

// ---- generic default type parameter
type Result<T, E = string> = { ok: true; value: T } | { ok: false; error: E };
async function safe<T>(p: Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, value: await p };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}
const r1 = await safe(tools.orders.get({ id: "o-1" }));
const r2 = await safe(tools.orders.get({ id: "zzz" }));
return [r1.ok, r2.ok ? null : r2.error];

// ---- discriminated union narrowing
type Shape = { kind: "circle"; r: number } | { kind: "rect"; w: number; h: number };
function area(s: Shape): number {
  switch (s.kind) {
    case "circle":
      return Math.round(Math.PI * s.r * s.r);
    case "rect":
      return s.w * s.h;
  }
}
return [area({ kind: "circle", r: 2 }), area({ kind: "rect", w: 3, h: 4 })];

// ---- generic call with explicit type and template
function tag<T>(strings: TemplateStringsArray, ...values: T[]): string {
  return strings.reduce((a, s, i) => a + s + (i < values.length ? `[${values[i]}]` : ""), "");
}
return tag<number>`a${1}b${2}c`;

// ---- Array.from with type argument
const squares = Array.from<number, number>({ length: 4 } as any, (_, i) => i * i);
return squares;

// ---- nested generics in annotation
const cache: Map<string, Promise<Record<string, unknown>>> = new Map();
cache.set("c-1", tools.customers.get({ id: "c-1" }));
const c = await cache.get("c-1")!;
return c["name"];

// ---- comparisons not generics
const a = 3, b2 = 5, c2 = 4;
const between = a < c2 && c2 < b2;
const weird = a < b2 === true;
return [between, weird, a < b2 ? "lt" : "ge"];

// ---- generic function type alias
type Mapper<A, B> = (a: A) => B;
const toLen: Mapper<string, number> = (s) => s.length;
const compose = <A, B, C>(f: Mapper<A, B>, g: Mapper<B, C>): Mapper<A, C> => (x) => g(f(x));
return compose(toLen, (n: number) => n * 2)("hello");

// ---- conditional type helper
type ElementOf<T> = T extends readonly (infer E)[] ? E : never;
const xs = [1, 2, 3] as const;
const firstEl: ElementOf<typeof xs> = xs[0];
return firstEl;

// ---- mapped type
type Flags<T> = { [K in keyof T]: boolean };
const f: Flags<{ a: number; b: string }> = { a: true, b: false };
return Object.values(f).filter(Boolean).length;

// ---- keyof typeof object
const LIMITS = { free: 10, pro: 100, team: 1000 };
type Plan = keyof typeof LIMITS;
const plan: Plan = "pro";
return LIMITS[plan];

// ---- satisfies with Record
const routes = {
  orders: "/orders",
  customers: "/customers",
} satisfies Record<string, string>;
return Object.values(routes);

// ---- as const tuple
const pair = ["x", 1] as const;
const [k, v] = pair;
return { [k]: v };

// ---- generic method in object literal
const util = {
  first<T>(xs: T[]): T | undefined {
    return xs[0];
  },
  last<T>(xs: T[]): T | undefined {
    return xs[xs.length - 1];
  },
};
return [util.first([1, 2]), util.last(["a", "b"])];

// ---- generic with arrow in class property
class Registry<T extends { id: string }> {
  private byId = new Map<string, T>();
  register = (item: T): void => {
    this.byId.set(item.id, item);
  };
  get(id: string): T | undefined {
    return this.byId.get(id);
  }
}
const reg = new Registry<{ id: string; name: string }>();
for (const c of await tools.customers.list({})) reg.register(c);
return reg.get("c-4")?.name;

// ---- instantiation with typeof
const parse = JSON.parse as (s: string) => { n: number };
return parse('{"n": 5}').n + 1;
