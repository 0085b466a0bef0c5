// Whole programs written as one function, the form some code-mode peers
// ask for; the function is called and what it returns is the result.

// ---- async arrow program with types
async () => {
  const orders: { id: string }[] = await tools.orders.search({ status: "open" });
  return orders.length;
}

// ---- async arrow program with return type
async (): Promise<string[]> => {
  const cs = await tools.customers.list({ tier: "gold" });
  return cs.map((c: { name: string }) => c.name);
};

// ---- async main function
async function main(): Promise<number> {
  const w: { tempC: number } = await tools.weather.get({ city: "London" });
  return Math.round(w.tempC);
}

// ---- async main then called
async function main(): Promise<{ ok: boolean }> {
  await tools.kv.set({ key: "ran", value: true });
  return { ok: (await tools.kv.get({ key: "ran" })) as boolean };
}
main();

// ---- async main then awaited
interface Summary { open: number; shipped: number }
async function main(): Promise<Summary> {
  const [open, shipped] = await Promise.all([
    tools.orders.search({ status: "open" }),
    tools.orders.search({ status: "shipped" }),
  ]);
  return { open: open.length, shipped: shipped.length };
}
await main();

// ---- self-invoked async arrow
(async () => {
  const issue: { title: string } = (await tools.github.listIssues({ repo: "acme/shop" }))[0];
  return issue.title;
})();

// ---- arrow program with expression body
async () => (await tools.inventory.check({ sku: "sku-e" })).available as number

// ---- main with helper functions inside
async function main() {
  const fmt = (n: number): string => n.toFixed(2);
  const o: { total: number } = await tools.orders.get({ id: "o-5" });
  return fmt(o.total);
}
