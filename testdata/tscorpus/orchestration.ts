// Tool orchestration: parallel calls, joins, retries, polling, error
// handling, in the styles models use.

// ---- Promise.all over ids
interface Order { id: string; customerId: string; total: number }
const ids: string[] = ["o-1", "o-2", "o-3"];
const orders: Order[] = await Promise.all(ids.map((id) => tools.orders.get({ id })));
return orders.reduce((sum: number, o: Order) => sum + o.total, 0);

// ---- join orders with customers
type Customer = { id: string; name: string; tier: string };
const open = await tools.orders.search({ status: "open" });
const customerIds = [...new Set(open.map((o: { customerId: string }) => o.customerId))] as string[];
const customers: Customer[] = await Promise.all(customerIds.map((id) => tools.customers.get({ id })));
const nameOf = new Map<string, string>(customers.map((c) => [c.id, c.name] as [string, string]));
return open.map((o: any) => ({ order: o.id, customer: nameOf.get(o.customerId) }));

// ---- Promise.allSettled with typed results
const skus = ["sku-a", "sku-zzz", "sku-c"];
const results = await Promise.allSettled(skus.map((sku) => tools.inventory.check({ sku })));
const report = results.map((r: PromiseSettledResult<{ sku: string; available: number }>, i: number) =>
  r.status === "fulfilled" ? `${r.value.sku}: ${r.value.available}` : `${skus[i]}: ${(r.reason as Error).message}`
);
return report;

// ---- sequential loop with early exit
let found: string | undefined;
for (const id of ["c-3", "c-2", "c-4"]) {
  const c: { id: string; tier: string } = await tools.customers.get({ id });
  if (c.tier === "gold") {
    found = c.id;
    break;
  }
}
return found ?? "none";

// ---- retry helper with generics
async function withRetry<T>(fn: () => Promise<T>, attempts: number = 3): Promise<T> {
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    try {
      return await fn();
    } catch (e) {
      last = e;
    }
  }
  throw last;
}
const o = await withRetry(() => tools.orders.get({ id: "o-4" }));
return o.status;

// ---- retry that gives up
async function retry<T>(fn: () => Promise<T>, n: number): Promise<T | null> {
  for (let i = 0; i < n; i++) {
    try { return await fn(); } catch { /* try again */ }
  }
  return null;
}
return await retry(() => tools.orders.get({ id: "o-404" }), 2);

// ---- polling a job with setTimeout
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const { jobId } = await tools.jobs.start({ kind: "export" }) as { jobId: string };
let status: { state: string; result?: { rows: number } };
let polls = 0;
do {
  await sleep(5);
  status = await tools.jobs.status({ jobId });
  polls++;
} while (status.state !== "done");
return { polls, rows: status.result!.rows };

// ---- polling with setInterval
const job: { jobId: string } = await tools.jobs.start({ kind: "report" });
const final = await new Promise<{ state: string }>((resolve, reject) => {
  const timer = setInterval(async () => {
    try {
      const s = await tools.jobs.status({ jobId: job.jobId });
      if (s.state === "done") {
        clearInterval(timer);
        resolve(s);
      }
    } catch (e) {
      clearInterval(timer);
      reject(e);
    }
  }, 3);
});
return final.state;

// ---- timeout race
function timeout<T>(p: Promise<T>, ms: number): Promise<T | "timeout"> {
  return Promise.race([p, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), ms))]);
}
const w = await timeout(tools.weather.get({ city: "Tokyo" }), 1000);
return w === "timeout" ? w : (w as { conditions: string }).conditions;

// ---- batching with chunks
function chunk<T>(xs: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}
const all = ["o-1", "o-2", "o-3", "o-4", "o-5", "o-6"];
const totals: number[] = [];
for (const batch of chunk(all, 4)) {
  const got = await Promise.all(batch.map((id) => tools.orders.get({ id })));
  totals.push(...got.map((o: { total: number }) => o.total));
}
return totals;

