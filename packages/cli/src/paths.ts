/**
 * Paths that come from a model are untrusted input. This module holds the ONE containment check
 * every disk access goes through ({@link resolveInside}), and the lexical clean-up that turns an
 * id, a bare path, a url or a `file://` URI into a path relative to the served root.
 */
import { realpath } from "node:fs/promises";
import { isAbsolute, relative as relativePath, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The id prefix of every document: `doc:guides/brewing.md`. */
export const ID_PREFIX = "doc:";

/**
 * An id taken apart: the relative path it names and the page it asks for, or why it was refused
 * before touching the disk.
 *
 * @example
 * const parsed: ParsedId = { ok: true, relative: "guides/brewing.md", page: 2 };
 */
export type ParsedId =
  | { readonly ok: true; readonly relative: string; readonly page: number }
  | { readonly ok: false; readonly why: "nul" | "outside" };

/** Where the served folder lives, and how its documents are addressed. */
export interface RootAddress {
  /** The root with every symlink resolved (realpath). */
  readonly root: string;
  /** The base URL documents are published under, ending in "/", if any. @default undefined */
  readonly baseUrl?: string | undefined;
}

/**
 * Resolves `relative` under `root` and returns the real path (symlinks resolved) only when it
 * is inside the root. A link inside the root that points outside, a missing file, or a path that
 * climbs out all give `null`. `root` must itself be a real path.
 *
 * @example
 * await resolveInside("/srv/docs", "guides/brewing.md"); // => "/srv/docs/guides/brewing.md"
 * await resolveInside("/srv/docs", "../etc/passwd");     // => null
 */
export async function resolveInside(root: string, relative: string): Promise<string | null> {
  if (relative.includes("\0")) return null;
  let real: string;
  try {
    real = await realpath(resolve(root, relative));
  } catch {
    return null;
  }
  return isWithin(root, real) ? real : null;
}

/** True when `candidate` is `root` or below it; both absolute, already resolved. */
function isWithin(root: string, candidate: string): boolean {
  const rel = relativePath(root, candidate);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** True where `\` separates path segments (Windows); elsewhere it is a character of a file name. */
const BACKSLASH_SEPARATES = sep === "\\";

/**
 * Cleans a relative path lexically: backslashes become slashes, leading slashes are dropped (an
 * absolute-looking path is read relative to the root), `.` and empty segments vanish, and a `..`
 * that would climb above the root is refused. A drive letter (`C:`) is refused too. With
 * `backslashes: "literal"`, only `/` separates segments and `\` and `C:` are characters of a
 * name, as they are in a file name on Linux or macOS.
 *
 * @example
 * cleanRelative("/guides\\brewing.md");             // => "guides/brewing.md"
 * cleanRelative("guides\\brewing.md", "literal");   // => "guides\\brewing.md"
 * cleanRelative("a/../../etc/passwd");               // => null
 */
export function cleanRelative(path: string, backslashes: "separator" | "literal" = "separator"): string | null {
  if (path.includes("\0")) return null;
  const literal = backslashes === "literal";
  if (!literal && /^[a-zA-Z]:/.test(path)) return null;
  const parts: string[] = [];
  for (const part of (literal ? path : path.replaceAll("\\", "/")).split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.pop() === undefined) return null;
      continue;
    }
    parts.push(part);
  }
  return parts.length === 0 ? null : parts.join("/");
}

/**
 * Reads what a model passed to `fetch`: `doc:path`, the bare path, the document's url or its
 * `file://` URI, each with an optional `#page` suffix. A NUL byte, or a path that leaves the root,
 * is refused here, before the containment check on disk.
 *
 * A backslash separates folders (a model may write a Windows path), except where the served
 * folder really holds a file with that backslash in its name (Linux and macOS allow it):
 * when `indexed` has the path read with backslashes as characters, that reading wins, so every
 * id a search returns can be fetched.
 *
 * @example
 * parseId("doc:guides\\brewing.md#2", { root: "/srv/docs" });
 * // => { ok: true, relative: "guides/brewing.md", page: 2 }
 * parseId("doc:a\\b.md", { root: "/srv/docs" }, new Set(["a\\b.md"]));
 * // => { ok: true, relative: "a\\b.md", page: 1 } (on Linux and macOS)
 */
export function parseId(input: string, address: RootAddress, indexed?: { has(relative: string): boolean }): ParsedId {
  if (input.includes("\0")) return { ok: false, why: "nul" };
  let rest = input.trim();
  let page = 1;
  const suffix = /#(\d{1,9})$/.exec(rest);
  if (suffix !== null) {
    page = Number(suffix[1]);
    rest = rest.slice(0, suffix.index);
  }
  const path = pathPart(rest, address);
  if (path === null) return { ok: false, why: "outside" };
  const asWritten = BACKSLASH_SEPARATES || indexed === undefined ? null : cleanRelative(path, "literal");
  const relative = asWritten !== null && indexed?.has(asWritten) === true ? asWritten : cleanRelative(path);
  if (relative === null) return { ok: false, why: "outside" };
  return { ok: true, relative, page: Math.max(1, page) };
}

/** The path inside an id, a url or a file URI; `null` when it names a place outside the root. */
function pathPart(rest: string, address: RootAddress): string | null {
  if (rest.startsWith(ID_PREFIX)) return rest.slice(ID_PREFIX.length);
  if (address.baseUrl !== undefined) {
    const published = pathUnderBaseUrl(rest, address.baseUrl);
    if (published !== undefined) return published;
  }
  if (rest.startsWith("file:")) {
    let absolute: string;
    try {
      absolute = fileURLToPath(rest);
    } catch {
      return null;
    }
    return isWithin(address.root, absolute) ? relativePath(address.root, absolute) : null;
  }
  return rest;
}

/**
 * The decoded path of `rest` below the base URL, when `rest` is a url on the base URL's host: the
 * scheme (http or https, or none written), the host's case and a leading `www.` do not matter;
 * the port and the path prefix must match. `undefined` when `rest` is not on that host; `null`
 * when it is, but outside the base path or not decodable.
 */
function pathUnderBaseUrl(rest: string, baseUrl: string): string | null | undefined {
  const base = webUrl(baseUrl);
  const url = webUrl(rest) ?? webUrl(`https://${rest}`);
  if (base === undefined || url === undefined || bareHost(url) !== bareHost(base) || url.port !== base.port) return undefined;
  if (!url.pathname.startsWith(base.pathname)) return null;
  try {
    return decodeURIComponent(url.pathname.slice(base.pathname.length));
  } catch {
    return null;
  }
}

/** `value` parsed as an http or https URL, else `undefined`. */
function webUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The host without a leading `www.`; the URL parser has already lower-cased it. */
function bareHost(url: URL): string {
  return url.hostname.replace(/^www\./, "");
}

/**
 * The id of a document (and of one of its pages, from 2 on).
 *
 * @example
 * documentId("guides/brewing.md", 2); // => "doc:guides/brewing.md#2"
 */
export function documentId(relative: string, page = 1): string {
  return page > 1 ? `${ID_PREFIX}${relative}#${page}` : `${ID_PREFIX}${relative}`;
}
