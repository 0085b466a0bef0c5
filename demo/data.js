// The order desk's data: customers, products, orders and payments, held in
// page memory. The tables subscribe to changes; the tools (tools.js) read
// and change the data through this module only.

const SEED = {
    customers: [
        { id: "C-101", name: "Acme Robotics", email: "ops@acme-robotics.test", tier: "gold", city: "Rotterdam", credit: 0 },
        { id: "C-102", name: "Bluebird Cafe", email: "hello@bluebird.test", tier: "standard", city: "Lisbon", credit: 0 },
        { id: "C-103", name: "Cobalt Labs", email: "buying@cobalt-labs.test", tier: "silver", city: "Tallinn", credit: 25 },
        { id: "C-104", name: "Dunmore & Sons", email: "accounts@dunmore.test", tier: "standard", city: "Cork", credit: 0 },
        { id: "C-105", name: "Everfield School", email: "office@everfield.test", tier: "silver", city: "Utrecht", credit: 0 },
        { id: "C-106", name: "Fjord Outfitters", email: "orders@fjord.test", tier: "gold", city: "Bergen", credit: 40 },
        { id: "C-107", name: "Greenway Clinic", email: "admin@greenway.test", tier: "standard", city: "Ghent", credit: 0 },
        { id: "C-108", name: "Harbor Books", email: "shop@harborbooks.test", tier: "silver", city: "Porto", credit: 0 },
    ],
    products: [
        { sku: "DESK-OAK", name: "Standing desk, oak", category: "furniture", price: 649, stock: 7 },
        { sku: "CHAIR-ERG", name: "Ergonomic chair", category: "furniture", price: 389, stock: 14 },
        { sku: "LAMP-LED", name: "LED desk lamp", category: "lighting", price: 59, stock: 42 },
        { sku: "MON-27", name: '27" monitor', category: "electronics", price: 329, stock: 3 },
        { sku: "ARM-DUAL", name: "Dual monitor arm", category: "accessories", price: 119, stock: 0 },
        { sku: "MAT-CORK", name: "Cork desk mat", category: "accessories", price: 35, stock: 60 },
        { sku: "HUB-USB", name: "USB-C dock", category: "electronics", price: 149, stock: 9 },
        { sku: "SHELF-WAL", name: "Wall shelf, walnut", category: "furniture", price: 89, stock: 21 },
    ],
    orders: [
        { id: "SO-1001", customerId: "C-101", status: "paid", items: [{ sku: "DESK-OAK", quantity: 2 }, { sku: "LAMP-LED", quantity: 2 }], placed: "2026-11-21" },
        { id: "SO-1002", customerId: "C-102", status: "pending", items: [{ sku: "MAT-CORK", quantity: 6 }], placed: "2026-11-22" },
        { id: "SO-1003", customerId: "C-103", status: "paid", items: [{ sku: "MON-27", quantity: 4 }, { sku: "ARM-DUAL", quantity: 2 }], placed: "2026-11-22" },
        { id: "SO-1004", customerId: "C-106", status: "shipped", items: [{ sku: "CHAIR-ERG", quantity: 3 }], placed: "2026-11-23" },
        { id: "SO-1005", customerId: "C-105", status: "paid", items: [{ sku: "CHAIR-ERG", quantity: 5 }, { sku: "HUB-USB", quantity: 5 }], placed: "2026-11-24" },
        { id: "SO-1006", customerId: "C-104", status: "delivered", items: [{ sku: "SHELF-WAL", quantity: 4 }], placed: "2026-11-24" },
        { id: "SO-1007", customerId: "C-108", status: "delivered", items: [{ sku: "LAMP-LED", quantity: 3 }, { sku: "MAT-CORK", quantity: 3 }], placed: "2026-11-25" },
        { id: "SO-1008", customerId: "C-107", status: "paid", items: [{ sku: "HUB-USB", quantity: 2 }], placed: "2026-11-26" },
        { id: "SO-1009", customerId: "C-101", status: "pending", items: [{ sku: "MON-27", quantity: 2 }], placed: "2026-11-27" },
        { id: "SO-1010", customerId: "C-106", status: "cancelled", items: [{ sku: "DESK-OAK", quantity: 1 }], placed: "2026-11-28" },
    ],
    payments: [
        { id: "PAY-5001", type: "charge", orderId: "SO-1001", amount: 1416, status: "settled", by: "checkout", at: "2026-11-21 09:12" },
        { id: "PAY-5002", type: "charge", orderId: "SO-1003", amount: 1554, status: "settled", by: "checkout", at: "2026-11-22 14:40" },
        { id: "PAY-5003", type: "charge", orderId: "SO-1004", amount: 1167, status: "settled", by: "checkout", at: "2026-11-23 10:05" },
        { id: "PAY-5004", type: "charge", orderId: "SO-1005", amount: 2690, status: "settled", by: "checkout", at: "2026-11-24 16:21" },
        { id: "PAY-5005", type: "charge", orderId: "SO-1006", amount: 356, status: "settled", by: "checkout", at: "2026-11-24 11:57" },
        { id: "PAY-5006", type: "charge", orderId: "SO-1007", amount: 282, status: "settled", by: "checkout", at: "2026-11-25 08:30" },
        { id: "PAY-5007", type: "charge", orderId: "SO-1008", amount: 298, status: "settled", by: "checkout", at: "2026-11-26 13:02" },
    ],
};

export const ORDER_STATUSES = ["pending", "paid", "packed", "shipped", "delivered", "cancelled", "refunded"];
export const TIERS = ["standard", "silver", "gold"];
export const CATEGORIES = ["furniture", "lighting", "electronics", "accessories"];

const clone = (v) => structuredClone(v);

export const db = {
    customers: [],
    products: [],
    orders: [],
    payments: [],
    notes: [],
};

const listeners = new Set();
// changed: { table: "orders" | ..., ids: [...] } so views can flash rows.
export function subscribe(fn) {
    listeners.add(fn);
    return () => listeners.delete(fn);
}
export function notify(table, ids = []) {
    for (const fn of listeners) fn({ table, ids });
}

export function resetData() {
    const s = clone(SEED);
    db.customers = s.customers;
    db.products = s.products;
    db.orders = s.orders;
    db.payments = s.payments;
    db.notes = [];
    for (const o of db.orders) o.updated = o.placed;
    notify("all");
}
resetData();

export const productBySku = (sku) => db.products.find((p) => p.sku === sku);
export const customerById = (id) => db.customers.find((c) => c.id === id);
export const orderById = (id) => db.orders.find((o) => o.id === id);

export function orderTotal(order) {
    return order.items.reduce((sum, i) => sum + (productBySku(i.sku)?.price ?? 0) * i.quantity, 0);
}

// Units of a product held by paid or packed orders (not yet shipped).
export function reservedUnits(sku) {
    let n = 0;
    for (const o of db.orders) {
        if (o.status !== "paid" && o.status !== "packed") continue;
        for (const i of o.items) if (i.sku === sku) n += i.quantity;
    }
    return n;
}

export function refundedAmount(orderId) {
    return db.payments
        .filter((p) => p.type === "refund" && p.orderId === orderId)
        .reduce((sum, p) => sum + p.amount, 0);
}

export function nextId(prefix, list, key = "id") {
    let max = 0;
    for (const row of list) {
        const n = Number(String(row[key]).split("-")[1]);
        if (n > max) max = n;
    }
    return `${prefix}-${max + 1}`;
}

export function now() {
    const d = new Date();
    const p = (n) => String(n).padStart(2, "0");
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

export const money = new Intl.NumberFormat("en-US", { style: "currency", currency: "EUR" });
