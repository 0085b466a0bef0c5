// The order desk's tools: what the page offers the copilot. Each is a
// Code Mode ToolDefinition ({ name, description, inputSchema, execute }).
// Some answer at once, some after a short delay (as a real backend would);
// every delay listens to the run's AbortSignal, so a cancelled or timed-out
// run stops waiting.

import {
    db, notify, resetData, productBySku, customerById, orderById, orderTotal, reservedUnits,
    refundedAmount, nextId, now, ORDER_STATUSES, TIERS, CATEGORIES,
} from "./data.js";

// delay resolves after ms, or rejects with the signal's reason when the run
// is aborted first.
export function delay(ms, signal) {
    return new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const timer = setTimeout(() => {
            signal?.removeEventListener("abort", onAbort);
            resolve();
        }, ms);
        const onAbort = () => {
            clearTimeout(timer);
            reject(signal.reason);
        };
        signal?.addEventListener("abort", onAbort, { once: true });
    });
}

// Errors a tool throws reach the model's code with the same message.
const fail = (message) => {
    throw new Error(message);
};
const mustCustomer = (id) => customerById(id) ?? fail(`No customer with id ${id}.`);
const mustOrder = (id) => orderById(id) ?? fail(`No order with id ${id}.`);
const mustProduct = (sku) => productBySku(sku) ?? fail(`No product with SKU ${sku}.`);
const actor = (context) => context?.userId ?? "unknown";
const round2 = (n) => Math.round(n * 100) / 100;

function orderView(o) {
    const c = customerById(o.customerId);
    return {
        id: o.id,
        customerId: o.customerId,
        customerName: c?.name ?? null,
        status: o.status,
        placed: o.placed,
        total: orderTotal(o),
        refunded: refundedAmount(o.id),
        items: o.items.map((i) => ({ sku: i.sku, quantity: i.quantity, unitPrice: productBySku(i.sku)?.price ?? null })),
    };
}

function stockView(p) {
    const reserved = reservedUnits(p.sku);
    return { sku: p.sku, name: p.name, onHand: p.stock, reserved, available: p.stock - reserved };
}

// Which status an order may move to from each status.
const TRANSITIONS = {
    pending: ["paid", "cancelled"],
    paid: ["packed", "shipped", "cancelled", "refunded"],
    packed: ["shipped", "cancelled"],
    shipped: ["delivered"],
    delivered: ["refunded"],
    cancelled: [],
    refunded: [],
};

const id = (pattern, description) => ({ type: "string", pattern, description });
const customerId = id("^C-[0-9]+$", 'Customer id, e.g. "C-101".');
const orderId = id("^SO-[0-9]+$", 'Order id, e.g. "SO-1001".');
const sku = { type: "string", minLength: 3, description: 'Product SKU, e.g. "DESK-OAK".' };

const orderSchema = {
    type: "object",
    properties: {
        id: { type: "string" },
        customerId: { type: "string" },
        customerName: { type: ["string", "null"] },
        status: { type: "string", enum: ORDER_STATUSES },
        placed: { type: "string", description: "Date the order was placed (YYYY-MM-DD)." },
        total: { type: "number", description: "Order total in EUR." },
        refunded: { type: "number", description: "Amount refunded so far, in EUR." },
        items: {
            type: "array",
            items: {
                type: "object",
                properties: { sku: { type: "string" }, quantity: { type: "integer" }, unitPrice: { type: ["number", "null"] } },
                required: ["sku", "quantity"],
            },
        },
    },
    required: ["id", "customerId", "status", "total", "items"],
};

const customerSchema = {
    type: "object",
    properties: {
        id: { type: "string" },
        name: { type: "string" },
        email: { type: "string" },
        tier: { type: "string", enum: TIERS },
        city: { type: "string" },
        credit: { type: "number", description: "Store credit in EUR." },
    },
    required: ["id", "name", "email", "tier"],
};

const stockSchema = {
    type: "object",
    properties: {
        sku: { type: "string" },
        name: { type: "string" },
        onHand: { type: "integer", description: "Units in the warehouse." },
        reserved: { type: "integer", description: "Units held by paid or packed orders." },
        available: { type: "integer", description: "onHand - reserved; negative when oversold." },
    },
    required: ["sku", "onHand", "reserved", "available"],
};

