/**
 * Reading one file of a served folder for its index: the bytes through the containment check
 * (./containment.ts), the text through its format (../formats/), and the index entry built from it;
 * and reading a document's text again for a snippet or a fetch, the last ones kept. This is the
 * indexer's per-file step: ./folder.ts decides which files to read and puts the results in the
 * index.
 */
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { tokenize, type IndexEntry, type IndexRanking, type Vocabulary } from "@sbissoli/mcp-search";
import { decodeUtf8, extractDocument, type ExtractedDocument } from "../formats/documents.js";
import { markdownToText } from "../formats/markdown.js";
import { binaryFormatOf, readsAsMarkdown, type BinaryFormat } from "../formats/registry.js";
import { isGenericHeading } from "../formats/titles.js";
import { pageMarker, type FormatOutput } from "../formats/types.js";
import { DEFAULT_MAX_BINARY_BYTES, EXTRACTION_TIME_LIMIT_MS, MAX_UNZIPPED_BYTES, readBinaryFile, type BinaryFile } from "./binary-file.js";
import { readInside, type InsideRefusal } from "./containment.js";
import { documentId } from "./ids.js";
import { placeOf, type Mount } from "./mounts.js";
import { createRecentTexts, openTextCache } from "./text-cache.js";
import type { FileStat, FolderDocument, Listed, LoadedDocument, Read } from "./types.js";

/**
 * What {@link createDocumentReader} needs: the served folders, the public base URL, the size cap,
 * the ranking and vocabulary the entries are built for, the log, the binary documents' settings
 * (their byte cap; `cache` is the `--cache` folder of their extracted texts) and the key of that
 * cache (the served folders).
 *
 * @example
 * const settings: ReaderSettings = { mounts, baseUrl: undefined, maxFileBytes: 1048576, ranking: "bm25", vocabulary, log, maxBinaryBytes: undefined, cache: undefined, cacheKey: "/srv/docs" };
 */
interface ReaderSettings {
  readonly mounts: readonly Mount[];
  readonly baseUrl: string | undefined;
  readonly maxFileBytes: number;
  readonly ranking: IndexRanking;
  readonly vocabulary: Vocabulary;
  readonly log: (line: string) => void;
  readonly maxBinaryBytes: number | undefined;
  readonly cache: string | undefined;
  readonly cacheKey: string;
}

/**
 * The per-file step of a folder's indexer (see {@link createDocumentReader}).
 *
 * @example
 * const reader: DocumentReader = createDocumentReader(settings);
 */
export interface DocumentReader {
  /** A path's public url: its `file://` URI, or the base URL plus the path. */
  urlOf(relative: string): string;
  /** What is known of a listed file, and its entry when it is a document; a promise for a binary one. */
  readOne(file: Listed, info: FileStat): Read | Promise<Read>;
  /** A document's text read again, or undefined when the file changed since it was indexed. */
  load(doc: FolderDocument): Promise<LoadedDocument | undefined>;
  /** Drops a document's kept text (it changed), or every one. */
  forget(relative?: string): void;
}

/**
 * Creates the per-file step of a folder's indexer.
 *
 * @example
 * const reader = createDocumentReader(settings);
 * await reader.load(folder.current.documents.get("a.md")!); // => { …, text: "# A" }
 */
