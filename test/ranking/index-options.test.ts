/**
 * createIndex's option checks at their edges: the options object itself, the detector and the
 * stemmers each refused with one sentence naming what was given, and a locale where a language
 * is asked told apart from it.
 */
import { describe, expect, it } from "vitest";
import { createIndex, McpSearchError } from "../../src/index.js";

const ENTRIES = [{ id: "a", title: "Alpha", url: "https://x/a" }];
const build = (options: unknown) => () => createIndex(ENTRIES, options as never);

describe("createIndex's options", () => {
  it.each([
    ["a string", "bm25", "createIndex: the options must be an object, not string."],
    ["null", null, "createIndex: the options must be an object, not null."],
  ])("refuses options that are %s", (_what, options, message) => {
    expect(build(options)).toThrow(McpSearchError);
    expect(build(options)).toThrow(message);
  });

  it.each([
    ["null", null],
    ["a string", "eld"],
    ["no name", { detect: (): string => "en" }],
    ["an empty name", { name: "", detect: (): string => "en" }],
    ["a name that is not a string", { name: 1, detect: (): string => "en" }],
    ["no detect", { name: "d" }],
    ["a detect that is not a function", { name: "d", detect: "en" }],
  ])("refuses a detector with %s", (_what, detector) => {
    expect(build({ ranking: "bm25", detector })).toThrow('The option detector needs a non-empty string "name" and a function "detect"');
  });

  it("takes a detector with a name and a detect function", () => {
    expect(build({ ranking: "bm25", detector: { name: "d", detect: (): undefined => undefined } })).not.toThrow();
  });

  it.each([
    ["null", null],
    ["no name", { en: (word: string) => word }],
    ["an empty name", { name: "" }],
  ])("refuses stemmers with %s", (_what, stemmers) => {
    expect(build({ ranking: "bm25", stemmers })).toThrow('The option stemmers needs a non-empty string "name"');
  });

  it.each([
    ["pt-BR", ' "pt-BR" is a locale, the language of the text a server writes; the language of the entries is "pt".'],
    ["en_US", ' "en_US" is a locale, the language of the text a server writes; the language of the entries is "en".'],
  ])("tells the locale %s apart from a language", (locale, hint) => {
    expect(build({ ranking: "bm25", language: locale })).toThrow(hint);
  });

  it("gives no locale hint for a value that names no language", () => {
    let message = "";
    try {
      build({ ranking: "bm25", language: "xx-YY" })();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).not.toContain("is a locale");
    expect(message).toContain("xx-YY");
  });
});

describe("createIndex's options: values that only look like a detector or stemmers", () => {
  it.each([["a string with a name", Object.assign("eld", { detect: () => "en" })], ["a function", Object.assign((): string => "en", { detect: () => "en" })]])("refuses a detector that is %s", (_what, detector) => {
    expect(build({ ranking: "bm25", detector })).toThrow('The option detector needs a non-empty string "name" and a function "detect"');
  });

  it("refuses stemmers given as a string", () => {
    expect(build({ ranking: "bm25", stemmers: "snowball" })).toThrow('The option stemmers needs a non-empty string "name"');
  });

  it("gives no locale hint when the language code is not at the start", () => {
    let message = "";
    try {
      build({ ranking: "bm25", language: "xxpt-BR" })();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).not.toContain("is a locale");
  });
});

describe("the rule's matcher", () => {
  const index = createIndex([{ id: "a", title: "Produção de soja", url: "https://x/a", text: "ab soja producao" }]);

  it("finds a whole token, a prefix of 3 characters or more, and no shorter prefix", () => {
    expect(index.searchWithMatcher("ab").matcher.findMatches("ab abc", "a")).toStrictEqual([{ start: 0, end: 2, term: 0 }]);
    expect(index.searchWithMatcher("pro").matcher.findMatches("produção pr", "a")).toStrictEqual([{ start: 0, end: 8, term: 0 }]);
  });

  it("stops at MAX_MATCHES", () => {
    expect(index.searchWithMatcher("ab").matcher.findMatches("ab ".repeat(20_001), "a")).toHaveLength(20_000);
  });
});
