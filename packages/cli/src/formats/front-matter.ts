/**
 * YAML front matter: the block between two `---` lines that opens a Markdown file in Jekyll,
 * Hugo, Docusaurus or Obsidian, and names the page (`title`), says what it is about
 * (`description`, `summary`) and labels it (`tags`, `keywords`, `categories`). A page rendered
 * from such a file shows none of the block as text. It is parsed by the `yaml` package, loaded
 * the first time a file has one (its import costs about 100 ms), and only up to
 * {@link MAX_FRONT_MATTER_CHARS}: a block that does not parse, or is larger, names nothing.
 */
import { createRequire } from "node:module";
import type { parse as parseYaml } from "yaml";

/** The longest front matter block that is parsed, in characters. */
const MAX_FRONT_MATTER_CHARS = 64 * 1024;
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

/** What a parsed block names; `undefined` when it does not parse as a mapping. */
function namedBy(block: string): FrontMatter | undefined {
  let data: unknown;
  try {
    data = yaml().parse(block, { maxAliasCount: 10, prettyErrors: false });
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

let loaded: { readonly parse: typeof parseYaml } | undefined;

/** The `yaml` package, loaded on first use. */
function yaml(): { readonly parse: typeof parseYaml } {
  loaded ??= createRequire(import.meta.url)("yaml") as { readonly parse: typeof parseYaml };
  return loaded;
}
