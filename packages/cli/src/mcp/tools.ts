/**
 * The folder server's `search` and `fetch`, registered with the library's public factory. This
 * is where the server-side limits live: the number of results, the snippet length and the
 * characters of text per fetch page, each truncation saying so and how to get the rest.
 */
import { z } from "zod";
import {
  DEFAULT_LIMIT,
  registerDeepResearchTools,
  type CallbackContext,
  type Locale,
  type FetchReply,
  type SearchReply,
  type Vocabulary,
} from "@sbissoli/mcp-search";
import type { McpServer } from "@modelcontextprotocol/server";
import type { Folder, FolderSnapshot, LoadedDocument } from "../folder/folder.js";
import { documentId, ID_PREFIX, parseId as parsePathId } from "../folder/ids.js";
import { mountedFileId } from "../folder/mounts.js";
import { markdownToText } from "../formats/markdown.js";
import { formatLabels, readsAsMarkdown, SUPPORTED_EXTENSIONS } from "../formats/registry.js";
import { hitPage, normalisedPages, pageOfMatches, pageUrl } from "../formats/pages.js";
import { outsideContentsLines } from "./contents-lines.js";
import { makeSnippet, makeSnippetAt, prepareSnippetSource, type SnippetSource } from "./snippet.js";
import { folderTexts, type FolderTexts } from "./texts.js";

/** The most results one search returns, by default: the library's. */
const DEFAULT_RESULT_LIMIT = DEFAULT_LIMIT;
/** The longest snippet, by default. */
const DEFAULT_SNIPPET_CHARS = 240;
/** The most characters of document text one fetch returns, by default. */
export const DEFAULT_MAX_CHARS = 20_000;

/**
 * Options of {@link registerFolderTools}.
 *
 * @example
 * const options: FolderToolsOptions = { folder, vocabulary, locale: "en", limit: 5 };
 */
export interface FolderToolsOptions {
  readonly folder: Folder;
  readonly vocabulary: Vocabulary;
  /** Language of the titles, schema descriptions and messages. @default "pt-BR" */
  readonly locale?: Locale | undefined;
  /** The most results one search returns. @default 10 */
  readonly limit?: number | undefined;
  /** The longest snippet, in characters. @default 240 */
  readonly snippetChars?: number | undefined;
  /** The most characters of document text per fetch page. @default 20000 */
  readonly maxChars?: number | undefined;
  /**
   * Adds a second text block to each search result, after the contract JSON: the summary ("10
   * of 57 matched…") and each result's title, id and snippet, as plain text. For hosts that show
   * the model only `content` (Claude Desktop and other desktop hosts), which otherwise never see
   * the snippets. `content[0]` stays the contract JSON. Off by default because ChatGPT's guide
   * shows exactly one block; the CLI turns it on over stdio, which ChatGPT does not use.
   * @default false
   */
  readonly contentSnippets?: boolean | undefined;
}

/** The extras `search` declares in its output schema. */
const searchExtras = {
  summary: z
    .object({
      documents: z.number().int().describe("Documents indexed in the folder."),
      matches: z.number().int().describe("Documents that matched the query."),
      returned: z.number().int().describe("Results returned, at most the server's limit."),
      truncated: z.boolean().describe("True when more documents matched than were returned."),
      message: z.string().describe("Why the result is what it is, e.g. 0 matches among N documents."),
      unreadable: z.number().int().describe("Files of a supported type that could not be read, or only in part (the server's log names them)."),
    })
    .describe("How the result relates to the indexed folder."),
  snippets: z
    .array(z.object({ id: z.string(), snippet: z.string() }))
    .describe("For each result, in order: a short passage centred on the match."),
  notes: z.array(z.string()).describe("Everyday words also searched with the documents' wording."),
};

/**
 * Adds the search extras to the search output schema; the fetch schema stays the contract's
 * (its page information travels in the contract's own `metadata`).
 */
