// @interopio/code-mode/io-connect: io.Connect Interop methods as Code Mode
// tools. It takes the page's io.Connect API object (`io`) and imports
// nothing of the platform.

import { DELAY, annotations, checkOptions, createToolSource, kept, later, namespaceOf, sanitizeName, uniqueNames, untilAborted } from "./source.mjs";

// ---------------------------------------------------------------------------
// Signatures: "String symbol, Int? quantity, String[] tags,
// Composite: { String name, Double? price }[] lines" -> JSON Schema.

const SCALARS = {
    bool: { type: "boolean" },
    boolean: { type: "boolean" },
    int: { type: "integer" },
    integer: { type: "integer" },
    long: { type: "integer" },
    double: { type: "number" },
    float: { type: "number" },
    decimal: { type: "number" },
    number: { type: "number" },
    string: { type: "string" },
    datetime: { type: "string", format: "date-time" },
};

function tokenize(text) {
    const tokens = [];
    const re = /\s*(?:([A-Za-z_$][\w$.]*)|(\[\s*\])|([{}:,?]))/y;
    let i = 0;
    for (;;) {
        while (i < text.length && /\s/.test(text[i])) i++;
        if (i >= text.length) return tokens;
        re.lastIndex = i;
        const m = re.exec(text);
        if (!m) throw new SyntaxError(`unexpected ${JSON.stringify(text[i])} at offset ${i}`);
        tokens.push(m[1] ? { word: m[1], at: i } : { punct: m[2] ? "[]" : m[3], at: i });
        i = re.lastIndex;
    }
}

function parseFields(tokens, pos, closing) {
    const properties = {};
    const required = [];
    const expect = (what) => {
        const t = tokens[pos.i];
        return t && (t.punct === what || t.word === what);
    };
    const fail = (what) => {
        const t = tokens[pos.i];
        throw new SyntaxError(`expected ${what} at ${t ? `offset ${t.at}` : "the end"}`);
    };
    while (pos.i < tokens.length && !(closing && expect("}"))) {
        const typeTok = tokens[pos.i++];
        if (!typeTok || !typeTok.word) fail("a type");
        let schema;
        if (typeTok.word.toLowerCase() === "composite") {
            if (expect(":")) pos.i++;
            if (!expect("{")) fail('"{"');
            pos.i++;
            schema = parseFields(tokens, pos, true);
            if (!expect("}")) fail('"}"');
            pos.i++;
        } else {
            schema = { ...(SCALARS[typeTok.word.toLowerCase()] || { description: `io.Connect type ${typeTok.word}` }) };
        }
        let optional = false;
        for (;;) {
            if (expect("[]")) {
                schema = { type: "array", items: schema };
                pos.i++;
            } else if (expect("?")) {
                optional = true;
                pos.i++;
            } else break;
        }
        const nameTok = tokens[pos.i++];
        if (!nameTok || !nameTok.word) fail("a field name");
        if (expect("?")) {
            optional = true;
            pos.i++;
        }
        properties[nameTok.word] = schema;
        if (!optional) required.push(nameTok.word);
        if (expect(",")) pos.i++;
        else if (pos.i < tokens.length && !(closing && expect("}"))) fail('","');
    }
    const out = { type: "object", properties };
    if (required.length) out.required = required;
    return out;
}

/**
 * The JSON Schema of an io.Connect signature string (a method's `accepts`
 * or `returns`). An empty or missing signature is any object. Throws a
 * SyntaxError naming the offset for a signature it cannot read.
 */
export function signatureToJsonSchema(signature) {
    if (signature === undefined || signature === null || String(signature).trim() === "") return { type: "object" };
    const tokens = tokenize(String(signature));
    const pos = { i: 0 };
    const schema = parseFields(tokens, pos, false);
    if (pos.i !== tokens.length) throw new SyntaxError(`unexpected "${tokens[pos.i].word || tokens[pos.i].punct}" at offset ${tokens[pos.i].at}`);
    return schema;
}

