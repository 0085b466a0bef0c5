// compactOutputs writes tools' output schemas the way
// testdata/outputs.<split>.json holds them (eval.WithOutputs): a catalog's
// distinct top-level properties, [name, schema], each once, and per tool
// the positions of its own; of each schema only what the search index
// reads (internal/search/schematext.go): property names, a property's
// description, string enums, and the same inside items, anyOf, oneOf and
// allOf. Used by extract.mjs and listmcp.mjs.
export function compactOutputs(tools) {
  const properties = [];
  const seen = new Map();
  const out = {};
  for (const t of tools) {
    if (!t.outputSchema?.properties) continue;
    out[t.name] = Object.entries(t.outputSchema.properties).map(([name, s]) => {
      const p = [name, indexed(s, true)];
      const key = JSON.stringify(p);
      if (!seen.has(key)) {
        seen.set(key, properties.length);
        properties.push(p);
      }
      return seen.get(key);
    });
  }
  return { properties, tools: out };
}

// indexed is what the index reads of a schema (prop: a property's, whose
// description it reads); {} for none.
function indexed(s, prop) {
  const out = {};
  if (!s || typeof s !== "object" || Array.isArray(s)) return out;
  if (prop && typeof s.description === "string") out.description = s.description;
  const en = Array.isArray(s.enum) ? s.enum.filter((v) => typeof v === "string") : [];
  if (en.length) out.enum = en;
  if (s.properties && typeof s.properties === "object") {
    out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, indexed(v, true)]));
  }
  const items = indexed(s.items, false);
  if (Object.keys(items).length) out.items = items;
  for (const k of ["anyOf", "oneOf", "allOf"]) {
    const alts = Array.isArray(s[k]) ? s[k].map((x) => indexed(x, false)) : [];
    if (alts.some((x) => Object.keys(x).length)) out[k] = alts;
  }
  return out;
}
