// @interopio/code-mode/mcp with a catalog the size of a real company's
// MCP server: the SDK's own McpServer with 300 tools whose schemas look like
// an ERP's (enums, bounds, formats, nested objects, a shared definition and
// a recursive one the SDK writes as $ref), connected in memory, and a
// Python server's pydantic schema ($defs). One registration, a search over
// all of them, a run that calls three, a tool that fails, and the server
// closing in the middle of a run.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { assetPath, loadFactory, run } from "./helpers.mjs";
import { loadAdapter, until } from "./adapter-helpers.mjs";

// Six verbs for each of 50 entities: 300 tools.
const ENTITIES = {
    crm: ["accounts", "contacts", "leads", "opportunities", "activities", "campaigns"],
    billing: ["invoices", "payments", "refunds", "subscriptions", "credit_notes", "tax_rates"],
    inventory: ["products", "warehouses", "stock_levels", "suppliers", "purchase_orders", "price_lists"],
    shipping: ["shipments", "carriers", "parcels", "returns", "pickups"],
    hr: ["employees", "departments", "leave_requests", "payslips", "job_postings", "candidates"],
    support: ["tickets", "articles", "macros", "sla_policies", "satisfaction_surveys"],
    projects: ["projects", "tasks", "milestones", "timesheets", "documents"],
    analytics: ["reports", "dashboards", "alerts", "datasets", "exports", "segments"],
    sales: ["orders", "quotes", "discounts", "territories", "forecasts"],
};
const VERBS = ["list", "get", "create", "update", "delete", "search"];
const singular = (e) => e.replace(/ies$/, "y").replace(/s$/, "").replace(/_/g, " ");

const Id = (entity) => z.string().regex(/^[a-z]{2,4}_[0-9A-Za-z]{6,24}$/).describe(`The ${singular(entity)}'s id, e.g. "${entity.slice(0, 3)}_8f3k2Lq9".`);
const Money = z.object({ amount: z.number().multipleOf(0.01).min(0), currency: z.enum(["USD", "EUR", "GBP", "JPY", "CHF"]) });
// Shared and recursive definitions: the SDK writes them once, under
// definitions, and points to them with $ref.
const Address = z
    .object({ street: z.string().min(1), city: z.string().min(1), postal_code: z.string().max(12), country: z.string().length(2).describe("ISO 3166-1 alpha-2") })
    .meta({ id: "Address" });
const Category = z.object({
    name: z.string(),
    get children() {
        return z.array(Category).optional();
    },
});

function schemaOf(entity, verb) {
    switch (verb) {
        case "list":
            return {
                status: z.enum(["active", "archived", "draft", "overdue", "closed"]).optional(),
                created_after: z.iso.datetime().optional(),
                limit: z.number().int().min(1).max(100).default(25),
                cursor: z.string().optional().describe("From the previous page's next_cursor."),
                sort: z.enum(["created_at", "-created_at", "updated_at", "-updated_at", "name"]).optional(),
            };
        case "get":
            return { id: Id(entity), expand: z.array(z.enum(["owner", "history", "attachments"])).max(3).optional() };
        case "create":
            return {
                name: z.string().min(1).max(200),
                owner_email: z.email().optional(),
                value: Money.optional(),
                tags: z.array(z.string().max(40)).max(20).optional(),
                custom_fields: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
            };
        case "update":
            return { id: Id(entity), patch: z.object({ name: z.string().min(1).optional(), status: z.enum(["active", "archived", "draft"]).optional(), tags: z.array(z.string()).optional() }) };
        case "delete":
            return { id: Id(entity), reason: z.string().max(500).optional(), hard: z.boolean().default(false) };
        case "search":
            return { query: z.string().min(2), fields: z.array(z.string()).optional(), limit: z.number().int().min(1).max(50).default(10) };
    }
}

// What a real server says of some tools, beyond the pattern.
const DESCRIPTIONS = {
    refunds_create: "Refund a captured payment, in full or in part, to its original method.",
    tickets_create: "Open a support ticket for a customer, with a subject, an owner and tags.",
    exports_create: "Export a dataset or report as CSV or Parquet; large exports take minutes.",
};

