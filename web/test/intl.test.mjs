// The sandbox's Intl (prelude/intl.js), toLocale* and localeCompare against
// the test process's own (Node's full ICU, en-US, time zone UTC): every row
// of intl-cases.mjs must give the same result, character for character
// (U+00A0 and U+202F included); time zones are the host's (the test
// process's Intl, through the loader). Then what differs on purpose: another
// locale formats as en-US with one warn per run; and what a hostile program
// (or page) does to Intl.
process.env.TZ = "UTC";
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { assetPath, indexURL, loadFactory, run } from "./helpers.mjs";
import { prologue, rows } from "./intl-cases.mjs";

let api, session;
before(async () => {
    const IoCodeModeFactory = await loadFactory();
    // The limit is no subject here: sorting 20,000 strings by localeCompare
    // took over 60 s at a load of 30 (CI beside eight helpers).
    api = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 600_000, maxResultChars: 1_000_000, tools: [] });
    session = api.createSession();
});
after(() => api.dispose());

// Each row's value as both sides report it: JSON data, or a throw's name.
// The rows go in runs of 25, each result within a run's result limit.
const body = (part) => `${prologue}return [${part.map((r) => `() => (${r})`).join(",\n")}].map((f) => { try { const v = f(); return v === undefined ? "undefined" : JSON.parse(JSON.stringify(v)); } catch (e) { return "throws " + e.name; } });`;
const cut = (v) => { const s = JSON.stringify(v); return s.length > 600 ? s.slice(0, 600) + "..." : s; };

describe("Intl against the host's ICU", () => {
    test(`${rows.length} rows give what Node's Intl gives`, async () => {
        const bad = [];
        for (let at = 0; at < rows.length; at += 25) {
            const part = rows.slice(at, at + 25), want = new Function(body(part))();
            const r = await run(session, body(part));
            assert.equal(r.ok, true, JSON.stringify(r.error));
            assert.deepEqual(r.logs ?? [], [], "en-US and UTC log no warning");
            part.forEach((row, i) => {
                try {
                    assert.deepStrictEqual(r.result[i], want[i]);
                } catch {
                    bad.push(`${row}\n  sandbox: ${cut(r.result[i])}\n  host:    ${cut(want[i])}`);
                }
            });
        }
        assert.deepEqual(bad, [], `${bad.length} of ${rows.length} rows differ:\n${bad.join("\n")}`);
    });
});

// Two long strings that begin alike are compared by what follows the
// beginning (prelude/intl.js, early): wherever they part, next to a combining
// mark NFD reorders (U+0483 and U+3099, second-level marks as in ICU),
// inside a surrogate pair, a run of digits or an expansion, they must order
// as what follows would alone (its keys, built whole). Rows and random pairs
// of an alphabet of such characters, under each option that shapes the keys.
describe("long strings compare as what follows their common beginning", () => {
    test("every pair, five option sets", async () => {
        const r = await run(session, `const P = 'Lorem ipsum dolor sit amet, '.repeat(40);
const A = ['a', 'B', 'z', 'é', 'e\\u0301', '\\u0301', '\\u0327', '\\u0345', '\\u0483', '\\u3099', 'か', 'が', '中', 'Я', 'ß', 'æ', 'ø', '0', '1', '9', '00', ' ', '-', '.', '\\ud834\\udd5e', '\\ud834\\udd57', '\\ud83d', '\\uac00', '\\u11a8', '\\t', '\\x01'];
let seed = 7;
const rnd = (n) => (seed = (seed * 1103515245 + 12345) % 2147483648, Math.floor(seed / 2147483648 * n));
const str = (n) => { let x = ''; for (let i = 0; i < n; i++) x += A[rnd(A.length)]; return x; };
const pairs = [['\\u0483\\u3099', '\\u0483中'], ['9\\u0483\\u3099', '9\\u0483a'], ['12', '110'], ['0'.repeat(50) + '2', '10'], ['ß', 'ss'], ['\\ud834\\udd5e', '\\ud834\\udd57\\ud834\\udd65']];
for (let i = 0; i < 300; i++) { const c = str(rnd(4)); pairs.push([c + str(rnd(8)), c + str(rnd(8))]); }
const bad = [];
for (const o of [undefined, { numeric: true }, { sensitivity: 'base' }, { ignorePunctuation: true }, { caseFirst: 'upper', sensitivity: 'case' }]) {
  const c = new Intl.Collator('en', o).compare;
  for (const [x, y] of pairs) if (c(P + x, P + y) !== c(x, y)) bad.push([x, y, o]);
}
return [pairs.length, bad.slice(0, 5)];`);
        assert.deepEqual(r.result, [306, []], JSON.stringify(r.error ?? r.result));
    });
});