// ---- refund open orders over a threshold
interface RefundResult { ok: boolean; refundId: string; amount: number }
const candidates = (await tools.orders.search({ status: "open" })).filter((o: { total: number }) => o.total > 50);
const refunds: RefundResult[] = [];
for (const o of candidates) {
  refunds.push(await tools.payments.refund({ orderId: o.id, amount: Math.round(o.total * 0.1 * 100) / 100 }));
}
return refunds.map((r) => `${r.refundId}:${r.amount}`);

// ---- tool error surfaces as rejection
const res = await tools.payments.refund({ orderId: "o-1", amount: -5 }).catch((e: Error) => ({ error: e.message }));
return res;

// ---- fails: uncaught tool error
const o = await tools.orders.get({ id: "o-missing" });
return o.id;

// ---- kv read modify write
const current = (await tools.kv.get({ key: "counter" })) as number | null;
const next: number = (current ?? 0) + 1;
await tools.kv.set({ key: "counter", value: next });
const again: number = await tools.kv.get({ key: "counter" });
return again;

// ---- kv nested value with type guard
function isLimits(v: unknown): v is { daily: number } {
  return typeof v === "object" && v !== null && "daily" in v;
}
const v = await tools.kv.get({ key: "limits" });
return isLimits(v) ? v.daily : -1;

// ---- github triage
interface Issue { number: number; title: string; state: string; labels: string[]; assignee: string | null; comments: number }
const issues: Issue[] = await tools.github.listIssues({ repo: "acme/shop", state: "open" });
const unassignedBugs = issues.filter((i) => i.labels.includes("bug") && !i.assignee);
const hot = issues.filter((i) => i.comments > 5).map((i) => `#${i.number} ${i.title}`);
return { unassignedBugs: unassignedBugs.length, hot };

// ---- github comment on each bug
const bugs = (await tools.github.listIssues({ repo: "acme/shop" }) as Array<{ number: number; labels: string[] }>)
  .filter(i => i.labels.includes("bug"));
const comments = [];
for (const bug of bugs) {
  const c = await tools.github.createComment({ repo: "acme/shop", number: bug.number, body: `Triaged bug #${bug.number}` });
  comments.push(c.id);
}
return comments;

// ---- tool_call by name
const names: string[] = ["London", "Paris"];
const temps = await Promise.all(names.map((city) => tool_call("weather.get", { city }) as Promise<{ tempC: number }>));
return temps.map((t) => t.tempC);

// ---- tool_search then call
const hits: { name: string }[] = await tool_search({ query: "weather for a city", limit: 3 });
const hasWeather: boolean = hits.some((h) => h.name === "weather.get");
return hasWeather;

// ---- inventory shortfall per order
type Line = { sku: string; qty: number; price: number };
const order: { items: Line[] } = await tools.orders.get({ id: "o-1" });
const shortfalls: { sku: string; missing: number }[] = [];
for (const line of order.items) {
  const { available } = await tools.inventory.check({ sku: line.sku }) as { available: number };
  if (available < line.qty) shortfalls.push({ sku: line.sku, missing: line.qty - available });
}
return shortfalls;

// ---- group and aggregate
const rows = await tools.orders.search({});
const byStatus = rows.reduce((acc: Record<string, { n: number; sum: number }>, o: { status: string; total: number }) => {
  const g = (acc[o.status] ||= { n: 0, sum: 0 });
  g.n += 1;
  g.sum = Math.round((g.sum + o.total) * 100) / 100;
  return acc;
}, {});
return byStatus;

// ---- sort by date
interface O { id: string; createdAt: string }
const list: O[] = await tools.orders.search({});
list.sort((a: O, b: O) => new Date(b.createdAt).getTime() - new Date(a.createdAt).getTime());
return list.slice(0, 3).map((o) => o.id);

