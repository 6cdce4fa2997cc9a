/**
 * The formats the folder server reads, one entry each: its name, its extensions, whether its text
 * reads as Markdown, and its reader. Everything else derives from this table: the extensions the
 * walk lists and the containment check serves, the `--help` text, the tools' description of the
 * corpus and the empty folder's message. Adding a format is one module of this folder and one
 * entry here.
 *
 * A text format's reader takes the file's decoded text; a binary format's takes its bytes, and is
 * imported the first time a file of its type is read, so `--help`, `--version` and a folder of
 * Markdown load no parser. The folder server runs the binary readers in the formats worker
 * (./worker.ts, through ./extract.ts), or in the calling thread when no built worker is at hand.
 */
import { extname } from "node:path";
import { readAsciiDoc } from "./asciidoc.js";
import { readOrg } from "./org.js";
import { splitFrontMatter } from "./front-matter.js";
import { cleanHeading, firstHeading, htmlDocument, sectionHeadings } from "./titles.js";
import { FormatError, loadParser, type FormatLimits, type FormatOutput, type ReadFormat } from "./types.js";

/**
 * What a text format's reader gives: the document's own title when it has one, its text as
 * shown by fetch, and its section headings when the format has them (Markdown, HTML, AsciiDoc,
 * Org).
 *
 * @example
 * const read: TextRead = { title: "Brewing", text: "# Brewing\n\nHot water." };
 */
interface TextRead {
  readonly title: string | undefined;
  readonly text: string;
  readonly headings?: readonly string[] | undefined;
}

/**
 * A text format's reader: the decoded text of one file to its {@link TextRead}. `url` is the
 * document's public URL under `--base-url`, against which an HTML page's relative links resolve.
 *
 * @example
 * const read: ReadText = (source) => ({ title: undefined, text: source.trim() });
 */
type ReadText = (source: string, options: { readonly url?: string | undefined }) => TextRead;

/**
 * A binary format's name, as `FolderDocument.format` gives it.
 *
 * @example
 * const format: BinaryFormat = "epub";
 */
export type BinaryFormat = "pdf" | "docx" | "odt" | "epub";

/** What every entry of the registry holds. */
interface FormatBase {
  /** The format's name, as `FolderDocument.format` gives it. */
  readonly name: string;
  /** How people name it, in the tools' description of the corpus ("Word", "OpenDocument"). */
  readonly label: string;
  /** Its extensions, lower case, with the dot. */
  readonly extensions: readonly string[];
  /**
   * True when its text is Markdown, written so or converted from HTML, DOCX, ODT or EPUB: search
   * indexes it and shows it as plain text (links' targets and markup left out), and a resource
   * gives it as `text/markdown`.
   */
  readonly markdown: boolean;
}

/**
 * One format of the registry: a text format, read from its decoded text, or a binary one, read
 * from its bytes by a reader loaded on first use.
 *
 * @example
 * formatOf("guide.pdf")?.binary; // => true
 */
type DocumentFormat =
  | (FormatBase & { readonly binary: false; readonly read: ReadText })
  | (FormatBase & { readonly name: BinaryFormat; readonly binary: true; readonly read: ReadFormat });

/** Plain text and reStructuredText (and Markdown without front matter): the text as written, titled by its first real heading. */
const headed =
  (rst: boolean): ReadText =>
  (source) => {
    const text = source.trim();
    return { title: firstHeading(text, rst), text };
  };

/**
 * Markdown: as {@link headed}, with its section headings ({@link sectionHeadings}); when it opens
 * with YAML front matter (./front-matter.ts), the front matter's title comes first, and its labels
 * and summary join the section headings as what the page is about.
 */
const markdown: ReadText = (source) => {
  const text = source.trim();
  const front = splitFrontMatter(text);
  if (front === undefined) return { title: firstHeading(text), text, headings: sectionHeadings(text) };
  const { title, summary, labels } = front.named;
  const clean = title === undefined ? "" : cleanHeading(title);
  const about = [...labels, ...(summary === undefined ? [] : [summary])].map(cleanHeading).filter((label) => label !== "");
  return { title: clean === "" ? firstHeading(text) : clean, text, headings: [...about, ...sectionHeadings(text)] };
};

