// Runs the toolchain's lib/wasm/wasm_exec_node.js (GOROOT from the
// environment, else `go env GOROOT`) with Go.prototype.run wrapped to set
// globalThis.__goExports = instance.exports first, and the imports of
// jsbridge's direct calls. See go_js_wasm_exec.
"use strict";

const path = require("path");
const goroot = process.env.GOROOT || require("child_process").execFileSync("go", ["env", "GOROOT"], { encoding: "utf8" }).trim();
const lib = path.join(goroot, "lib", "wasm");

require(path.join(lib, "wasm_exec.js")); // defines globalThis.Go
const run = globalThis.Go.prototype.run;
globalThis.Go.prototype.run = function (instance) {
	globalThis.__goExports = instance.exports;
	return run.call(this, instance);
};
// jsbridge's direct calls (jsbridge/direct.go): the module "jsbridge"
// every Go program that links jsbridge imports, and its table; the
// loader's own web/src/direct.mjs, so both hosts give Go the same imports.
// The loader's time zones too (web/src/timezones.mjs, the shadow's
// __jsbridgeTimeZone there), for jsbridge.TimeZone.
const src = path.join(__dirname, "..", "..", "web", "src");
Promise.all([import(path.join(src, "direct.mjs")), import(path.join(src, "timezones.mjs"))]).then(([{ directImports }, { timeZone }]) => {
	globalThis.__jsbridgeTimeZone = timeZone;
	const Go = globalThis.Go;
	globalThis.Go = class extends Go {
		constructor() {
			super();
			const { table, imports } = directImports();
			this.importObject.jsbridge = imports;
			globalThis.__jsbridgeDirect = table;
		}
	};
	// Its require("./wasm_exec") finds the module loaded above.
	require(path.join(lib, "wasm_exec_node.js"));
});
