// @ts-check
// A local Amazon Bedrock runtime (POST /model/{modelId}/converse, over
// cleartext HTTP/2 as the client's default handler speaks it) for
// @aws-sdk/client-bedrock-runtime's own code (`endpoint` given): it answers
// with scripted assistant turns, and refuses with Bedrock's
// ValidationException and words what the Converse API refuses in a request,
// so that a loop passing here sends what Bedrock takes:
// - a tool's `inputSchema.json` whose type is not "object";
// - toolUse or toolResult blocks in a request without `toolConfig`;
// - a toolResult's `json` that is no JSON object (searchTools answers with
//   an array), a blank `text`, a toolResult with status "error" and no content;
// - an assistant turn's toolUse ids without a toolResult in the next message;
// - a toolUse's `input` that is no JSON object (ConverseStream's pieces of
//   JSON text sent back unparsed; these words are inferred from the
//   toolResult's).
// Writer's Palmyra models refuse a toolResult's `status` (pydantic-ai's
// Bedrock profiles, checked against the live API, say so; the other families
// they checked take it). ConverseStream (/converse-stream) refuses tools for
// Meta's Llama models, and answers in AWS's event stream encoding
// (binary frames, CRC-checked by the client), a toolUse's input in two
// pieces of JSON text, as Bedrock streams it.
// tsc checks it against the client's types (web/types-check/tsconfig.fakes.json).
import { createServer } from "node:http2";
import { serve } from "./serve.mjs";

/** @typedef {import("@aws-sdk/client-bedrock-runtime").ContentBlock} ContentBlock */
/** @typedef {import("@aws-sdk/client-bedrock-runtime").Message} Message */
/** @typedef {import("@aws-sdk/client-bedrock-runtime").Tool} Tool */

const isObject = (/** @type {unknown} */ v) => typeof v == "object" && v !== null && !Array.isArray(v);

/**
 * What Bedrock says of a Converse body, or "".
 * @param {{ messages?: Message[], toolConfig?: { tools?: Tool[] } }} body
 */
export function converseError(body) {
    for (const [i, tool] of (body.toolConfig?.tools ?? []).entries()) {
        const json = /** @type {any} */ (tool.toolSpec?.inputSchema)?.json;
        if (json?.type != "object") return `The value at toolConfig.tools.${i}.toolSpec.inputSchema.json.type must be one of the following: object.`;
    }
    const messages = body.messages ?? [];
    for (const [i, m] of messages.entries()) {
        /** @type {ContentBlock[]} */
        const content = m.content ?? [];
        for (const [j, block] of content.entries()) {
            if ((block.toolUse || block.toolResult) && !body.toolConfig) return "The toolConfig field must be defined when using toolUse and toolResult content blocks.";
            if (block.text !== undefined && !block.text.trim()) return `The text field in the ContentBlock object at messages.${i}.content.${j} is blank. Add text to the text field, and try again.`;
            if (block.toolUse && !isObject(block.toolUse.input)) return `The format of the value at messages.${i}.content.${j}.toolUse.input is invalid. Provide a json object for the field and try again.`;
            const result = block.toolResult;
            if (!result) continue;
            if (result.status == "error" && !result.content?.length) return `The content field at messages.${i}.content.${j}.toolResult cannot be empty when status value is error.`;
            for (const [k, c] of (result.content ?? []).entries()) {
                if ("json" in c && !isObject(c.json)) return `The format of the value at messages.${i}.content.${j}.toolResult.content.${k}.json is invalid. Provide a json object for the field and try again.`;
                if (c.text !== undefined && !c.text.trim()) return `The text field in the ToolResultContentBlock object at messages.${i}.content.${j}.toolResult.content.${k} is blank. Add text to the text field, and try again.`;
            }
        }
        const uses = content.flatMap((b) => (b.toolUse ? [b.toolUse.toolUseId] : []));
        const answered = new Set((messages[i + 1]?.content ?? []).flatMap((b) => (b.toolResult ? [b.toolResult.toolUseId] : [])));
        const missing = uses.filter((id) => !answered.has(id));
        if (missing.length && i + 1 < messages.length) return `Expected toolResult blocks at messages.${i + 1}.content for the following Ids: ${missing.join(", ")}`;
    }
    return "";
}

// CRC-32 (IEEE), the event stream's checksum of its prelude and message.
const CRC = Array.from({ length: 256 }, (_, n) => {
    for (let k = 0; k < 8; k++) n = n & 1 ? 0xedb88320 ^ (n >>> 1) : n >>> 1;
    return n >>> 0;
});
const crc32 = (/** @type {Buffer} */ bytes) => (bytes.reduce((c, b) => CRC[(c ^ b) & 0xff] ^ (c >>> 8), 0xffffffff) ^ 0xffffffff) >>> 0;