/** HTML: the page converted to Markdown (./titles.ts), with the section headings of that Markdown. */
const html: ReadText = (source, { url }) => {
  const page = htmlDocument(source, { url });
  return { ...page, headings: sectionHeadings(page.text) };
};

/** AsciiDoc and Org: the text as written, with the title and headings the format marks. */
const marked =
  (read: (text: string) => { title: string | undefined; headings: readonly string[] }): ReadText =>
  (source) => {
    const text = source.trim();
    const { title, headings } = read(text);
    const clean = title === undefined ? "" : cleanHeading(title);
    return { title: clean === "" ? undefined : clean, text, headings: headings.map(cleanHeading).filter((heading) => heading !== "") };
  };

/** CSV and YAML: the text as written; the file name is the title. */
const untitled: ReadText = (source) => ({ title: undefined, text: source.trim() });

/** A JSON file written on one line is re-indented; anything else is kept as written. */
const readableJson: ReadText = (source) => {
  const text = source.trim();
  if (text.includes("\n")) return { title: undefined, text };
  try {
    return { title: undefined, text: JSON.stringify(JSON.parse(text), null, 2) };
  } catch {
    return { title: undefined, text };
  }
};

// A reader module that fails to load is the installation's failure, not the file's (loadParser).
const FORMATS: readonly DocumentFormat[] = [
  { name: "markdown", label: "Markdown", extensions: [".md", ".markdown"], markdown: true, binary: false, read: markdown },
  { name: "text", label: "plain text", extensions: [".txt"], markdown: false, binary: false, read: headed(false) },
  { name: "restructuredtext", label: "reStructuredText", extensions: [".rst"], markdown: false, binary: false, read: headed(true) },
  { name: "asciidoc", label: "AsciiDoc", extensions: [".adoc", ".asciidoc"], markdown: false, binary: false, read: marked(readAsciiDoc) },
  { name: "org", label: "Org", extensions: [".org"], markdown: false, binary: false, read: marked(readOrg) },
  { name: "csv", label: "CSV", extensions: [".csv"], markdown: false, binary: false, read: untitled },
  { name: "json", label: "JSON", extensions: [".json"], markdown: false, binary: false, read: readableJson },
  { name: "yaml", label: "YAML", extensions: [".yaml", ".yml"], markdown: false, binary: false, read: untitled },
  { name: "html", label: "HTML", extensions: [".html", ".htm"], markdown: true, binary: false, read: html },
  {
    name: "pdf", label: "PDF", extensions: [".pdf"], markdown: false, binary: true,
    read: async (bytes, limits, timeLimitMs) => (await loadParser(() => import("./pdf.js"))).readPdf(bytes, limits, timeLimitMs),
  },
  {
    name: "docx", label: "Word", extensions: [".docx"], markdown: true, binary: true,
    read: async (bytes, limits) => (await loadParser(() => import("./docx.js"))).readDocx(bytes, limits),
  },
  {
    name: "odt", label: "OpenDocument", extensions: [".odt"], markdown: true, binary: true,
    read: async (bytes, limits) => (await loadParser(() => import("./odt.js"))).readOdt(bytes, limits),
  },
  {
    name: "epub", label: "EPUB", extensions: [".epub"], markdown: true, binary: true,
    read: async (bytes, limits) => (await loadParser(() => import("./epub.js"))).readEpub(bytes, limits),
  },
];

const BY_EXTENSION: ReadonlyMap<string, DocumentFormat> = new Map(FORMATS.flatMap((format) => format.extensions.map((extension) => [extension, format] as const)));
const BY_NAME: ReadonlyMap<string, DocumentFormat> = new Map(FORMATS.map((format) => [format.name, format]));

/**
 * The extensions the folder server indexes, lower case, in the registry's order.
 *
 * @example
 * SUPPORTED_EXTENSIONS.has(".md"); // => true
 */
