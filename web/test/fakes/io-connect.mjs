// @ts-check
// An in-memory io.Connect Interop bus: several applications register
// methods; each gets an Interop API object. tsc checks it against
// @interopio/core's declarations (web/types-check/tsconfig.fakes.json), so
// the adapter is tested against the real API's shape. Invocation follows
// the documented behaviour: "best" is the first server, "all" every one,
// "skipMine" every one but the caller; one result has `returned`, several
// also `all_return_values`/`all_errors`; a failure rejects with an error
// object (not an Error) carrying `message`.

/** @typedef {import("@interopio/core").IOConnectCore.Interop.API} InteropAPI */
/** @typedef {import("@interopio/core").IOConnectCore.Interop.Instance} Instance */
/** @typedef {import("@interopio/core").IOConnectCore.Interop.Method} Method */
/** @typedef {import("@interopio/core").IOConnectCore.Interop.MethodDefinition} MethodDefinition */
/** @typedef {import("@interopio/core").IOConnectCore.Interop.InvocationResult<any>} InvocationResult */
/** @typedef {import("@interopio/core").IOConnectCore.Interop.InvokeOptions} InvokeOptions */
/** @typedef {import("@interopio/core").IOConnectCore.Interop.InstanceTarget} InstanceTarget */
/** @typedef {(args: any, caller: Instance) => any} Handler */

export class FakeBus {
    constructor() {
        /** @type {Map<string, { definition: MethodDefinition, servers: Map<Instance, Handler> }>} */
        this.methods = new Map();
        /** @type {Set<{ added: (m: Method) => void, removed: (m: Method) => void }>} */
        this.listeners = new Set();
        /** @type {{ method: string, args: any, target: InstanceTarget | undefined, options: InvokeOptions | undefined }[]} */
        this.invocations = [];
    }

    /** @param {string} application @returns {FakeInterop} */
    connect(application) {
        return new FakeInterop(this, { application, applicationName: application, instance: `${application}-1`, peerId: `peer-${application}` });
    }

    /** @param {string} name @returns {Method} */
    method(name) {
        const entry = this.methods.get(name);
        if (!entry) throw new Error(`no method ${name}`);
        const servers = () => Array.from(entry.servers.keys());
        return { objectTypes: [], flags: {}, supportsStreaming: false, ...entry.definition, getServers: servers };
    }
}

/** @implements {InteropAPI} */
export class FakeInterop {
    /** @param {FakeBus} bus @param {Instance} instance */
    constructor(bus, instance) {
        this.bus = bus;
        this.instance = instance;
    }

    /** @param {string | MethodDefinition} name @param {Handler} handler */
    async register(name, handler) {
        const definition = typeof name === "string" ? { name } : name;
        let entry = this.bus.methods.get(definition.name);
        const isNew = !entry;
        if (!entry) {
            entry = { definition, servers: new Map() };
            this.bus.methods.set(definition.name, entry);
        }
        entry.servers.set(this.instance, handler);
        if (isNew) for (const l of this.bus.listeners) l.added(this.bus.method(definition.name));
    }

    /** @type {InteropAPI["registerAsync"]} */
    async registerAsync(name, handler) {
        await this.register(name, (args, caller) => new Promise((resolve, reject) => handler(args, caller, resolve, reject)));
    }

    /** @param {string | MethodDefinition} definition */
    unregister(definition) {
        const name = typeof definition === "string" ? definition : definition.name;
        const entry = this.bus.methods.get(name);
        if (!entry) return;
        const method = this.bus.method(name);
        entry.servers.delete(this.instance);
        if (entry.servers.size === 0) {
            this.bus.methods.delete(name);
            for (const l of this.bus.listeners) l.removed(method);
        }
    }

