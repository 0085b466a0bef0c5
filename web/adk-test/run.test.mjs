// Google's Agent Development Kit (@google/adk, pinned in this folder's own
// lockfile) running the LLM tools: USAGE.md's block, read from the file and
// run as written (a module in a temporary folder whose node_modules has the
// package, linked to dist/, and this folder's @google), against the local
// Gemini API of web/test/fakes/gemini.mjs, made the default of the
// @google/genai that ADK uses. In both engine modes. Also why the block
// gives the instruction as a function: as a string, ADK takes its
// tool_search({namespace}) for session state to fill in, and the run fails.
// Opt-in (173 packages): make test-adk, not make test.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { geminiServer } from "../test/fakes/gemini.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "..", "..");
const { IoCodeModeFactory } = await import(pathToFileURL(join(ROOT, "dist", "index.mjs")).href);
const { setDefaultBaseUrls } = await import(pathToFileURL(join(HERE, "node_modules", "@google", "genai", "dist", "node", "index.mjs")).href);
const { FunctionTool, InMemoryRunner, LlmAgent } = await import(pathToFileURL(join(HERE, "node_modules", "@google", "adk", "dist", "esm", "index.js")).href);

const SUM = "const o = await tools.orders.search({ status: 'open' }); return o.reduce((s, x) => s + x.total, 0);";
const HAS = 'import { FunctionTool, InMemoryRunner, LlmAgent } from "@google/adk";';

/** USAGE.md's block as a module: its imports on top, the rest a function of the reader's names, giving back `answer`. */
function blockModule() {
    const usage = readFileSync(join(ROOT, "web", "USAGE.md"), "utf8");
    const block = [...usage.matchAll(/^```js\n([\s\S]*?)^```/gm)].map((m) => m[1]).find((b) => b.includes(HAS));
    assert.ok(block, "USAGE.md has the ADK block");
    const lines = block.split("\n");
    return `${lines.filter((l) => l.startsWith("import ")).join("\n")}
export default async function ({ session, signal, requestMetadata, question }) {
${lines.filter((l) => !l.startsWith("import ")).join("\n")}
return answer;
}
`;
}

