// @ts-check
// An in-memory FDC3 2.2 desktop agent: a directory of applications with
// intent handlers. tsc checks it against @finos/fdc3's DesktopAgent
// (web/types-check/tsconfig.fakes.json). Rejections are Errors whose
// message is FDC3's error value, as the standard specifies.

/** @typedef {import("@finos/fdc3").DesktopAgent} DesktopAgent */
/** @typedef {import("@finos/fdc3").Context} Context */
/** @typedef {import("@finos/fdc3").AppIntent} AppIntent */
/** @typedef {import("@finos/fdc3").AppIdentifier} AppIdentifier */
/** @typedef {import("@finos/fdc3").IntentResolution} IntentResolution */
/** @typedef {import("@finos/fdc3").IntentResult} IntentResult */
/** @typedef {import("@finos/fdc3").Channel} Channel */
/** @typedef {import("@finos/fdc3").Listener} Listener */
/** @typedef {{ contexts: string[], resultType?: string, handler: (context: Context) => IntentResult | Promise<IntentResult> }} IntentSpec */
/** @typedef {{ appId: string, title: string, intents: Record<string, IntentSpec> }} FakeApp */

// The values of FDC3's enums, checked by tsc against them (the package's
// own runtime module cannot be imported in Node as published).
/** @type {{ [K in "NoAppsFound" | "MalformedContext" | "UserCancelled" | "TargetAppUnavailable"]: `${import("@finos/fdc3").ResolveError}` }} */
export const ResolveError = { NoAppsFound: "NoAppsFound", MalformedContext: "MalformedContext", UserCancelled: "UserCancelledResolution", TargetAppUnavailable: "TargetAppUnavailable" };
/** @type {{ [K in "IntentHandlerRejected" | "NoResultReturned"]: `${import("@finos/fdc3").ResultError}` }} */
export const ResultError = { IntentHandlerRejected: "IntentHandlerRejected", NoResultReturned: "NoResultReturned" };
/** @type {{ MalformedContext: `${import("@finos/fdc3").ChannelError}` }} */
export const ChannelError = { MalformedContext: "MalformedContext" };
/** @type {{ AppNotFound: `${import("@finos/fdc3").OpenError}` }} */
export const OpenError = { AppNotFound: "AppNotFound" };

/** @param {string} id @returns {Channel} */
export function fakeChannel(id) {
    return {
        id,
        type: "private",
        broadcast: async () => {},
        getCurrentContext: async () => null,
        addContextListener: async () => ({ unsubscribe: async () => {} }),
    };
}

/** @param {string} what @returns {Promise<any>} */
const notHere = (what) => Promise.reject(new Error(`${what} is not part of this fake`));

/** @implements {DesktopAgent} */
export class FakeAgent {
    /** @param {FakeApp[]} apps */
    constructor(apps) {
        this.apps = apps;
        /** @type {{ intent: string, context: Context, app?: AppIdentifier | string }[]} */
        this.raised = [];
        /** @type {Context[]} */
        this.broadcasts = [];
        /** @type {{ app: AppIdentifier | string, context?: Context }[]} */
        this.opened = [];
        /** If set, the resolver is "cancelled" by the user when several apps could handle an intent. */
        this.userCancels = false;
        this.instances = 0;
        /** @type {Channel | null} the user channel joined, if any */
        this.channel = null;
    }

    /** @param {string} intent @param {string} type */
    handlers(intent, type) {
        return this.apps.filter((a) => a.intents[intent] && a.intents[intent].contexts.includes(type));
    }

    /** @param {AppIdentifier | string} app @param {Context} [context] @returns {Promise<AppIdentifier>} */
    async open(app, context) {
        const appId = typeof app === "string" ? app : app.appId;
        this.opened.push({ app, context });
        if (!this.apps.some((a) => a.appId === appId)) throw new Error(OpenError.AppNotFound);
        return { appId, instanceId: `${appId}-${++this.instances}` };
    }

    /** @param {string} intent @param {Context} [context] @returns {Promise<AppIntent>} */
    async findIntent(intent, context) {
        const apps = this.apps.filter((a) => a.intents[intent] && (!context || a.intents[intent].contexts.includes(context.type)));
        if (!apps.length) throw new Error(ResolveError.NoAppsFound);
        return { intent: { name: intent, displayName: intent }, apps: apps.map((a) => ({ appId: a.appId, title: a.title })) };
    }

