import { describe, expect, it } from "vitest";
import { McpSearchError } from "../../src/errors.js";
import { languageRules } from "../../src/languages/index.js";
import { checkLocale, DEFAULT_LOCALE, isLocale, LOCALES, localeTexts } from "../../src/locales/index.js";
import { folderTexts, type FolderTexts } from "../../packages/cli/src/mcp/texts.js";

/** Every path to a leaf of a locale's texts ("tools.notFound", "language.intent.now"). */
function leafPaths(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => leafPaths(child, prefix === "" ? key : `${prefix}.${key}`));
}

describe("locales", () => {
  it("resolve a missing locale to the first one shipped", () => {
    expect(checkLocale(undefined, "test")).toBe(LOCALES[0]);
    expect(DEFAULT_LOCALE).toBe(LOCALES[0]);
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
    expect(languageRules(texts.language).vocabularyStopwords.length).toBeGreaterThan(5);
    expect(texts.intent.now.length).toBeGreaterThan(3);
    // Titles may coincide ("Buscar documentos" is Portuguese and Spanish); sentences may not.
    for (const other of LOCALES.filter((candidate) => candidate !== locale)) {
      expect(texts.tools.notFound("x")).not.toBe(localeTexts(other).tools.notFound("x"));
      expect(texts.schema.query).not.toBe(localeTexts(other).schema.query);
      expect(texts.vocabulary.note("a", "b", "c")).not.toBe(localeTexts(other).vocabulary.note("a", "b", "c"));
    }
  });

  // The folder server (packages/cli) keeps its own table per locale: the same rule holds for it.
  it.each(LOCALES.slice(1))("the folder server's %s texts have exactly the keys pt-BR has", (locale) => {
    expect(Object.keys(folderTexts(locale)).sort()).toStrictEqual(Object.keys(folderTexts("pt-BR")).sort());
  });

  it("notices a folder-server locale that lacks a text", () => {
    const { stale, ...lacking }: FolderTexts = folderTexts("es");
    expect(stale).toBeDefined();
    expect(Object.keys(lacking).sort()).not.toStrictEqual(Object.keys(folderTexts("pt-BR")).sort());
  });

  it.each(LOCALES)("the folder server speaks %s in its own words", (locale) => {
    const texts = folderTexts(locale);
    for (const other of LOCALES.filter((candidate) => candidate !== locale)) {
      const theirs = folderTexts(other);
      expect(texts.sourceName).not.toBe(theirs.sourceName);
      expect(texts.matched(2, 5)).not.toBe(theirs.matched(2, 5));
      expect(texts.truncated(3, 5, 9)).not.toBe(theirs.truncated(3, 5, 9));
      expect(texts.stale("doc:a.md")).not.toBe(theirs.stale("doc:a.md"));
      expect(texts.truncatedPage(1, 2, "doc:a.md#2")).not.toBe(theirs.truncatedPage(1, 2, "doc:a.md#2"));
    }
    expect(texts.truncated(3, 5, 9)).toMatch(/3\D+5\D+9/);
    expect(texts.truncatedPage(1, 2, "doc:a.md#2")).toContain('"doc:a.md#2"');
  });

  it.each([
    [undefined, "pt-BR"],
    ["en", "en"],
    ["es", "es"],
    ["pt-BR", "pt-BR"],
  ] as const)("checkLocale(%j) gives %j", (value, expected) => {
    expect(checkLocale(value, "test")).toBe(expected);
  });

  it.each(["fr", "EN", "ES", "es-ES", "pt", "", null, 3, {}])("checkLocale refuses %j with McpSearchError naming it and the caller", (value) => {
    expect(() => checkLocale(value, "contractSchemas")).toThrow(McpSearchError);
    expect(() => checkLocale(value, "contractSchemas")).toThrow(/^contractSchemas: unknown `locale`/);
    expect(isLocale(value)).toBe(false);
  });
});
