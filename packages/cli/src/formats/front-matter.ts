/**
 * YAML front matter: the block between two `---` lines that opens a Markdown file in Jekyll,
 * Hugo, Docusaurus or Obsidian, and names the page (`title`), says what it is about
 * (`description`, `summary`) and labels it (`tags`, `keywords`, `categories`). A page rendered
 * from such a file shows none of the block as text. It is parsed by the `yaml` package, loaded
 * the first time a file has one (its import costs about 100 ms), and only up to
 * {@link MAX_FRONT_MATTER_CHARS}: a block that does not parse, or is larger, names nothing.
 */
import { createRequire } from "node:module";
import type { parseDocument } from "yaml";

/**
 * The longest front matter block that is parsed, in characters: a page's is a few hundred. The
 * parse costs about 45 µs for a typical block, in the thread that indexes; a hostile 16 KiB
 * (thousands of keys, tags, or brackets nested thousands deep) took 34 to 100 ms, so the cap is
 * half that.
 */
const MAX_FRONT_MATTER_CHARS = 8 * 1024;
/** The deepest nesting of flow lists and mappings parsed: a page's front matter has one or two levels. */
const MAX_DEPTH = 32;
/** The most labels kept from one block. */
const MAX_LABELS = 100;
/** A line that opens or closes the block: three dashes (a closing `...` too, as YAML allows). */
const OPEN = /^---[ \t]*\r?$/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*\r?$/;

/**
 * What a front matter block names: the page's title, its summary, and its labels. Each is
 * absent when the block does not name it as text.
 *
 * @example
 * const named: FrontMatter = { title: "Weekly planning", summary: undefined, labels: ["planning", "habits"] };
 */
interface FrontMatter {
  readonly title: string | undefined;
  readonly summary: string | undefined;
  readonly labels: readonly string[];
}

/**
 * The front matter that opens `text`: what it names, and where the text after it starts;
 * `undefined` when the text opens with none, or with a block that does not close or does not
 * parse as a YAML mapping (a Markdown file may open with a thematic break, `---`, too).
 *
 * @example
 * splitFrontMatter("---\ntitle: Weekly planning\ntags: [planning, habits]\n---\nBody");
 * // => { named: { title: "Weekly planning", summary: undefined, labels: ["planning", "habits"] }, bodyStart: 56 }
 * splitFrontMatter("# Body"); // => undefined
 */
export function splitFrontMatter(text: string): { named: FrontMatter; bodyStart: number } | undefined {
  if (!text.startsWith("---")) return undefined;
  const first = text.indexOf("\n");
  if (first < 0 || !OPEN.test(text.slice(0, first))) return undefined;
  // The closing line, searched no further than the longest block parsed.
  for (let from = first + 1; from < text.length && from - first <= MAX_FRONT_MATTER_CHARS; ) {
    const next = text.indexOf("\n", from);
    const to = next < 0 ? text.length : next;
    if (CLOSE.test(text.slice(from, to))) {
      const named = namedBy(text.slice(first + 1, from));
      return named === undefined ? undefined : { named, bodyStart: next < 0 ? text.length : next + 1 };
    }
    from = to + 1;
  }
  return undefined;
}

/**
 * The last block parsed, and what it named: the title, the section headings and the plain text
 * of one file each ask for its front matter in turn, and the parse is the costly part. Only the
 * block is kept (at most {@link MAX_FRONT_MATTER_CHARS}), not the file's text.
 */
let lastParsed: { readonly block: string; readonly named: FrontMatter | undefined } | undefined;

/** What a block names; `undefined` when it does not parse as a mapping. */
function namedBy(block: string): FrontMatter | undefined {
  if (lastParsed?.block !== block) lastParsed = { block, named: parseBlock(block) };
  return lastParsed.named;
}

/** What a block names, parsed. */
function parseBlock(block: string): FrontMatter | undefined {
  if (nestsDeeperThan(block, MAX_DEPTH)) return undefined;
  let data: unknown;
  try {
    // Duplicate keys are allowed (the last one counts): checking them costs the square of their
    // number. `parseDocument`, not `parse`: it logs nothing (a warning, an unknown tag, would print
    // the file's words to the server's log), and its errors are read here.
    const document = yaml().parseDocument(block, { prettyErrors: false, uniqueKeys: false });
    if (document.errors.length > 0) return undefined;
    data = document.toJS({ maxAliasCount: 10 });
  } catch {
    return undefined;
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) return undefined;
  const fields = data as Record<string, unknown>;
  return {
    title: textOf(fields["title"]),
    summary: textOf(fields["description"]) ?? textOf(fields["summary"]),
    labels: [...labelsOf(fields["tags"]), ...labelsOf(fields["keywords"]), ...labelsOf(fields["categories"])].slice(0, MAX_LABELS),
  };
}

/**
 * True when brackets or braces open more than `depth` deep, counted over the whole block (quotes
 * not told apart): the parser recurses on them, and a block nested 4,000 deep took 89 ms where a
 * flat one of the same size takes 1.
 */
function nestsDeeperThan(block: string, depth: number): boolean {
  let open = 0;
  for (let i = 0; i < block.length; i++) {
    const code = block.charCodeAt(i);
    if (code === 0x5b || code === 0x7b) {
      if (++open > depth) return true;
    } else if ((code === 0x5d || code === 0x7d) && open > 0) open -= 1;
  }
  return false;
}

/** A scalar as trimmed text: a string or a number; anything else (a date, a list) names nothing. */
function textOf(value: unknown): string | undefined {
  const text = typeof value === "string" ? value.trim() : typeof value === "number" && Number.isFinite(value) ? String(value) : "";
  return text === "" ? undefined : text;
}

/** A list of labels, or one string of them separated by commas. */
function labelsOf(value: unknown): string[] {
  const items = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : [];
  return items.flatMap((item) => textOf(item) ?? []);
}

let loaded: { readonly parseDocument: typeof parseDocument } | undefined;

/** The `yaml` package, loaded on first use. */
function yaml(): { readonly parseDocument: typeof parseDocument } {
  loaded ??= createRequire(import.meta.url)("yaml") as { readonly parseDocument: typeof parseDocument };
  return loaded;
}