export const tools = [
    // ----------------------------------------------------------- customers
    {
        name: "customers.search",
        description: "Search customers by name, email or city (case-insensitive substring), optionally by tier.",
        annotations: { readOnlyHint: true },
        inputSchema: {
            type: "object",
            properties: {
                query: { type: "string", description: "Text to find in name, email or city. Empty matches all." },
                tier: { type: "string", enum: TIERS },
                limit: { type: "integer", minimum: 1, maximum: 50, default: 10 },
            },
            additionalProperties: false,
        },
        outputSchema: { type: "array", items: customerSchema },
        async execute({ query = "", tier, limit = 10 }, { signal }) {
            await delay(40, signal);
            const q = query.toLowerCase();
            return db.customers
                .filter((c) => (!tier || c.tier === tier) && [c.name, c.email, c.city].some((f) => f.toLowerCase().includes(q)))
                .slice(0, limit);
        },
    },
    {
        name: "customers.get",
        description: "Get one customer by id, with the number of orders and the lifetime spend.",
        annotations: { readOnlyHint: true },
        inputSchema: { type: "object", properties: { id: customerId }, required: ["id"], additionalProperties: false },
        outputSchema: {
            ...customerSchema,
            properties: { ...customerSchema.properties, orderCount: { type: "integer" }, lifetimeSpend: { type: "number" } },
        },
        async execute({ id }, { signal }) {
            await delay(50, signal);
            const c = mustCustomer(id);
            const orders = db.orders.filter((o) => o.customerId === id && o.status !== "cancelled");
            return { ...c, orderCount: orders.length, lifetimeSpend: orders.reduce((s, o) => s + orderTotal(o) - refundedAmount(o.id), 0) };
        },
    },
    {
        name: "customers.update",
        description: "Change a customer's email or tier.",
        inputSchema: {
            type: "object",
            properties: { id: customerId, email: { type: "string", format: "email" }, tier: { type: "string", enum: TIERS } },
            required: ["id"],
            additionalProperties: false,
        },
        outputSchema: customerSchema,
        async execute({ id, email, tier }, { signal }) {
            await delay(60, signal);
            const c = mustCustomer(id);
            if (email !== undefined) c.email = email;
            if (tier !== undefined) c.tier = tier;
            notify("customers", [id]);
            return { ...c };
        },
    },
    {
        name: "customers.notify",
        description: "Queue an email to a customer (recorded as a note on the desk; nothing is sent).",
        inputSchema: {
            type: "object",
            properties: {
                id: customerId,
                subject: { type: "string", minLength: 1, maxLength: 120 },
                message: { type: "string", minLength: 1, maxLength: 2000 },
            },
            required: ["id", "subject", "message"],
            additionalProperties: false,
        },
        outputSchema: { type: "object", properties: { queued: { type: "boolean" }, to: { type: "string" } } },
        execute({ id, subject, message }, { context }) {
            const c = mustCustomer(id);
            db.notes.push({ at: now(), by: actor(context), text: `Email to ${c.email}: ${subject}`, body: message });
            return { queued: true, to: c.email };
        },
    },
    // -------------------------------------------------------------- orders
    {
        name: "orders.list",
        description: "List orders, newest first, optionally by status and/or customer. Each order has its items and total.",
        annotations: { readOnlyHint: true },
        inputSchema: {
            type: "object",
            properties: {
                status: { type: "string", enum: ORDER_STATUSES },
                customerId,
                limit: { type: "integer", minimum: 1, maximum: 100, default: 50 },
            },
            additionalProperties: false,
        },
        outputSchema: { type: "array", items: orderSchema },
        async execute({ status, customerId, limit = 50 }, { signal }) {
            await delay(80, signal);
            return db.orders
                .filter((o) => (!status || o.status === status) && (!customerId || o.customerId === customerId))
                .slice()
                .reverse()
                .slice(0, limit)
                .map(orderView);
        },
    },
    {
        name: "orders.get",
        description: "Get one order by id, with its items, total and amount refunded so far.",
        annotations: { readOnlyHint: true },
        inputSchema: { type: "object", properties: { id: orderId }, required: ["id"], additionalProperties: false },
        outputSchema: orderSchema,
        async execute({ id }, { signal }) {
            await delay(40, signal);
            return orderView(mustOrder(id));
        },
    },
    {
        name: "orders.updateStatus",
        description:
            "Move an order to a new status. Allowed moves: pending->paid|cancelled, paid->packed|shipped|cancelled|refunded, " +
            "packed->shipped|cancelled, shipped->delivered, delivered->refunded. Shipping takes the items out of stock.",
        inputSchema: {
            type: "object",
            properties: {
                id: orderId,
                status: { type: "string", enum: ORDER_STATUSES },
                note: { type: "string", maxLength: 500, description: "Why; kept in the order's history." },
            },
            required: ["id", "status"],
            additionalProperties: false,
        },
        outputSchema: orderSchema,
        async execute({ id, status, note }, { signal, context }) {
            await delay(120, signal);
            const o = mustOrder(id);
            if (o.status === status) return orderView(o);
            if (!TRANSITIONS[o.status].includes(status)) {
                fail(`Order ${id} is ${o.status}; it cannot become ${status}.`);
            }
            if (status === "shipped") {
                for (const i of o.items) {
                    const p = mustProduct(i.sku);
                    if (p.stock < i.quantity) fail(`Cannot ship ${id}: ${i.sku} has ${p.stock} on hand, the order needs ${i.quantity}.`);
                }
                for (const i of o.items) productBySku(i.sku).stock -= i.quantity;
                notify("products", o.items.map((i) => i.sku));
            }
            o.status = status;
            o.updated = now();
            db.notes.push({ at: o.updated, by: actor(context), text: `${id} -> ${status}${note ? ": " + note : ""}` });
            notify("orders", [id]);
            return orderView(o);
        },
    },
    {
        name: "orders.create",
        description: "Create a pending order for a customer.",
        inputSchema: {
            type: "object",
            properties: {
                customerId,
                items: {
                    type: "array",
                    minItems: 1,
                    maxItems: 20,
                    items: {
                        type: "object",
                        properties: { sku, quantity: { type: "integer", minimum: 1, maximum: 100 } },
                        required: ["sku", "quantity"],
                        additionalProperties: false,
                    },
                },
            },
            required: ["customerId", "items"],
            additionalProperties: false,
        },
        outputSchema: orderSchema,
        async execute({ customerId, items }, { signal, context }) {
            await delay(150, signal);
            mustCustomer(customerId);
            for (const i of items) mustProduct(i.sku);
            const o = { id: nextId("SO", db.orders), customerId, status: "pending", items, placed: now().slice(0, 10), updated: now() };
            db.orders.push(o);
            db.notes.push({ at: o.updated, by: actor(context), text: `${o.id} created` });
            notify("orders", [o.id]);
            return orderView(o);
        },
    },
    {
        name: "orders.addNote",
        description: "Add a note to an order's history.",
        inputSchema: {
            type: "object",
            properties: { id: orderId, note: { type: "string", minLength: 1, maxLength: 500 } },
            required: ["id", "note"],
            additionalProperties: false,
        },
        outputSchema: { type: "object", properties: { ok: { type: "boolean" }, notes: { type: "integer" } } },
        execute({ id, note }, { context }) {
            mustOrder(id);
            db.notes.push({ at: now(), by: actor(context), text: `${id}: ${note}` });
            return { ok: true, notes: db.notes.filter((n) => n.text.startsWith(id)).length };
        },
    },
    // ----------------------------------------------------------- inventory
    {
        name: "inventory.check",
        description: "Stock levels of one or more products: on hand, reserved by paid/packed orders, and available.",
        annotations: { readOnlyHint: true },
        inputSchema: {
            type: "object",
            properties: { skus: { type: "array", items: sku, minItems: 1, maxItems: 50 } },
            required: ["skus"],
            additionalProperties: false,
        },
        outputSchema: { type: "array", items: stockSchema },
        async execute({ skus }, { signal }) {
            await delay(60, signal);
            return skus.map((s) => stockView(mustProduct(s)));
        },
    },
    {
        name: "inventory.adjust",
        description: "Add (positive delta) or remove (negative delta) units of a product, e.g. after a delivery or a stock count.",
        inputSchema: {
            type: "object",
            properties: {
                sku,
                delta: { type: "integer", minimum: -1000, maximum: 1000, not: { const: 0 } },
                reason: { type: "string", minLength: 3, maxLength: 200 },
            },
            required: ["sku", "delta", "reason"],
            additionalProperties: false,
        },
        outputSchema: stockSchema,
        async execute({ sku, delta, reason }, { signal, context }) {
            await delay(90, signal);
            const p = mustProduct(sku);
            if (p.stock + delta < 0) fail(`${sku} has ${p.stock} on hand; cannot remove ${-delta}.`);
            p.stock += delta;
            db.notes.push({ at: now(), by: actor(context), text: `${sku} ${delta > 0 ? "+" : ""}${delta}: ${reason}` });
            notify("products", [sku]);
            return stockView(p);
        },
    },
    {
        name: "inventory.lowStock",
        description: "Products whose available units (on hand minus reserved) are at or below a threshold.",
        annotations: { readOnlyHint: true },
        inputSchema: {
            type: "object",
            properties: { threshold: { type: "integer", minimum: 0, maximum: 1000, default: 5 } },
            additionalProperties: false,
        },
        outputSchema: { type: "array", items: stockSchema },
        execute({ threshold = 5 }) {
            return db.products.map(stockView).filter((s) => s.available <= threshold);
        },
    },
    // ------------------------------------------------------------ products
    {
        name: "products.search",
        description: "Search the catalogue by text (name or SKU), category and maximum price.",
        annotations: { readOnlyHint: true },
        inputSchema: {
            type: "object",
            properties: {
                query: { type: "string", description: "Text to find in the name or SKU." },
                category: { type: "string", enum: CATEGORIES },
                maxPrice: { type: "number", exclusiveMinimum: 0 },
            },
            additionalProperties: false,
        },
        outputSchema: {
            type: "array",
            items: {
                type: "object",
                properties: { sku: { type: "string" }, name: { type: "string" }, category: { type: "string" }, price: { type: "number" } },
            },
        },
        async execute({ query = "", category, maxPrice }, { signal }) {
            await delay(30, signal);
            const q = query.toLowerCase();
            return db.products
                .filter((p) => (!category || p.category === category) && (maxPrice === undefined || p.price <= maxPrice))
                .filter((p) => p.name.toLowerCase().includes(q) || p.sku.toLowerCase().includes(q))
                .map(({ sku, name, category, price }) => ({ sku, name, category, price }));
        },
    },
    {
        name: "products.get",
        description: "Get one product by SKU, with price and stock.",
        annotations: { readOnlyHint: true },
        inputSchema: { type: "object", properties: { sku }, required: ["sku"], additionalProperties: false },
        execute({ sku }) {
            const p = mustProduct(sku);
            return { ...p, ...stockView(p) };
        },
    },
    // ------------------------------------------------------------ payments
    {
        name: "reports.payments",
        description: "The payment ledger (charges, refunds, transfers), optionally for one order or of one type.",
        annotations: { readOnlyHint: true },
        inputSchema: {
            type: "object",
            properties: { orderId, type: { type: "string", enum: ["charge", "refund", "transfer"] } },
            additionalProperties: false,
        },
        async execute({ orderId, type }, { signal }) {
            await delay(50, signal);
            return db.payments.filter((p) => (!orderId || p.orderId === orderId) && (!type || p.type === type));
        },
    },
    {
        name: "payments.refund",
        description:
            "Refund part or all of an order's payment to the customer. A person approves every payment before it runs. " +
            "A full refund marks the order refunded.",
        annotations: { destructiveHint: true },
        inputSchema: {
            type: "object",
            properties: {
                orderId,
                amount: { type: "number", exclusiveMinimum: 0, description: "EUR, at most the amount not yet refunded." },
                reason: { type: "string", minLength: 3, maxLength: 200 },
            },
            required: ["orderId", "amount", "reason"],
            additionalProperties: false,
        },
        outputSchema: {
            type: "object",
            properties: {
                refundId: { type: "string" },
                orderId: { type: "string" },
                amount: { type: "number" },
                status: { type: "string" },
                approvedFor: { type: "string" },
            },
        },
        async execute({ orderId, amount, reason }, { signal, context }) {
            await delay(200, signal);
            const o = mustOrder(orderId);
            if (o.status === "pending" || o.status === "cancelled") fail(`Order ${orderId} is ${o.status}; there is no payment to refund.`);
            const left = round2(orderTotal(o) - refundedAmount(orderId));
            if (amount > left) fail(`Order ${orderId} has ${left} EUR left to refund; asked for ${amount}.`);
            const p = { id: nextId("PAY", db.payments), type: "refund", orderId, amount: round2(amount), status: "settled", by: actor(context), at: now(), memo: reason };
            db.payments.push(p);
            notify("payments", [p.id]);
            if (round2(left - amount) === 0) {
                o.status = "refunded";
                o.updated = now();
                notify("orders", [orderId]);
            }
            return { refundId: p.id, orderId, amount: p.amount, status: p.status, approvedFor: actor(context) };
        },
    },
    {
        name: "payments.transfer",
        description: "Send money from the shop's account to an IBAN. A person approves every payment before it runs.",
        annotations: { destructiveHint: true },
        inputSchema: {
            type: "object",
            properties: {
                toAccount: { type: "string", pattern: "^[A-Z]{2}[0-9]{2}[A-Z0-9]{10,30}$", description: "IBAN, no spaces." },
                amount: { type: "number", exclusiveMinimum: 0, maximum: 10000 },
                memo: { type: "string", minLength: 3, maxLength: 140 },
            },
            required: ["toAccount", "amount", "memo"],
            additionalProperties: false,
        },
        async execute({ toAccount, amount, memo }, { signal, context }) {
            await delay(200, signal);
            const p = { id: nextId("PAY", db.payments), type: "transfer", orderId: null, to: toAccount, amount: round2(amount), status: "settled", by: actor(context), at: now(), memo };
            db.payments.push(p);
            notify("payments", [p.id]);
            return { transferId: p.id, toAccount, amount: p.amount, status: p.status };
        },
    },
    // ------------------------------------------------- shipping and reports
    {
        name: "shipping.quote",
        description: "Quote the shipping cost and days for an order with a carrier.",
        annotations: { readOnlyHint: true },
        inputSchema: {
            type: "object",
            properties: { orderId, carrier: { type: "string", enum: ["postnl", "dhl", "ups"], default: "dhl" } },
            required: ["orderId"],
            additionalProperties: false,
        },
        outputSchema: {
            type: "object",
            properties: { orderId: { type: "string" }, carrier: { type: "string" }, cost: { type: "number" }, days: { type: "integer" } },
        },
        async execute({ orderId, carrier = "dhl" }, { signal }) {
            await delay(150, signal);
            const o = mustOrder(orderId);
            const units = o.items.reduce((n, i) => n + i.quantity, 0);
            const base = { postnl: 6.5, dhl: 9, ups: 12 }[carrier];
            return { orderId, carrier, cost: round2(base + units * 1.75), days: { postnl: 4, dhl: 2, ups: 1 }[carrier] };
        },
    },
    {
        name: "reports.salesSummary",
        description: "Order count and revenue by status, and the total refunded.",
        annotations: { readOnlyHint: true },
        inputSchema: { type: "object", properties: {}, additionalProperties: false },
        execute() {
            const byStatus = {};
            for (const o of db.orders) {
                const s = (byStatus[o.status] ??= { orders: 0, revenue: 0 });
                s.orders++;
                s.revenue += orderTotal(o);
            }
            const refunded = db.payments.filter((p) => p.type === "refund").reduce((s, p) => s + p.amount, 0);
            return { byStatus, refunded };
        },
    },
    {
        name: "reports.exportLedger",
        description: "Export every payment as CSV or JSON. Slow: the ledger service takes about 4 seconds.",
        annotations: { readOnlyHint: true },
        inputSchema: {
            type: "object",
            properties: { format: { type: "string", enum: ["csv", "json"], default: "csv" } },
            additionalProperties: false,
        },
        async execute({ format = "csv" }, { signal }) {
            await delay(4000, signal);
            if (format === "json") return { format, rows: db.payments.length, data: db.payments };
            const head = "id,type,orderId,amount,status,at";
            const rows = db.payments.map((p) => [p.id, p.type, p.orderId ?? "", p.amount, p.status, p.at].join(","));
            return { format, rows: rows.length, data: [head, ...rows].join("\n") };
        },
    },
    // --------------------------------------- admin (hidden by toolFilter)
    {
        name: "admin.deleteCustomer",
        description: "Delete a customer and all their orders. Admin only.",
        annotations: { destructiveHint: true },
        inputSchema: { type: "object", properties: { id: customerId }, required: ["id"], additionalProperties: false },
        execute({ id }) {
            mustCustomer(id);
            db.customers = db.customers.filter((c) => c.id !== id);
            db.orders = db.orders.filter((o) => o.customerId !== id);
            notify("all");
            return { deleted: id };
        },
    },
    {
        name: "admin.resetData",
        description: "Restore the demo data. Admin only.",
        annotations: { destructiveHint: true },
        inputSchema: { type: "object", properties: {}, additionalProperties: false },
        execute() {
            resetData();
            return { ok: true };
        },
    },
];
