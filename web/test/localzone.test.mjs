// The sandbox's own time zone (config.timeZone; by default the host's, as
// the page's or the Node process's JavaScript sees it): Date's local-time
// methods, setHours and the constructor across DST changes, Date.parse of a
// local string, toString and toLocaleString without a timeZone give what
// Node itself gives with TZ set to that zone. testdata/localzone.json holds
// the rows (the Go tests read it too); it is checked against a child Node
// here. Without the zone, every zone's answers were UTC's.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { assetPath, indexURL, loadFactory, root, run } from "./helpers.mjs";

const table = JSON.parse(readFileSync(join(root, "testdata", "localzone.json"), "utf8"));
const zones = Object.keys(table.want);
// QuickJS writes toString's offset without V8's " (Eastern Standard Time)".
const noName = (v) => JSON.parse(JSON.stringify(v).replace(/(GMT[+-]\d{4}) \([^)]*\)/g, "$1"));
// Node's own answers to the rows with TZ=zone, in a child process.
const nodeIn = (zone) => JSON.parse(execFileSync(process.execPath, ["-e",
    "process.stdout.write(JSON.stringify(JSON.parse(process.argv[1]).map((e) => (0, eval)(e))))", JSON.stringify(table.exprs)],
    { env: { ...process.env, TZ: zone } }).toString());

/** a equals b, or is b with a string's trailing "GMT+0" read "UTC". */
const sameOrUTC = (a, b) => JSON.stringify(a) === JSON.stringify(b) || (typeof a === "string" && typeof b === "string" && b.replace(/GMT\+0$/, "UTC") === a) ||
    (Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameOrUTC(x, b[i])));

let IoCodeModeFactory;
before(async () => { IoCodeModeFactory = await loadFactory(); });