describe("Intl where the sandbox differs", () => {
    test("another locale formats as en-US, with one warn per run", async () => {
        const r = await run(session, "return [new Intl.NumberFormat('de-DE').format(1234.5), (1234.5).toLocaleString('fr-FR'), new Date(0).toLocaleDateString(['ja-JP', 'en-US']), 'a'.localeCompare('B', 'sv')]");
        assert.deepEqual(r.result, ["1,234.5", "1,234.5", "1/1/1970", -1]);
        assert.equal(r.logs.length, 1, JSON.stringify(r.logs));
        assert.match(r.logs[0].message, /formats in en-US only: "de-DE" was formatted as en-US/);
        assert.equal(r.logs[0].level, "warn");
    });
    test("a time zone is the host's, as a browser formats it; an unknown one is a RangeError naming it", async () => {
        const r = await run(session, "const d = new Date(Date.UTC(2024, 0, 15, 13, 5)); return [d.toLocaleTimeString('en-US', { timeZone: 'America/New_York' }), new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Tokyo', hour: 'numeric' }).format(d), new Intl.DateTimeFormat('en-US', { timeZone: 'asia/tokyo' }).resolvedOptions().timeZone, (() => { try { d.toLocaleString('en-US', { timeZone: 'Mars/Olympus' }); } catch (e) { return e.name + ': ' + e.message; } })()]");
        assert.deepEqual(r.result, ["8:05:00 AM", "10 PM", "Asia/Tokyo", "RangeError: Invalid time zone specified: Mars/Olympus"]);
        assert.deepEqual(r.logs, []);
    });
    test("hour12: false is h23, as ECMA-402 says since 2024 (this Node's ICU still gives 24:05)", async () => {
        const r = await run(session, "return new Date(Date.UTC(2024, 6, 4, 0, 5)).toLocaleTimeString('en-US', { hour12: false, hour: '2-digit', minute: '2-digit' })");
        assert.equal(r.result, "00:05");
    });
    test("an option value the sandbox does not implement is a RangeError naming it", async () => {
        const r = await run(session, "return [() => new Intl.NumberFormat('en', { style: 'unit', unit: 'kilometer-per-hour' }), () => new Intl.NumberFormat('en', { notation: 'scientific' }), () => new Intl.DateTimeFormat('en', { era: 'short' }), () => new Intl.NumberFormat('en', { numberingSystem: 'arab' })].map((f) => { try { f(); return 'no error'; } catch (e) { return e.name + ': ' + e.message; } })");
        assert.deepEqual(r.result, [
            'RangeError: Intl.NumberFormat: unit "kilometer-per-hour" is not one this sandbox supports (it has the simple units, as Intl.supportedValuesOf("unit") lists them)',
            'RangeError: Intl.NumberFormat: option notation "scientific" is not one this sandbox supports (it has: standard, compact)',
            'RangeError: Intl.DateTimeFormat: option era "short" is not one this sandbox supports (it has: )',
            'RangeError: Intl.NumberFormat: option numberingSystem "arab" is not one this sandbox supports (it has: latn)',
        ]);
    });
    test("a calendar other than gregory in the locale formats in gregory, with a warn that says so", async () => {
        const r = await run(session, "const f = new Intl.DateTimeFormat('en-US-u-ca-buddhist', { timeZone: 'UTC' }); return [f.format(0), f.resolvedOptions().calendar, new Intl.DateTimeFormat('en-u-ca-islamic').resolvedOptions().locale]");
        assert.deepEqual(r.result, ["1/1/1970", "gregory", "en"]);
        assert.equal(r.logs.length, 1, JSON.stringify(r.logs));
        assert.match(r.logs[0].message, /Gregorian calendar only: "en-US-u-ca-buddhist" was formatted in it, not in buddhist/);
    });
    test("a currency without an English name here shows its code, with a warn", async () => {
        const r = await run(session, "return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'THB', currencyDisplay: 'name' }).format(2)");
        assert.equal(r.result, "2.00 THB");
        assert.match(r.logs[0].message, /no English name for THB/);
    });
});

