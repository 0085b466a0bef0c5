// A real Interop bus for the io.Connect adapter's suites: the open source
// Glue42 Core gateway (@glue42/gateway-web's Node build, MIT, no licence
// key) with @interopio/core clients connected in process through core's
// own `gateway.inproc` transport. Every application is a real io.Connect
// client; nothing of the bus is written here.
import { createRequire } from "node:module";
import IOConnectCore from "@interopio/core";
import { llmTools, loadFactory } from "./helpers.mjs";
import { loadAdapter } from "./adapter-helpers.mjs";

const require = createRequire(import.meta.url);
const gateway = require("@glue42/gateway-web/node/gateway-web.js");

/** Starts a gateway: connect(application) is one io.Connect application on it; stop() closes them all and the gateway. */
export async function startBus() {
    gateway.configure_logging({ level: "error" });
    const gw = gateway.create({});
    await gw.start();
    const clients = [];
    return {
        // The gateway routes among the clients of one user only, so all of
        // them log in as "trader".
        async connect(application) {
            const io = await IOConnectCore({
                application,
                auth: { username: "trader", password: "any" },
                gateway: { inproc: { facade: gw } },
                // core asks the bus for io.Insights settings and warns when no
                // platform answers: there is none here. (A failed invocation is
                // still printed as "Gateway error - ..." on stderr, whatever the level.)
                logger: { console: "error" },
            });
            clients.push(io);
            return io;
        },
        async stop() {
            for (const io of clients) await io.done().catch(() => {});
            await gw.stop();
        },
    };
}

/** What the interop suites (adapters-interop43, -interop44) start with: the factory, the io-connect and fdc3 adapters, and a bus. */
export async function loadInterop() {
    const [IoCodeModeFactory, ioc, fdc3] = await Promise.all([loadFactory(), loadAdapter("io-connect"), loadAdapter("fdc3")]);
    return { IoCodeModeFactory, ioc, fdc3, bus: await startBus() };
}

/** The names of the tools searchTools finds for `query`, best first. */
export const searchNames = async (session, query, limit = 10) => (await llmTools(session).searchTools.execute({ query, limit })).map((h) => h.name);
