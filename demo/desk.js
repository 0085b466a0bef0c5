// The host application's own UI: summary cards and the tables of the order
// desk, redrawn whenever a tool (or the person) changes the data.

import { db, subscribe, customerById, productBySku, orderTotal, reservedUnits, refundedAmount, money } from "./data.js";

const el = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
        if (v === undefined || v === null || v === false) continue;
        if (k === "class") node.className = v;
        else if (k === "dataset") Object.assign(node.dataset, v);
        else node.setAttribute(k, v === true ? "" : v);
    }
    node.append(...children.flat(Infinity).filter((c) => c !== undefined && c !== null && c !== false));
    return node;
};

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
// "2026-11-30 22:49" -> "Nov 30, 22:49"; "2026-11-28" -> "Nov 28".
const shortDate = (s) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}:\d{2}))?$/.exec(s ?? "");
    if (!m) return s ?? "";
    return `${MONTHS[Number(m[2]) - 1]} ${Number(m[3])}${m[4] ? `, ${m[4]}` : ""}`;
};
const when = (s) => el("time", { datetime: (s ?? "").replace(" ", "T"), title: s }, shortDate(s));

const badge = (kind, text) => el("span", { class: `badge badge-${kind}` }, text);
const num = (text) => el("td", { class: "num" }, String(text));

const TABLES = {
    orders: {
        label: "Orders",
        head: [["Order"], ["Customer"], ["Items", "opt"], ["Total", "num"], ["Status"], ["Updated", "opt"]],
        rows: () =>
            db.orders
                .slice()
                .reverse()
                .map((o) => {
                    const refunded = refundedAmount(o.id);
                    return el(
                        "tr",
                        { dataset: { id: o.id, status: o.status } },
                        el("td", { class: "mono" }, o.id),
                        el("td", {}, customerById(o.customerId)?.name ?? o.customerId),
                        el("td", { class: "opt small" }, o.items.map((i, n) => [n ? ", " : "", el("span", { class: "nowrap" }, `${i.quantity}× ${i.sku}`)])),
                        el(
                            "td",
                            { class: "num" },
                            money.format(orderTotal(o)),
                            refunded ? el("div", { class: "sub" }, `−${money.format(refunded)} refunded`) : null,
                        ),
                        el("td", {}, badge(o.status, o.status)),
                        el("td", { class: "opt small muted nowrap" }, when(o.updated)),
                    );
                }),
    },
    customers: {
        label: "Customers",
        head: [["ID"], ["Name"], ["Email", "opt"], ["City", "opt"], ["Tier"], ["Orders", "num"]],
        rows: () =>
            db.customers.map((c) =>
                el(
                    "tr",
                    { dataset: { id: c.id } },
                    el("td", { class: "mono" }, c.id),
                    el("td", {}, c.name),
                    el("td", { class: "opt small" }, c.email),
                    el("td", { class: "opt" }, c.city),
                    el("td", {}, badge(`tier-${c.tier}`, c.tier)),
                    num(db.orders.filter((o) => o.customerId === c.id).length),
                ),
            ),
    },
    products: {
        label: "Inventory",
        head: [["SKU"], ["Product", "opt"], ["Price", "num"], ["On hand", "num"], ["Reserved", "num opt"], ["Available", "num"]],
        rows: () =>
            db.products.map((p) => {
                const reserved = reservedUnits(p.sku);
                const available = p.stock - reserved;
                return el(
                    "tr",
                    { dataset: { id: p.sku } },
                    el("td", { class: "mono" }, p.sku),
                    el("td", { class: "opt" }, p.name),
                    num(money.format(p.price)),
                    num(p.stock),
                    el("td", { class: "num opt" }, String(reserved)),
                    el("td", { class: `num ${available <= 0 ? "bad" : available <= 5 ? "warn" : ""}` }, String(available)),
                );
            }),
    },
    payments: {
        label: "Payments",
        head: [["ID"], ["Type"], ["Order / to", "opt"], ["Amount", "num"], ["By", "opt"], ["When", "opt"]],
        rows: () =>
            db.payments
                .slice()
                .reverse()
                .map((p) =>
                    el(
                        "tr",
                        { dataset: { id: p.id } },
                        el("td", { class: "mono" }, p.id),
                        el("td", {}, badge(`pay-${p.type}`, p.type)),
                        el("td", { class: "opt mono small" }, p.orderId ?? p.to ?? ""),
                        num((p.type === "charge" ? "" : "−") + money.format(p.amount)),
                        el("td", { class: "opt small" }, p.by),
                        el("td", { class: "opt small muted nowrap" }, when(p.at)),
                    ),
                ),
    },
    notes: {
        label: "Activity",
        head: [["When"], ["By"], ["What"]],
        empty: "Nothing yet: changes made through the tools are listed here, with who made them.",
        rows: () =>
            db.notes
                .slice()
                .reverse()
                .map((n, i) =>
                    el(
                        "tr",
                        { dataset: { id: String(db.notes.length - i) } },
                        el("td", { class: "small muted nowrap" }, when(n.at)),
                        el("td", { class: "small" }, badge("user", n.by)),
                        el("td", { class: "small" }, n.text),
                    ),
                ),
    },
};

