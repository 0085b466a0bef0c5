// @interopio/code-mode/fdc3: FDC3 2.2 intents (and, when asked, broadcast
// and open) as Code Mode tools. It takes the page's DesktopAgent and
// imports nothing of FDC3.

import { DELAY, annotations, cancel, checkOptions, createToolSource, later, namespaceOf, sanitizeName, uniqueNames, untilAborted } from "./source.mjs";

// FDC3's error values (the message of the Error an agent rejects with).
// UserCancelledResolution is also what FINOS's reference proxy answers when
// the agent has no resolver UI and several apps could handle the intent: no
// user was asked. (Comments inside an object literal ship in the bundle.)
const RESOLVE_ERRORS = {
    NoAppsFound: "no application can handle this intent with this context",
    ResolverUnavailable: "the desktop agent's resolver is unavailable",
    UserCancelledResolution: "no application was chosen: the user cancelled, or the desktop agent has no resolver to ask",
    ResolverTimeout: "the resolver timed out",
    TargetAppUnavailable: "the target application is not available",
    TargetInstanceUnavailable: "the target application instance is not available",
    IntentDeliveryFailed: "the intent could not be delivered: its application did not listen for it in time, or failed (one still starting may take a later call)",
    MalformedContext: "the context is malformed",
    DesktopAgentNotFound: "the desktop agent was not found",
    ApiTimeout: "the desktop agent timed out",
    InvalidArguments: "the arguments are invalid",
};
const RESULT_ERRORS = {
    NoResultReturned: "the handling application returned no result",
    IntentHandlerRejected: "the handling application's intent handler failed",
    ApiTimeout: "the desktop agent timed out waiting for the result",
};
const CHANNEL_ERRORS = {
    AccessDenied: "the desktop agent denied access to the channel",
    MalformedContext: "the context is malformed",
    ApiTimeout: "the desktop agent timed out",
};
const OPEN_ERRORS = {
    AppNotFound: "no such application",
    ErrorOnLaunch: "the application failed to launch",
    AppTimeout: "the application did not start in time",
    ResolverUnavailable: "the desktop agent's resolver is unavailable",
    MalformedContext: "the context is malformed",
    DesktopAgentNotFound: "the desktop agent was not found",
    ApiTimeout: "the desktop agent timed out",
};

// An FDC3 rejection as an Error named after its kind. Sandbox code sees
// only a tool error's message, so the message names the kind and FDC3's
// value too: "ResolveError: NoAppsFound: no application can ...".
function fdc3Error(kind, table, err, what) {
    const value = err && typeof err.message === "string" ? err.message : String(err);
    const known = Object.prototype.hasOwnProperty.call(table, value) ? table[value] : "";
    const out = new Error(`${kind}: ${value}${known ? `: ${known}` : ""} (${what})`, { cause: err });
    out.name = kind;
    return out;
}

// promise, or what late() answers (its throw: a rejection) once ms have
// passed, by source.mjs's timers (a test's fake timers installed before
// the import hold neither the findIntent bound nor resultTimeoutMs), the
// timer cleared when the race is settled.
function bounded(promise, ms, late) {
    let timer;
    return Promise.race([promise, new Promise((r) => (timer = later(r, ms))).then(late)]).finally(() => cancel(timer));
}

function isChannel(v) {
    return (
        v !== null &&
        typeof v === "object" &&
        typeof v.id === "string" &&
        typeof v.broadcast === "function" &&
        typeof v.addContextListener === "function"
    );
}

const isContext = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && typeof v.type === "string";

// Any FDC3 context of one type: the schema used when options.contextSchemas
// has none for that type.
function genericContextSchema(type) {
    return {
        type: "object",
        description: `An FDC3 context of type ${type}.`,
        properties: {
            type: { const: type },
            name: { type: "string" },
            id: { type: "object", additionalProperties: { type: "string" } },
        },
        required: ["type"],
    };
}

const list = (a) => Array.isArray(a) && a.every((x) => typeof x === "string");

const OPTIONS = {
    contextTypes: [list, "an array of context type names"],
    intents: [(v) => Array.isArray(v) && v.every((x) => typeof x === "string" || (x && typeof x === "object" && typeof x.name === "string")), "an array of intent names or { name, contextTypes?, description? }"],
    namespace: "string",
    contextSchemas: [(v) => v !== null && typeof v === "object" && !Array.isArray(v), "an object mapping context types to JSON Schemas"],
    broadcast: "boolean",
    open: [(v) => typeof v === "boolean" || list(v), "true or an array of appIds"],
    resultTimeoutMs: DELAY,
    onError: "function",
};