describe("Intl and hostile programs", () => {
    const cases = [
        ["huge fraction digits are a RangeError, as in V8", "try { (1).toLocaleString('en', { maximumFractionDigits: 1e9 }) } catch (e) { return e.name + ': ' + e.message }", "RangeError: maximumFractionDigits value is out of range."],
        ["an options getter that throws: its error, as in V8", "try { new Intl.NumberFormat('en', { get style() { throw new Error('boom') } }) } catch (e) { return e.message }", "boom"],
        ["a locales list whose iterator throws", "try { new Intl.Collator({ length: 1, get 0() { throw new TypeError('no') } }) } catch (e) { return e.message }", "no"],
        ["a replaced prototype format does not reach toLocaleString", "Intl.NumberFormat.prototype.formatToParts = () => 'hijacked'; Object.defineProperty(Intl.NumberFormat.prototype, 'format', { get: () => () => 'hijacked' }); return [(1234.5).toLocaleString(), new Intl.NumberFormat().format(1)]", ["1,234.5", "hijacked"]],
        ["a replaced Intl does not reach toLocaleString or localeCompare", "globalThis.Intl = { NumberFormat: function () { return { format: () => 'hijacked' } }, Collator: function () { return { compare: () => 0 } } }; return [(1234.5).toLocaleString(), 'b'.localeCompare('a'), new Intl.NumberFormat().format(1)]", ["1,234.5", 1, "hijacked"]],
        ["valueOf that throws on a number-like", "try { new Intl.NumberFormat().format({ valueOf() { throw new Error('v') } }) } catch (e) { return e.message }", "v"],
        ["options on Object.prototype do not reach a call without options, as in V8", "Object.prototype.maximumFractionDigits = 0; Object.prototype.sensitivity = 'base'; Object.prototype.month = 'long'; const r = [(1.5).toLocaleString(), new Intl.NumberFormat().format(1.5), 'a'.localeCompare('A'), new Date(0).toLocaleDateString()]; delete Object.prototype.maximumFractionDigits; delete Object.prototype.sensitivity; delete Object.prototype.month; return r", ["1.5", "1.5", -1, "1/1/1970"]],
        ["toLocaleString on a wrong receiver", "try { Number.prototype.toLocaleString.call('1') } catch (e) { return e.name }", "TypeError"],
        ["a huge number of digits to round", "return new Intl.NumberFormat('en', { maximumFractionDigits: 100, minimumFractionDigits: 100 }).format(1e-100).length", 102],
        ["sorting 20,000 strings", "const a = Array.from({ length: 2e4 }, (_, i) => 'Name ' + ((i * 7919) % 20000)); a.sort((x, y) => x.localeCompare(y, undefined, { numeric: true })); return [a[0], a[1], a[19999]]", ["Name 0", "Name 1", "Name 19999"]],
        ["20,000 instants of a zone, each a host call (kept per run, the cache cleared past 10,000)", "const f = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', dateStyle: 'short', timeStyle: 'short' }); let last; for (let i = 0; i < 2e4; i++) last = f.format(Date.UTC(2024, 2, 10) + i * 60000); return [last, f.format(Date.UTC(2024, 2, 10, 6, 59)), f.format(Date.UTC(2024, 2, 10, 7))]", ["3/23/24, 5:19 PM", "3/10/24, 1:59 AM", "3/10/24, 3:00 AM"]],
        ["a zone name of a million characters, an object, a throwing toString", "return [() => new Intl.DateTimeFormat('en', { timeZone: 'x'.repeat(1e6) }), () => new Intl.DateTimeFormat('en', { timeZone: { toString: () => 'Europe/Berlin' } }).resolvedOptions().timeZone, () => new Intl.DateTimeFormat('en', { timeZone: { toString() { throw new Error('tz') } } })].map((f) => { try { return f(); } catch (e) { return e.name + ': ' + e.message.slice(0, 40); } })", ["RangeError: Invalid time zone specified: xxxxxxxxxxx", "Europe/Berlin", "Error: tz"]],
        ["the host's time zones are no global of the program", "new Date(0).toLocaleString('en', { timeZone: 'Asia/Tokyo' }); const g = Function('return this')(); return [typeof __cm_tz, Object.getOwnPropertyNames(g).filter((n) => n.startsWith('__')), String(Date.prototype.toLocaleString).includes('__cm')]", ["undefined", [], false]],
        ["Intl is a writable, configurable, non-enumerable global, as on a page", "const t = typeof Intl, d = Object.getOwnPropertyDescriptor(globalThis, 'Intl'); return [t, d.writable, d.configurable, d.enumerable]", ["object", true, true, false]],
    ];
    test("the page's Intl replaced after the package loaded does not reach the sandbox's time zones", async () => {
        const DTF = Intl.DateTimeFormat, format = Object.getOwnPropertyDescriptor(DTF.prototype, "format");
        Intl.DateTimeFormat = function () { throw new RangeError("patched"); };
        Object.defineProperty(DTF.prototype, "format", { configurable: true, get: () => () => "patched, GMT+09:00" });
        try {
            const r = await run(session, "return new Date(Date.UTC(2024, 0, 15, 13, 5)).toLocaleString('en-US', { timeZone: 'Europe/Lisbon', timeZoneName: 'long' })");
            assert.equal(r.result, "1/15/2024, 1:05:00 PM Western European Standard Time");
        } finally {
            Intl.DateTimeFormat = DTF;
            Object.defineProperty(DTF.prototype, "format", format);
        }
    });
    test("a page whose Intl throws when read still loads the package; zones then format in UTC with a warn", () => {
        // In a child process, in-thread (a worker would have an Intl of its own).
        const script = `Object.defineProperty(globalThis, "Intl", { configurable: true, get() { throw new Error("no Intl here"); } });
            const { IoCodeModeFactory } = await import(${JSON.stringify(indexURL)});
            const api = await IoCodeModeFactory({ wasmLocation: ${JSON.stringify(assetPath)}, worker: false, tools: [] });
            const r = await api.createSession().getLlmTools()[1].execute({ code: "return new Date(Date.UTC(2024, 0, 15, 13, 5)).toLocaleTimeString('en-US', { timeZone: 'Europe/Paris' })", explanation: "x" });
            process.stdout.write(JSON.stringify([r.result, r.logs]));
            process.exit(0);`;
        const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 120_000 });
        assert.equal(child.status, 0, child.stderr.slice(-2000));
        assert.deepEqual(JSON.parse(child.stdout), ["1:05:00 PM", [{ level: "warn", message: 'Intl.DateTimeFormat: the host gave no time zone "Europe/Paris": it was formatted in UTC' }]]);
    });
    for (const [name, code, want] of cases) {
        test(name, async () => {
            const r = await run(session, code);
            assert.equal(r.ok, true, JSON.stringify(r.error));
            assert.deepEqual(r.result, want);
        });
    }
});
