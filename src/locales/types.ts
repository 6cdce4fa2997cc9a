import type { Language } from "../languages/index.js";

/**
 * The shape of one locale's surface text: every string a person or a model reads, per concept.
 * Each language file (pt-BR.ts, en.ts, …) is one `LocaleTexts` object, so the compiler refuses a
 * language that lacks a text the others have.
 */

/** What the contract expected where a reply broke it. */
export type ExpectedKind = "string" | "list" | "object" | "searchReply" | "fetchReply";

/**
 * How a reply broke the contract. `path` names the field as a reader would write it
 * (`results[3].url`, `document.text`, `extras.meta`), or `""` for the whole reply. `tooLarge`
 * carries the reply's serialised size in UTF-16 code units, or null when JavaScript could not
 * even build the string.
 */
export type ReplyProblem =
  | { readonly kind: "type"; readonly path: string; readonly expected: ExpectedKind; readonly received: string }
  | { readonly kind: "empty"; readonly path: string }
  | { readonly kind: "otherId"; readonly path: string; readonly requested: string; readonly returned: string }
  | { readonly kind: "json"; readonly path: string; readonly detail: string }
  | { readonly kind: "invalid"; readonly path: string; readonly detail: string }
  | { readonly kind: "undeclared"; readonly path: string }
  | { readonly kind: "tooLarge"; readonly path: string; readonly size: number | null; readonly limit: number };


/** Descriptions attached to the contract's zod schemas (and so to their JSON Schema). */
interface SchemaTexts {
  readonly query: string;
  readonly searchInput: string;
  readonly resultId: string;
  readonly resultTitle: string;
  readonly resultUrl: string;
  readonly result: string;
  readonly results: string;
  readonly searchOutput: string;
  readonly fetchId: string;
  readonly fetchInput: string;
  readonly documentId: string;
  readonly documentTitle: string;
  readonly documentText: string;
  readonly documentUrl: string;
  readonly documentMetadata: string;
  readonly fetchDocument: string;
}

/** Messages for input that fails the contract's schemas. */
interface ValidationTexts {
  /** A key outside the contract; `keys` are already quoted and joined. */
  readonly unknownKeys: (keys: string) => string;
  /** A value that is not a string; `field` is the key, or "" for the whole argument object. */
  readonly wrongType: (field: string, received: string) => string;
  /** An id that is empty. */
  readonly emptyId: (field: string) => string;
  /** A string longer than the contract's maximum; `length` is what arrived. */
  readonly tooLong: (field: string, max: number, length: number) => string;
}

/** Default titles and request-time messages of the `search` and `fetch` tools. */
interface ToolTexts {
  /** Title of the search tool: short, human, different from the tool's name. */
  readonly searchTitle: string;
  /** Title of the fetch tool. */
  readonly fetchTitle: string;
  /** An id no document has; names it and points the model back to `search`. */
  readonly notFound: (id: string) => string;
  /** A callback that threw; names the tool and carries the error's message. */
  readonly error: (tool: string, message: string) => string;
  /** Stands for the message of an error that could not be read (a revoked Proxy, a throwing getter). */
  readonly unreadableMessage: string;
  /** A callback's reply outside the contract; names the tool, the field and its position. */
  readonly badReply: (tool: string, problem: ReplyProblem) => string;
  /** A callback that outlived `timeoutMs`; names the tool and the limit. */
  readonly timeout: (tool: string, timeoutMs: number) => string;
}

/** The vocabulary's note (src/vocabulary/vocabulary.ts); its set-up errors are in English, as every set-up error is. */
interface VocabularyTexts {
  /** One note per translated term; `spellings` are already joined with ", ". */
  readonly note: (term: string, spellings: string, sourceName: string) => string;
}

/** Per-line problem reports of the catalogue parsers (src/catalogue.ts). */
export interface CatalogueTexts {
  /** The prefix naming a line: "linha 7". */
  readonly line: (line: number) => string;
  readonly malformedXml: (detail: string) => string;
  /** A `<url>` or `<sitemap>` block that could not be read even on its own, after a failed full parse. */
  readonly unreadableElement: string;
  /** A `<url>` or `<sitemap>` block with no closing tag: the text ends, or the next block opens, first. */
  readonly unclosedElement: (name: "url" | "sitemap") => string;
  readonly notASitemap: string;
  readonly sitemapIndex: (children: number) => string;
  readonly missingUrl: string;
  readonly relativeUrl: (url: string) => string;
  readonly invalidUrl: (url: string) => string;
  readonly duplicateUrl: (url: string, firstLine: number) => string;
  readonly duplicateId: (id: string, firstLine: number) => string;
  readonly emptyTitle: (url: string) => string;
  readonly notALink: (text: string) => string;
  readonly invalidLastmod: (value: string) => string;
  /** The end of a problem detail cut at its cap: how many characters were left out. */
  readonly detailCut: (left: number) => string;
  /** The last problem of a capped list: how many more were found and left out. */
  readonly moreProblems: (left: number) => string;
  /** A text over `maxBytes`, not read at all. */
  readonly tooLarge: (bytes: number, max: number) => string;
}

export interface LocaleTexts {
  /**
   * The language the locale writes (`LOCALE_LANGUAGES`): the vocabulary takes its stopwords and
   * singular from that language's module (src/languages/).
   */
  readonly language: Language;
  /**
   * Words (or phrases) of the present tense, and of the most recent past (see `detectIntent`):
   * data, not messages, but they belong to the locale.
   */
  readonly intent: { readonly now: readonly string[]; readonly latest: readonly string[] };
  readonly schema: SchemaTexts;
  readonly validation: ValidationTexts;
  readonly vocabulary: VocabularyTexts;
  readonly tools: ToolTexts;
  readonly catalogue: CatalogueTexts;
}