export function createDocumentReader(settings: ReaderSettings): DocumentReader {
  const { mounts, baseUrl, maxFileBytes, ranking, log } = settings;
  const options = { vocabulary: settings.vocabulary };
  const at = (path: string) => placeOf(mounts, path);
  const loaded = new Map<string, LoadedDocument>();
  // The binary formats (./formats/): their caps, and the text cache beside the snapshot.
  const binary = {
    maxBytes: settings.maxBinaryBytes ?? DEFAULT_MAX_BINARY_BYTES,
    limits: { maxTextChars: maxFileBytes, maxUnzippedBytes: MAX_UNZIPPED_BYTES },
    timeLimitMs: EXTRACTION_TIME_LIMIT_MS,
    cache: settings.cache === undefined ? undefined : openTextCache(settings.cache, settings.cacheKey),
    recent: createRecentTexts(RECENT_TEXT_CHARS),
  };

  const urlOf = (relative: string) =>
    baseUrl === undefined ? pathToFileURL(join(at(relative).root, at(relative).relative)).href : baseUrl + relative.split("/").map(encodeURIComponent).join("/");

  /** The file's decoded text, read through the containment check on one descriptor, or why not. */
  function readSource(relative: string): { source: string; modified: number; size: number } | { why: string; retry: boolean } {
    const read = readInside(at(relative).root, at(relative).relative, maxFileBytes);
    if (!read.ok) return { why: `${SKIP_REASONS[read.why]}${read.code === undefined ? "" : ` (${read.code})`}`, retry: read.why === "changed" };
    const source = decodeUtf8(read.bytes);
    if (source === undefined) return { why: "not readable as UTF-8 text", retry: false };
    return { source, modified: read.modified, size: read.size };
  }

  function readOne(file: Listed, info: FileStat): Read | Promise<Read> {
    const { mtimeMs: modified, ctimeMs: changed, size } = info;
    const binaryFormat = binaryFormatOf(file.relative);
    if (binaryFormat !== undefined) return readOneBinary(file, info, binaryFormat);
    if (size > maxFileBytes) {
      log(`skipped ${file.relative}: ${size} bytes is over the ${maxFileBytes}-byte cap`);
      return { known: { modified, changed, size, unreadable: true } };
    }
    const read = readSource(file.relative);
    if ("why" in read) {
      log(`skipped ${file.relative}: ${read.why}`);
      return { known: { modified, changed, size, retry: read.retry, unreadable: !read.retry } };
    }
    const url = urlOf(file.relative);
    const { entry, format } = documentEntry(file.relative, read.source, { url, linksResolve: baseUrl !== undefined, ranking, vocabulary: options.vocabulary });
    const document: FolderDocument = { id: entry.id, relative: file.relative, title: entry.title, url, format, bytes: read.size, modified: read.modified };
    return { known: { modified, changed, size, document }, entry };
  }

  /** {@link readOne} for a binary document (./formats/): read and extracted off the text path. */
  async function readOneBinary(file: Listed, info: FileStat, format: BinaryFormat): Promise<Read> {
    const { mtimeMs: modified, ctimeMs: changed, size } = info;
    if (size > binary.maxBytes) {
      log(`skipped ${file.relative}: ${size} bytes is over the ${binary.maxBytes}-byte cap`);
      return { known: { modified, changed, size, unreadable: true } };
    }
    const read = await readBinaryFile(at(file.relative).root, at(file.relative).relative, format, binary);
    const why = binaryFailure(read);
    if (!read.ok) {
      const retry = "refused" in read && read.refused.why === "changed";
      log(`skipped ${file.relative}: ${why}`);
      return { known: { modified, changed, size, retry, unreadable: !retry } };
    }
    if (read.output.truncated === true) log(`truncated ${file.relative}: its text is over the ${maxFileBytes}-character cap`);
    const url = urlOf(file.relative);
    const extracted = binaryDocument(file.relative, format, read.output);
    const { entry } = documentEntry(file.relative, extracted, { url, linksResolve: baseUrl !== undefined, ranking, vocabulary: options.vocabulary });
    const document: FolderDocument = { id: entry.id, relative: file.relative, title: entry.title, url, format, bytes: read.size, modified: read.modified };
    return { known: { modified, changed, size, document, unreadable: read.output.truncated === true }, entry };
  }

  async function load(doc: FolderDocument): Promise<LoadedDocument | undefined> {
    const hit = loaded.get(doc.relative);
    if (hit !== undefined && hit.modified === doc.modified && hit.bytes === doc.bytes) return hit;
    const binaryFormat = binaryFormatOf(doc.relative);
    if (binaryFormat !== undefined) {
      const read = await readBinaryFile(at(doc.relative).root, at(doc.relative).relative, binaryFormat, binary);
      if (!read.ok || read.modified !== doc.modified || read.size !== doc.bytes) return undefined;
      const extracted = binaryDocument(doc.relative, binaryFormat, read.output);
      const full: LoadedDocument = { ...doc, text: extracted.text, ...(extracted.pages !== undefined && { pageStarts: pageStarts(extracted.text, extracted.pages.length) }) };
      loaded.set(doc.relative, full);
      if (loaded.size > LOADED_KEPT) loaded.delete(loaded.keys().next().value as string);
      return full;
    }
    const read = readSource(doc.relative);
    // The same change check as the index: a file whose size or time moved is not this document.
    if ("why" in read || read.modified !== doc.modified || read.size !== doc.bytes) return undefined;
    const full: LoadedDocument = { ...doc, text: extractDocument(doc.relative, read.source, baseUrl === undefined ? {} : { url: doc.url }).text };
    loaded.set(doc.relative, full);
    if (loaded.size > LOADED_KEPT) loaded.delete(loaded.keys().next().value as string);
    return full;
  }

  return {
    urlOf,
    readOne,
    load,
    forget(relative) {
      if (relative === undefined) loaded.clear();
      else loaded.delete(relative);
    },
  };
}

/**
 * What {@link documentEntry} needs besides the file: the document's public url, whether its
 * relative links resolve against that url (only under `--base-url`), the ranking and the
 * vocabulary.
 *
 * @example
 * const settings: EntrySettings = { url: "file:///srv/docs/a.md", linksResolve: false, ranking: "bm25", vocabulary };
 */
interface EntrySettings {
  readonly url: string;
  readonly linksResolve: boolean;
  readonly ranking: IndexRanking;
  readonly vocabulary: Vocabulary;
}

/**
 * The version of {@link documentEntry}'s reading: bumped when a file gives another title,
 * keywords or text than before (2: Markdown's YAML front matter names the title and keywords, and
 * is no longer text; a wiki link reads as the text it shows. 3: a link's text in brackets, "[1]",
 * reads as written, not as a wiki link followed by its target). The folder's `--cache`
 * fingerprint holds it, with the binary formats' own `FORMATS_VERSION` (../formats/types.ts), so
 * a snapshot of entries read the old way is not trusted for the files it did not read again.
 */