describe("the sandbox's time zone", () => {
    for (const zone of zones) {
        test(`${zone}: ${table.exprs.length} rows as Node gives them with TZ=${zone}`, async () => {
            if (process.version === table.node) assert.deepEqual(nodeIn(zone), table.want[zone], "the table is Node's own");
            const api = await IoCodeModeFactory({ wasmLocation: assetPath, timeZone: zone, tools: [] });
            try {
                const r = await run(api.createSession(), `return [${table.exprs.join(",\n")}]`);
                assert.equal(r.ok, true, JSON.stringify(r.error));
                const bad = table.exprs.flatMap((e, i) => {
                    try { assert.deepStrictEqual(r.result[i], noName(table.want[zone][i])); return []; } catch { return [`${e}\n  sandbox: ${JSON.stringify(r.result[i])}\n  node:    ${JSON.stringify(table.want[zone][i])}`]; }
                });
                assert.deepEqual(bad, []);
            } finally {
                await api.dispose();
            }
        });
    }

    test("without timeZone, the host's: a Node process with TZ=Asia/Kolkata (or America/New_York) and no config key", () => {
        const script = `
            const { IoCodeModeFactory } = await import(${JSON.stringify(indexURL)});
            const api = await IoCodeModeFactory({ wasmLocation: ${JSON.stringify(assetPath)}, tools: [], worker: process.env.CODE_MODE_WORKER === "1" });
            const code = "[" + JSON.parse(process.argv[1]).join(",") + ", new Intl.DateTimeFormat().resolvedOptions().timeZone]";
            const r = await api.createSession().getLlmTools()[1].execute({ code: "return " + code });
            const own = (0, eval)(code);
            await api.dispose();
            process.stdout.write(JSON.stringify({ r, own }));`;
        for (const zone of ["Asia/Kolkata", "America/New_York"]) {
            const { r, own } = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script, JSON.stringify(table.exprs)],
                { env: { ...process.env, TZ: zone } }).toString());
            assert.equal(r.ok, true, JSON.stringify(r.error));
            // resolvedOptions().timeZone included: the name is the host Intl's own ("Asia/Calcutta" in Node 20).
            assert.deepStrictEqual(r.result, noName(own), zone);
        }
    });

    // TZ set to a POSIX rule ("EST+5") or a zoneinfo file's path is a fixed
    // offset to ICU: Node's Date applies it while its Intl names no zone, and
    // the sandbox was in UTC. TZ set to "" is ICU's "Etc/Unknown", which
    // every factory refused as an unknown config.timeZone nobody gave.
    test("without timeZone, a host zone its Intl does not name: the sandbox's dates are the host Date's", () => {
        const script = `
            const { IoCodeModeFactory } = await import(${JSON.stringify(indexURL)});
            const api = await IoCodeModeFactory({ wasmLocation: ${JSON.stringify(assetPath)}, tools: [], worker: process.env.CODE_MODE_WORKER === "1" });
            const code = "[" + JSON.parse(process.argv[1]).join(",") + "]";
            const r = await api.createSession().getLlmTools()[1].execute({ code: "return [" + code + ", new Intl.DateTimeFormat().resolvedOptions().timeZone]" });
            const own = (0, eval)(code);
            await api.dispose();
            process.stdout.write(JSON.stringify({ r, own }));`;
        for (const [tz, name] of [["EST+5", "Etc/GMT+5"], ["JST-9", "Etc/GMT-9"], ["/usr/share/zoneinfo/Asia/Tokyo", "Etc/GMT-9"], ["", "UTC"]]) {
            const { r, own } = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script, JSON.stringify(table.exprs)],
                { env: { ...process.env, TZ: tz } }).toString());
            assert.equal(r.ok, true, `TZ=${JSON.stringify(tz)}: ${JSON.stringify(r.error)}`);
            if (tz !== "") assert.deepStrictEqual(r.result[0], noName(own), `TZ=${JSON.stringify(tz)}`);
            // Etc/Unknown's short name in Node's formats is "GMT+0", the sandbox's UTC's "UTC": the rest is equal.
            else assert.ok(sameOrUTC(r.result[0], noName(own)), `TZ="": ${JSON.stringify(r.result[0])}\n  node: ${JSON.stringify(own)}`);
            assert.equal(r.result[1], name, `TZ=${JSON.stringify(tz)}`);
        }
    });

    // The host's offset is read with the Date taken at load: a page's fake
    // clock (or any script) replacing Date.UTC later does not move it.
    test("without timeZone, an unnamed host zone is read with the Date of load", () => {
        const script = `
            const { IoCodeModeFactory } = await import(${JSON.stringify(indexURL)});
            Date.UTC = () => NaN;
            const api = await IoCodeModeFactory({ wasmLocation: ${JSON.stringify(assetPath)}, tools: [], worker: process.env.CODE_MODE_WORKER === "1" });
            const r = await api.createSession().getLlmTools()[1].execute({ code: "return [new Date(1719835200000).getHours(), new Intl.DateTimeFormat().resolvedOptions().timeZone]" });
            await api.dispose();
            process.stdout.write(JSON.stringify(r));`;
        const r = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { env: { ...process.env, TZ: "EST+5" } }).toString());
        assert.deepEqual(r.result, [7, "Etc/GMT+5"], JSON.stringify(r));
    });

    test("timeZone \"UTC\" pins UTC whatever the host's", async () => {
        const api = await IoCodeModeFactory({ wasmLocation: assetPath, timeZone: "UTC", tools: [] });
        try {
            const r = await run(api.createSession(), "return [new Date(0).getTimezoneOffset(), new Date(Date.UTC(2024, 0, 15, 13)).getHours(), new Date(0).toString(), new Intl.DateTimeFormat().resolvedOptions().timeZone]");
            assert.deepEqual(r.result, [0, 13, "Thu Jan 01 1970 00:00:00 GMT+0000", "UTC"]);
        } finally {
            await api.dispose();
        }
    });

    test("a bad timeZone is the factory's TypeError naming config.timeZone and the value", async () => {
        for (const [timeZone, message] of [
            ["Mars/Olympus", 'config.timeZone: unknown time zone "Mars/Olympus": expected an IANA name such as "America/New_York" or "UTC"'],
            ["Local", 'config.timeZone: unknown time zone "Local"'],
            ["", 'config.timeZone: expected an IANA time zone name such as "America/New_York" or "UTC", got the string ""'],
            [-5, 'config.timeZone: expected an IANA time zone name such as "America/New_York" or "UTC", got the number -5'],
        ]) {
            await assert.rejects(IoCodeModeFactory({ wasmLocation: assetPath, timeZone, tools: [] }),
                (e) => e instanceof TypeError && e.message.startsWith(message), String(timeZone));
        }
        await assert.rejects(IoCodeModeFactory({ wasmLocation: assetPath, timezone: "UTC" }), (e) => e instanceof TypeError && /timezone/.test(e.message) && /timeZone/.test(e.message));
    });
});
