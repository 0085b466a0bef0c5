// Injected into classic-script builds, where esbuild replaces every
// import.meta.url by import_meta_url: the URL of the <script> element that
// loads the file (read while it runs; document.currentScript is null
// afterwards), so that files next to it are found as in the ESM build.
export const import_meta_url =
    (typeof document !== "undefined" && document.currentScript && /** @type {HTMLScriptElement} */ (document.currentScript).src) ||
    (typeof location !== "undefined" && location.href) ||
    "";