export const READER_VERSION = 3;

/**
 * The index entry of one file's decoded text, and its format: what the folder indexes for it,
 * and what a fresh `createIndex` over the same files must be given to rank as the folder does
 * (the differential test of packages/cli/test/extra/ builds one that way).
 *
 * @example
 * documentEntry("a.md", "# Zip files\n\nHow to zip.", settings).entry.title; // => "Zip files"
 */
export function documentEntry(relative: string, source: string | ExtractedDocument, settings: EntrySettings): { entry: IndexEntry; format: string } {
  const { url, ranking, vocabulary } = settings;
  // Relative links of an HTML page resolve against its public URL, only under --base-url.
  const extracted = typeof source === "string" ? extractDocument(relative, source, settings.linksResolve ? { url } : {}) : source;
  const { title, text, format } = extracted;
  const asked = vocabulary.askedWordsFor(`${title}\n${text}`);
  // BM25 reads a Markdown or HTML document's section headings as its keywords: they name what
  // it covers in few words (measured on the relevance bench, docs/performance.md). A generic
  // heading ("Introduction", "Introdução", "Uso") names no subject: it stays an ordinary word of
  // the text, so that it does not put one page first for every query that holds it.
  const named = extracted.headings ?? [];
  const headings = ranking === "bm25" ? named.filter((heading) => !isGenericHeading(heading)) : [];
  const keywords = [...asked, ...headings];
  // Markdown and HTML are indexed as plain text: a link's target or a badge's URL is markup, and
  // its words ("https", "svg") would otherwise count in every page that links.
  // A PDF is indexed without its page markers.
  const plain = extracted.pages !== undefined ? extracted.pages.join("\n\n") : readsAsMarkdown(format) ? markdownToText(text) : text;
  // BM25 counts repeats, so it indexes the whole text; the rule only needs each token once.
  const indexed = ranking === "bm25" ? plain : searchableText(plain);
  return { entry: { id: documentId(relative), title, url, keywords, text: indexed }, format };
}

/** Documents whose text stays loaded for the next snippet or fetch page. */
const LOADED_KEPT = 32;
/**
 * The extracted texts of binary documents (PDF, DOCX, ODT, EPUB) kept in memory besides, in
 * characters × 2 (UTF-16 bytes): 64 MiB, so snippets and fetches of a folder of PDFs rarely
 * extract one again (without it, the PDF relevance bench's median search took 157 ms, not 20).
 */
const RECENT_TEXT_CHARS = 64 * 1024 * 1024;

/**
 * A document's text as the index sees it: each of its tokens once, in first-seen order.
 * The rule's `createIndex` records whether a token occurs in a field, not how often, so it builds
 * the same index from this as from the full text (a property test holds it to that); kept per file, it
 * makes the rebuild after an edit tokenise each document's distinct words instead of its whole
 * text again.
 *
 * @example
 * searchableText("Produção de soja e de milho; soja outra vez."); // => "producao soja milho outra vez"
 */
export function searchableText(text: string): string {
  return tokenize(text).join(" ");
}

/** What each refusal of {@link readInside} means, in a log line. */
const SKIP_REASONS: Readonly<Record<InsideRefusal["why"], string>> = {
  outside: "it resolves outside the folder",
  "not-served": "it leads to a hidden file, into a vendor folder or to an unsupported file",
  missing: "it vanished before it could be read",
  "not-file": "it is not a regular file",
  "too-large": "it grew over the size cap",
  changed: "it changed while it was read (a link swapped in?); it is read again on the next call",
  unreadable: "it cannot be opened or read",
};

/** A binary format's reading as a document: its title, else the file name. */
function binaryDocument(relative: string, format: BinaryFormat, output: FormatOutput): ExtractedDocument {
  const title = output.title?.replace(/\s+/g, " ").trim();
  return { title: title === undefined || title === "" ? basename(relative) : title, text: output.text, format, headings: output.headings, pages: output.pages };
}

/** Why a binary document gave no text, in a log line. */
function binaryFailure(read: BinaryFile): string {
  if (read.ok) return "";
  if ("unreadable" in read) return read.unreadable.message;
  return `${SKIP_REASONS[read.refused.why]}${read.refused.code === undefined ? "" : ` (${read.refused.code})`}`;
}

/**
 * Where each page starts in a paged document's fetch text: at its marker line ("[page 2]"), found
 * in order, so each search starts where the last one ended.
 *
 * @example
 * pageStarts("[page 1]\n\nA\n\n[page 2]\n\nB", 2); // => [0, 13]
 */
export function pageStarts(text: string, pages: number): number[] {
  if (pages <= 1) return [0];
  const starts: number[] = [];
  let from = 0;
  for (let page = 1; page <= pages; page += 1) {
    const at = text.indexOf(pageMarker(page), from);
    if (at === -1) break;
    starts.push(at);
    from = at + 1;
  }
  return starts;
}
