import { describe, expect, it } from "vitest";
import { McpSearchError } from "../../src/errors.js";
import { checkLocale, DEFAULT_LOCALE, isLocale, LOCALES, localeTexts } from "../../src/locales/index.js";

/** Every path to a leaf of a locale's texts ("tools.notFound", "language.intent.now"). */
function leafPaths(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => leafPaths(child, prefix === "" ? key : `${prefix}.${key}`));
}

describe("locales", () => {
  it("ship pt-BR first, as the default", () => {
    expect(LOCALES[0]).toBe("pt-BR");
    expect(DEFAULT_LOCALE).toBe("pt-BR");
  });

  it.each(LOCALES.slice(1))("%s has exactly the texts pt-BR has, no more and no fewer", (locale) => {
    expect(leafPaths(localeTexts(locale)).sort()).toStrictEqual(leafPaths(localeTexts("pt-BR")).sort());
  });

  it("notices a locale that lacks a text", () => {
    const { tools, ...lacking } = localeTexts("en");
    expect(tools).toBeDefined();
    expect(leafPaths(lacking).sort()).not.toStrictEqual(leafPaths(localeTexts("pt-BR")).sort());
  });

  it.each(LOCALES)("%s gives every function text a non-empty string in its own words", (locale) => {
    const texts = localeTexts(locale);
    expect(texts.tools.notFound("x")).not.toBe("");
    expect(texts.tools.error("search", "boom")).toContain("boom");
    expect(texts.validation.tooLong("query", 10, 11)).toContain("11");
    expect(texts.language.vocabularyStopwords.length).toBeGreaterThan(5);
    expect(texts.language.intent.now.length).toBeGreaterThan(3);
    if (locale !== "pt-BR") expect(texts.tools.searchTitle).not.toBe(localeTexts("pt-BR").tools.searchTitle);
  });

  it.each([
    [undefined, "pt-BR"],
    ["en", "en"],
    ["pt-BR", "pt-BR"],
  ] as const)("checkLocale(%j) gives %j", (value, expected) => {
    expect(checkLocale(value, "test")).toBe(expected);
  });

  it.each(["fr", "EN", "pt", "", null, 3, {}])("checkLocale refuses %j with McpSearchError naming it and the caller", (value) => {
    expect(() => checkLocale(value, "contractSchemas")).toThrow(McpSearchError);
    expect(() => checkLocale(value, "contractSchemas")).toThrow(/^contractSchemas: unknown `locale`/);
    expect(isLocale(value)).toBe(false);
  });
});