// The input of an intent several applications handle: its context, and
// `app`, the appId of the one to raise it to (without it the agent
// chooses, and an agent with no resolver UI, as FINOS's reference agent
// with getAgent()'s default, chooses none). Added to each object branch of
// the context's schema, so that a schema closed with
// additionalProperties: false takes it too; none when a branch has an
// `app` of its own (the key is the context's then).
function withApp(schema, ids) {
    const branches = schema.anyOf || [schema];
    if (branches.some((b) => b.properties && "app" in b.properties)) return undefined;
    const app = { type: "string", enum: ids, description: "The appId of the application to handle the intent; without it the desktop agent chooses, or fails when it cannot." };
    const each = branches.map((b) => ({ ...b, properties: { ...b.properties, app } }));
    return schema.anyOf ? { ...schema, anyOf: each } : each[0];
}

/**
 * FDC3 intents as Code Mode tools `<namespace>.<intent>` (default
 * namespace "fdc3"): each takes a context and raises the intent, resolving
 * with the intent's result context. The intents come from
 * findIntentsByContext for `options.contextTypes`, or from `options.intents`.
 */
export async function fromFdc3(agent, options) {
    if (!agent || typeof agent !== "object" || typeof agent.raiseIntent !== "function") {
        throw new TypeError("fromFdc3(agent): expected an FDC3 DesktopAgent (window.fdc3, or getAgent()'s result)");
    }
    const opts = checkOptions(options, OPTIONS, "fromFdc3");
    if (!opts.contextTypes && !opts.intents) {
        throw new TypeError("fromFdc3: options.contextTypes or options.intents is required: the context types to find intents for, or the intents to offer");
    }
    const namespace = namespaceOf(opts.namespace, undefined, "fdc3");
    const live = createToolSource({ kind: "FDC3", onError: opts.onError });
    const schemas = opts.contextSchemas || {};
    const schemaFor = (types) => {
        const each = types.map((t) => schemas[t] || genericContextSchema(t));
        if (each.length === 0) return { type: "object", description: "An FDC3 context.", properties: { type: { type: "string" } }, required: ["type"] };
        return each.length === 1 ? each[0] : { anyOf: each };
    };
    const hints = (action, extra) => annotations({ readOnlyHint: false, destructiveHint: false }, { source: "fdc3", untrusted: false, extra: { fdc3Action: action, ...extra } });

    // intent name -> { displayName, contextTypes: Set, apps: Map<appId, title>, description }
    async function discover() {
        const intents = new Map();
        const entry = (name) => {
            if (!intents.has(name)) intents.set(name, { displayName: "", contextTypes: new Set(), apps: new Map(), description: "" });
            return intents.get(name);
        };
        for (const item of opts.intents || []) {
            const spec = typeof item === "string" ? { name: item } : item;
            const e = entry(spec.name);
            for (const t of spec.contextTypes || []) e.contextTypes.add(t);
            if (spec.description) e.description = spec.description;
        }
        // This application's own listeners are no tools: a call never
        // reaches the application that runs the model (as io-connect's).
        const self = await Promise.resolve()
            .then(() => agent.getInfo())
            .then((info) => info.appMetadata.appId)
            .catch(() => undefined);
        for (const type of opts.contextTypes || []) {
            let found;
            try {
                found = await agent.findIntentsByContext({ type });
            } catch (err) {
                // No intent for this type is an answer, not a failure.
                if (err && err.message === "NoAppsFound") continue;
                throw fdc3Error("ResolveError", RESOLVE_ERRORS, err, `findIntentsByContext ${type}`);
            }
            for (const appIntent of found || []) {
                const name = appIntent.intent && appIntent.intent.name;
                if (typeof name !== "string") continue;
                if (opts.intents && !intents.has(name)) continue;
                const e = entry(name);
                e.displayName = e.displayName || appIntent.intent.displayName || "";
                e.contextTypes.add(type);
                for (const app of appIntent.apps || []) app.appId === self ? (e.self = true) : e.apps.set(app.appId, app.title || app.name || app.appId);
            }
        }
        return intents;
    }

    // The app a program chose, as raiseIntent's target: an instance of it
    // that runs, when findIntent lists one. An appId alone opens a new
    // instance (FINOS's reference agent does, per FDC3: "no specific
    // instance is specified"): a window per call, and then several
    // instances for the agent to choose among when no app is named.
    async function instanceOf(name, context, appId) {
        const running = (await handlers(name, context)).find((a) => a.appId === appId && typeof a.instanceId === "string");
        return running ? { appId, instanceId: running.instanceId } : { appId };
    }

    // findIntent's apps, copied: the directory's ({ appId }) and the running
    // instances that listen ({ appId, instanceId }); none when it fails,
    // answers no list, or has not answered within 1 s (a call waits for the
    // agent's raiseIntent, not for this: one that never answered held the
    // call until the run's timeout).
    async function handlers(name, context) {
        try {
            const found = await bounded(agent.findIntent(name, context), 1e3, () => {});
            return Array.from(found.apps, (a) => ({ appId: a?.appId, instanceId: a?.instanceId })).filter((a) => typeof a.appId == "string");
        } catch {
            return [];
        }
    }

    // getResult() of a resolution, within options.resultTimeoutMs when
    // given. FINOS's 2.2.0 proxy sends nothing when a handler's promise
    // rejects, so the raiser waits for ever: without the option the run's
    // own timeout (or abort) ends the wait. A handler may rightly take long
    // (it may ask its user), hence no bound by default.
    function resultOf(resolution, name) {
        const result = Promise.resolve()
            .then(() => resolution.getResult())
            .catch((err) => {
                throw fdc3Error("ResultError", RESULT_ERRORS, err, `result of ${name}`);
            });
        const ms = opts.resultTimeoutMs;
        return ms === undefined
            ? result
            : bounded(result, ms, () => {
                  const who = (resolution.source?.appId) || "the handling application";
                  const out = new Error(`ResultError: no result from ${who} within ${ms} ms (result of ${name}): its intent handler may have failed, which the desktop agent does not always report`);
                  out.name = "ResultError";
                  throw out;
              });
    }

    function intentTool(name, e) {
        const types = Array.from(e.contextTypes);
        const apps = Array.from(e.apps.values());
        const ids = Array.from(e.apps.keys());
        // The input with `app` when there is a choice to make, else the context's schema.
        const choice = ids.length > 1 ? withApp(schemaFor(types), ids) : undefined;
        const inputSchema = choice || schemaFor(types);
        const description =
            e.description ||
            `Raise the FDC3 intent ${name}${e.displayName && e.displayName !== name ? ` (${e.displayName})` : ""} with ` +
                `${types.length ? types.map((t) => `a ${t}`).join(" or ") : "a"} context.` +
                (apps.length ? ` Handled by: ${apps.join(", ")}.` : "") +
                (choice ? ` Choose one with app (${ids.join(", ")}).` : "") +
                " Resolves with the result context of the handling application, { handledBy } when it returns none, or { handledBy, channel, context } when it answers with a channel.";
        return {
            name,
            description,
            inputSchema,
            annotations: hints("raiseIntent", { fdc3Intent: name }),
            execute: async (input, { signal }) => {
                if (!isContext(input)) throw new TypeError(`${name}: expected an FDC3 context object with a string "type"`);
                let context = input;
                let target;
                if (choice && input.app !== undefined) {
                    ({ app: target, ...context } = input);
                    if (!ids.includes(target)) throw new TypeError(`${name}: app ${JSON.stringify(target)} is not one of the applications that handle it (${ids.join(", ")})`);
                } else if (e.self) {
                    // The agent could choose this application: name the other.
                    if (ids.length !== 1) throw new TypeError(`${name}: this application handles it too, and a call never reaches it: choose one with app (${ids.join(", ")})`);
                    target = ids[0];
                }
                let resolution;
                try {
                    resolution = await untilAborted(Promise.resolve().then(async () => (target ? agent.raiseIntent(name, context, await instanceOf(name, context, target)) : agent.raiseIntent(name, context))), signal);
                } catch (err) {
                    if (signal && signal.aborted) throw err;
                    // A choice the agent could not make: say among whom, and how to choose.
                    let among = apps.length > 1 && err && /^(UserCancelledResolution|ResolverUnavailable|ResolverTimeout)$/.test(err.message) ? `; handled by ${apps.join(", ")}${choice ? `: choose one with app (${ids.join(", ")})` : ""}` : "";
                    // An app that listens for the intent while its directory
                    // entry does not declare it for this context type (not at
                    // all, or for others): FINOS's agent names it in findIntent
                    // and delivers to it no intent raised without its instance
                    // (NoAppsFound). Say who, and what the agent lacks.
                    if (!target && err && err.message === "NoAppsFound") {
                        const found = await handlers(name, context);
                        const quiet = found.filter((a) => a.instanceId && !found.some((d) => d.appId === a.appId && !d.instanceId)).map((a) => a.appId);
                        if (quiet.length) among = `; listening but not declared for ${context.type} in the app directory (interop.intents.listensFor), so not delivered: ${[...new Set(quiet)].join(", ")}`;
                    }
                    throw fdc3Error("ResolveError", RESOLVE_ERRORS, err, `raiseIntent ${name} with ${context.type}${target ? ` to ${target}` : ""}${among}`);
                }
                const result = await untilAborted(resultOf(resolution, name), signal);
                const handledBy = resolution.source?.appId;
                // A channel (FDC3 2.x's other IntentResult): the intent was
                // handled (an error invited a retry: a second chat), so the
                // program gets data, the channel's id and type and its
                // current context (null when none, or none within 1 s), never
                // the channel itself; no listener is left on it.
                if (isChannel(result)) {
                    const context = await bounded(Promise.resolve().then(() => result.getCurrentContext()), 1e3, () => null).catch(() => null);
                    return { handledBy, channel: { id: result.id, type: result.type }, context: context ?? null };
                }
                return result ?? { handledBy };
            },
        };
    }

    function extraTools() {
        const out = [];
        const types = opts.contextTypes || [];
        if (opts.broadcast) {
            out.push({
                def: {
                    name: "broadcast",
                    description: "Broadcast an FDC3 context on the current user channel: every application listening on that channel receives it. Resolves with { broadcast: type, channel }; fails when the application is joined to no user channel.",
                    inputSchema: schemaFor(types),
                    annotations: hints("broadcast"),
                    execute: async (context) => {
                        if (!isContext(context)) throw new TypeError(`broadcast: expected an FDC3 context object with a string "type"`);
                        // FDC3: a broadcast while the application is joined to
                        // no user channel "will have no effect", silently; the
                        // model was told it broadcast. (An agent that cannot say
                        // which channel is trusted to broadcast.)
                        const channel = await Promise.resolve()
                            .then(() => agent.getCurrentChannel())
                            .catch(() => undefined);
                        if (channel === null) {
                            throw new Error("broadcast: this application is joined to no user channel, so FDC3 would deliver the context to no one; nothing was broadcast");
                        }
                        try {
                            await agent.broadcast(context);
                        } catch (err) {
                            throw fdc3Error("ChannelError", CHANNEL_ERRORS, err, `broadcast ${context.type}`);
                        }
                        return channel && typeof channel.id === "string" ? { broadcast: context.type, channel: channel.id } : { broadcast: context.type };
                    },
                },
                origin: "broadcast",
            });
        }
        if (opts.open) {
            const appIds = Array.isArray(opts.open) ? opts.open : undefined;
            out.push({
                def: {
                    name: "open",
                    description: "Open an application through the FDC3 desktop agent, optionally with a context. Resolves with its { appId, instanceId }.",
                    inputSchema: {
                        type: "object",
                        properties: {
                            appId: appIds ? { type: "string", enum: appIds } : { type: "string" },
                            context: schemaFor(types),
                        },
                        required: ["appId"],
                    },
                    annotations: hints("open"),
                    execute: async ({ appId, context }) => {
                        if (appIds && !appIds.includes(appId)) throw new Error(`open: ${appId} is not one of the applications offered (${appIds.join(", ")})`);
                        try {
                            const id = await agent.open({ appId }, context);
                            return { appId: id.appId, instanceId: id.instanceId };
                        } catch (err) {
                            throw fdc3Error("OpenError", OPEN_ERRORS, err, `open ${appId}`);
                        }
                    },
                },
                origin: "open",
            });
        }
        return out;
    }

    async function refresh() {
        const intents = await discover();
        // An intent only this application handles is none.
        const names = Array.from(intents.keys())
            .filter((n) => !intents.get(n).self || intents.get(n).apps.size)
            .sort();
        const extra = extraTools();
        const full = uniqueNames(namespace, [...names.map((n) => sanitizeName(n)), ...extra.map((x) => x.def.name)]);
        const entries = names.map((n, i) => {
            const def = intentTool(n, intents.get(n));
            def.name = full[i];
            return { def, origin: n };
        });
        extra.forEach((x, i) => {
            x.def.name = full[names.length + i];
            entries.push(x);
        });
        await live.set(entries);
        return live.source.tools;
    }

    await refresh();
    // refresh() asks the agent for the intents again (FDC3 has no event for
    // new ones). (Its comment stands here: inside the literal, it shipped.)
    return Object.assign(live.source, { namespace, refresh });
}
