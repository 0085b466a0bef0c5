// A real FDC3 2.2 Desktop Agent in this process: FINOS's reference
// implementation (@finos/fdc3-web-impl's DefaultFDC3Server: intents,
// channels, open, the app directory) serving applications that each hold a
// real DesktopAgentProxy (@finos/fdc3-agent-proxy, over
// @finos/fdc3-get-agent's MessagePortMessaging), as getAgent() builds it in
// a browser. What is written here is only the part a platform supplies:
// the ServerContext (how a message reaches an app instance, how an app is
// launched) and the launch of an app, which in a browser is a window that
// calls getAgent(): here a MessageChannel and the app's own main().
//
// The FINOS packages are ESM with extensionless imports, which Node cannot
// load as published: esbuild bundles them once, in memory.
import { randomUUID } from "node:crypto";
import { build } from "esbuild";
import { root } from "./helpers.mjs";

const ENTRY = `
export { DefaultFDC3Server, BasicDirectory, State, ChannelType } from "@finos/fdc3-web-impl";
export { DesktopAgentProxy, DefaultChannelSupport, DefaultIntentSupport, DefaultAppSupport, DefaultHeartbeatSupport } from "@finos/fdc3-agent-proxy";
export { MessagePortMessaging } from "@finos/fdc3-get-agent/dist/src/messaging/MessagePortMessaging";
export { NullIntentResolver, NullChannelSelector } from "@finos/fdc3-get-agent";
export { LogLevel } from "@finos/fdc3-standard";
`;

let finos;
async function load() {
    if (!finos) {
        const out = await build({ stdin: { contents: ENTRY, resolveDir: root, loader: "js" }, bundle: true, format: "esm", platform: "browser", write: false, logLevel: "silent" });
        finos = await import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString("base64")}`);
    }
    return finos;
}


/**
 * Starts a desktop agent over `directory` (AppD records) whose apps, when
 * launched (by open, by an intent, or by connect()), run `mains[appId](fdc3)`.
 * `intentTimeoutMs`: how long the agent waits for a launched app's intent listener.
 */
export async function startDesktopAgent({ directory, mains = {}, intentTimeoutMs = 2000 }) {
    const f = await load();
    const instances = new Map(); // instanceUuid -> AppRegistration { appId, instanceId, state }
    const ports = new Map(); // instanceUuid -> the agent's end of its MessageChannel
    const appDirectory = new f.BasicDirectory(directory);
    const launched = [];
    const sent = []; // the types of the messages the agent sent, in order
    let server;
    const sc = {
        createUUID: () => randomUUID(),
        post: async (message, instanceId) => {
            sent.push(message.type);
            ports.get(instanceId)?.postMessage(message);
        },
        open: async (appId) => {
            if (!appDirectory.retrieveAppsById(appId).length) throw new Error("AppNotFound");
            return (await launch(appId, false)).instanceId;
        },
        setFDC3Server: (s) => (server = s),
        setInstanceDetails: (uuid, details) => instances.set(uuid, { ...instances.get(uuid), ...details }),
        getInstanceDetails: (uuid) => instances.get(uuid),
        setAppState: async (uuid, state) => {
            const i = instances.get(uuid);
            if (i) i.state = state;
        },
        getConnectedApps: async () => Array.from(instances.values()).filter((i) => i.state === f.State.Connected),
        getAllApps: async () => Array.from(instances.values()),
        isAppConnected: async (uuid) => instances.get(uuid)?.state === f.State.Connected,
        log: () => {},
        provider: () => "code-mode-test",
        providerVersion: () => "1",
        fdc3Version: () => "2.2",
        // No resolver UI: the agent's own choice stands.
        narrowIntents: async (_raiser, appIntents) => appIntents,
    };
    // Two user channels, typed with the agent's own ChannelType (a number enum).
    const userChannels = ["fdc3.channel.1", "fdc3.channel.2"].map((id, i) => ({ id, type: f.ChannelType.user, context: [], displayMetadata: { name: `Channel ${i + 1}`, color: i ? "blue" : "red" } }));
    server = new f.DefaultFDC3Server(sc, appDirectory, userChannels, false, intentTimeoutMs, intentTimeoutMs);

    // An app instance: the agent's end of a MessageChannel, and the app's
    // end with a DesktopAgentProxy on it. The app identifies itself with
    // WCP4ValidateAppIdentity, as getAgent() does once it has its port.
    async function launch(appId, wait) {
        const instanceId = randomUUID();
        const { port1: agentEnd, port2: appEnd } = new MessageChannel();
        instances.set(instanceId, { appId, instanceId, state: f.State.Pending });
        ports.set(instanceId, agentEnd);
        agentEnd.on("message", (message) => {
            if (message && message.type === "WCP6Goodbye") return server.cleanup(instanceId);
            server.receive(message, instanceId);
        });
        const started = (async () => {
            appEnd.start();
            const validated = new Promise((resolve, reject) =>
                appEnd.addEventListener("message", function once(e) {
                    if (!String(e.data?.type).startsWith("WCP5")) return;
                    appEnd.removeEventListener("message", once);
                    e.data.type === "WCP5ValidateAppIdentityResponse" ? resolve(e.data.payload) : reject(new Error(e.data.payload.message));
                }),
            );
            appEnd.postMessage({ type: "WCP4ValidateAppIdentity", meta: { connectionAttemptUuid: randomUUID(), timestamp: new Date() }, payload: { identityUrl: `https://apps.test/${appId}`, actualUrl: `https://apps.test/${appId}` } });
            const identity = await validated;
            const messaging = new f.MessagePortMessaging({ messagePort: appEnd }, { appId: identity.appId, instanceId: identity.instanceId });
            const hs = new f.DefaultHeartbeatSupport(messaging);
            const resolver = new f.NullIntentResolver();
            const selector = new f.NullChannelSelector();
            const fdc3 = new f.DesktopAgentProxy(
                hs,
                new f.DefaultChannelSupport(messaging, selector, 2000),
                new f.DefaultIntentSupport(messaging, resolver, 2000, 5000),
                new f.DefaultAppSupport(messaging, 2000, 5000),
                [hs, resolver, selector],
                f.LogLevel.WARN, // its default level logs every message

            );
            await fdc3.connect();
            await mains[appId]?.(fdc3);
            const app = { appId, instanceId, fdc3, close: () => close(instanceId, fdc3, messaging, agentEnd) };
            launched.push(app);
            return app;
        })();
        if (wait) return started;
        started.catch(() => {});
        return { instanceId };
    }

    async function close(instanceId, fdc3, messaging, agentEnd) {
        await fdc3.disconnect();
        await messaging.disconnect(); // WCP6Goodbye: the agent cleans the instance up
        agentEnd.close();
        instances.delete(instanceId);
        ports.delete(instanceId);
    }

    return {
        directory: appDirectory,
        /** The apps launched so far (by intents, open or connect). */
        launched,
        sent,
        /** Connects an app of the directory as if it had started and called getAgent(). */
        connect: (appId) => launch(appId, true),
        async stop() {
            for (const app of launched.splice(0)) await app.close().catch(() => {});
            server.shutdown();
        },
    };
}
