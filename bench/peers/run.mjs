// `make bench-peers`: cold start, import to first result, of ours and of two
// peer libraries, each sample a fresh Node process (cold.mjs), the peers
// interleaved so that load on this shared machine hits every side alike.
// Prints, for each peer,
//
//   BENCH peers-cold-<peer> ours=<median>ms base=<peer median>ms ratio=<ours/peer>
//
// (ratio < 1: ours starts faster) and every sample to stderr as '#' lines.
// Environment: BENCH_PEERS_SAMPLES (default 7, at least 5).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import os from "node:os";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const samples = Math.max(5, Number(process.env.BENCH_PEERS_SAMPLES ?? 7));
if (!existsSync(path.join(root, "dist/index.mjs"))) throw new Error("dist/index.mjs is missing: run make build");
if (!existsSync(path.join(here, "node_modules/@tanstack/ai-code-mode"))) throw new Error("bench/peers/node_modules is missing: run npm ci --prefix bench/peers");

const sides = ["ours", "tanstack", "sebastianwessel"];
const times = Object.fromEntries(sides.map((s) => [s, []]));
for (let i = 0; i < samples; i++) {
  // Rotate the order so no side always runs first (or last) in a round.
  for (let j = 0; j < sides.length; j++) {
    const side = sides[(i + j) % sides.length];
    const out = execFileSync(process.execPath, [path.join(here, "cold.mjs"), side], { cwd: root, encoding: "utf8" });
    times[side].push(JSON.parse(out.trim().split("\n").pop()).ms);
  }
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (x) => Number(x.toPrecision(3));
console.error(`# bench-peers: ${samples} fresh processes per side, load average ${os.loadavg().map((x) => x.toFixed(2)).join(" ")}`);
for (const s of sides) console.error(`# ${s}: ${times[s].map((x) => x.toFixed(1)).join(" ")} ms`);
const ours = median(times.ours);
for (const peer of sides.slice(1)) {
  const base = median(times[peer]);
  console.log(`BENCH peers-cold-${peer} ours=${fmt(ours)}ms base=${fmt(base)}ms ratio=${(ours / base).toFixed(2)}`);
}