export function mountDesk(root) {
    const tabs = root.querySelector("[role=tablist]");
    const panel = root.querySelector("#desk-panel");
    const kpis = root.querySelector("#kpis");
    let current = "orders";
    const pendingFlash = new Map(); // table -> Set of ids

    for (const [key, t] of Object.entries(TABLES)) {
        const b = el(
            "button",
            { role: "tab", id: `tab-${key}`, "aria-controls": "desk-panel", "aria-selected": String(key === current), type: "button" },
            t.label,
            el("span", { class: "count" }, ""),
        );
        b.addEventListener("click", () => select(key));
        tabs.append(b);
    }
    tabs.addEventListener("keydown", (e) => {
        if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
        const keys = Object.keys(TABLES);
        const i = keys.indexOf(current) + (e.key === "ArrowRight" ? 1 : -1);
        select(keys[(i + keys.length) % keys.length]);
        tabs.querySelector(`#tab-${current}`).focus();
    });

    function select(key) {
        current = key;
        for (const b of tabs.children) b.setAttribute("aria-selected", String(b.id === `tab-${key}`));
        render();
    }

    function renderKpis() {
        const open = db.orders.filter((o) => ["pending", "paid", "packed"].includes(o.status));
        const toShip = db.orders.filter((o) => o.status === "paid" || o.status === "packed");
        const revenue = db.orders
            .filter((o) => !["pending", "cancelled"].includes(o.status))
            .reduce((s, o) => s + orderTotal(o) - refundedAmount(o.id), 0);
        const low = db.products.filter((p) => p.stock - reservedUnits(p.sku) <= 5);
        const card = (id, label, value, sub) =>
            el("div", { class: "kpi", id }, el("div", { class: "kpi-label" }, label), el("div", { class: "kpi-value" }, value), el("div", { class: "kpi-sub", title: sub }, sub));
        kpis.replaceChildren(
            card("kpi-open", "Open orders", String(open.length), `${db.orders.length} in total`),
            card("kpi-ship", "To ship", String(toShip.length), "paid or packed"),
            card("kpi-revenue", "Net revenue", money.format(revenue), "after refunds"),
            card("kpi-low", "Low stock", String(low.length), low.length ? low.map((p) => p.sku).join(", ") : "all stocked"),
        );
    }

    function render() {
        const t = TABLES[current];
        const rows = t.rows();
        const flash = pendingFlash.get(current);
        pendingFlash.delete(current);
        if (flash) for (const r of rows) if (flash.has(r.dataset.id)) r.classList.add("flash");
        const table = el(
            "table",
            { id: `table-${current}`, class: "data" },
            el("thead", {}, el("tr", {}, t.head.map(([h, cls]) => el("th", { class: cls, scope: "col" }, h)))),
            el("tbody", {}, rows.length ? rows : el("tr", {}, el("td", { class: "empty", colspan: String(t.head.length) }, t.empty ?? "No rows."))),
        );
        panel.replaceChildren(table);
        panel.setAttribute("aria-labelledby", `tab-${current}`);
        for (const b of tabs.children) {
            const key = b.id.slice(4);
            b.querySelector(".count").textContent = String(TABLES[key].rows().length);
        }
        renderKpis();
    }

    subscribe(({ table, ids }) => {
        if (table !== "all") {
            const set = pendingFlash.get(table) ?? new Set();
            ids.forEach((id) => set.add(id));
            pendingFlash.set(table, set);
            // Tool-made notes show up on the Activity tab too.
            const n = pendingFlash.get("notes") ?? new Set();
            n.add(String(db.notes.length));
            pendingFlash.set("notes", n);
        }
        scheduleRender();
    });

    let scheduled = false;
    function scheduleRender() {
        if (scheduled) return;
        scheduled = true;
        requestAnimationFrame(() => {
            scheduled = false;
            render();
        });
    }

    render();
    return { select };
}

export { el };