    /** @param {Context} context @returns {Promise<AppIntent[]>} */
    async findIntentsByContext(context) {
        if (!context || typeof context.type !== "string") throw new Error(ResolveError.MalformedContext);
        /** @type {Map<string, AppIntent>} */
        const out = new Map();
        for (const app of this.apps) {
            for (const [intent, spec] of Object.entries(app.intents)) {
                if (!spec.contexts.includes(context.type)) continue;
                const e = out.get(intent) || { intent: { name: intent, displayName: intent.replace(/([a-z])([A-Z])/g, "$1 $2") }, apps: [] };
                e.apps.push({ appId: app.appId, title: app.title });
                out.set(intent, e);
            }
        }
        if (!out.size) throw new Error(ResolveError.NoAppsFound);
        return Array.from(out.values());
    }

    /** @returns {Promise<AppIdentifier[]>} */
    findInstances() {
        return notHere("findInstances");
    }

    /** @param {Context} context */
    async broadcast(context) {
        if (!context || typeof context.type !== "string") throw new Error(ChannelError.MalformedContext);
        // The standard: joined to no user channel, a broadcast has no effect.
        if (this.channel) this.broadcasts.push(context);
    }

    /** @param {string} intent @param {Context} context @param {AppIdentifier | string} [app] @returns {Promise<IntentResolution>} */
    async raiseIntent(intent, context, app) {
        this.raised.push({ intent, context, app });
        if (!context || typeof context.type !== "string") throw new Error(ResolveError.MalformedContext);
        const candidates = this.handlers(intent, context.type);
        if (!candidates.length) throw new Error(ResolveError.NoAppsFound);
        const appId = typeof app === "string" ? app : app && app.appId;
        if (appId === undefined && candidates.length > 1 && this.userCancels) throw new Error(ResolveError.UserCancelled);
        const target = candidates.find((a) => appId === undefined || a.appId === appId);
        if (!target) throw new Error(ResolveError.TargetAppUnavailable);
        const spec = target.intents[intent];
        const instanceId = `${target.appId}-${++this.instances}`;
        const result = Promise.resolve()
            .then(() => spec.handler(context))
            .catch(() => {
                throw new Error(ResultError.IntentHandlerRejected);
            });
        result.catch(() => {});
        return { source: { appId: target.appId, instanceId }, intent, getResult: () => result };
    }

    /** @returns {Promise<IntentResolution>} */
    raiseIntentForContext() {
        return notHere("raiseIntentForContext");
    }
    /** @returns {Promise<Listener>} */
    addIntentListener() {
        return notHere("addIntentListener");
    }
    /** @returns {Promise<Listener>} */
    addContextListener() {
        return notHere("addContextListener");
    }
    /** @returns {Promise<Listener>} */
    addEventListener() {
        return notHere("addEventListener");
    }
    /** @returns {Promise<Channel[]>} */
    getUserChannels() {
        return notHere("getUserChannels");
    }
    /** @param {string} channelId @returns {Promise<void>} */
    async joinUserChannel(channelId) {
        this.channel = { ...fakeChannel(channelId), type: "user" };
    }
    /** @returns {Promise<Channel>} */
    getOrCreateChannel() {
        return notHere("getOrCreateChannel");
    }
    /** @returns {Promise<import("@finos/fdc3").PrivateChannel>} */
    createPrivateChannel() {
        return notHere("createPrivateChannel");
    }
    /** @returns {Promise<Channel | null>} */
    async getCurrentChannel() {
        return this.channel;
    }
    /** @returns {Promise<void>} */
    async leaveCurrentChannel() {
        this.channel = null;
    }
    /** @returns {Promise<import("@finos/fdc3").ImplementationMetadata>} */
    getInfo() {
        return notHere("getInfo");
    }
    /** @returns {Promise<import("@finos/fdc3").AppMetadata>} */
    getAppMetadata() {
        return notHere("getAppMetadata");
    }
    /** @returns {Promise<Channel[]>} */
    getSystemChannels() {
        return notHere("getSystemChannels");
    }
    /** @returns {Promise<void>} */
    joinChannel() {
        return notHere("joinChannel");
    }
}
