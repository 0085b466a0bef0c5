// Injected into classic-script builds, where esbuild replaces every
// import.meta.url by import_meta_url: the URL of the script that loads the
// file, so that files next to it are found as in the ESM build. On a page,
// the <script> element's src (read while it runs; document.currentScript
// is null afterwards). In a worker that loads it with importScripts there
// is no such element, and location is the worker's own script, often in
// another folder than the package's files (a worker of the app's that
// imports node_modules/@interopio/code-mode/code-mode.global.js looked for
// code-mode.wasm beside itself: HTTP 404): the file's URL is read from a
// stack trace taken as it runs, whose first frame is this file in V8 and
// SpiderMonkey alike ("at URL:line:col", "name@URL:line:col"). SES's
// lockdown() hides stack traces: a worker that locks down first is told so
// if the files are not found (env.mjs bundlerHint).
import { stackURL } from "./env.mjs";

export const import_meta_url =
    (typeof document !== "undefined" && document.currentScript && /** @type {HTMLScriptElement} */ (document.currentScript).src) ||
    (typeof (/** @type {any} */ (globalThis).importScripts) === "function" && stackURL()) ||
    (typeof location !== "undefined" && location.href) ||
    "";
