// The courier widget: a component of the page that knows nothing of Code
// Mode. Like a third-party widget would, it offers its tools to any agent
// through WebMCP (document.modelContext); the copilot picks them up with
// @interopio/code-mode/webmcp's fromWebMcp, so the model calls them as
// tools.webmcp.courier.* next to the desk's own tools.

// Pickup slots of the courier per city (the warehouse ships from each
// customer's nearest depot).
const SLOTS = {
    Rotterdam: ["2026-12-02 09:00", "2026-12-02 14:00"],
    Utrecht: ["2026-12-02 11:00"],
    Ghent: ["2026-12-03 10:00", "2026-12-04 10:00"],
    Tallinn: ["2026-12-05 08:00"],
    Lisbon: ["2026-12-04 16:00"],
    Porto: ["2026-12-04 12:00"],
    Cork: ["2026-12-03 15:00"],
    Bergen: [],
};
const booked = new Map(); // orderId -> slot

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export const widgetTools = [
    {
        name: "courier.pickupSlots",
        title: "Courier pickup slots",
        description: "The courier's free pickup slots in a city, earliest first (local time, YYYY-MM-DD HH:mm).",
        inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        annotations: { readOnlyHint: true },
        async execute({ city }) {
            await wait(60);
            if (!(city in SLOTS)) throw new Error(`the courier does not serve ${city}`);
            const taken = new Set(booked.values());
            return { city, slots: SLOTS[city].filter((s) => !taken.has(`${city} ${s}`)) };
        },
    },
    {
        name: "courier.bookPickup",
        title: "Book a courier pickup",
        description: "Book a pickup slot for an order. The courier charges for it.",
        inputSchema: {
            type: "object",
            properties: { orderId: { type: "string" }, city: { type: "string" }, slot: { type: "string" } },
            required: ["orderId", "city", "slot"],
        },
        annotations: { readOnlyHint: false },
        async execute({ orderId, city, slot }) {
            await wait(80);
            if (!(SLOTS[city] ?? []).includes(slot)) throw new Error(`no pickup slot ${slot} in ${city}`);
            booked.set(orderId, `${city} ${slot}`);
            return { pickup: `PU-${orderId.replace(/\D/g, "")}`, orderId, city, slot };
        },
    },
];

// Registers the widget's tools with the page's model context; resolves
// with the function that removes them (WebMCP unregisters by signal).
export async function mountCourierWidget(modelContext) {
    const registration = new AbortController();
    for (const tool of widgetTools) await modelContext.registerTool(tool, { signal: registration.signal });
    return () => registration.abort();
}
