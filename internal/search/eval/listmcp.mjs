// Lists the tools of the small splits' MCP servers (tools/list over stdio
// with the MCP SDK's client) and writes testdata/<id>.catalog.json, tool
// names as <server>.<tool>, descriptions and input schemas unchanged.
//
// The servers and the SDK are not dependencies of this repository: install
// them in a throwaway folder (no install scripts: listing launches no
// browser and connects to nothing) and run this script from there, naming
// the split whose servers to list.
//
//   mkdir /tmp/mcp && cd /tmp/mcp && npm init -y && npm install --ignore-scripts \
//     @modelcontextprotocol/server-filesystem@2026.8.31 @modelcontextprotocol/server-memory@2026.8.31 \
//     @modelcontextprotocol/server-puppeteer@2025.5.12 @modelcontextprotocol/server-google-maps@0.6.2 \
//     @modelcontextprotocol/server-slack@2025.4.25
//   cp <repo>/internal/search/eval/listmcp.mjs . && node listmcp.mjs small <repo>/internal/search/eval/testdata
//
//   mkdir /tmp/mcp2 && cd /tmp/mcp2 && npm init -y && npm install --ignore-scripts \
//     @playwright/mcp@0.0.83 @notionhq/notion-mcp-server@2.5.2 mcp-server-kubernetes@4.1.7 \
//     mongodb-mcp-server@3.0.4 airtable-mcp-server@1.14.0 @modelcontextprotocol/sdk@1.32.2
//   cp <repo>/internal/search/eval/listmcp.mjs . && node listmcp.mjs small2 <repo>/internal/search/eval/testdata
//
//   mkdir /tmp/mcp3 && cd /tmp/mcp3 && npm init -y && npm install --ignore-scripts @modelcontextprotocol/sdk \
//     @modelcontextprotocol/server-github@2025.4.8 @modelcontextprotocol/server-gitlab@2025.4.25 \
//     @modelcontextprotocol/server-redis@2025.4.25 firecrawl-mcp@3.26.0 @upstash/context7-mcp@4.1.1
//   cp <repo>/internal/search/eval/listmcp.mjs . && node listmcp.mjs smalltrain <repo>/internal/search/eval/testdata
//
//   mkdir /tmp/mcp4 && cd /tmp/mcp4 && npm init -y && npm pkg set 'overrides.@fastify/otel=0.8.0' && \
//     npm install --ignore-scripts @modelcontextprotocol/sdk@1.32.2 @sentry/mcp-server@0.39.0 \
//     @supabase/mcp-server-supabase@0.13.0 @hubspot/mcp-server@0.4.0 @doist/todoist-mcp@11.0.0 \
//     @netlify/mcp@1.15.1 @neondatabase/mcp-server-neon@0.6.5
//   cp <repo>/internal/search/eval/listmcp.mjs . && node listmcp.mjs small3 <repo>/internal/search/eval/testdata
//
//   mkdir /tmp/mcp5 && cd /tmp/mcp5 && npm init -y && npm install --ignore-scripts @modelcontextprotocol/sdk@1.32.2 \
//     @antv/mcp-server-chart@0.9.10 @dangahagan/weather-mcp@1.23.0 hevy-mcp@6.1.13 @mcpfun/mcp-server-ccxt@1.2.1 \
//     @mobilenext/mobile-mcp@1.0.4
//   cp <repo>/internal/search/eval/listmcp.mjs . && node listmcp.mjs train3 <repo>/internal/search/eval/testdata
//
//   mkdir /tmp/mcp6 && cd /tmp/mcp6 && npm init -y && npm install --ignore-scripts @modelcontextprotocol/sdk@1.32.2 \
//     @akutishevsky/lunchmoney-mcp@3.0.0 @bitwarden/mcp-server@2026.7.0 @leval/mcp-grafana@1.1.7 \
//     @winor30/mcp-server-datadog@1.8.0
//   cp <repo>/internal/search/eval/listmcp.mjs . && node listmcp.mjs train4 <repo>/internal/search/eval/testdata
//
//   mkdir /tmp/mcp7 && cd /tmp/mcp7 && npm init -y && npm install --ignore-scripts @modelcontextprotocol/sdk@1.32.2 \
//     metabase-ai-assistant@4.2.0 @mondaydotcomorg/monday-api-mcp@3.3.0 \
//     attio-mcp@1.6.1 @baruchiro/paperless-mcp@2.2.1 quickbooks-mcp@0.11.0
//   cp <repo>/internal/search/eval/listmcp.mjs . && node listmcp.mjs dev5 <repo>/internal/search/eval/testdata
//
//   mkdir /tmp/mcp8 && cd /tmp/mcp8 && npm init -y && npm install --ignore-scripts @modelcontextprotocol/sdk@1.32.2 \
//     @softeria/ms-365-mcp-server@0.155.0
//   cp <repo>/internal/search/eval/listmcp.mjs . && node listmcp.mjs dev6 <repo>/internal/search/eval/testdata
//
// (The override: the Neon server's telemetry dependency pins a package to
// a git tarball, which an offline mirror cannot serve; 0.8.0 is that
// package as published. Listing never loads it.)
//
// The credentials are dummies: listing calls no API. Each server's default
// tool list is taken (no toolset switched on), but for the Supabase
// server, whose default "docs" feature fetches Supabase's documentation
// schema while listing: its other default features are named, which
// leaves out its one docs tool (search_docs); likewise Netlify's
// coding-rules tool is left out (see offline below). The Redis server answers
// tools/list only once connected to a Redis: a stand-in that answers +OK to
// every command listens on a local port for it.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer as createHTTPServer } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [split, outDir, mode] = process.argv.slice(2);
// --outputs writes, instead of the catalogs, testdata/outputs.<split>.json:
// the tools' output schemas (structured output) as outputs.mjs compacts
// them, for eval.WithOutputs: smalltrain's, and small's and small3's for
// search37b's look (read only by searcheval -outputs; eval/README.md), not
// small2's (held out). Copy outputs.mjs beside this script for it:
//
//   cp <repo>/internal/search/eval/outputs.mjs . && node listmcp.mjs smalltrain <repo>/internal/search/eval/testdata --outputs
if (mode && (mode !== "--outputs" || !["smalltrain", "small", "small3"].includes(split))) throw new Error("--outputs lists the smalltrain, small and small3 splits' output schemas only");
const outputs = {};
const scratch = mkdtempSync(join(tmpdir(), "listmcp-"));
const fakeRedis = createServer((sock) => sock.on("data", (buf) => {
  for (const _ of buf.toString("latin1").matchAll(/(?:^|\r\n)\*\d+\r\n/g)) sock.write("+OK\r\n");
}));
await new Promise((ok) => fakeRedis.listen(0, "127.0.0.1", ok));
const redisURL = `redis://127.0.0.1:${fakeRedis.address().port}`;
// The Neon server asks its API who the key belongs to before it starts: a
// stand-in answers every request with one dummy user.
const fakeNeon = createHTTPServer((_, res) => {
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify({ account_id: "x", auth_method: "api_key_user", id: "x", name: "x", email: "x@example.com" }));
});
await new Promise((ok) => fakeNeon.listen(0, "127.0.0.1", ok));
const mit = "MIT (stated in package.json)";
const apache = "Apache-2.0 (stated in package.json)";
const fsl = "FSL-1.1-ALv2 (stated in package.json): source-available, Apache-2.0 two years after each release";
const seeLicense = "unclear: the package states \"SEE LICENSE IN LICENSE\" and ships no LICENSE file";
// split: id: package, namespace, kind, licence, extra arguments.
const splits = {
  small: {
    filesystem: ["@modelcontextprotocol/server-filesystem", "filesystem", "files and folders", seeLicense, [scratch]],
    memory: ["@modelcontextprotocol/server-memory", "memory", "knowledge graph memory", seeLicense, []],
    puppeteer: ["@modelcontextprotocol/server-puppeteer", "puppeteer", "browser automation", mit, []],
    googlemaps: ["@modelcontextprotocol/server-google-maps", "googlemaps", "maps, places, directions", mit, []],
    slackmcp: ["@modelcontextprotocol/server-slack", "slack", "team chat", mit, []],
  },
  small2: {
    playwright: ["@playwright/mcp", "playwright", "browser automation", apache, []],
    notion: ["@notionhq/notion-mcp-server", "notion", "notes, wiki, databases", mit, []],
    kubernetes: ["mcp-server-kubernetes", "kubernetes", "container orchestration", mit, []],
    mongodb: ["mongodb-mcp-server", "mongodb", "document database", apache, []],
    airtable: ["airtable-mcp-server", "airtable", "spreadsheet database", mit, []],
  },
  smalltrain: {
    githubmcp: ["@modelcontextprotocol/server-github", "github", "code hosting", mit, []],
    gitlabmcp: ["@modelcontextprotocol/server-gitlab", "gitlab", "code hosting", mit, []],
    redismcp: ["@modelcontextprotocol/server-redis", "redis", "key-value store", mit, [redisURL]],
    firecrawl: ["firecrawl-mcp", "firecrawl", "web scraping and search", mit, []],
    context7: ["@upstash/context7-mcp", "context7", "library documentation", mit, []],
  },
  small3: {
    sentry: ["@sentry/mcp-server", "sentry", "error tracking", fsl, ["--access-token=x"]],
    supabase: ["@supabase/mcp-server-supabase", "supabase", "Postgres backend platform", apache,
      ["--access-token=x", "--features=account,database,debugging,development,functions,branching"]],
    hubspot: ["@hubspot/mcp-server", "hubspot", "CRM", mit, []],
    todoist: ["@doist/todoist-mcp", "todoist", "personal tasks", mit, []],
    netlify: ["@netlify/mcp", "netlify", "web hosting platform", "ISC (stated in package.json)", []],
    neon: ["@neondatabase/mcp-server-neon", "neon", "serverless Postgres", mit, ["start", "x"]],
  },
  // train3's small servers (its REST catalogs are extract.mjs's).
  train3: {
    antv: ["@antv/mcp-server-chart", "chart", "charts and diagrams", mit, []],
    hevy: ["hevy-mcp", "hevy", "workout tracking", "MIT (its LICENSE file; package.json states none)", []],
    ccxt: ["@mcpfun/mcp-server-ccxt", "ccxt", "cryptocurrency exchanges", mit, []],
    mobile: ["@mobilenext/mobile-mcp", "mobile", "mobile device automation", apache, []],
    weather: ["@dangahagan/weather-mcp", "weather", "weather forecasts and observations", mit, []],
  },
  // train4's small servers (its REST catalogs are extract.mjs's).
  train4: {
    lunchmoney: ["@akutishevsky/lunchmoney-mcp", "lunchmoney", "personal finance and budgets", mit, []],
    bitwarden: ["@bitwarden/mcp-server", "bitwarden", "password manager", "GPL-3.0 (its LICENSE.txt; package.json says \"SEE LICENSE IN LICENSE.txt\")", []],
    grafana: ["@leval/mcp-grafana", "grafana", "dashboards, alerts and incidents", mit, []],
    datadog: ["@winor30/mcp-server-datadog", "datadog", "monitoring: metrics, logs, traces, incidents", "Apache-2.0 (its LICENSE file; package.json states none)", []],
  },
  // dev5's servers (forty-fourth session, validation; its REST catalogs are
  // extract.mjs's). @softeria/ms-365-mcp-server@0.155.0 (344 tools in its
  // --org-mode) was picked too and its requests written, but it was not
  // kept in dev5: it is dev6 (eval/README.md, "Dev5 split", "Dev6 split").
  dev5: {
    metabase: ["metabase-ai-assistant", "metabase", "business intelligence: questions, dashboards, SQL", apache, []],
    monday: ["@mondaydotcomorg/monday-api-mcp", "monday", "work management: boards, items, workspaces", mit, []],
    attio: ["attio-mcp", "attio", "CRM", apache, []],
    paperless: ["@baruchiro/paperless-mcp", "paperless", "scanned documents: tags, correspondents, types", "ISC (stated in package.json)", []],
    quickbooks: ["quickbooks-mcp", "quickbooks", "small-business accounting", mit, []],
  },
  // dev6's server (forty-fifth session, validation): Microsoft 365's in its
  // work mode (--org-mode: Teams, SharePoint, shared mailboxes too).
  dev6: {
    ms365: ["@softeria/ms-365-mcp-server", "ms365", "Microsoft 365: mail, calendar, files, Teams, SharePoint, tasks", mit, ["--org-mode"]],
  },
};
if (!splits[split] || !outDir) throw new Error(`usage: node listmcp.mjs ${Object.keys(splits).join("|")} <testdata folder>`);
// mcp-server-kubernetes reads a kubeconfig at start (it connects only when
// a tool runs): a dummy one whose cluster is nowhere.
const kubeconfig = join(scratch, "kubeconfig");
writeFileSync(kubeconfig, JSON.stringify({
  apiVersion: "v1", kind: "Config", "current-context": "dummy",
  clusters: [{ name: "dummy", cluster: { server: "https://127.0.0.1:6443" } }],
  users: [{ name: "dummy", user: { token: "x" } }],
  contexts: [{ name: "dummy", context: { cluster: "dummy", user: "dummy" } }],
}));
const env = {
  ...process.env,
  GOOGLE_MAPS_API_KEY: "x", SLACK_BOT_TOKEN: "x", SLACK_TEAM_ID: "x", MEMORY_FILE_PATH: join(scratch, "memory.json"),
  NOTION_TOKEN: "x", AIRTABLE_API_KEY: "x", KUBECONFIG: kubeconfig,
  MDB_MCP_TELEMETRY: "disabled", DO_NOT_TRACK: "1",
  GITHUB_PERSONAL_ACCESS_TOKEN: "x", GITLAB_PERSONAL_ACCESS_TOKEN: "x", FIRECRAWL_API_KEY: "x",
  PRIVATE_APP_ACCESS_TOKEN: "x", TODOIST_API_KEY: "x", HEVY_API_KEY: "x",
  MS365_MCP_CLIENT_ID: "x", METABASE_URL: "http://127.0.0.1:3000", METABASE_API_KEY: "x", MONDAY_TOKEN: "x",
  ATTIO_API_KEY: "x", ATTIO_WORKSPACE_ID: "x", PAPERLESS_URL: "http://127.0.0.1:8000", PAPERLESS_API_KEY: "x",
  QUICKBOOKS_CLIENT_ID: "x", QUICKBOOKS_CLIENT_SECRET: "x",
  LUNCHMONEY_API_TOKEN: "x", GRAFANA_URL: "http://127.0.0.1:3000", GRAFANA_API_KEY: "x", DATADOG_API_KEY: "x", DATADOG_APP_KEY: "x",
  NEON_API_HOST: `http://127.0.0.1:${fakeNeon.address().port}`,
};
// Tools whose input schema is made of what the server fetches at start,
// which offline is nothing: Netlify's coding-rules tool takes a
// creationType whose enum is the list of Netlify's docs topics, empty
// offline (a schema no input meets, and invalid against draft-07).
const offline = ["netlify.netlify-coding-rules"];
// A name a server lists twice (metabase-ai-assistant's db_test_speed, two
// descriptions of one check) is kept once, the first: a registry of tools
// by name holds one.
const firstOf = (tools) => tools.filter((t, i) => tools.findIndex((u) => u.name === t.name) === i);
for (const [id, [name, ns, kind, licence, args]] of Object.entries(splits[split])) {
  const dir = `node_modules/${name}`;
  const pj = JSON.parse(readFileSync(`${dir}/package.json`, "utf8"));
  const bin = typeof pj.bin === "string" ? pj.bin : Object.values(pj.bin)[0];
  const transport = new StdioClientTransport({ command: "node", args: [join(dir, bin), ...args], stderr: "ignore", env });
  const client = new Client({ name: "listmcp", version: "1" });
  await client.connect(transport);
  const tools = firstOf((await client.listTools()).tools);
  await client.close();
  if (mode) {
    const { compactOutputs } = await import("./outputs.mjs");
    outputs[id] = compactOutputs(tools.filter((t) => !offline.includes(`${ns}.${t.name}`)).map((t) => ({ name: `${ns}.${t.name}`, outputSchema: t.outputSchema })));
    console.error(id, Object.keys(outputs[id].tools).length, "of", tools.length, "tools with an output schema");
    continue;
  }
  const head = `{\n"source": ${JSON.stringify(`${name}@${pj.version} (npm), tools/list over stdio`)},\n"api": ${JSON.stringify(`MCP server ${name}`)},\n"kind": ${JSON.stringify(kind)},\n"licence": ${JSON.stringify(licence)},\n"tools": [\n`;
  const rows = tools.filter((t) => !offline.includes(`${ns}.${t.name}`)).map((t) => JSON.stringify({ name: `${ns}.${t.name}`, description: t.description ?? "", inputSchema: t.inputSchema }));
  writeFileSync(join(outDir, `${id}.catalog.json`), head + rows.join(",\n") + "\n]\n}\n");
  console.error(id, rows.length);
}
if (mode) writeFileSync(join(outDir, `outputs.${split}.json`), JSON.stringify(outputs));
process.exit(0);
