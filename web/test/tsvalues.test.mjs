// TypeScript that is not erasable (enum, const enum, namespace with
// values, parameter properties, using and await using) runs in the
// sandbox as tsc's own output runs: each program runs there and, compiled
// by the TypeScript devDependency (transpileModule, isolatedModules,
// ES2022), under Node, and the two results must be the same. Every one of
// these programs was a SyntaxError before.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import ts from "typescript";
import { assetPath, loadFactory, run } from "./helpers.mjs";

let api;
let session;
before(async () => {
    const IoCodeModeFactory = await loadFactory();
    api = await IoCodeModeFactory({ wasmLocation: assetPath, timeout: 10000, tools: [] });
    session = api.createSession();
});
after(() => api.dispose());

const AsyncFunction = (async () => {}).constructor;

// tsc compiles the program as the body of an async function (the
// sandbox's program is one) and Node runs it; the helpers tsc emits for
// `using` come before that function.
async function underTsc(code) {
    const out = ts.transpileModule(`async function __program() {\n${code}\n}\n`, {
        compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, isolatedModules: true },
    }).outputText;
    const v = await new AsyncFunction(`${out}\nreturn await __program();`)();
    return v === undefined ? v : JSON.parse(JSON.stringify(v));
}

// Resources whose disposal each program logs (with an error to throw, a
// delay for the asynchronous ones).
const resources = `
const log: string[] = [];
class Res {
  constructor(public name: string, private fail = "") {}
  [Symbol.dispose]() { log.push("dispose " + this.name); if (this.fail) throw new Error(this.fail) }
}
class AsyncRes {
  constructor(readonly name: string) {}
  async [Symbol.asyncDispose]() { await null; log.push("async dispose " + this.name) }
}
const show = (e: any): any => e && { name: e.name, message: e.message, error: show(e.error), suppressed: show(e.suppressed) };
`;

