/**
 * The TypeScript compiler for the tests that parse or transpile code in a vitest worker, loaded by
 * `require`. An ESM `import` of its CommonJS file (9 MB) first scans the whole file for export
 * names: about 0.5 s more CPU per worker that loads it, measured on Node 20. Types come from
 * `import type` of "typescript" as usual. Not a test file.
 */
import { createRequire } from "node:module";
import type * as TypeScript from "typescript";

export const ts: typeof TypeScript = createRequire(import.meta.url)("typescript") as typeof TypeScript;
