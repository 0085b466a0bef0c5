// The Go compiler's flags of the core as shipped: scripts/build-dist.mjs
// builds it with them, and bench/wasm-size.mjs too, so that its bytes per
// package are the shipped core's.
//
// These packages are compiled without inlining (go build -gcflags=<pkg>=-l):
// the root package (registration, a run's set-up, its hints and messages),
// the TypeScript declarations' generator and the JSON Schema validator run
// once per registration, run or tool call, and the copies of small
// functions inlined at their call sites were 16.6 KB of the core's brotli
// bytes (1,259,365 to 1,242,780; bench/README.md, "Inlining"). The wasm
// package too, IoCodeModeFactory's Go side: its code runs once per call
// from the page (its per-value work is jsbridge's and jsondec's, which
// inline): 1,254,279 to 1,251,916. Not the sandbox, its FFI, jsbridge,
// search or tsstrip, whose loops run per value, call or token (and the
// sandbox's and search's cores grew without it).
// Two standard packages too: regexp/syntax, which parses and compiles a
// pattern (a schema's "pattern", a hint's expression: once per pattern;
// matching is regexp's, which inlines, but now calls syntax's two small
// Inst.MatchRune and IsWordChar), and net/url, which resolves a
// schema's $id and $ref at registration: raw 8,677,736 to 8,631,682,
// brotli 1,254,671 to 1,246,201 (main c85d16b). And fmt (messages and
// errors: fmt.Errorf was inlined at 135 call sites), encoding/json (a
// schema's text, a search's hits, json.Valid of a tool's input; the
// per-value decoding of results and arguments is jsondec's and jsbridge's)
// and the validator's error kinds: to 8,591,151 and 1,239,447.
// NO_INLINE=0 inlines everywhere (to compare).

const mod = "github.com/interopio/code-mode";
export const NO_INLINE_PACKAGES = [mod, `${mod}/internal/tsgen`, `${mod}/third_party/jsonschema`, `${mod}/wasm`, "regexp/syntax", "net/url", "fmt", "encoding/json", `${mod}/third_party/jsonschema/kind`];

/** The -gcflags arguments of go build, by the environment's NO_INLINE. @param {Record<string, string | undefined>} [env] */
export function noInlineFlags(env = process.env) {
    return env.NO_INLINE === "0" ? [] : NO_INLINE_PACKAGES.map((p) => `-gcflags=${p}=-l`);
}