export const SUPPORTED_EXTENSIONS: ReadonlySet<string> = new Set(BY_EXTENSION.keys());

/**
 * The format of a path, by its extension (in any case); undefined for an unsupported one.
 *
 * @example
 * formatOf("guides/Brewing.MD")?.name; // => "markdown"
 * formatOf("keys/id_rsa");             // => undefined
 */
function formatOf(path: string): DocumentFormat | undefined {
  return BY_EXTENSION.get(extname(path).toLowerCase());
}

/**
 * The binary format of a path, by its extension; undefined for a text or unsupported one.
 *
 * @example
 * binaryFormatOf("manual.pdf"); // => "pdf"
 * binaryFormatOf("notes.md");   // => undefined
 */
export function binaryFormatOf(path: string): BinaryFormat | undefined {
  const format = formatOf(path);
  return format?.binary === true ? format.name : undefined;
}

/**
 * The supported extensions of the text formats (read as UTF-8) or of the binary ones, in the
 * registry's order, as the `--help` text lists them.
 *
 * @example
 * extensionsOf("binary"); // => [".pdf", ".docx", ".odt", ".epub"]
 */
export function extensionsOf(kind: "text" | "binary"): string[] {
  return FORMATS.filter((format) => format.binary === (kind === "binary")).flatMap((format) => format.extensions);
}

/**
 * The formats as people name them, in the registry's order, for the tools' description.
 *
 * @example
 * formatLabels(); // => "Markdown, plain text, reStructuredText, …, OpenDocument and EPUB"
 */
export function formatLabels(): string {
  const labels = FORMATS.map((format) => format.label);
  return `${labels.slice(0, -1).join(", ")} and ${labels[labels.length - 1] ?? ""}`;
}

/**
 * True when a document of this format (its name) has Markdown text, so that search indexes it and
 * shows it as plain text (links' targets and markup left out).
 *
 * @example
 * readsAsMarkdown("docx"); // => true
 * readsAsMarkdown("csv");  // => false
 */
export function readsAsMarkdown(format: string): boolean {
  return BY_NAME.get(format)?.markdown === true;
}

/**
 * Reads a file of a binary format in this thread. Throws `FormatError` when it gives no text
 * (see ./types.ts), `timeout` included: a PDF stops between two pages past `timeLimitMs`; the
 * other formats, which cannot be stopped midway, are bounded by the unzipped-size cap and
 * answered as timed out when they took longer than the limit.
 *
 * @example
 * const read = await readInThisThread("docx", bytes, { maxTextChars: 1048576, maxUnzippedBytes: 67108864 }, 30_000);
 * read.title; // => "Pour-over coffee guide"
 */
export async function readInThisThread(format: BinaryFormat, bytes: Uint8Array, limits: FormatLimits, timeLimitMs: number): Promise<FormatOutput> {
  const entry = BY_NAME.get(format);
  if (entry?.binary !== true) throw new FormatError("reader-failed", `no reader for the format ${JSON.stringify(format)}`);
  const started = performance.now();
  const read = await entry.read(bytes, limits, timeLimitMs);
  if (format !== "pdf" && performance.now() - started > timeLimitMs) {
    throw new FormatError("timeout", `${Math.round(performance.now() - started)} ms`);
  }
  return read;
}

/**
 * Reads a file of a text format from its decoded text; a path of no supported extension is read
 * as plain text. The title is undefined when the format gives none (the caller names the
 * document by its file name).
 *
 * @example
 * readText("guides/brewing.md", "# Brewing\n\nHot water.", {}); // => { format: "markdown", title: "Brewing", text: "# Brewing\n\nHot water." }
 */
export function readText(path: string, source: string, options: { readonly url?: string | undefined }): TextRead & { readonly format: string } {
  const format = formatOf(path);
  const entry = format === undefined || format.binary ? PLAIN_TEXT : format;
  return { ...entry.read(source, options), format: entry.name };
}

/** What a path of no supported extension (or a binary one, given as text) is read as. */
const PLAIN_TEXT = BY_NAME.get("text") as Extract<DocumentFormat, { binary: false }>;
