// Deep input to the Go core, shared by web/test/deep-core.test.mjs (Node,
// both modes) and web/browser-test/recursion.test.mjs (Chromium, a fresh
// Worker and the page's thread): schemas and programs whose checks nest
// as deep as the core's limits allow, and past them.

/** A schema whose property x refers to $defs a0, each aI to a(I+1), n links. */
export const refChain = (n) => {
    const defs = {};
    for (let i = 0; i < n; i++) defs[`a${i}`] = { $ref: `#/$defs/a${i + 1}` };
    defs[`a${n}`] = { type: "string" };
    return { type: "object", properties: { x: { $ref: "#/$defs/a0" } }, $defs: defs };
};

/** A recursive schema taking k "$ref" steps between a node and its child a. */
export const placeChain = (k) => {
    const defs = { n: { type: "object", properties: { a: { $ref: "#/$defs/c0" } } } };
    for (let i = 0; i < k; i++) defs[`c${i}`] = { $ref: i + 1 < k ? `#/$defs/c${i + 1}` : "#/$defs/n" };
    return { $defs: defs, $ref: "#/$defs/n" };
};

/** A schema recursing once per level, through property a. */
export const recursive = { type: "object", properties: { a: { $ref: "#" } } };

/** A program calling t.x with input, giving the result or the error's message. */
export const callAndCatch = (input) => `try { return await tools.t.x(${input}) } catch (e) { return e.message }`;

/** A program expression: an object nested n levels through a, leaf at the bottom. */
export const deepInput = (n, leaf) => `(() => { let v = ${leaf}; for (let i = 0; i < ${n}; i++) v = { a: v }; return v })()`;

/** The message of a check past the validator's depth limit (schema.go). */
export const TOO_DEEP_TO_CHECK = "the value nests too deeply for its schema: checking it applies schemas more than 2,000 levels deep";

/**
 * Rows at the deepest the limits allow and past them: [name, inputSchema,
 * program, the run's result or (starting with "~") a text it holds].
 */
export const AT_THE_LIMITS = [
    ["a schema recursing once per level, an input 999 deep", recursive, callAndCatch(deepInput(998, "{}")), "ran"],
    // The message's path is cut (the message's limit); the rule is past it.
    ["a schema recursing once per level, an input 999 deep, invalid at the bottom", recursive, callAndCatch(deepInput(998, "1")),
        `~t.x: invalid input: /${"a/".repeat(400)}`],
    ["a chain of 1,990 $ref", refChain(1990), callAndCatch("{ x: 1 }"), "t.x: invalid input: /x: type: got number, want string"],
    ["a chain of 10,000 $ref", refChain(10000), callAndCatch("{ x: 1 }"), `~${TOO_DEEP_TO_CHECK}`],
    ["four in-place steps per level, an input 999 deep", placeChain(4), callAndCatch(deepInput(998, "1")), `~${TOO_DEEP_TO_CHECK}`],
];
