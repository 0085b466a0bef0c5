// What a model reads of tools, checked as TypeScript: the signatures of
// searchTools' hits and the system instruction's block, whatever catalog
// they came from (wild-catalogs.test.mjs, adapters-mcp-servers.test.mjs).
import ts from "typescript";

// The TypeScript a model would read: a signature's call head
// (tools.ns.name(...) or tools["1x"](...)) is a declaration once it is
// `declare function`; the rest (doc comments, `type X = ...;` lines,
// the types) is checked as written, against a lib of the few global types
// signatures name.
const stubLib = `interface Array<T> { length: number; [n: number]: T }
interface Boolean {} interface Function {} interface IArguments {} interface Number {} interface Object {}
interface RegExp {} interface String {} interface CallableFunction {} interface NewableFunction {}
interface Promise<T> { then(): T }
type Record<K extends keyof any, T> = { [P in K]: T };`;

/** The expression that reaches a tool from sandbox code. */
export const toolPath = (name) => "tools" + name.split(".").map((s) => (/^[A-Za-z_$][\w$]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`)).join("");

/**
 * Checks TypeScript texts ({ label, text, names }), each a file, with tsc:
 * every `toolPath(name)(` head becomes a function declaration. Returns the
 * problems, each naming its label.
 */
export function typeScriptProblems(files) {
    const sources = { "lib.d.ts": stubLib };
    const problems = [];
    files.forEach(({ label, text, names }, i) => {
        let src = text;
        names.forEach((name, j) => {
            const head = `${toolPath(name)}(`;
            if (!src.includes(head)) problems.push(`${label}: no ${head} in ${JSON.stringify(text.slice(0, 300))}`);
            src = src.split(head).join(`declare function __tool${j}(`);
        });
        sources[`f${i}.ts`] = `export {};\n${src}`;
    });
    const host = ts.createCompilerHost({});
    host.getSourceFile = (fileName, lv) => (fileName in sources ? ts.createSourceFile(fileName, sources[fileName], lv) : undefined);
    host.fileExists = (fileName) => fileName in sources;
    host.readFile = (fileName) => sources[fileName];
    host.getDefaultLibFileName = () => "lib.d.ts";
    host.writeFile = () => {};
    const program = ts.createProgram(Object.keys(sources).filter((f) => f !== "lib.d.ts"), { strict: true, noEmit: true, types: [] }, host);
    for (const d of ts.getPreEmitDiagnostics(program)) {
        const i = d.file ? Number(d.file.fileName.slice(1, -3)) : -1;
        const at = d.file ? JSON.stringify(d.file.text.slice(Math.max(0, d.start - 60), d.start + 40)) : "";
        problems.push(`${files[i]?.label ?? "lib"}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")} at ${at}`);
    }
    return problems;
}
