// Ready-made model programs: the kind of code an LLM writes in Code Mode,
// one for each thing worth seeing (parallel calls, search, approval, the
// policy, and each limit).

export const programs = [
    {
        id: "ship-paid",
        title: "Ship paid orders that are in stock",
        hint: "Several steps, with Promise.all; updates the orders table.",
        code: `// Ship every paid order whose items are all on hand.
const paid = await tools.orders.list({ status: "paid" });
console.log(\`\${paid.length} paid orders\`);

// Each customer and stock level, all in parallel.
const checked = await Promise.all(paid.map(async (o) => {
  const skus = o.items.map((i) => i.sku);
  const [customer, stock] = await Promise.all([
    tools.customers.get({ id: o.customerId }),
    tools.inventory.check({ skus }),
  ]);
  const ready = o.items.every((i) =>
    stock.find((s) => s.sku === i.sku).onHand >= i.quantity);
  return { order: o.id, customer: customer.name, ready };
}));

const shipped = [];
for (const c of checked.filter((c) => c.ready)) {
  await tools.orders.updateStatus({
    id: c.order,
    status: "shipped",
    note: "Shipped by the copilot",
  });
  shipped.push(c.order);
}
const waiting = checked.filter((c) => !c.ready);
console.log("waiting for stock:", waiting);
return { shipped, waiting: waiting.map((c) => c.order) };
`,
    },
    {
        id: "search",
        title: "Discover the API with tool_search",
        hint: "Finds tools by meaning and reads their TypeScript signatures.",
        code: `// Find the tools about stock, then use the best one.
const found = await tool_search({
  query: "products running low on stock",
  limit: 3,
});
for (const t of found) {
  console.log(t.name, "-", t.signature);
}

const low = await tools.inventory.lowStock({ threshold: 3 });
return {
  tools: found.map((t) => t.name),
  lowStock: low.map((s) => \`\${s.sku} (\${s.available})\`),
};
`,
    },
    {
        id: "refund",
        title: "Refund an order (needs your approval)",
        hint: "payments.* calls wait for you in a dialog: approve, deny or edit.",
        code: `// Damaged in transit: refund the whole order.
const order = await tools.orders.get({ id: "SO-1007" });
console.log(order.id, order.customerName, order.total);

const refund = await tools.payments.refund({
  orderId: order.id,
  amount: order.total,
  reason: "Damaged in transit",
});
return refund;
`,
    },
    {
        id: "pickups",
        title: "Earliest courier pickups (WebMCP widget)",
        hint: "Mixes the desk's tools with the courier widget's, which it offers through WebMCP; the trace names each tool's source.",
        code: `// The courier widget offers its tools through WebMCP (document.modelContext);
// Code Mode picked them up as tools.webmcp.*.
const found = await tool_search({ query: "courier pickup slots" });
console.log("found:", found.map((t) => t.name).join(", "));

// The earliest pickup for every paid order, in its customer's city.
const paid = await tools.orders.list({ status: "paid" });
const plan = await Promise.all(paid.map(async (o) => {
  const customer = await tools.customers.get({ id: o.customerId });
  const { slots } = await tools.webmcp.courier.pickupSlots({ city: customer.city });
  return { order: o.id, city: customer.city, pickup: slots[0] ?? null };
}));
return plan;
`,
    },
    {
        id: "admin",
        title: "Call a hidden admin tool",
        hint: "toolFilter hides admin.*: the model cannot find or call it.",
        code: `// admin.* tools are hidden by the page's toolFilter.
const found = await tool_search({
  query: "admin delete customer",
});
const admin = found.filter((t) => /^admin\\./.test(t.name));
console.log("admin tools found:", admin.length);
console.log("tools.admin is", typeof tools.admin);

return await tool_call("admin.deleteCustomer", {
  id: "C-104",
});
`,
    },
    {
        id: "bad-input",
        title: "Send input that breaks the schema",
        hint: "Inputs are checked against the tool's JSON Schema before it runs.",
        code: `// delta must be a non-zero integer; "ten" is not.
const stock = await tools.inventory.check({
  skus: ["MON-27"],
});
console.log("on hand:", stock[0].onHand);

return await tools.inventory.adjust({
  sku: "MON-27",
  delta: "ten",
  reason: "Delivery from supplier",
});
`,
    },
    {
        id: "loop",
        title: "Infinite loop (timeout)",
        hint: "Ends with TIMEOUT, or press Cancel: the sandbox runs in a Worker, so the page stays usable. With ?worker=0 it shares this page's thread, which stays busy until the timeout (lower it in Sandbox settings).",
        code: `// Never ends: the sandbox's timeout stops it.
let spins = 0;
while (true) {
  spins++;
}
`,
    },
    {
        id: "memory",
        title: "Memory bomb (memory limit)",
        hint: "Ends with MEMORY_LIMIT; the next run starts clean.",
        code: `// Grows until the sandbox's memory limit stops it.
const hoard = [];
while (true) {
  hoard.push(new Array(100000).fill(hoard.length));
}
`,
    },
    {
        id: "syntax",
        title: "Syntax error",
        hint: "Reported with the line of the model's code; the editor marks it.",
        code: `const paid = await tools.orders.list({ status: "paid" });
const ids = paid.map((o) => o.id;
return ids;
`,
    },
    {
        id: "slow",
        title: "Slow export you can cancel",
        hint: "reports.exportLedger takes about 4 s; press Cancel to abort it while it waits.",
        code: `// Slow: press Cancel to abort the run and the tool call.
console.log("Exporting the ledger...");
const file = await tools.reports.exportLedger({
  format: "csv",
});
console.log(\`\${file.rows} rows\`);
return file;
`,
    },
];