// ---------------------------------------------------------------------------
// The adapter

const TARGETS = ["best", "all", "skipMine"];
const BURST = 20;
const HINT_FLAGS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"];

// io.Connect's invoke hands methodResponseTimeoutMs to setTimeout; it
// counts waitTimeoutMs against a poll, so any number works there
// (Infinity: wait for the method for ever).
const OPTIONS = {
    namespace: "string",
    target: [(v) => TARGETS.includes(v) || typeof v === "function", `"best", "all", "skipMine" or a function (method) => target`],
    methodResponseTimeoutMs: DELAY,
    waitTimeoutMs: [(v) => typeof v === "number" && v >= 0, "a number of milliseconds"],
    filter: "function",
    trusted: "boolean",
    onError: "function",
};

function sameInstance(a, b) {
    if (!a || !b) return false;
    if (a.peerId && b.peerId) return a.peerId === b.peerId;
    if (a.instance && b.instance) return a.instance === b.instance;
    return a === b;
}

const serverName = (s) => (s && (s.applicationName || s.application || s.instance)) || "unknown";

// What a handler returned: io.Connect's server side sends an object, and
// wraps any other value (a number, a string, true, an array) as
// { _value: value } (@interopio/core: falsy values become {}). The model
// gets the value the handler returned, not the platform's wrapper.
function unwrapped(returned) {
    if (returned !== null && typeof returned === "object" && !Array.isArray(returned)) {
        const keys = Object.keys(returned);
        if (keys.length === 1 && keys[0] === "_value") return returned._value;
    }
    return returned;
}

function invocationError(err, method) {
    if (err instanceof Error) return err;
    const message = err && typeof err.message === "string" && err.message ? err.message : String(err);
    return new Error(`${method}: ${message}`);
}

/**
 * The io.Connect Interop methods that other applications offer, as Code
 * Mode tools named `<namespace>.<method>` (default namespace "interop"),
 * kept in step with methodAdded/methodRemoved.
 */