function extendOutputSchema(schema: z.ZodObject): z.ZodObject {
  return "results" in schema.shape ? schema.extend(searchExtras) : schema;
}

/**
 * Registers `search` and `fetch` over a folder on `server`, through the library's
 * `registerDeepResearchTools`.
 *
 * @example
 * const server = new McpServer({ name: "mcp-search", version: "0.9.0" });
 * registerFolderTools(server, { folder, vocabulary });
 */
export function registerFolderTools(server: McpServer, options: FolderToolsOptions): void {
  const locale = options.locale ?? "pt-BR";
  const texts = folderTexts(locale);
  const limit = options.limit ?? DEFAULT_RESULT_LIMIT;
  const snippetChars = options.snippetChars ?? DEFAULT_SNIPPET_CHARS;
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  const { folder, vocabulary } = options;
  // With several folders, a file:// URI is first made a path of the served set (its folder's
  // prefix, then its path there); one under no served folder is refused as outside.
  const address = { root: folder.mounts.length > 1 ? "\0" : folder.root, baseUrl: folder.baseUrl };
  const parseId = (id: string, ...rest: ParseIdRest) => parsePathId(mountedFileId(folder.mounts, id), ...rest);
  const normalizeChar = charNormalizer(vocabulary);
  const pageCounts = new Map<string, { readonly modified: number; readonly pages: number }>();

  /** A paged document's pages, normalised once while the document is current. */
  function pagesFor(doc: LoadedDocument, starts: readonly number[]): readonly string[] {
    let pages = normalisedPageCache.get(doc);
    if (pages === undefined) {
      pages = normalisedPages(doc.text, starts, (text) => vocabulary.normalize(text));
      normalisedPageCache.set(doc, pages);
    }
    return pages;
  }

  async function search(query: string): Promise<SearchReply> {
    const { documents, index, indexing, unreadable } = await folder.refresh();
    // The top `limit`, the count of every match, and the query as the index analysed it, from one
    // search (not a search of the whole folder). A query word and its vocabulary expansions are
    // one concept of the query ("azedo" and "sour").
    const { results: top, total: matches, matcher } = index.searchWithMatcher(query, { limit, expand: vocabulary.expandTerm });
    const results = top.map((result) => ({ ...result }));
    const expanded = vocabulary.expandQuery(query);
    const terms = expanded.map((term) => term.patterns);
    const snippets: { id: string; snippet: string }[] = [];
    for (const result of results) {
      const { id } = result;
      // The text is read again from disk; a file changed since it was indexed gives no snippet.
      const doc = documents.get(id.slice(ID_PREFIX.length));
      const loaded = doc === undefined ? undefined : await folder.load(doc);
      // Centred on the words that ranked, read as the index read the document; where none is in
      // the text (a vocabulary translation, indexed as a keyword), on the vocabulary's patterns,
      // in the text normalised (only then: normalising a long text costs as much as the search).
      // A hit in a paged document (PDF) is cited at its page, the one that holds the most of them.
      // A section's entry in a table of contents names another page: it counts only when alone.
      const text = snippetTextOf(loaded);
      const hits = outsideContentsLines(matcher.findMatches(text, id), text);
      if (loaded?.pageStarts !== undefined) {
        const page = hits.length > 0 && text === loaded.text ? pageOfMatches(hits, loaded.pageStarts) : hitPage(pagesFor(loaded, loaded.pageStarts), terms);
        result.url = pageUrl(result.url, page);
      }
      const snippet = hits.length > 0 ? makeSnippetAt(text, hits, matcher.terms.length, { maxChars: snippetChars }) : makeSnippet(snippetSourceOf(loaded, normalizeChar), terms, { maxChars: snippetChars, normalizeChar });
      snippets.push({ id, snippet });
    }
    const counted = summaryMessage(texts, documents.size, matches, results.length, indexing !== undefined);
    const message = unreadable > 0 ? `${counted} ${texts.unreadable(unreadable)}` : counted;
    const summary = {
      documents: documents.size,
      matches,
      returned: results.length,
      truncated: matches > results.length,
      unreadable,
      message: indexing === undefined ? message : `${texts.indexing(indexing.done, indexing.total)} ${message}`,
    };
    return { results, extras: { structured: { summary, snippets, notes: vocabulary.vocabularyNotes(expanded) } } };
  }

  // One refresh per fetch call: the factory hands `resolveId` and then `fetch` the same call
  // context, and the second reuses the refresh the first started (each waits for the watch's
  // events and stats every symbolic link).
  const refreshes = new WeakMap<CallbackContext, Promise<FolderSnapshot>>();
  function refreshFor(call: CallbackContext | undefined): Promise<FolderSnapshot> {
    if (call === undefined) return folder.refresh();
    let refreshed = refreshes.get(call);
    if (refreshed === undefined) {
      refreshed = folder.refresh();
      refreshes.set(call, refreshed);
    }
    return refreshed;
  }

  /** Any accepted spelling of an id (bare path, file:// URI, public url, "#1") → its canonical id. */
  async function resolveId(id: string, call?: CallbackContext): Promise<string | null> {
    const parsed = parseId(id, address, knownPaths(await refreshFor(call)));
    return parsed.ok ? documentId(parsed.relative, parsed.page) : null;
  }

  async function fetch(id: string, call?: CallbackContext): Promise<FetchReply | null> {
    const snapshot = await refreshFor(call);
    const parsed = parseId(id, address, knownPaths(snapshot));
    if (!parsed.ok) return null;
    const indexed = snapshot.documents.get(parsed.relative);
    // Read again from disk; when the file changed since it was indexed, refresh once and retry.
    let doc = indexed === undefined ? undefined : await folder.load(indexed);
    if (indexed !== undefined && doc === undefined) {
      const again = (await folder.refresh()).documents.get(parsed.relative);
      doc = again === undefined ? undefined : await folder.load(again);
    }
    if (doc === undefined) return null;
    const pages = pagesOf(doc, maxChars);
    pageCounts.set(doc.relative, { modified: doc.modified, pages: pages.length });
    const page = pages[parsed.page - 1];
    if (page === undefined) return null;
    return renderPage(doc, page, parsed.page, pages.length, texts);
  }

  function notFound(id: string): string {
    const snapshot = folder.current;
    const parsed = parseId(id, address, knownPaths(snapshot));
    if (!parsed.ok) return texts.refused(id, parsed.why);
    const doc = snapshot.documents.get(parsed.relative);
    if (doc !== undefined) {
      // The count the fetch that just failed worked out; the text itself is not kept.
      const counted = pageCounts.get(doc.relative);
      const pages = counted?.modified === doc.modified ? counted.pages : Math.max(1, Math.ceil(doc.bytes / maxChars));
      return texts.stalePage(id, pages, doc.id);
    }
    return snapshot.removed.has(documentId(parsed.relative)) ? texts.stale(id) : texts.unknown(id);
  }

  registerDeepResearchTools(server, {
    search,
    fetch,
    resolveId,
    corpus: `the documents of a local folder (${formatLabels()} files)`,
    locale,
    limit,
    notFound,
    extendOutputSchema,
    // All three hints set, as OpenAI's app review asks: reads files, changes nothing, reaches no one.
    annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    // The factory keeps `content` to the one contract block unless asked (FACTS.md: a second
    // block is a risk for ChatGPT); the CLI asks over stdio only, which ChatGPT does not use.
    ...(options.contentSnippets === true && { readableSearchText: readableText }),
  });
}

