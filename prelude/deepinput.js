// A tool call whose begin threw (api.js call), built only then. An input
// that nests too deeply to be written as JSON is refused as the host
// refuses inputs: begin again without it, true as its fourth argument,
// records the call as failed and throws the host's error naming the tool
// (or, for a name no tool has, gives an id whose call fails as any unknown
// tool's), and the call's promise rejects with that error, made a
// RangeError here (the host's errors are Errors with a name; code written
// for V8 tests instanceof RangeError). Only the error of the stringify of
// this very input counts (deep: [that error, the value it wrote]): any
// other, a getter's own JSON.stringify's among them, is thrown as it is.
(e, deep, name, input, begin, run, cut, RE) => {
  if (!deep || e !== deep[0] || input !== deep[1]) throw e;
  const s = typeof name === "string", l = s && name.length > 129 ? name.length : 0;
  let id;
  try { id = begin(!s ? null : l ? cut(name, 129) : name, undefined, l, true); } catch (h) { return (async () => { throw new RE(h.message); })(); }
  return run(id);
}
