// Builds `tools`: objects without a prototype, filled with defineProperty,
// so a tool named "__proto__" or "constructor" is just a property. Names are
// sorted, so a namespace never exists before the function of the same name.
// A dotted tool is also tools["its.full.name"], a key no namespace can hold.
// The same in every run (a shared source, compiled once per instance): the
// run's names come as lists, [names, unknown] (source "toolnames").
(call, lists) => {
  const O = Object, names = lists[0], unknown = lists[1], has = (o, k) => O.prototype.hasOwnProperty.call(o, k);
  const tools = O.create(null), set = (o, k, v) => { O.defineProperty(o, k, { value: v, enumerable: true }); convert(o, k); };
  // A tool named toString or valueOf is its namespace's own key, which
  // String(ns), `${ns}` and ns + "" would call: a tool call (its side
  // effects, its approval) made by a conversion the program may only log.
  // Such a namespace converts as any other does (a TypeError: it has no
  // prototype; a tool that is also a namespace, to its source), by a
  // Symbol.toPrimitive, which conversions look up first; ns.toString(input)
  // still calls the tool.
  const source = Function.prototype.toString;
  const convert = (o, k) => {
    if ((k === "toString" || k === "valueOf") && !has(o, Symbol.toPrimitive)) O.defineProperty(o, Symbol.toPrimitive, { value: typeof o === "function" ? () => source.call(o) : () => "" + O.create(null) });
  };
  for (const name of names) {
    const parts = name.split(".");
    let node = tools;
    for (let i = 0; i < parts.length - 1; i++) {
      if (!has(node, parts[i])) set(node, parts[i], O.create(null));
      node = node[parts[i]];
    }
    set(node, parts[parts.length - 1], (input) => call(name, input));
    // The full name as a key too (tools["orders.search"]), not listed:
    // no name without a dot has one.
    if (parts.length > 1) O.defineProperty(tools, name, { value: node[parts[parts.length - 1]] });
  }
  // Paths the code calls that no tool has (unknownCalls, calledpaths.go):
  // each gets a stand-in that calls it by name, so `tools.nope.x()` fails
  // with tool_call's "unknown tool" error, not a TypeError about undefined.
  // Not enumerable: listing `tools` shows the real tools only.
  const made = [], hide = (o, k, v) => { O.defineProperty(o, k, { value: v }); made.push(v); convert(o, k); };
  for (const name of unknown) {
    // tools["nope.x"]() as well as tools.nope.x().
    if (name.includes(".") && !has(tools, name)) hide(tools, name, (input) => call(name, input));
    const parts = name.split("."), last = parts.length - 1;
    let node = tools, i = 0;
    for (; i < last && typeof node === "object"; i++) {
      if (!has(node, parts[i])) hide(node, parts[i], O.create(null));
      node = node[parts[i]];
    }
    if (i === last && typeof node === "object" && !has(node, parts[i])) hide(node, parts[i], (input) => call(name, input));
  }
  const freeze = (o) => { for (const k of O.keys(o)) freeze(o[k]); return O.freeze(o); };
  for (const v of made) O.freeze(v);
  return freeze(tools);
}