    /**
     * @param {string | MethodDefinition} method
     * @param {object} [args]
     * @param {InstanceTarget} [target]
     * @param {InvokeOptions} [options]
     * @returns {Promise<InvocationResult>}
     */
    async invoke(method, args, target, options) {
        const name = typeof method === "string" ? method : method.name;
        this.bus.invocations.push({ method: name, args, target, options });
        const entry = this.bus.methods.get(name);
        if (!entry) throw { message: `Can not find a method matching ${JSON.stringify({ name })} with server filter ${JSON.stringify(target)}`, status: 1 };
        const all = Array.from(entry.servers.keys());
        /** @type {Instance[]} */
        let servers;
        if (target === undefined || target === "best") servers = all.slice(0, 1);
        else if (target === "all") servers = all;
        else if (target === "skipMine") servers = all.filter((s) => s !== this.instance);
        else if (Array.isArray(target)) servers = all.filter((s) => target.some((t) => t.instance === s.instance));
        else servers = all.filter((s) => s.instance === target.instance);
        if (servers.length === 0) throw { message: `no server of ${name} matches the target`, status: 1 };
        const definition = entry.definition;
        const timeout = options?.methodResponseTimeoutMs ?? 30000;
        /** @param {Instance} server */
        const one = async (server) => {
            const handler = /** @type {Handler} */ (entry.servers.get(server));
            let timer;
            try {
                const returned = await Promise.race([
                    Promise.resolve().then(() => handler(args ?? {}, this.instance)),
                    new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`Invocation timeout (${timeout} ms) reached`)), timeout))),
                ]);
                // As @interopio/core's server side sends it: nothing is {}, a value that is no object { _value }.
                const sent = !returned ? {} : typeof returned !== "object" || Array.isArray(returned) ? { _value: returned } : returned;
                return { ok: true, core: { returned: sent, method: definition, executed_by: server, called_with: args, message: "", status: 0 } };
            } catch (err) {
                const message = err instanceof Error ? err.message : String(err);
                return { ok: false, core: { returned: undefined, method: definition, executed_by: server, called_with: args, message, status: 1 } };
            } finally {
                clearTimeout(timer);
            }
        };
        const outcomes = await Promise.all(servers.map(one));
        const oks = outcomes.filter((o) => o.ok).map((o) => o.core);
        const errors = outcomes.filter((o) => !o.ok).map((o) => o.core);
        if (oks.length === 0) throw errors[0];
        return { ...oks[0], all_return_values: oks, all_errors: errors };
    }

    /** @type {InteropAPI["createStream"]} */
    async createStream(definition) {
        const def = typeof definition === "string" ? { name: definition } : definition;
        await this.register({ ...def, supportsStreaming: true }, () => undefined);
        const stream = {
            definition: def,
            name: def.name,
            push() {},
            /** @type {any} */
            branches: () => [],
            branch: () => undefined,
            subscriptions: () => [],
            close: () => this.unregister(def),
        };
        return stream;
    }

    /** @type {InteropAPI["subscribe"]} */
    async subscribe() {
        throw new Error("streams are not part of this fake");
    }

    servers() {
        return Array.from(new Set(Array.from(this.bus.methods.values()).flatMap((e) => Array.from(e.servers.keys()))));
    }

    /**
     * As on a real bus (the Glue42 gateway with @interopio/core 6.10.4): a
     * method is listed once per server that registered it, each entry's
     * getServers() holding them all.
     * @param {import("@interopio/core").IOConnectCore.Interop.MethodFilter | string} [filter] @returns {Method[]}
     */
    methods(filter) {
        const name = typeof filter === "string" ? filter : filter?.name;
        return Array.from(this.bus.methods.entries())
            .filter(([n]) => name === undefined || n === name)
            .flatMap(([n, entry]) => Array.from(entry.servers.keys(), () => this.bus.method(n)));
    }

    /** @param {(method: Method) => void} callback */
    methodAdded(callback) {
        // Like the real API: existing methods are replayed to a new subscriber.
        for (const n of this.bus.methods.keys()) callback(this.bus.method(n));
        const l = { added: callback, removed: () => {} };
        this.bus.listeners.add(l);
        return () => {
            this.bus.listeners.delete(l);
        };
    }

    /** @param {(method: Method) => void} callback */
    methodRemoved(callback) {
        const l = { added: () => {}, removed: callback };
        this.bus.listeners.add(l);
        return () => {
            this.bus.listeners.delete(l);
        };
    }

    /** @type {InteropAPI["serverAdded"]} */
    serverAdded() {
        return () => {};
    }

    /** @type {InteropAPI["serverRemoved"]} */
    serverRemoved() {
        return () => {};
    }

    /** @type {InteropAPI["serverMethodAdded"]} */
    serverMethodAdded() {
        return () => {};
    }

    /** @type {InteropAPI["serverMethodRemoved"]} */
    serverMethodRemoved() {
        return () => {};
    }

    /** @param {Instance} server */
    methodsForInstance(server) {
        return Array.from(this.bus.methods.keys(), (n) => this.bus.method(n)).filter((m) => m.getServers().includes(server));
    }

    /** @param {string} name */
    async waitForMethod(name) {
        return this.bus.method(name);
    }
}

/**
 * The part of the io.Connect API object the adapter takes.
 * @param {FakeInterop} interop
 * @returns {Pick<import("@interopio/core").IOConnectCore.API, "interop">}
 */
export function fakeIo(interop) {
    return { interop };
}