function describeTool(domain, entity, verb) {
    const one = singular(entity);
    return DESCRIPTIONS[`${entity}_${verb}`] ?? {
        list: `List ${entity.replace(/_/g, " ")} in ${domain}, newest first; filter by status and creation date, page with cursor.`,
        get: `Get one ${one} by id, optionally with its owner, history and attachments.`,
        create: `Create a ${one} with a name, an owner, a monetary value and tags.`,
        update: `Update a ${one}'s name, status or tags.`,
        delete: `Delete a ${one}; archived unless hard is true.`,
        search: `Full-text search over ${entity.replace(/_/g, " ")} by name, notes and tags.`,
    }[verb];
}

function erpServer(seen) {
    const server = new McpServer({ name: "erp", version: "4.2.0" });
    let n = 0;
    for (const [domain, entities] of Object.entries(ENTITIES)) {
        for (const entity of entities) {
            for (const verb of VERBS) {
                const name = `${entity}_${verb}`;
                if (name === "orders_create") continue; // below
                const annotations = verb === "delete" ? { destructiveHint: true } : verb === "list" || verb === "get" || verb === "search" ? { readOnlyHint: true } : {};
                server.registerTool(name, { description: describeTool(domain, entity, verb), inputSchema: schemaOf(entity, verb), annotations }, async (args) => {
                    seen.calls.push([name, args]);
                    return handle(name, args, seen);
                });
                n++;
            }
        }
    }
    // Sales' orders_create: a real order form, with the shared and the
    // recursive definitions.
    server.registerTool(
        "orders_create",
        {
            description: "Create a sales order: the customer, its billing and shipping addresses, the lines, and the catalog category it files under.",
            inputSchema: {
                customer_id: Id("accounts"),
                billing: Address,
                shipping: Address.optional(),
                lines: z.array(z.object({ sku: z.string(), quantity: z.number().int().min(1), unit_price: Money })).min(1),
                category: Category.optional(),
            },
        },
        async (args) => {
            seen.calls.push(["orders_create", args]);
            return { content: [{ type: "text", text: JSON.stringify({ id: "ord_A1b2C3d4", lines: args.lines.length, ships_to: (args.shipping ?? args.billing).city }) }] };
        },
    );
    seen.registered = n + 1;
    return server;
}

function handle(name, args, seen) {
    const json = (value) => ({ content: [{ type: "text", text: JSON.stringify(value) }] });
    switch (name) {
        case "accounts_get":
            return json({ id: args.id, name: "Globex Corporation", owner_email: "hank@globex.example", tier: "enterprise" });
        case "invoices_list":
            return json({
                items: [
                    { id: "inv_Q1w2E3r4", account_id: "acc_8f3k2Lq9", status: "overdue", total: { amount: 1250.5, currency: "USD" } },
                    { id: "inv_T5y6U7i8", account_id: "acc_8f3k2Lq9", status: "overdue", total: { amount: 310, currency: "USD" } },
                ],
                next_cursor: null,
            });
        case "tickets_create":
            return json({ id: "tic_Z9x8C7v6", name: args.name });
        case "refunds_create":
            // The tool's own failure: a result the server marks isError.
            return { content: [{ type: "text", text: "Refund exceeds the captured amount of pay_M1n2B3v4 (USD 310.00)." }], isError: true };
        case "exports_create":
            // Held until the server goes away.
            seen.exportStarted = true;
            return new Promise(() => {});
    }
    return json({ ok: true });
}

let IoCodeModeFactory, mcp;
let api, client, server, source, seen, unregister;
before(async () => {
    IoCodeModeFactory = await loadFactory();
    mcp = await loadAdapter("mcp");
    seen = { calls: [] };
    server = erpServer(seen);
    const [a, b] = InMemoryTransport.createLinkedPair();
    client = new Client({ name: "catalog-test", version: "1.0.0" });
    await Promise.all([server.connect(b), client.connect(a)]);
    api = await IoCodeModeFactory({ wasmLocation: assetPath });
    source = await mcp.fromMcpClient(client);
    unregister = source.registerTools(api);
});
// The server is closed by the last test; the rest goes here.
after(async () => [unregister(), source.close(), await client.close(), api.dispose()]);

