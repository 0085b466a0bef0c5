// @ts-check
// A local Gemini API (models/*:generateContent) for @google/genai's own HTTP
// client (httpOptions.baseUrl): it answers with scripted model turns, and
// refuses with the API's 400 and words what the real API refuses in a
// request, so that a loop passing here sends what Gemini takes:
// - in a function declaration's `parameters` (the API's Schema, a subset of
//   OpenAPI's), a field that Schema has not ("Cannot find field":
//   JSON Schema's additionalProperties, $schema, const, oneOf, ...), or
//   both `parameters` and `parametersJsonSchema`;
// - a functionResponse whose `response` is no JSON object (the API's type
//   is a protobuf Struct: an array, searchTools' answer, is refused);
// - a turn of function calls not answered call for call in the next turn.
// tsc checks it against @google/genai's types (web/types-check/tsconfig.fakes.json).
import { createServer } from "node:http";
import { serve } from "./serve.mjs";

/** @typedef {import("@google/genai").Part} Part */
/** @typedef {import("@google/genai").Content} Content */
/** @typedef {import("@google/genai").FunctionDeclaration} FunctionDeclaration */

// The fields of the API's Schema.
const SCHEMA_FIELDS = ["type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems", "properties", "required", "minProperties", "maxProperties", "minLength", "maxLength", "pattern", "example", "anyOf", "propertyOrdering", "default", "items", "minimum", "maximum"];
const TYPES = ["TYPE_UNSPECIFIED", "STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"];

/**
 * What the API says of a Schema at `at`, or "".
 * @param {Record<string, any>} schema
 * @param {string} at
 * @returns {string}
 */
function schemaError(schema, at) {
    for (const [k, v] of Object.entries(schema)) {
        if (!SCHEMA_FIELDS.includes(k)) return `Invalid JSON payload received. Unknown name "${k}" at '${at}': Cannot find field.`;
        if (k == "type" && !TYPES.includes(String(v).toUpperCase())) return `Invalid value at '${at}.type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), "${v}"`;
        const nested = k == "properties" ? Object.entries(v).map(([p, s]) => [s, `${at}.properties[${p}].value`]) : k == "items" ? [[v, `${at}.items`]] : k == "anyOf" ? v.map((/** @type {any} */ s, /** @type {number} */ i) => [s, `${at}.any_of[${i}]`]) : [];
        for (const [s, where] of nested) {
            const e = schemaError(s, where);
            if (e) return e;
        }
    }
    return "";
}

/**
 * What the API says of a request body, or "".
 * @param {{ contents: Content[], tools?: { functionDeclarations?: FunctionDeclaration[] }[] }} body
 */
export function requestError(body) {
    for (const [i, tool] of (body.tools ?? []).entries()) {
        for (const [j, d] of (tool.functionDeclarations ?? []).entries()) {
            const at = `tools[${i}].function_declarations[${j}]`;
            if (d.parameters && d.parametersJsonSchema) return `${at}: parameters and parameters_json_schema cannot both be set.`;
            const e = d.parameters ? schemaError(d.parameters, `${at}.parameters`) : "";
            if (e) return e;
        }
    }
    for (const [i, content] of body.contents.entries()) {
        const parts = content.parts ?? [];
        for (const [j, part] of parts.entries()) {
            const r = part.functionResponse?.response;
            if (part.functionResponse && (typeof r != "object" || r === null || Array.isArray(r))) {
                return `Invalid value at 'contents[${i}].parts[${j}].function_response.response' (type.googleapis.com/google.protobuf.Struct), ${JSON.stringify(r)?.slice(0, 60)}`;
            }
        }
        const calls = parts.filter((p) => p.functionCall).length;
        const answers = (body.contents[i + 1]?.parts ?? []).filter((p) => p.functionResponse).length;
        if (calls && calls != answers) return "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.";
    }
    return "";
}

/**
 * Serves generateContent on 127.0.0.1: the n-th request is answered with
 * `turns[n]` (the model's parts), once it passes requestError; `requests`
 * gets each body. Resolves once listening: { url, requests, close }.
 * @param {Part[][]} turns
 */
export async function geminiServer(turns) {
    /** @type {any[]} */
    const requests = [];
    const { url, close } = await serve(createServer, (path, text) => {
        const body = JSON.parse(text);
        requests.push(body);
        const error = /\/models\/[^/:]+:generateContent$/.test(path) ? requestError(body) : `no route ${path}`;
        const parts = turns[requests.length - 1] ?? [{ text: "(no more turns)" }];
        const reply = error
            ? { error: { code: 400, message: error, status: "INVALID_ARGUMENT" } }
            : {
                  candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
                  usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
                  modelVersion: "gemini-2.5-flash",
              };
        return [error ? 400 : 200, { "content-type": "application/json" }, JSON.stringify(reply)];
    });
    return { url, requests, close };
}