const programs = [
    ["a numeric enum: auto-increment, reverse mapping, members computed from earlier ones",
        "enum Color { Red, Green = 5, Blue, Mask = Green | Blue, Twice = Color.Blue * 2 }\nreturn { Color, name: Color[Color.Blue] }"],
    ["a string enum and a mixed one",
        "enum Dir { Up = 'UP', Down = \"DOWN\" }\nenum Mixed { A = 1, B = 'b', C = 3, D }\nreturn { Dir, Mixed, up: Dir.Up }"],
    ["a const enum read by its members",
        "const enum Flags { None = 0, A = 1 << 0, B = 1 << 1, AB = A | B }\nreturn [Flags.AB, Flags.A + Flags.B]"],
    ["a computed member and a negative one",
        "const base = () => 40;\nenum E { A = base() + 2, B = -1, C, D = 'x'.length }\nreturn E"],
    ["a declared enum and a declared const enum are erased", "declare enum D { X }\ndeclare const enum DC { Y }\nenum K { A = 2 }\nreturn K"],
    ["an enum in a block and in a function", "function kinds() { enum Kind { A, B } return Kind }\nif (true) { enum Local { X = 'x' } var seen = Local.X }\nreturn [kinds(), seen]"],
    ["hostile: enum members named __proto__, constructor, hasOwnProperty, toString",
        "enum P { __proto__ = 7, constructor, hasOwnProperty, toString = 'x' }\nreturn { keys: Object.keys(P), values: Object.values(P), proto: Object.getPrototypeOf(P) === Object.prototype, own: Object.prototype.hasOwnProperty.call(P, 'hasOwnProperty') }"],
    ["hostile: an enum merged with an enum and with a namespace",
        "enum E { A, B }\nenum E { C = 10 }\nnamespace E { export function describe(e: E) { return E[e] } export const n = 3 }\nreturn { E: { ...E }, d: E.describe(E.C), n: E.n }"],
    ["a namespace with functions, classes, consts, types and hidden members",
        "namespace Geometry {\n  const PI2 = Math.PI * 2;\n  export interface P { x: number }\n  export type T = P[];\n  export const unit: number = 1, zero = 0;\n  export function circle(r: number): number { return Math.round(PI2 * r) }\n  export class Pt { constructor(public x: number) {} }\n  export let count = 5;\n}\nreturn { c: Geometry.circle(2), unit: Geometry.unit, zero: Geometry.zero, pt: new Geometry.Pt(3), count: Geometry.count, keys: Object.keys(Geometry).sort() }"],
    ["a dotted namespace with a nested namespace and an exported enum",
        "namespace App.Core {\n  export namespace Util { export const twice = (n: number) => n * 2 }\n  export enum Level { Low = 1, High }\n  export function run() { return Util.twice(Level.High) }\n}\nnamespace App.Core { export const more = 1 }\nmodule Legacy { export const v = 'm' }\nreturn { r: App.Core.run(), level: App.Core.Level, more: App.Core.more, keys: Object.keys(App.Core).sort(), v: Legacy.v }"],
    ["a namespace merged with a function and with a class",
        "function greet(n: string) { return greet.prefix + n }\nnamespace greet { export const prefix = 'hi ' }\nclass Box { static of(v: number) { return new Box() } }\nnamespace Box { export const kind = 'box' }\nreturn [greet('a'), Box.kind]"],
    ["parameter properties: modifiers, defaults, optional, field order and initializers",
        "class P {\n  extra = 'e';\n  constructor(private x: number, public readonly y = 2, protected z?: string, override: number = 0) {}\n  get sum() { return this.x + this.y }\n}\nconst p = new P(1);\nreturn { p, sum: p.sum, keys: Object.keys(p) }"],
    ["parameter properties in a derived class, after super(), with a field that reads one",
        "class Base { constructor(public id: string) {} }\nclass Item extends Base {\n  label = 'item:' + this.id;\n  early = String(this.n);\n  constructor(id: string, public n: number) {\n    super(id.toUpperCase())\n    this.n += 1\n  }\n}\nconst it = new Item('a', 2);\nreturn { it, keys: Object.keys(it) }"],
    ["using: disposal in reverse order at the block's end, the result kept",
        resources + "function f() {\n  using a = new Res('a'), b = new Res('b');\n  using none = null;\n  log.push('body');\n  return a.name + b.name;\n}\nconst r = f();\nreturn { r, log }"],
    ["using: an error in the body and in two disposals is a SuppressedError chain",
        resources + "try {\n  using a = new Res('a', 'fail a');\n  using b = new Res('b', 'fail b');\n  throw new Error('body');\n} catch (e) {\n  return { e: show(e), log };\n}"],
    ["using: a value with no dispose method is a TypeError, after the earlier one is disposed",
        resources + "try {\n  using a = new Res('a');\n  using b = { name: 'plain' } as any;\n  log.push('not reached');\n} catch (e) {\n  return { name: e.name, log };\n}"],
    ["await using: async disposal, awaited, then sync ones, in reverse order",
        resources + "{\n  using s = new Res('sync');\n  await using a = new AsyncRes('a'), b = new AsyncRes('b');\n  await using n = undefined;\n  log.push('body');\n}\nlog.push('after');\nreturn log"],
    ["using at the program's top level", resources + "using top = new Res('top');\nlog.push('body ' + top.name);\nreturn log"],
    // The declaration's end touches its block's end: the try must open
    // before the finally that closes it (it came after, a SyntaxError).
    ["using whose block ends right after it", resources + "{using a = new Res('a')}\n{ using b = new Res('b'), c = new Res('c') }\nreturn log"],
    ["using on the program's last line", resources + "log.push('start')\nusing last = new Res('last')"],
    ["a huge enum (10,000 members)",
        `enum Big { ${Array.from({ length: 10000 }, (_, i) => `M${i}${i === 5000 ? " = 100000" : ""}`).join(", ")} }\nreturn [Big.M0, Big.M4999, Big.M5000, Big.M9999, Big[Big.M9999], Object.keys(Big).length]`],
    ["namespaces nested 30 deep",
        `${Array.from({ length: 30 }, (_, i) => `namespace N${i} { export `).join("")}const x = 1${" }".repeat(30)}\nlet n: any = N0, depth = 0;\nwhile (n[\`N\${depth + 1}\`]) n = n[\`N\${++depth}\`];\nreturn [depth, n.x]`],
];

for (const [name, code] of programs) {
    test(name, async () => {
        const r = await run(session, code);
        assert.equal(r.ok, true, JSON.stringify(r.error));
        assert.deepEqual(r.result, await underTsc(code));
    });
}

test("a runtime error after rewritten TypeScript keeps the model's line, and its column where the line is as written", async () => {
    const code = "enum E { A = 1 }\nnamespace N { export const a = 2 }\nclass C { constructor(private x: number) {} }\nconst o: any = null;\nreturn o.x + E.A + N.a";
    const r = await run(session, code);
    assert.equal(r.ok, false);
    assert.equal(r.error.name, "TypeError");
    assert.equal(r.error.line, 5);
    assert.equal(r.error.column, 9); // where QuickJS puts it in `const o = null;\nreturn o.x`
});

test("a runtime error inside an enum member's value points at the member's line", async () => {
    const r = await run(session, "const f: any = undefined;\nenum E {\n  A = 1,\n  B = f(),\n}\nreturn E");
    assert.equal(r.ok, false);
    assert.equal(r.error.name, "TypeError");
    assert.equal(r.error.line, 4);
});
