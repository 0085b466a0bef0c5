// @mode-independent: type-checks the package's declarations; runs no engine.
// An app's TypeScript with only some of the optional peer SDKs installed:
// the package's .d.ts files must compile with skipLibCheck off (a strict
// setup's choice), whichever peer is missing. The app is a temporary folder
// beside no node_modules of this repository: dist's declarations copied into
// its node_modules, SDK 2 linked there, SDK 1 absent.
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { dist, root } from "./helpers.mjs";

const APP = `
import type { IoCodeMode } from "@interopio/code-mode";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpServer, createMcpHandler } from "@modelcontextprotocol/server";
import { fromMcpClient, toMcpServer } from "@interopio/code-mode/mcp";

export async function consume(codeMode: IoCodeMode.API, session: IoCodeMode.Session) {
    const client = new Client({ name: "my-copilot", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL("https://mcp.example.com/mcp")));
    const github = await fromMcpClient(client, { namespace: "github" });
    github.registerTools(codeMode);
    return createMcpHandler(() => toMcpServer(session, { McpServer }));
}
`;

test("an app on MCP SDK 2 alone type-checks mcp.d.ts with skipLibCheck off", (t) => {
    const app = mkdtempSync(join(tmpdir(), "code-mode-dts-"));
    t.after(() => rmSync(app, { recursive: true, force: true }));
    const pkg = join(app, "node_modules", "@interopio", "code-mode");
    mkdirSync(pkg, { recursive: true });
    for (const f of ["package.json", "index.d.ts", "mcp.d.ts"]) copyFileSync(join(dist, f), join(pkg, f));
    mkdirSync(join(app, "node_modules", "@modelcontextprotocol"));
    for (const sdk of ["client", "server"]) {
        symlinkSync(join(root, "node_modules", "@modelcontextprotocol", sdk), join(app, "node_modules", "@modelcontextprotocol", sdk), "dir");
    }
    writeFileSync(join(app, "app.ts"), APP);
    // One resolution mode (the failure did not depend on it; each check
    // of SDK 2's declarations takes ~30 s of a loaded machine).
    for (const [name, module, moduleResolution] of [["bundler", ts.ModuleKind.ESNext, ts.ModuleResolutionKind.Bundler]]) {
        const options = {
            strict: true,
            noEmit: true,
            skipLibCheck: false,
            target: ts.ScriptTarget.ES2022,
            module,
            moduleResolution,
            lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
            // SDK 2's own declarations name Node's Buffer.
            types: ["node"],
            typeRoots: [join(root, "node_modules", "@types")],
        };
        // Else the check proves nothing: SDK 1 must be out of the app's reach.
        const sdk1 = ts.resolveModuleName("@modelcontextprotocol/sdk/types.js", join(pkg, "mcp.d.ts"), options, ts.sys);
        assert.equal(sdk1.resolvedModule, undefined, `${name}: SDK 1 resolved from the app (${sdk1.resolvedModule?.resolvedFileName})`);
        const program = ts.createProgram([join(app, "app.ts")], options);
        const errors = ts.getPreEmitDiagnostics(program).map((d) => {
            const where = d.file ? `${d.file.fileName.slice(app.length)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : "";
            return where + ts.flattenDiagnosticMessageText(d.messageText, "\n");
        });
        assert.deepEqual(errors, [], `${name}: tsc errors`);
    }
});