test("300 tools register, each with the server's schema, hints and a TypeScript signature", async () => {
    assert.equal(seen.registered, 300);
    const names = api.listTools().map((t) => t.name);
    assert.equal(names.length, 300);
    assert.ok(names.every((n) => n.startsWith("erp.")), names.find((n) => !n.startsWith("erp.")));
    const del = api.listTools().find((t) => t.name === "erp.invoices_delete");
    assert.equal(del.annotations.destructiveHint, true);
    const [hit] = await api.createSession().getLlmTools()[0].execute({ query: "create a sales order with a billing address", limit: 3 });
    assert.equal(hit.name, "erp.orders_create");
    // The $ref'd definitions are read into the signature the model sees.
    for (const part of ["street: string", "country: string", "children?:", "quantity: number"]) assert.ok(hit.signature.includes(part), `${part} not in ${hit.signature}`);
});

test("a search over the catalog finds the tools a task needs", async () => {
    const [searchTools] = api.createSession().getLlmTools();
    const top = async (query) => (await searchTools.execute({ query, limit: 5 })).map((h) => h.name);
    assert.ok((await top("overdue invoices")).includes("erp.invoices_list"), String(await top("overdue invoices")));
    assert.ok((await top("refund a payment")).includes("erp.refunds_create"), String(await top("refund a payment")));
    assert.ok((await top("open a support ticket")).includes("erp.tickets_create"), String(await top("open a support ticket")));
    const listed = await searchTools.execute({ query: "", namespace: "erp", limit: 50 });
    assert.equal(listed.length, 50);
});

test("a run calls three tools, a failing one and one with $ref'd input; bad input is refused before the server", async () => {
    seen.calls.length = 0;
    const out = await run(
        api.createSession(),
        `const account = await tools.erp.accounts_get({ id: "acc_8f3k2Lq9" });
         const { items } = await tools.erp.invoices_list({ status: "overdue", limit: 10 });
         const due = items.reduce((s, i) => s + i.total.amount, 0);
         const ticket = await tools.erp.tickets_create({ name: "Chase " + account.name + ": " + due.toFixed(2) + " overdue", owner_email: account.owner_email, tags: ["collections"] });
         let refund;
         try { await tools.erp.refunds_create({ name: "goodwill", value: { amount: 500, currency: "USD" } }); } catch (e) { refund = e.message; }
         const order = await tools.erp.orders_create({
             customer_id: "acc_8f3k2Lq9",
             billing: { street: "1 Main St", city: "Springfield", postal_code: "12345", country: "US" },
             lines: [{ sku: "W-1", quantity: 2, unit_price: { amount: 9.99, currency: "USD" } }],
             category: { name: "Hardware", children: [{ name: "Widgets" }] },
         });
         let refused;
         try { await tools.erp.orders_create({ customer_id: "acc_8f3k2Lq9", billing: { street: "x", city: "y", postal_code: "1", country: "USA" }, lines: [] }); } catch (e) { refused = e.message; }
         return { due, ticket: ticket.id, refund, order, refused };`,
    );
    assert.equal(out.ok, true, JSON.stringify(out));
    assert.equal(out.result.due, 1560.5);
    assert.equal(out.result.ticket, "tic_Z9x8C7v6");
    assert.match(out.result.refund, /Refund exceeds the captured amount of pay_M1n2B3v4/);
    assert.deepEqual(out.result.order, { id: "ord_A1b2C3d4", lines: 1, ships_to: "Springfield" });
    // The refused call names each field at fault, inside the $ref'd definition too.
    assert.equal(out.result.refused, "erp.orders_create: invalid input:\n/billing/country: maxLength: got 3 characters, want <= 2\n/lines: minItems: got 0 items, want >= 1");
    assert.deepEqual(
        seen.calls.map(([name]) => name),
        ["accounts_get", "invoices_list", "tickets_create", "refunds_create", "orders_create"],
        "the refused call never reached the server",
    );
    assert.deepEqual(seen.calls.at(-1)[1].category, { name: "Hardware", children: [{ name: "Widgets" }] });
});

