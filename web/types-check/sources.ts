// The JSDoc-checked sources (web/src, tsc --checkJs) must give exactly the
// types that index.d.ts declares: each entry's exports are assigned both
// ways, so a source that drifts from the declarations fails `make test-node`.
import type * as declared from "../index.d.ts";
import * as source from "../src/index.mjs";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const assertSame = <T extends true>(_: T) => {};

assertSame<Same<typeof source.IoCodeModeFactory, typeof declared.IoCodeModeFactory>>(true);
assertSame<Same<typeof source.default, typeof declared.default>>(true);
