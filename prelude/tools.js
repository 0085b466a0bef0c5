// Builds `tools`: objects without a prototype, filled with defineProperty,
// so a tool named "__proto__" or "constructor" is just a property. Names are
// sorted, so a namespace never exists before the function of the same name.
(call) => {
  const O = Object, names = /*NAMES*/[];
  const tools = O.create(null), set = (o, k, v) => O.defineProperty(o, k, { value: v, enumerable: true });
  for (const name of names) {
    const parts = name.split(".");
    let node = tools;
    for (let i = 0; i < parts.length - 1; i++) {
      if (!O.prototype.hasOwnProperty.call(node, parts[i])) set(node, parts[i], O.create(null));
      node = node[parts[i]];
    }
    set(node, parts[parts.length - 1], (input) => call(name, input));
  }
  const freeze = (o) => { for (const k of O.keys(o)) freeze(o[k]); return O.freeze(o); };
  return freeze(tools);
}
