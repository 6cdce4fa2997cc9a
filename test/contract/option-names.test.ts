/**
 * Issue 41, finding 11: in plain JavaScript, a misspelt option (`maxResults` for `limit`,
 * `resolveID` for `resolveId`) was silently ignored. Every function that takes an options object
 * now refuses a name it does not know, with an McpSearchError that names the closest known one.
 */
import { McpServer } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { closestName } from "../../src/contract/option-names.js";
import { createIndex, createVocabulary, loadIndex, McpSearchError, registerDeepResearchTools } from "../../src/index.js";
import { parseRobotsTxt } from "../../src/site/index.js";

const FACTORY_OPTIONS = ["search", "fetch", "resolveId", "corpus", "richTools", "locale", "titles", "notFound", "onError", "annotations", "limit", "timeoutMs", "extendOutputSchema", "readableSearchText", "record", "classifyError", "classifyThrown"];

describe("closestName", () => {
  // [written, closest, the known names]
  it.each([
    ["resolveID", "resolveId", FACTORY_OPTIONS], // another case
    ["maxResults", "limit", FACTORY_OPTIONS], // a synonym
    ["max_results", "limit", FACTORY_OPTIONS],
    ["timeout", "timeoutMs", FACTORY_OPTIONS],
    ["language", "locale", FACTORY_OPTIONS], // a language where a locale is asked
    ["locale", "language", ["ranking", "language", "fallbackLanguage", "stemmers"]], // and the other way round
    ["rankng", "ranking", ["ranking", "language", "fallbackLanguage", "stemmers"]], // a letter left out
    ["corupus", "corpus", FACTORY_OPTIONS], // a letter too many
    ["notFuond", "notFound", FACTORY_OPTIONS], // two letters swapped
    ["extendOutputSchemas", "extendOutputSchema", FACTORY_OPTIONS],
    ["sourcename", "sourceName", ["locale", "sourceName", "entries", "extraStopwords"]],
    ["colour", undefined, FACTORY_OPTIONS], // nothing close
    ["x", undefined, FACTORY_OPTIONS],
  ] as const)("%s: %s", (written, closest, known: readonly string[]) => {
    expect(closestName(written, known)).toBe(closest);
  });
});

describe("unknown option names are refused", () => {
  const server = () => new McpServer({ name: "t", version: "0" });
  const base = { search: () => [], fetch: () => null, corpus: "the docs" };
  const known = FACTORY_OPTIONS.join(", ");

  it("registerDeepResearchTools: names the option, the closest known one, and every known one", () => {
    expect(() => registerDeepResearchTools(server(), { ...base, maxResults: 5 } as never)).toThrow(
      new McpSearchError(`registerDeepResearchTools: unknown option "maxResults": did you mean "limit"? The options are ${known}.`),
    );
    expect(() => registerDeepResearchTools(server(), { ...base, resolveID: (raw: string) => raw } as never)).toThrow(/unknown option "resolveID": did you mean "resolveId"\?/);
    expect(() => registerDeepResearchTools(server(), { ...base, colour: "blue" } as never)).toThrow(
      new McpSearchError(`registerDeepResearchTools: unknown option "colour": The options are ${known}.`),
    );
    // Every known option still passes, and a symbol key is not an option.
    expect(() => registerDeepResearchTools(server(), { ...base, limit: 3, [Symbol("tag")]: 1 })).not.toThrow();
  });

  it("createIndex (and not loadIndex)", () => {
    expect(() => createIndex([], { rankng: "bm25" } as never)).toThrow(
      new McpSearchError('createIndex: unknown option "rankng": did you mean "ranking"? The options are ranking, language, fallbackLanguage, stemmers, detector.'),
    );
    expect(() => createIndex([], { ranking: "bm25", locale: "pt-BR" } as never)).toThrow(/unknown option "locale": did you mean "language"\?/);
    // loadIndex takes createIndex's options as they are (the folder server passes them): the
    // languages are the snapshot's, and the other keys are left alone.
    const bytes = createIndex([], { ranking: "bm25", language: "en" }).snapshot();
    expect(loadIndex(bytes, { language: "en", fallbackLanguage: "en" } as never).size).toBe(0);
  });

  it("createVocabulary, in English whatever the locale, as every set-up error", () => {
    const entries = [{ asked: "renda", source: ["rendimento"] }];
    expect(() => createVocabulary({ sourceName: "o IBGE", entries, stopwords: [] } as never)).toThrow(
      new McpSearchError('createVocabulary: unknown option "stopwords": did you mean "extraStopwords"? The options are locale, sourceName, entries, extraStopwords.'),
    );
    expect(() => createVocabulary({ locale: "en", sourceName: "ILOSTAT", entry: entries } as never)).toThrow(
      new McpSearchError('createVocabulary: unknown option "entry": did you mean "entries"? The options are locale, sourceName, entries, extraStopwords.'),
    );
    expect(() => createVocabulary({ locale: "es", sourcename: "el INE" } as never)).toThrow(
      new McpSearchError('createVocabulary: unknown option "sourcename": did you mean "sourceName"? The options are locale, sourceName, entries, extraStopwords.'),
    );
  });

  it("parseRobotsTxt", () => {
    expect(() => parseRobotsTxt("", { useragent: "ExampleBot" } as never)).toThrow(
      new McpSearchError('parseRobotsTxt: unknown option "useragent": did you mean "userAgent"? The options are userAgent, maxBytes.'),
    );
  });
});

describe("locale and language", () => {
  it("createIndex tells a locale given as a language apart, naming the language code", () => {
    expect(() => createIndex([], { ranking: "bm25", language: "pt-BR" as never })).toThrow(
      new McpSearchError('Unknown language "pt-BR": use "auto", "pt", "es", "en", "ru", "uk", "el", "de", "fr", "it". "pt-BR" is a locale, the language of the text a server writes; the language of the entries is "pt".'),
    );
    expect(() => createIndex([], { ranking: "bm25", fallbackLanguage: "en-GB" as never })).toThrow(/the language of the entries is "en"\./);
    expect(() => createIndex([], { ranking: "bm25", language: "nl" as never })).toThrow(new McpSearchError('Unknown language "nl": use "auto", "pt", "es", "en", "ru", "uk", "el", "de", "fr", "it".'));
  });
});
