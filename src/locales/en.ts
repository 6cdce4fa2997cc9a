/** Every piece of the library's surface text in English (`locale: "en"`). */
import type { LocaleTexts, ReplyProblem } from "./types.js";

const EXPECTED = {
  string: "a string",
  list: "a list",
  object: "an object",
  searchReply: "a list of results or { results }",
  fetchReply: "a document, { document } or null",
} as const;

function describeProblem(problem: ReplyProblem): string {
  const where = problem.path === "" ? "the reply" : problem.path;
  switch (problem.kind) {
    case "type":
      return `${where} must be ${EXPECTED[problem.expected]} (received: ${problem.received})`;
    case "empty":
      return `${where} must not be empty`;
    case "otherId":
      return `${where} is ${JSON.stringify(problem.returned)}, but the id asked for was ${JSON.stringify(problem.requested)}`;
    case "json":
      return `${where} cannot be converted to JSON (${problem.detail})`;
    case "invalid":
      return `${where} is invalid (${problem.detail})`;
    case "undeclared":
      return `${where} is not declared in the output schema; declare it with extendOutputSchema`;
    case "tooLarge":
      return problem.size === null
        ? `${where} is too large to serialise as JSON (the limit is ${problem.limit} characters); shorten the text`
        : `${where} is ${problem.size} characters of JSON, over the limit of ${problem.limit}; shorten the text`;
  }
}

export const en: LocaleTexts = {
  language: "en",
  intent: {
    now: ["now", "right now", "currently", "at the moment", "at present", "presently", "live",
      "today", "real time", "realtime"],
    latest: ["latest", "newest", "recent", "most recent", "recently", "last", "yesterday"],
  },
  schema: {
    query: "Natural-language question or keywords. Accents and case are ignored.",
    searchInput: "Arguments of the search tool.",
    resultId: "Stable document identifier; the value the fetch tool takes.",
    resultTitle: "Human-readable document title.",
    resultUrl:
      "Public URL of the document. ChatGPT creates a citation only from this field, and only when it is non-empty.",
    result: "One matching document.",
    results: "Matching documents, most relevant first. Empty when nothing matches.",
    searchOutput: "Result of the search tool.",
    fetchId: "Identifier of a document, exactly as returned by the search tool.",
    fetchInput: "Arguments of the fetch tool.",
    documentId: "Document identifier, the same one fetch received.",
    documentTitle: "Human-readable document title.",
    documentText: "Full text of the document, as readable Markdown.",
    documentUrl:
      "Public URL of the document. ChatGPT creates a citation only from this field, and only when it is non-empty.",
    documentMetadata: "Additional document metadata, by name (source, date, licence, page…): each value a string, number, boolean, null, list or object, as JSON.",
    fetchDocument: "Full document returned by the fetch tool.",
  },
  validation: {
    unknownKeys: (keys) => `Unrecognized key in the arguments: ${keys}. Use only the contract's keys.`,
    wrongType: (field, received) =>
      field === ""
        ? `The arguments must be an object (received: ${received}).`
        : `Field "${field}" is required and must be a string (received: ${received}).`,
    emptyId: (field) => `Field "${field}" must not be empty.`,
    tooLong: (field, max, length) =>
      `Field "${field}" has ${length} characters; the maximum is ${max}. Shorten it and try again.`,
  },
  vocabulary: {
    note: (term, spellings, sourceName) =>
      `"${term}" was also searched as ${spellings} — the wording ${sourceName} uses.`,
  },
  tools: {
    searchTitle: "Search documents",
    fetchTitle: "Read a document",
    notFound: (id) => `No document has the id ${JSON.stringify(id)}. Use an id returned by the search tool.`,
    error: (tool, message) => `The ${tool} tool failed: ${message}`,
    unreadableMessage: "(an error whose message could not be read)",
    badReply: (tool, problem) => `The ${tool} tool returned a reply outside the contract: ${describeProblem(problem)}.`,
    timeout: (tool, timeoutMs) => `The ${tool} tool did not answer within its limit of ${timeoutMs} ms; try again later.`,
  },
  catalogue: {
    line: (line) => `line ${line}`,
    malformedXml: (detail) => `malformed XML (${detail}); the readable entries were kept.`,
    unreadableElement: "an unreadable <url> or <sitemap> element was skipped; the readable ones were kept.",
    unclosedElement: (name) =>
      `the <${name}> element opened here is never closed (the text ends, or the next one opens, before </${name}>); it was skipped and the readable ones were kept.`,
    notASitemap: "not a sitemap: no <urlset> with <url> elements.",
    sitemapIndex: (children) =>
      `this is a sitemap index (<sitemapindex>) with ${children} sitemap(s); fetch each one (listed in "sitemaps") and read it with parseSitemap.`,
    missingUrl: "the URL is missing.",
    relativeUrl: (url) => `the URL ${JSON.stringify(url)} is relative; use an absolute URL (https://…) or pass baseUrl.`,
    invalidUrl: (url) => `the URL ${JSON.stringify(url)} is not a valid http(s) URL.`,
    duplicateUrl: (url, firstLine) => `the page ${url} repeats the one on line ${firstLine}; the first one stands.`,
    duplicateId: (id, firstLine) => `the id ${JSON.stringify(id)} repeats the one on line ${firstLine}; the first one stands.`,
    emptyTitle: (url) => `the link to ${url} has no title.`,
    notALink: (text) => `list item without a [Title](url) link: ${JSON.stringify(text)}.`,
    detailCut: (left) => `… (${left} more characters left out)`,
    moreProblems: (left) => `${left} more problem(s) found and left out of this list.`,
    tooLarge: (bytes, max) => `the text is ${bytes} bytes, over the ${max}-byte limit (maxBytes); nothing was read.`,
    invalidLastmod: (value) =>
      `<lastmod> ${JSON.stringify(value)} is not a W3C date (YYYY-MM-DD or date and time); the page was kept without it.`,
  },
};
