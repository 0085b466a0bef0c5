// The classic-script build (dist/code-mode.global.js): a page without a
// bundler loads it with <script src>, which defines
// globalThis.IoCodeModeFactory and nothing else.
import { IoCodeModeFactory } from "./index.mjs";

globalThis.IoCodeModeFactory = IoCodeModeFactory;