// McpServer writes draft-07 (definitions); a Python server (FastMCP,
// pydantic v2) writes $defs, a $ref beside a default, and a recursive model
// as anyOf with null.
test("a Python server's pydantic schema ($defs, recursive $ref) registers, reads as TypeScript and is enforced", async () => {
    const inputSchema = {
        $defs: {
            Address: { properties: { street: { title: "Street", type: "string" }, country: { maxLength: 2, minLength: 2, title: "Country", type: "string" } }, required: ["street", "country"], title: "Address", type: "object" },
            Priority: { enum: ["low", "high"], title: "Priority", type: "string" },
            Node: { properties: { name: { type: "string" }, children: { anyOf: [{ items: { $ref: "#/$defs/Node" }, type: "array" }, { type: "null" }], default: null } }, required: ["name"], type: "object" },
        },
        properties: { address: { $ref: "#/$defs/Address" }, priority: { $ref: "#/$defs/Priority", default: "low" }, tree: { anyOf: [{ $ref: "#/$defs/Node" }, { type: "null" }], default: null } },
        required: ["address"],
        title: "create_siteArguments",
        type: "object",
    };
    const py = new Server({ name: "sites", version: "1.0.0" }, { capabilities: { tools: {} } });
    const calls = [];
    py.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: "create_site", description: "Create a site at an address.", inputSchema }] }));
    py.setRequestHandler(CallToolRequestSchema, async (req) => (calls.push(req.params.arguments), { content: [{ type: "text", text: '{"id": 7}' }] }));
    const [a, b] = InMemoryTransport.createLinkedPair();
    const pyClient = new Client({ name: "catalog-test", version: "1.0.0" });
    await Promise.all([py.connect(b), pyClient.connect(a)]);
    const pySource = await mcp.fromMcpClient(pyClient);
    const off = pySource.registerTools(api);
    try {
        const session = api.createSession();
        const [hit] = await session.getLlmTools()[0].execute({ query: "create a site", namespace: "sites" });
        for (const part of ["type Node = {", "children?: Node[] | null;", "address: { street: string; country: string /* length 2 */ };", 'priority?: "low" | "high";', "tree?: Node | null;"]) {
            assert.ok(hit.signature.includes(part), `${part} not in ${hit.signature}`);
        }
        const out = await run(
            session,
            `const made = await tools.sites.create_site({ address: { street: "Hauptstr. 1", country: "DE" }, priority: "high", tree: { name: "a", children: [{ name: "b", children: null }] } });
             let bad;
             try { await tools.sites.create_site({ address: { street: "x", country: "DEU" }, priority: "urgent", tree: { name: "a", children: [{ children: [] }] } }); } catch (e) { bad = e.message; }
             return { made, bad };`,
        );
        assert.equal(out.ok, true, JSON.stringify(out));
        assert.deepEqual(out.result.made, { id: 7 });
        assert.equal(out.result.bad, 'sites.create_site: invalid input:\n/address/country: maxLength: got 3 characters, want <= 2\n/priority: enum: got "urgent", want one of "low", "high"\n/tree/children/0: required: missing "name"');
        assert.equal(calls.length, 1, "the refused call never reached the server");
    } finally {
        off();
        pySource.close();
        await pyClient.close();
    }
});

// Last: it closes the shared server.
test("the server closing mid-run fails the call in flight and every later one, clearly; nothing waits", async () => {
    const timersBefore = process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    api.registerTool({ name: "ops.closeServer", execute: async () => (await until(() => seen.exportStarted, "the export to start"), await server.close(), "closed") });
    const out = await run(
        api.createSession(),
        `const pending = tools.erp.exports_create({ name: "Q3 revenue" }).then(() => "answered", (e) => e.message);
         const closed = await tools.ops.closeServer({});
         const inFlight = await pending;
         let later;
         try { await tools.erp.accounts_get({ id: "acc_8f3k2Lq9" }); } catch (e) { later = e.message; }
         return { closed, inFlight, later };`,
    );
    assert.equal(out.ok, true, JSON.stringify(out));
    const gone = 'MCP server "erp": the connection is closed; its tools fail until it is connected again';
    assert.deepEqual(out.result, { closed: "closed", inFlight: `${gone} (MCP error -32000: Connection closed)`, later: `${gone} (Not connected)` });
    assert.deepEqual(out.toolCalls.map((c) => [c.name, c.ok]), [
        ["erp.exports_create", false],
        ["ops.closeServer", true],
        ["erp.accounts_get", false],
    ]);
    // No request of the closed connection keeps a timer (the SDK's per
    // request timeout) or a run waiting.
    const timersAfter = process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    assert.ok(timersAfter <= timersBefore, `${timersBefore} timers before, ${timersAfter} after`);
});