/** parseId's arguments after the id. */
type ParseIdRest = Parameters<typeof parsePathId> extends [string, ...infer Rest] ? Rest : never;

interface SearchStructured {
  readonly results?: readonly { id: string; title: string; url: string }[];
  readonly summary?: { readonly message?: string };
  readonly snippets?: readonly { id: string; snippet: string }[];
  readonly notes?: readonly string[];
}

/**
 * A search result's readable text, the second content block the factory adds under
 * `readableSearchText`: the summary message, then each result numbered with its title, id and
 * snippet, then the vocabulary notes.
 *
 * @example
 * readableText({ results: [], summary: { message: "0 matches among 12 documents…" } }); // => "0 matches among 12 documents…"
 */
function readableText(structured: unknown): string {
  const structuredContent = structured as SearchStructured;
  const snippets = new Map((structuredContent.snippets ?? []).map(({ id, snippet }) => [id, snippet]));
  const lines: string[] = [];
  if (structuredContent.summary?.message !== undefined) lines.push(structuredContent.summary.message);
  (structuredContent.results ?? []).forEach(({ id, title }, index) => {
    lines.push("", `${index + 1}. ${title} (${id})`);
    const snippet = snippets.get(id);
    if (snippet !== undefined && snippet !== "") lines.push(`   ${snippet}`);
  });
  const notes = structuredContent.notes ?? [];
  if (notes.length > 0) lines.push("", ...notes);
  return lines.join("\n");
}

