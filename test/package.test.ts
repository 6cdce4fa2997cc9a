import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import * as source from "../src/index.js";

const require = createRequire(import.meta.url);
/** Paths held in variables, so the type check does not resolve them (dist/ holds no declarations until test/extra/installed.test.ts builds them). */
const ESM_ENTRY = new URL("../dist/index.js", import.meta.url).href;
const CJS_ENTRY = new URL("../dist/index.cjs", import.meta.url).pathname;
const runtimeNames = Object.keys(source).sort();

describe("the built package", () => {
  it("exposes every runtime export through ESM import", async () => {
    const esm = (await import(ESM_ENTRY)) as Record<string, unknown>;
    expect(Object.keys(esm).sort()).toStrictEqual(runtimeNames);
  });

  it("exposes every runtime export through CJS require", () => {
    const cjs = require(CJS_ENTRY) as Record<string, unknown>;
    expect(Object.keys(cjs).filter((name) => name !== "__esModule").sort()).toStrictEqual(runtimeNames);
  });

  it("builds the same schemas from ESM and CJS", async () => {
    const esm = (await import(ESM_ENTRY)) as typeof source;
    const cjs = require(CJS_ENTRY) as typeof source;
    expect(cjs.contractJsonSchemas("en")).toStrictEqual(esm.contractJsonSchemas("en"));
    expect(esm.contractJsonSchemas("pt-BR")).toStrictEqual(source.contractJsonSchemas("pt-BR"));
  });
});
