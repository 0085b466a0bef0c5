// A tool call whose begin threw (api.js call), built only then. An input
// that stringify could not write as JSON is refused as the host refuses
// inputs: begin again without it, the why as its fourth argument (true: it
// nests too deeply; "cycle": an object in it refers to itself), which
// records the call as refused, and the call's promise rejects as any
// refused call's (run), with the host's RangeError or TypeError naming the
// tool (or, for a name no tool has, as any unknown tool's). Only the error
// of the stringify of this very input counts (deep: [that error, the
// value, its path of holders, their count, the last value the replacer
// handed back]): any other, a getter's own JSON.stringify's among them, is
// thrown as it is. A cycle is the last value being one of the holders it
// is inside: a getter that throws runs before its value is handed back, so
// what its object was handed back as is not yet a holder.
(e, deep, name, input, begin, run, cut) => {
  if (!deep || e !== deep[0] || input !== deep[1]) throw e;
  let why = deep[3] > 1001;
  for (let i = 0; !why && i < deep[3]; i++) if (deep[2][i] === deep[4]) why = "cycle";
  if (!why) throw e;
  const s = typeof name === "string", l = s && name.length > 129 ? name.length : 0;
  let id;
  try { id = begin(!s ? null : l ? cut(name, 129) : name, undefined, l, why); } catch (h) {
    return (async () => { throw h; })();
  }
  return run(id);
}