// ---- dates with explicit types
const recent = await tools.orders.search({});
const cutoff: Date = new Date("2024-03-03T00:00:00Z");
return recent.filter((o: { createdAt: string }) => new Date(o.createdAt) >= cutoff).length;

// ---- map of promises keyed by city
const cities = ["London", "Paris", "Tokyo"] as const;
type City = (typeof cities)[number];
const entries = await Promise.all(cities.map(async (city: City) => [city, (await tools.weather.get({ city })).tempC] as const));
const temps: Record<City, number> = Object.fromEntries(entries) as Record<City, number>;
return temps;

// ---- average with guard
const ws = await Promise.all(["London", "Paris", "Tokyo"].map((city) => tools.weather.get({ city })));
const avg = (xs: number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
return Math.round(avg(ws.map((w: { tempC: number }) => w.tempC)) * 10) / 10;

// ---- error aggregation
const errors: string[] = [];
const ok: string[] = [];
for (const city of ["Paris", "Atlantis", "Tokyo", "Gotham"]) {
  try {
    const w = await tools.weather.get({ city });
    ok.push(w.city);
  } catch (e) {
    errors.push((e as Error).message);
  }
}
return { ok, errors };

// ---- logging progress
const ids2 = ["o-1", "o-2"];
for (const [i, id] of ids2.entries()) {
  const o: { status: string } = await tools.orders.get({ id });
  console.log(`[${i + 1}/${ids2.length}] ${id} is ${o.status}`);
}
console.info("done");
return ids2.length;

// ---- customers by country with Map
const cs: Array<{ country: string; name: string }> = await tools.customers.list({});
const byCountry = new Map<string, string[]>();
for (const c of cs) {
  if (!byCountry.has(c.country)) byCountry.set(c.country, []);
  byCountry.get(c.country)!.push(c.name);
}
return Object.fromEntries(byCountry);

// ---- gold customers open totals
const golds: { id: string }[] = await tools.customers.list({ tier: "gold" });
const perCustomer = await Promise.all(
  golds.map(async (c): Promise<[string, number]> => {
    const os: { total: number }[] = await tools.orders.search({ customerId: c.id, status: "open" });
    return [c.id, os.reduce((s, o) => s + o.total, 0)];
  })
);
return Object.fromEntries(perCustomer);

// ---- dedupe with Set generic
const seen = new Set<string>();
const skus: string[] = [];
for (const o of await tools.orders.search({})) {
  for (const it of o.items as { sku: string }[]) {
    if (!seen.has(it.sku)) { seen.add(it.sku); skus.push(it.sku); }
  }
}
return skus.sort();

// ---- JSON roundtrip typed
const snapshot = JSON.parse(JSON.stringify(await tools.orders.get({ id: "o-6" }))) as { items: { qty: number }[] };
return snapshot.items[0].qty;

// ---- fails: thrown custom error
const o = await tools.orders.get({ id: "o-4" }) as { status: string };
if (o.status === "cancelled") {
  throw new Error(`Order ${"o-4"} is cancelled; nothing to ship`);
}
return o;

// ---- early return inside loop
for (const city of ["Paris", "London"]) {
  const w: { conditions: string } = await tools.weather.get({ city });
  if (w.conditions === "rain") return `Rain in ${city}`;
}
return "dry everywhere";

// ---- helper returning tuple
async function minMax(): Promise<[number, number]> {
  const os: { total: number }[] = await tools.orders.search({});
  const t = os.map((o) => o.total);
  return [Math.min(...t), Math.max(...t)];
}
const [lo, hi] = await minMax();
return { lo, hi };

// ---- nested awaits in template
return `Ada has ${(await tools.orders.search({ customerId: "c-1" })).length} orders and lives in ${(await tools.customers.get({ id: "c-1" })).country}`;

// ---- conditional tool choice
const mode = "weather" as "weather" | "orders";
const out = mode === "weather" ? await tools.weather.get({ city: "London" }) : await tools.orders.search({});
return (out as { windKph?: number }).windKph;
