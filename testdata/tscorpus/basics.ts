// Annotations, interfaces and type aliases, written the way models write
// them when the system instruction shows TypeScript signatures.

// ---- const annotation
const x: number = 1;
return x;

// ---- annotated let without initializer
let total: number;
total = [1, 2, 3].reduce((a, b) => a + b, 0);
return total;

// ---- interface for tool results
interface Order {
  id: string;
  customerId: string;
  status: "open" | "shipped" | "cancelled";
  total: number;
}
const orders: Order[] = await tools.orders.search({ status: "open" });
return orders.map((o) => o.id);

// ---- type alias union
type Status = "open" | "shipped" | "cancelled";
const statuses: Status[] = ["open", "shipped"];
const counts: Record<Status, number> = { open: 0, shipped: 0, cancelled: 0 };
for (const s of statuses) {
  const found = await tools.orders.search({ status: s });
  counts[s] = found.length;
}
return counts;

// ---- interface with optional and readonly fields
interface Customer {
  readonly id: string;
  name: string;
  email?: string;
  tier: string;
}
const c: Customer = await tools.customers.get({ id: "c-1" });
return `${c.name} <${c.email ?? "no email"}> (${c.tier})`;

// ---- as cast on tool result
const raw = await tools.orders.get({ id: "o-2" });
const order = raw as { id: string; total: number };
return order.total * 2;

// ---- as any escape hatch
const data: any = await tools.customers.list({});
return (data as any[]).length;

// ---- non-null assertion on find
const list = await tools.customers.list({});
const grace = list.find((c: any) => c.name.startsWith("Grace"))!;
return grace.id;

// ---- non-null assertion in chain
const byId = new Map<string, { name: string }>();
byId.set("a", { name: "Ada" });
return byId.get("a")!.name.toUpperCase();

// ---- function with typed params and return
function formatMoney(amount: number, currency: string = "USD"): string {
  return `${currency} ${amount.toFixed(2)}`;
}
return formatMoney(12.5) + " / " + formatMoney(3, "EUR");

// ---- arrow function with return type
const double = (n: number): number => n * 2;
return [1, 2, 3].map(double);

// ---- optional parameter
function greet(name: string, title?: string): string {
  return title ? `${title} ${name}` : name;
}
return [greet("Ada"), greet("Turing", "Dr.")];

// ---- rest parameters typed
function sumAll(...values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
return sumAll(1, 2, 3, 4);

// ---- destructuring with type annotation
const { id, total }: { id: string; total: number } = await tools.orders.get({ id: "o-1" });
return { id, total };

// ---- array destructuring with tuple type
const [first, second]: [string, number] = ["a", 2];
return first + second;

// ---- typed callback parameters in map filter
const all = await tools.orders.search({});
const big = all
  .filter((o: { total: number }) => o.total > 50)
  .map((o: { id: string; total: number }) => `${o.id}:${o.total}`);
return big;

// ---- typed catch clause unknown
try {
  await tools.orders.get({ id: "nope" });
  return "unexpected";
} catch (e: unknown) {
  return (e as Error).message;
}

// ---- typed catch clause any
try {
  await tools.customers.get({ id: "c-99" });
} catch (err: any) {
  return { failed: true, message: err.message };
}

// ---- instanceof narrowing in catch
try {
  await tools.inventory.check({ sku: "sku-zzz" });
  return null;
} catch (e) {
  if (e instanceof Error) return e.message;
  return String(e);
}

// ---- object type literal inline
const summary: { count: number; ids: string[] } = { count: 0, ids: [] };
for (const o of await tools.orders.search({ status: "shipped" })) {
  summary.count++;
  summary.ids.push(o.id);
}
return summary;

// ---- Record of arrays
const byCustomer: Record<string, string[]> = {};
for (const o of await tools.orders.search({})) {
  (byCustomer[o.customerId] ??= []).push(o.id);
}
return byCustomer;

// ---- Array generic syntax
const ids: Array<string> = [];
const orders2: Array<{ id: string }> = await tools.orders.search({ status: "open" });
orders2.forEach((o) => ids.push(o.id));
return ids.join(",");

// ---- union with null
let best: { id: string; total: number } | null = null;
for (const o of await tools.orders.search({})) {
  if (!best || o.total > best.total) best = o;
}
return best?.id;

// ---- let with several declarators
let a: number = 1, b: string = "two", c: boolean;
c = true;
return [a, b, c];

// ---- for loop with typed index
const arr = [5, 6, 7];
let acc = 0;
for (let i: number = 0; i < arr.length; i++) {
  acc += arr[i] * i;
}
return acc;

// ---- typed for of destructuring entries
const prices: Record<string, number> = { a: 1, b: 2.5 };
const lines: string[] = [];
for (const [k, v] of Object.entries(prices) as [string, number][]) {
  lines.push(`${k}=${v}`);
}
return lines;

// ---- optional chaining with types
interface Profile { address?: { city?: string } }
const p: Profile = {};
const q: Profile = { address: { city: "Paris" } };
return [p.address?.city ?? "unknown", q.address?.city];

// ---- no semicolons style
interface Weather { city: string; tempC: number; conditions: string }
const cities = ["London", "Paris", "Tokyo"]
const reports: Weather[] = []
for (const city of cities) {
  const w: Weather = await tools.weather.get({ city })
  reports.push(w)
}
return reports.map(r => `${r.city}: ${r.tempC}°C, ${r.conditions}`)

// ---- type then array literal line
let warmest: string
[warmest] = ["Tokyo"]
return warmest

// ---- as then parenthesized line
const s = "abc" as string
;(globalThis as any).marker = s.length
return (globalThis as any).marker

// ---- last expression as result
const n: number = 20
n + 1

// ---- nested functions with types
function outer(xs: number[]): number {
  function inner(x: number): number {
    return x * x;
  }
  return xs.map(inner).reduce((a: number, b: number) => a + b, 0);
}
return outer([1, 2, 3]);

// ---- console logging typed values
const weather: { city: string; tempC: number } = await tools.weather.get({ city: "Paris" });
console.log(`It is ${weather.tempC} degrees in ${weather.city}`);
console.warn("cached:", false as boolean);
return weather.tempC > 10;

// ---- template literal with casts
const o = await tools.orders.get({ id: "o-5" });
return `Order ${(o as any).id} totals ${(o.total as number).toFixed(1)}`;
