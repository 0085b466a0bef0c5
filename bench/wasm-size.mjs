// What the Go core's bytes are: section sizes and code bytes per Go package,
// read from the wasm name section of a build that keeps its names (no -s -w).
//
//   node bench/wasm-size.mjs [core.wasm]      default: builds ./wasm without -s -w
//                                             (with the shipped core's -gcflags, scripts/go-flags.mjs,
//                                             and its regexp/syntax, scripts/regexp-tables.mjs;
//                                             REGEXP_TABLES=0 without)
//
// TOP=n lists n packages (default 40). The code bytes of a function are its
// body in the code section, counted for the package of its name (generic
// instantiations count for the package that declares the generic function).

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { noInlineFlags } from "../scripts/go-flags.mjs";
import { writeRegexpOverlay } from "../scripts/regexp-tables.mjs";

const root = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
let file = process.argv[2];
let tmp;
if (!file) {
  tmp = mkdtempSync(path.join(tmpdir(), "wasm-size-"));
  file = path.join(tmp, "core.wasm");
  const go = process.env.GO ?? "go";
  const overlay = [];
  if (process.env.REGEXP_TABLES !== "0") {
    const goroot = execFileSync(go, ["env", "GOROOT"], { encoding: "utf8" }).trim();
    const replace = writeRegexpOverlay(goroot, path.join(tmp, "regexp-tables"), "wasm-size");
    writeFileSync(path.join(tmp, "overlay.json"), JSON.stringify({ Replace: replace }));
    overlay.push("-overlay", path.join(tmp, "overlay.json"));
  }
  execFileSync(go, ["build", "-trimpath", ...noInlineFlags(), ...overlay, "-o", file, "./wasm"], { cwd: root, stdio: "inherit", env: { ...process.env, GOOS: "js", GOARCH: "wasm" } });
}
const buf = readFileSync(file);
if (tmp) rmSync(tmp, { recursive: true });

let pos = 8;
function u32() {
  let r = 0, shift = 0, b;
  do {
    b = buf[pos++];
    r += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  return r;
}
function name() {
  const n = u32();
  const s = buf.toString("utf8", pos, pos + n);
  pos += n;
  return s;
}

const sections = [];
let imports = 0;
let bodies = [];
const names = new Map();
while (pos < buf.length) {
  const id = buf[pos++];
  const size = u32();
  const start = pos;
  const end = start + size;
  let label = ["custom", "type", "import", "function", "table", "memory", "global", "export", "start", "element", "code", "data", "datacount"][id];
  if (id === 0) {
    const n = name();
    label = `custom:${n}`;
    if (n === "name") {
      while (pos < end) {
        const sub = buf[pos++];
        const subSize = u32();
        const subEnd = pos + subSize;
        if (sub === 1) {
          const count = u32();
          for (let i = 0; i < count; i++) {
            const idx = u32();
            names.set(idx, name());
          }
        }
        pos = subEnd;
      }
    }
  } else if (id === 2) {
    const count = u32();
    for (let i = 0; i < count; i++) {
      name();
      name();
      const kind = buf[pos++];
      if (kind === 0) {
        u32();
        imports++;
      } else if (kind === 1) {
        pos++;
        const flags = u32();
        u32();
        if (flags & 1) u32();
      } else if (kind === 2) {
        const flags = u32();
        u32();
        if (flags & 1) u32();
      } else if (kind === 3) pos += 2;
    }
  } else if (id === 10) {
    const count = u32();
    for (let i = 0; i < count; i++) {
      const n = u32();
      bodies.push(n);
      pos += n;
    }
  }
  sections.push({ label, size });
  pos = end;
}

const byPkg = new Map();
bodies.forEach((n, i) => {
  const fn = names.get(imports + i) ?? "?";
  // Go writes "/" in a package path as "_": the package is the name up to
  // the first "." after a leading host name ("github.com_...").
  const host = fn.match(/^[\w-]+\.(com|org|io|net|in|dev)_/);
  const from = host ? host[0].length : 0;
  const dot = fn.indexOf(".", from);
  const pkg = dot < 0 ? fn : fn.slice(0, dot);
  byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + n);
});

const fmt = (n) => n.toLocaleString("en-US");
const gzip = zlib.gzipSync(buf, { level: 9 }).length;
console.log(`${path.relative(process.cwd(), file)}: raw ${fmt(buf.length)} gzip ${fmt(gzip)}`);
for (const s of sections) console.log(`  section ${s.label.padEnd(24)} ${fmt(s.size).padStart(11)}`);
const top = Number(process.env.TOP ?? 40);
console.log(`code bytes per package (top ${top} of ${byPkg.size}):`);
for (const [pkg, n] of [...byPkg].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${fmt(n).padStart(11)}  ${pkg}`);
