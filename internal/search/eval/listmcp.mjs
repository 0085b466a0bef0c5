// Lists the tools of the small split's MCP servers (tools/list over stdio
// with the MCP SDK's client) and writes testdata/<id>.catalog.json, tool
// names as <server>.<tool>, descriptions and input schemas unchanged.
//
// The servers and the SDK are not dependencies of this repository: install
// them in a throwaway folder (no install scripts: listing launches no
// browser) and run this script from there.
//
//   mkdir /tmp/mcp && cd /tmp/mcp && npm init -y && npm install --ignore-scripts \
//     @modelcontextprotocol/server-filesystem@2026.8.31 @modelcontextprotocol/server-memory@2026.8.31 \
//     @modelcontextprotocol/server-puppeteer@2025.5.12 @modelcontextprotocol/server-google-maps@0.6.2 \
//     @modelcontextprotocol/server-slack@2025.4.25
//   cp <repo>/internal/search/eval/listmcp.mjs . && node listmcp.mjs <repo>/internal/search/eval/testdata
//
// The API keys are dummies: listing calls no API.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const outDir = process.argv[2];
if (!outDir) throw new Error("usage: node listmcp.mjs <testdata folder>");
const scratch = mkdtempSync(join(tmpdir(), "listmcp-"));
// id: package, namespace, kind, licence, extra arguments.
const servers = {
  filesystem: ["server-filesystem", "filesystem", "files and folders", "unclear: the package states \"SEE LICENSE IN LICENSE\" and ships no LICENSE file", [scratch]],
  memory: ["server-memory", "memory", "knowledge graph memory", "unclear: the package states \"SEE LICENSE IN LICENSE\" and ships no LICENSE file", []],
  puppeteer: ["server-puppeteer", "puppeteer", "browser automation", "MIT (stated in package.json)", []],
  googlemaps: ["server-google-maps", "googlemaps", "maps, places, directions", "MIT (stated in package.json)", []],
  slackmcp: ["server-slack", "slack", "team chat", "MIT (stated in package.json)", []],
};
for (const [id, [pkg, ns, kind, licence, args]] of Object.entries(servers)) {
  const dir = `node_modules/@modelcontextprotocol/${pkg}`;
  const pj = JSON.parse(readFileSync(`${dir}/package.json`, "utf8"));
  const bin = typeof pj.bin === "string" ? pj.bin : Object.values(pj.bin)[0];
  const transport = new StdioClientTransport({
    command: "node", args: [join(dir, bin), ...args], stderr: "ignore",
    env: { ...process.env, GOOGLE_MAPS_API_KEY: "x", SLACK_BOT_TOKEN: "x", SLACK_TEAM_ID: "x", MEMORY_FILE_PATH: join(scratch, "memory.json") },
  });
  const client = new Client({ name: "listmcp", version: "1" });
  await client.connect(transport);
  const { tools } = await client.listTools();
  await client.close();
  const name = `@modelcontextprotocol/${pkg}`;
  const head = `{\n"source": ${JSON.stringify(`${name}@${pj.version} (npm), tools/list over stdio`)},\n"api": ${JSON.stringify(`MCP server ${name}`)},\n"kind": ${JSON.stringify(kind)},\n"licence": ${JSON.stringify(licence)},\n"tools": [\n`;
  const rows = tools.map((t) => JSON.stringify({ name: `${ns}.${t.name}`, description: t.description ?? "", inputSchema: t.inputSchema }));
  writeFileSync(join(outDir, `${id}.catalog.json`), head + rows.join(",\n") + "\n]\n}\n");
  console.error(id, tools.length);
}
process.exit(0);
