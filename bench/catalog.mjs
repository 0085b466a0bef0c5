// The real operations the registration and search workloads register
// (bench/api.mjs, bench/worker.mjs), from internal/search/eval's catalogs.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");

// catalogTools returns n real operations as tool definitions without
// execute: GitHub's, then Slack's, namespaced by API. Past the four
// catalogs' 1,761 they come again, namespaced github2., slack2., ..., each
// input schema with a "$comment" of its copy: a registration reads a
// schema text met twice in it once (schemaMemo), which a catalog of
// distinct operations does not do.
export function catalogTools(n) {
  const apis = ["github", "slack", "stripe", "digitalocean"];
  const catalogs = apis.map((api) => JSON.parse(readFileSync(path.join(root, `internal/search/eval/testdata/${api}.catalog.json`), "utf8")).tools);
  const tools = [];
  for (let k = 1; tools.length < n; k++) {
    apis.forEach((api, i) => {
      for (const t of catalogs[i]) {
        const copy = k > 1 && t.inputSchema && { inputSchema: { $comment: `copy ${k}`, ...t.inputSchema } };
        tools.push({ ...t, name: `${api}${k > 1 ? k : ""}.${t.name}`, ...copy });
      }
    });
  }
  return tools.slice(0, n);
}
