/**
 * Private plumbing of the sitemap parser (./sitemap.ts): the XML walk and its block-by-block
 * recovery. The only module that imports fast-xml-parser, so only `./site/sitemap` needs it.
 */
import { XMLParser } from "fast-xml-parser";

const METADATA = XMLParser.getMetaDataSymbol() as unknown as symbol;

type XmlNode = { readonly [key: string]: unknown };

/** Maps a character offset to its 1-based line (binary search over the line starts). */
export function lineFinder(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset) => {
    let at = Math.max(0, offset);
    while (at < text.length && /\s/.test(text.charAt(at))) at += 1; // to the tag itself
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] ?? 0) <= at) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
}

/** Every node under `name` anywhere in the tree, in document order, with its start offset. */
function collect(node: unknown, name: string, parentStart: number, found: { node: unknown; start: number }[]): void {
  if (node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const child of node) collect(child, name, parentStart, found);
    return;
  }
  const meta = (node as Record<symbol, { startIndex?: number } | undefined>)[METADATA];
  const start = meta?.startIndex ?? parentStart;
  for (const [key, value] of Object.entries(node as XmlNode)) {
    if (key === name) {
      for (const item of Array.isArray(value) ? value : [value]) {
        const itemStart = (item as Record<symbol, { startIndex?: number } | undefined> | null)?.[METADATA]?.startIndex;
        found.push({ node: item, start: itemStart ?? start });
        collect(item, name, itemStart ?? start, found);
      }
    } else {
      collect(value, name, start, found);
    }
  }
}

export function textOf(node: unknown, key: string): string {
  if (node === null || typeof node !== "object") return "";
  const value = (node as XmlNode)[key];
  return typeof value === "string" || typeof value === "number" ? String(value).trim() : "";
}

/** One element found in the XML: the parsed node and the offset where its tag starts. */
interface Located {
  readonly node: unknown;
  readonly start: number;
}

/** The elements a sitemap is read from, and the ones that could not be read. */
export interface Elements {
  readonly url: Located[];
  readonly sitemap: Located[];
  /** Offsets of `<url>`/`<sitemap>` blocks that could not be read on their own. */
  readonly unreadable: number[];
  /** `<url>`/`<sitemap>` blocks with no closing tag (a truncated text), by name and offset. */
  readonly unclosed: Block[];
}

/** The one way every sitemap text is parsed; throws on XML fast-xml-parser cannot read at all. */
export function parseXml(xml: string): unknown {
  return new XMLParser({
    captureMetaData: true,
    parseTagValue: false,
    removeNSPrefix: true,
    ignoreAttributes: true,
  }).parse(xml);
}

/** Every `<url>` and `<sitemap>` of a parsed tree, in document order. */
export function elementsOf(tree: unknown): Elements {
  const url: Located[] = [];
  const sitemap: Located[] = [];
  collect(tree, "url", 0, url);
  collect(tree, "sitemap", 0, sitemap);
  return { url, sitemap, unreadable: [], unclosed: [] };
}

/** A closing `</url>`/`</sitemap>` or an opening `<url`/`<sitemap`, with or without a namespace prefix. */
const TAG = /<(?:\/(?:[\w.-]+:)?(?<close>url|sitemap)\s*>|(?:[\w.-]+:)?(?<open>url|sitemap)(?=[\s/>]))/g;

/** One `<url>` or `<sitemap>` block of the text: its name and the offset of its opening tag. */
interface Block {
  readonly name: "url" | "sitemap";
  readonly start: number;
}

/** The blocks of a text: the closed ones with their end, and the ones never closed. */
interface Blocks {
  readonly closed: (Block & { readonly end: number })[];
  readonly unclosed: Block[];
}

/**
 * One pass over the tags pairs each opening `<url>`/`<sitemap>` tag with the closing tag that
 * follows it; an opening tag with another one before its close, or none before the end of the
 * text (a truncated sitemap), is unclosed. Linear in the text.
 */
export function findBlocks(xml: string): Blocks {
  const found: Blocks = { closed: [], unclosed: [] };
  let open: Block | undefined;
  for (const match of xml.matchAll(TAG)) {
    const { open: opening, close } = match.groups ?? {};
    if (opening !== undefined) {
      if (open !== undefined) found.unclosed.push(open); // opened again before closing
      open = { name: opening === "url" ? "url" : "sitemap", start: match.index };
      continue;
    }
    if (open === undefined || open.name !== close) continue;
    found.closed.push({ ...open, end: match.index + match[0].length });
    open = undefined;
  }
  if (open !== undefined) found.unclosed.push(open);
  return found;
}

/**
 * For XML the full parse cannot be trusted with (refused outright, as with junk after
 * `</urlset>`, or holding a block that is never closed): every closed `<url>…</url>` and
 * `<sitemap>…</sitemap>` block is parsed on its own, so one broken spot never costs the readable
 * entries. A closed block that still cannot be read is unreadable; an unclosed one is reported
 * apart. Each block is parsed once, so the work is linear in the text.
 */
export function recoverElements(xml: string, blocks: Blocks = findBlocks(xml)): Elements {
  const found: Elements = { url: [], sitemap: [], unreadable: [], unclosed: blocks.unclosed };
  for (const { name, start, end } of blocks.closed) {
    const located: Located[] = [];
    try {
      collect(parseXml(xml.slice(start, end)), name, 0, located);
    } catch {
      // reported below as unreadable
    }
    const node = located[0];
    if (node === undefined) found.unreadable.push(start);
    else found[name].push({ node: node.node, start });
  }
  return found;
}