/**
 * The paths an id or a resource uri may name as written: the indexed ones, and those removed this
 * session (stale). Only used to tell a backslash in a name from one that separates folders.
 *
 * @example
 * knownPaths(folder.current).has("guides/brewing.md"); // => true
 */
export function knownPaths({ documents, removed }: FolderSnapshot): { has(relative: string): boolean } {
  return { has: (relative) => documents.has(relative) || removed.has(documentId(relative)) };
}

/** The supported extensions, as the empty folder's message lists them: from the one list of formats. */
const EXTENSIONS_TEXT = [...SUPPORTED_EXTENSIONS].join(", ");

/**
 * The summary's message for a search's counts. While the first indexing is under way, no document
 * yet is not an empty folder: the model is told to search again, not that it will not help.
 *
 * @example
 * summaryMessage(folderTexts("en"), 0, 0, 0, true); // => "No document is indexed yet: search again in a few seconds."
 */
export function summaryMessage(texts: FolderTexts, documents: number, matches: number, returned: number, indexing: boolean): string {
  if (documents === 0) return indexing ? texts.nothingIndexedYet : texts.nothingIndexed(EXTENSIONS_TEXT);
  if (matches === 0) return texts.noMatch(documents);
  return matches > returned ? texts.truncated(returned, matches, documents) : texts.matched(returned, documents);
}

/**
 * Splits a text into pages of at most `maxChars` characters, cutting at a line break, else at a
 * space, in the last fifth of the page; a hard cut only when neither exists. Each page looks at
 * its last fifth only, so the whole split is linear in the text.
 *
 * @example
 * paginate("one two three", 8); // => [[0, 4], [4, 8], [8, 13]]
 */
export function paginate(text: string, maxChars: number): [number, number][] {
  const size = Math.max(1, Math.floor(maxChars));
  const pages: [number, number][] = [];
  let start = 0;
  do {
    let end = Math.min(text.length, start + size);
    if (end < text.length) end = lastBreak(text, start + Math.floor(size * 0.8), end);
    pages.push([start, end]);
    start = end;
  } while (start < text.length);
  return pages;
}

/** Where to cut in `[floor, end)`: after its last line break, else its last space, else at `end`. */
function lastBreak(text: string, floor: number, end: number): number {
  let space = -1;
  for (let at = end - 1; at >= floor; at -= 1) {
    const code = text.charCodeAt(at);
    if (code === 10) return at + 1;
    if (code === 32 && space === -1) space = at;
  }
  return space === -1 ? end : space + 1;
}

/** A paged document's pages normalised for {@link hitPage}; a re-read document is a new object. */
const normalisedPageCache = new WeakMap<LoadedDocument, readonly string[]>();

/** Each document's pages at the last page size asked; a re-read document is a new object. */
const pageCache = new WeakMap<LoadedDocument, { readonly maxChars: number; readonly pages: [number, number][] }>();

