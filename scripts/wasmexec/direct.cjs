// The imports of jsbridge's module "jsbridge" (jsbridge/direct.go) for the
// Go programs run by wasm_exec_node.cjs: web/src/direct.mjs, as CommonJS.
"use strict";

module.exports = function directImports() {
	const table = { fns: [], mems: [], error: undefined };
	const { fns, mems } = table;
	const views = [];
	const view = (s) => {
		const buf = mems[s].buffer;
		let v = views[s];
		if (v === undefined || v.buffer !== buf) v = views[s] = new DataView(buf);
		return v;
	};
	const imports = {
		call(s, a, b, c, d, e, f, g, h) {
			try {
				const r = fns[s](a, b, c, d, e, f, g, h);
				return r === undefined ? 0 : r;
			} catch (err) {
				table.error = err;
				return NaN;
			}
		},
		get32: (s, off) => view(s).getUint32(off, true),
		set32: (s, off, v) => view(s).setUint32(off, v, true),
		get8: (s, off) => view(s).getUint8(off),
		set8: (s, off, v) => view(s).setUint8(off, v),
		size: (s) => mems[s].buffer.byteLength,
	};
	return { table, imports };
};
