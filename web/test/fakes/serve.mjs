// @ts-check
// What the local provider APIs (fakes/gemini.mjs, ollama.mjs, bedrock.mjs)
// share: a server on 127.0.0.1 that reads each request's body whole and
// answers it at once.

/**
 * Listens on a free port of 127.0.0.1 with `create` (node:http's or
 * node:http2's createServer), answering each request with what
 * `answer(url, body)` returns: [status, headers, body]. Resolves once
 * listening with { url, close }; close also ends the HTTP/2 sessions
 * clients keep open (the AWS SDK's), which a server's close waits for.
 * @param {(listener: (req: any, res: any) => void) => import("node:net").Server} create
 * @param {(url: string, body: string) => [number, Record<string, string>, string | Buffer]} answer
 */
export async function serve(create, answer) {
    const server = create((req, res) => {
        let text = "";
        req.on("data", (/** @type {string} */ c) => (text += c));
        req.on("end", () => {
            const [status, headers, body] = answer(String(req.url), text);
            res.writeHead(status, headers);
            res.end(body);
        });
    });
    /** @type {Set<{ destroy(): void }>} */
    const sessions = new Set();
    server.on("session", (s) => sessions.add(s));
    await new Promise((r) => server.listen(0, "127.0.0.1", () => r(undefined)));
    const address = /** @type {import("node:net").AddressInfo} */ (server.address());
    const close = () =>
        new Promise((r) => {
            server.close(() => r(undefined));
            for (const s of sessions) s.destroy();
        });
    return { url: `http://127.0.0.1:${address.port}`, close };
}