/**
 * One frame of AWS's event stream: prelude (total and headers length, its
 * CRC), string headers, the JSON payload, the message's CRC.
 * @param {string} type the event's member name (":event-type")
 * @param {object} payload
 */
function eventFrame(type, payload) {
    const headers = Buffer.concat(
        Object.entries({ ":event-type": type, ":content-type": "application/json", ":message-type": "event" }).map(([name, value]) => {
            const v = Buffer.from(value);
            const h = Buffer.alloc(1 + name.length + 3);
            h.writeUInt8(name.length, 0);
            h.write(name, 1);
            h.writeUInt8(7, 1 + name.length); // a string
            h.writeUInt16BE(v.length, 2 + name.length);
            return Buffer.concat([h, v]);
        }),
    );
    const body = Buffer.from(JSON.stringify(payload));
    const prelude = Buffer.alloc(12);
    prelude.writeUInt32BE(12 + headers.length + body.length + 4, 0);
    prelude.writeUInt32BE(headers.length, 4);
    prelude.writeUInt32BE(crc32(prelude.subarray(0, 8)), 8);
    const message = Buffer.concat([prelude, headers, body]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(message), 0);
    return Buffer.concat([message, crc]);
}

/**
 * A turn's content blocks as ConverseStream's events, in frames (a
 * toolUse's input given as a string is streamed as that text: the model's
 * JSON, malformed too).
 * @param {ContentBlock[]} content
 * @param {string} stopReason
 */
function streamFrames(content, stopReason) {
    /** @type {[string, object][]} */
    const events = [["messageStart", { role: "assistant" }]];
    content.forEach((block, contentBlockIndex) => {
        if (block.toolUse) {
            const { toolUseId, name, input } = block.toolUse;
            const text = typeof input == "string" ? input : JSON.stringify(input);
            events.push(["contentBlockStart", { contentBlockIndex, start: { toolUse: { toolUseId, name } } }]);
            for (const piece of [text.slice(0, text.length >> 1), text.slice(text.length >> 1)]) events.push(["contentBlockDelta", { contentBlockIndex, delta: { toolUse: { input: piece } } }]);
        } else events.push(["contentBlockDelta", { contentBlockIndex, delta: { text: block.text } }]);
        events.push(["contentBlockStop", { contentBlockIndex }]);
    });
    events.push(["messageStop", { stopReason }], ["metadata", { usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 }, metrics: { latencyMs: 1 } }]);
    return Buffer.concat(events.map(([type, payload]) => eventFrame(type, payload)));
}

/**
 * Serves Converse and ConverseStream on 127.0.0.1 (h2c): the n-th request
 * it takes is answered with `turns[n]` (the assistant's content blocks;
 * stopReason "tool_use" when one is a toolUse), once it passes converseError; `requests` gets each
 * { modelId, body }. Resolves once listening: { endpoint, requests, close }.
 * @param {ContentBlock[][]} turns
 */
export async function bedrockServer(turns) {
    /** @type {{ modelId: string, body: any }[]} */
    const requests = [];
    let answered = 0;
    const { url, close } = await serve(createServer, (path, text) => {
        const body = JSON.parse(text || "{}");
        const route = /^\/model\/([^/]+)\/converse(-stream)?$/.exec(path);
        requests.push({ modelId: decodeURIComponent(route?.[1] ?? ""), body });
        // Meta's Llama models take tools in Converse only (as their users have reported).
        const streamedTools = route?.[2] && body.toolConfig && /meta\.llama/.test(route[1]) ? "This model doesn't support tool use in streaming mode." : "";
        const status = /writer\.palmyra/.test(route?.[1] ?? "") && body.messages?.some((/** @type {Message} */ m) => m.content?.some((b) => b.toolResult?.status)) ? "This model doesn't support the status field. Remove status and try again." : "";
        const error = route ? streamedTools || status || converseError(body) : `no route ${path}`;
        if (error) {
            const type = route ? "ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/" : "UnknownOperationException";
            return [route ? 400 : 404, { "content-type": "application/json", "x-amzn-errortype": type }, JSON.stringify({ message: error })];
        }
        const content = turns[answered++] ?? [{ text: "(no more turns)" }];
        const stopReason = content.some((b) => b.toolUse) ? "tool_use" : "end_turn";
        if (route?.[2]) return [200, { "content-type": "application/vnd.amazon.eventstream", "x-amzn-requestid": `req-${answered}` }, streamFrames(content, stopReason)];
        const reply = {
            output: { message: { role: "assistant", content } },
            stopReason,
            usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
            metrics: { latencyMs: 1 },
        };
        return [200, { "content-type": "application/json", "x-amzn-requestid": `req-${answered}` }, JSON.stringify(reply)];
    });
    return { endpoint: url, requests, close };
}