/**
 * The pages of a document at `maxChars`, split once and kept while the document is current.
 *
 * @example
 * pagesOf(doc, 20_000) === pagesOf(doc, 20_000); // => true
 */
export function pagesOf(doc: LoadedDocument, maxChars: number): readonly [number, number][] {
  const cached = pageCache.get(doc);
  if (cached?.maxChars === maxChars) return cached.pages;
  const pages = paginate(doc.text, maxChars);
  pageCache.set(doc, { maxChars, pages });
  return pages;
}

/**
 * One character normaliser per vocabulary, shared by every McpServer over it (HTTP makes one per
 * request), so the per-character cache of ./snippet.ts and {@link snippetSourceOf} carry over.
 */
const normalizers = new WeakMap<Vocabulary, (char: string) => string>();

function charNormalizer(vocabulary: Vocabulary): (char: string) => string {
  let normalizeChar = normalizers.get(vocabulary);
  if (normalizeChar === undefined) {
    normalizeChar = (char) => vocabulary.normalize(char);
    normalizers.set(vocabulary, normalizeChar);
  }
  return normalizeChar;
}

/** Each document's text as snippets show it, and normalised for them; a re-read document is a new object. */
const textCache = new WeakMap<LoadedDocument, string>();
const sourceCache = new WeakMap<LoadedDocument, { readonly normalizeChar: (char: string) => string; readonly source: SnippetSource }>();
const EMPTY_SOURCE: SnippetSource = { text: "", normalised: "", origin: undefined };

/**
 * A document's text as a snippet shows it: plain text for Markdown and HTML (see
 * ../formats/markdown.ts), kept while the document is current. Snippets show text, not markup:
 * badges, link targets, tags and table pipes are gone, and so are the entries of a table of
 * contents (a snippet belongs in the section, not in the link to it). Other formats are shown as
 * written (a JSON "_id" or a YAML "- item" is content there).
 *
 * @example
 * snippetTextOf({ ...doc, format: "markdown", text: "# Café\n\n**Forte**" }); // => "Café\n\nForte"
 */
function snippetTextOf(doc: LoadedDocument | undefined): string {
  if (doc === undefined) return "";
  let text = textCache.get(doc);
  if (text === undefined) {
    text = readsAsMarkdown(doc.format) ? markdownToText(doc.text, { contents: false }) : doc.text;
    textCache.set(doc, text);
  }
  return text;
}

/**
 * {@link snippetTextOf}, normalised for the vocabulary's patterns, prepared once and kept while
 * the document is current.
 *
 * @example
 * snippetSourceOf(doc, normalizeChar) === snippetSourceOf(doc, normalizeChar); // => true
 */
export function snippetSourceOf(doc: LoadedDocument | undefined, normalizeChar: (char: string) => string): SnippetSource {
  if (doc === undefined) return EMPTY_SOURCE;
  const cached = sourceCache.get(doc);
  if (cached !== undefined && cached.normalizeChar === normalizeChar) return cached.source;
  const source = prepareSnippetSource(snippetTextOf(doc), normalizeChar);
  sourceCache.set(doc, { normalizeChar, source });
  return source;
}

function renderPage(doc: LoadedDocument, [from, to]: [number, number], page: number, pages: number, texts: FolderTexts): FetchReply {
  const next = page < pages ? documentId(doc.relative, page + 1) : undefined;
  const body = doc.text.slice(from, to).trimEnd();
  const closing = next !== undefined ? texts.truncatedPage(page, pages, next) : pages > 1 ? texts.lastPage(page, pages) : "";
  const metadata: Record<string, unknown> = {
    path: doc.relative,
    format: doc.format,
    bytes: doc.bytes,
    modified: new Date(doc.modified).toISOString(),
    page,
    pages,
    truncated: next !== undefined,
  };
  if (next !== undefined) metadata["next"] = next;
  return {
    id: documentId(doc.relative, page),
    title: doc.title,
    url: doc.url,
    text: closing === "" ? body : `${body}\n\n${closing}`,
    metadata,
  };
}