let dir;
before(() => {
    process.env.GEMINI_API_KEY = "test-key";
    dir = mkdtempSync(join(tmpdir(), "adk-test-"));
    mkdirSync(join(dir, "node_modules", "@interopio"), { recursive: true });
    symlinkSync(join(ROOT, "dist"), join(dir, "node_modules", "@interopio", "code-mode"), "dir");
    symlinkSync(join(HERE, "node_modules", "@google"), join(dir, "node_modules", "@google"), "dir");
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** A factory holding orders.search (two open orders, 47), its session, and the contexts its calls got. */
async function orders(worker) {
    const contexts = [];
    const codeMode = await IoCodeModeFactory({ wasmLocation: join(ROOT, "dist", "emscripten-module.wasm"), worker });
    codeMode.registerTool({
        name: "orders.search",
        description: "Search orders by status.",
        inputSchema: { type: "object", properties: { status: { type: "string" } }, required: ["status"] },
        execute: async ({ status }, { context }) => {
            contexts.push(context);
            return [{ id: "o-1", status, total: 30, note: null }, { id: "o-2", status, total: 17, note: "fragile" }];
        },
    });
    await codeMode.ready();
    return { codeMode, session: codeMode.createSession(), contexts };
}

for (const worker of [false, true]) {
    test(`USAGE.md's block runs the LLM tools, worker: ${worker}`, async (t) => {
        const server = await geminiServer([
            [
                { functionCall: { id: "f1", name: "searchTools", args: { query: "orders" } } },
                { functionCall: { id: "f2", name: "executeCode", args: { code: SUM, explanation: "Sum the open orders." } } },
                { functionCall: { id: "f3", name: "executeCode", args: { code: 5 } } },
                { functionCall: { id: "f4", name: "executeCode", args: { code: "return await tools.orders.search({ status: 'open' })" } } },
            ],
            [{ text: "The open orders total 47." }],
        ]);
        setDefaultBaseUrls({ geminiUrl: server.url });
        const { codeMode, session, contexts } = await orders(worker);
        t.after(async () => {
            codeMode.dispose();
            await server.close();
        });
        const file = join(dir, `block-${worker}.mjs`);
        writeFileSync(file, blockModule());
        const requestMetadata = { user: "ada" };
        const run = (await import(pathToFileURL(file).href)).default;
        const answer = await run({ session, signal: new AbortController().signal, requestMetadata, question: "What is the total of the open orders?" });
        assert.equal(answer, "The open orders total 47.");
        // The instruction went as it is, braces and all.
        assert.equal(server.requests[0].systemInstruction.parts.map((p) => p.text).join("\n").includes("tool_search({namespace})"), true);
        const responses = Object.fromEntries(server.requests[1].contents.at(-1).parts.map((p) => [p.functionResponse.id, p.functionResponse.response]));
        assert.deepEqual(responses.f1.results.map((h) => h.name), ["orders.search"]);
        assert.equal(responses.f2.result, 47, JSON.stringify(responses.f2));
        assert.equal(responses.f3.error.code, "INVALID_INPUT");
        assert.match(responses.f3.error.message, /executeCode: code: expected a string, got the number 5/);
        assert.equal(responses.f4.result[0].note, null);
        assert.deepEqual(contexts, [requestMetadata, requestMetadata]);
    });
}

test("the instruction as a string: ADK takes {namespace} for session state, and the run fails", async (t) => {
    const server = await geminiServer([[{ text: "never asked" }]]);
    setDefaultBaseUrls({ geminiUrl: server.url });
    const { codeMode, session } = await orders(false);
    t.after(async () => {
        codeMode.dispose();
        await server.close();
    });
    const agent = new LlmAgent({
        name: "orders",
        model: "gemini-2.5-flash",
        instruction: session.getSystemInstruction(),
        tools: session.getLlmTools().map((tool) => new FunctionTool({ name: tool.name, description: tool.description, parameters: tool.inputSchema, execute: (args) => tool.execute(args) })),
    });
    const runner = new InMemoryRunner({ agent, appName: "orders" });
    const events = runner.runEphemeral({ userId: "ada", newMessage: { role: "user", parts: [{ text: "q" }] } });
    await assert.rejects(async () => {
        for await (const _ of events);
    }, /Context variable not found: `namespace`/);
    assert.equal(server.requests.length, 0);
});

// USAGE.md's TypeScript note: the block as TypeScript type-checks against
// ADK's types with the cast it names (ADK types execute's args unknown for
// a parameters schema that is not Zod), and without it does not.
test("the block in TypeScript type-checks with USAGE's cast of args", () => {
    const ts = (args) => `import { FunctionTool, InMemoryRunner, LlmAgent } from "@google/adk";
import type { IoCodeMode } from "@interopio/code-mode";
declare const session: IoCodeMode.Session;
declare const signal: AbortSignal;
declare const question: string;
const requestMetadata = { user: "ada" };
const agent = new LlmAgent({
    name: "orders",
    model: "gemini-2.5-flash",
    instruction: () => session.getSystemInstruction(),
    tools: session.getLlmTools().map(
        (t) => new FunctionTool({ name: t.name, description: t.description, parameters: t.inputSchema, execute: (args) => t.execute(${args}, { signal, context: requestMetadata }) }),
    ),
});
const runner = new InMemoryRunner({ agent, appName: "orders" });
export async function ask(): Promise<string | undefined> {
    let answer: string | undefined;
    for await (const event of runner.runEphemeral({ userId: "ada", newMessage: { role: "user", parts: [{ text: question }] } })) {
        answer = event.content?.parts?.find((p) => p.text)?.text ?? answer;
    }
    return answer;
}
`;
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(join(dir, "cast.ts"), ts("args as IoCodeMode.ExecuteCodeArgs | IoCodeMode.SearchToolsArgs"));
    writeFileSync(join(dir, "bare.ts"), ts("args"));
    const tsc = (file) => {
        const compilerOptions = { strict: true, noEmit: true, target: "es2022", module: "nodenext", moduleResolution: "nodenext", lib: ["es2022", "dom"], skipLibCheck: true, types: [] };
        writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: [file] }));
        return spawnSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", join(dir, "tsconfig.json")], { encoding: "utf8", timeout: 300_000 });
    };
    const cast = tsc("cast.ts");
    assert.equal(cast.status, 0, cast.stdout + cast.stderr);
    const bare = tsc("bare.ts");
    assert.match(bare.stdout, /Argument of type 'unknown' is not assignable to parameter of type 'ExecuteCodeArgs'/);
});