export function fromIoConnect(io, options) {
    const interop = io && typeof io === "object" ? io.interop || io.agm : undefined;
    if (!interop || typeof interop.methods !== "function" || typeof interop.invoke !== "function") {
        throw new TypeError("fromIoConnect(io): expected an io.Connect API object (with io.interop)");
    }
    const opts = checkOptions(options, OPTIONS, "fromIoConnect");
    const namespace = namespaceOf(opts.namespace, undefined, "interop");
    const source = "io-connect";
    const live = createToolSource({ kind: "io.Connect", onError: opts.onError });
    const invokeOptions = {};
    if (opts.methodResponseTimeoutMs !== undefined) invokeOptions.methodResponseTimeoutMs = opts.methodResponseTimeoutMs;
    if (opts.waitTimeoutMs !== undefined) invokeOptions.waitTimeoutMs = opts.waitTimeoutMs;

    const mine = () => interop.instance;
    // A method's name and signature: io.Connect's identity of a method.
    const key = (m) => JSON.stringify([m.name, m.accepts || "", m.returns || ""]);
    // A method's servers are all that registered its name, streams
    // included (a real bus: one application's stream X and another's
    // method X both list both servers, and "best" invoked the stream,
    // which never answers an invoke): a server whose X streams is no
    // server of the tool.
    // A server's getMethods() lists all its methods, afresh: asked once per
    // server in a listing (memo: build's), not once per method, where an
    // application's 2,000 methods cost 4 million and 0.8 s per listing.
    const streams = (server, name, memo = new Map()) => {
        const k = server.peerId || server.instance || server;
        if (!memo.has(k)) memo.set(k, new Set(typeof server.getMethods === "function" ? server.getMethods().filter((m) => m && m.supportsStreaming).map((m) => m.name) : []));
        return memo.get(k).has(name);
    };
    const othersOf = (method, memo) => (typeof method.getServers === "function" ? method.getServers() : []).filter((s) => !sameInstance(s, mine()) && !streams(s, method.name, memo));

    // A signature it cannot read is reported once, not at every re-read of
    // methods() (each application's start re-reads them all).
    const told = new Set();
    function schemaOf(method, field) {
        try {
            return signatureToJsonSchema(method[field]);
        } catch (err) {
            const message = `io.Connect method ${method.name}: ${field} ${JSON.stringify(method[field])}: ${err.message}; taking any object`;
            if (!told.has(message)) told.add(message), live.report(new Error(message));
            return { type: "object" };
        }
    }

    // The target of one call: the option's, without this application itself,
    // which must never answer its own model through the adapter.
    function targetFor(method) {
        let t = typeof opts.target === "function" ? opts.target(method) : opts.target || "best";
        const others = othersOf(method);
        if (t === "best") return others.length === method.getServers().length ? "best" : others[0];
        if (t === "all") return others.length === method.getServers().length ? "all" : others;
        // An instance filter (or a list of them): io.Connect invokes every
        // server it matches, the page's own included. The other servers it
        // matches (as io.Connect does: as strings, any case) are the
        // target, the first alone for one filter (the tool has one result).
        // With no server at all (waitTimeoutMs), io.Connect waits for one.
        if (t && typeof t == "object" && others.length) {
            const hits = others.filter((s) => [].concat(t).some((f) => Object.keys(f).every((k) => String(s[k]).toLowerCase() == String(f[k]).toLowerCase())));
            if (!hits.length) throw new Error(`${method.name}: no other application matches the target ${JSON.stringify(t)}`);
            return Array.isArray(t) ? hits : hits[0];
        }
        return t;
    }

    // "all" and "skipMine" answer with one row per server, not the method's
    // returns (a bus's result had every such call fail the outputSchema
    // check); a target function may choose either, per call.
    function outputOf(returns) {
        const rows = {
            type: "array",
            items: {
                anyOf: [
                    { type: "object", properties: { server: { type: "string" }, returned: returns }, required: ["server"] },
                    { type: "object", properties: { server: { type: "string" }, error: { type: "string" } }, required: ["server", "error"] },
                ],
            },
        };
        if (typeof opts.target === "function") return { anyOf: [returns, rows] };
        return opts.target === "all" || opts.target === "skipMine" ? rows : returns;
    }

    // The applications that serve a method, said after its description: a
    // search by an application's name ("what can the trading blotter do")
    // found none of its methods, whose name is nowhere else in the tool.
    // Sorted, the first 3 named; none when no server names its application.
    // A description that changes as applications come and go re-registers
    // its tool: once per burst (BURST), not per event.
    function servedBy(method, memo) {
        const apps = [...new Set(othersOf(method, memo).map((s) => s && (s.applicationName || s.application)))].filter((a) => typeof a == "string" && a).sort();
        if (!apps.length) return "";
        return ` Served by ${apps.slice(0, 3).join(", ")}${apps.length > 3 ? ` and ${apps.length - 3} more` : ""}.`;
    }

    function toolOf(method, memo) {
        const text = [method.displayName, method.description].filter(Boolean).join(": ") || `The io.Connect Interop method ${method.name}.`;
        const by = servedBy(method, memo);
        const def = {
            name: "",
            description: by ? text.trimEnd().replace(/[^.!?]$/, "$&.") + by : text,
            inputSchema: schemaOf(method, "accepts"),
            annotations: annotations(
                Object.fromEntries(HINT_FLAGS.filter((k) => typeof method.flags?.[k] === "boolean").map((k) => [k, method.flags[k]])),
                { source, untrusted: !opts.trusted, extra: { interopMethod: method.name } },
            ),
            execute: (input, { signal }) => call(method, input, signal),
        };
        if (method.returns) def.outputSchema = outputOf(schemaOf(method, "returns"));
        return def;
    }

    // What invoke is given: the name, or, while the name is registered with
    // several signatures, the name and this one's, by which io.Connect picks
    // the servers (by the name alone it may pick an application whose
    // answer the tool's schemas do not describe). Asked at each call: a
    // tool outlives the re-syncs that leave it as it was.
    function definitionOf(method) {
        const same = interop.methods().filter((m) => m && m.name === method.name && !m.supportsStreaming);
        if (same.every((m) => key(m) === key(method))) return method.name;
        const def = { name: method.name };
        if (method.accepts) def.accepts = method.accepts;
        if (method.returns) def.returns = method.returns;
        return def;
    }

    // A tool outlives its method by up to BURST ms (the re-read after the
    // bus's event): a call then has no other server. invoke waited for one
    // (10 s unless waitTimeoutMs said otherwise) and failed in the bus's
    // words ('Can not find a method matching {...}'), or, the page serving
    // the method too, "best" picked the page's own. It fails at once, or,
    // with waitTimeoutMs and no server at all, after io.Connect's wait.
    async function call(method, input, signal) {
        const gone = () => new Error(`${method.name}: no other application offers this method now (it was unregistered, or its application closed)`);
        const waits = opts.waitTimeoutMs > 0 && !method.getServers().length;
        if (!othersOf(method).length && !waits) throw gone();
        const target = targetFor(method);
        const invocation = Promise.resolve()
            .then(() => interop.invoke(definitionOf(method), input ?? {}, target, invokeOptions))
            .catch((err) => {
                throw waits && !othersOf(method).length ? gone() : invocationError(err, method.name);
            });
        // io.Connect cannot cancel an invocation: the run stops waiting for it.
        const result = await untilAborted(invocation, signal);
        if (target === "all" || target === "skipMine" || Array.isArray(target)) {
            const values = (result.all_return_values || [result]).map((r) => ({ server: serverName(r.executed_by), returned: unwrapped(r.returned) }));
            const errors = (result.all_errors || []).map((e) => ({ server: serverName(e && e.executed_by), error: (e && e.message) || String(e) }));
            return errors.length ? [...values, ...errors] : values;
        }
        return unwrapped(result.returned);
    }

    function build() {
        // A real bus lists a method once per server that registered it
        // (each entry's getServers() has them all): one tool per name and
        // signature. A name registered with another signature is another
        // method to io.Connect (its own entry and servers): its own tool.
        const seen = new Set();
        const memo = new Map();
        const methods = kept(
            interop.methods().filter((m) => m && typeof m.name === "string" && !m.supportsStreaming && othersOf(m, memo).length > 0 && !seen.has(key(m)) && seen.add(key(m))),
            opts.filter,
            "fromIoConnect",
        ).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        const names = uniqueNames(namespace, methods.map((m) => sanitizeName(m.name)));
        return methods.map((method, i) => {
            const def = toolOf(method, memo);
            def.name = names[i];
            return { def, origin: method.name };
        });
    }

    // Events come in bursts (an application starting registers many
    // methods, one register() after the other, a bus round trip apart):
    // one re-read of methods() per burst, BURST ms after its first event
    // (source.mjs's setTimeout, which a test's fake timers do not stall).
    // Re-read per event (a microtask), 500 methods registered so by 20
    // applications took 16 s, not 2 s: every event rebuilt every tool.
    let scheduled = false;
    const resync = () => {
        if (scheduled || live.closed) return;
        scheduled = true;
        later(() => {
            scheduled = false;
            if (!live.closed) {
                try {
                    live.set(build());
                } catch (err) {
                    live.report(err);
                }
            }
        }, BURST);
    };

    live.set(build());
    for (const event of ["methodAdded", "methodRemoved", "serverMethodAdded", "serverMethodRemoved"]) {
        if (typeof interop[event] === "function") {
            const off = interop[event](resync);
            if (typeof off === "function") live.onClose(off);
        }
    }
    return Object.assign(live.source, { namespace });
}
