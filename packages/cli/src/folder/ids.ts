/**
 * How documents are addressed: the `doc:` id of a document and of its pages, the resource uri of
 * a document, and the lexical clean-up that turns an id, a bare path, a url, a `file://` URI or a
 * resource uri into a path relative to the served root. Lexical only: nothing here touches the
 * disk, and whatever path comes out still goes through the containment check (./containment.ts).
 */
import { relative as relativePath } from "node:path";
import { fileURLToPath } from "node:url";
import { BACKSLASH_SEPARATES, isWithin } from "./containment.js";

/** The id prefix of every document: `doc:guides/brewing.md`. */
export const ID_PREFIX = "doc:";

/**
 * An id taken apart: the relative path it names and the page it asks for, or why it was refused
 * before touching the disk.
 *
 * @example
 * const parsed: ParsedId = { ok: true, relative: "guides/brewing.md", page: 2 };
 */
type ParsedId =
  | { readonly ok: true; readonly relative: string; readonly page: number }
  | { readonly ok: false; readonly why: RefusedId };

/**
 * Why an id was refused before any disk access: it holds a NUL byte, names no path at all
 * (`doc:`, `doc:.`), cannot be decoded (bad percent-encoding, a malformed `file://` URI), or
 * climbs out of the served folder.
 *
 * @example
 * const why: RefusedId = "empty";
 */
export type RefusedId = "nul" | "empty" | "invalid" | "outside";

/** Where the served folder lives, and how its documents are addressed. */
interface RootAddress {
  /** The root with every symlink resolved (realpath). */
  readonly root: string;
  /** The base URL documents are published under, ending in "/", if any. @default undefined */
  readonly baseUrl?: string | undefined;
}

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
// Stryker disable next-line StringLiteral: any default but "literal" reads backslashes as separators
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
  if (typeof path !== "string") return { ok: false, why: path.why };
  const relative = relativeOf(path, indexed);
  return typeof relative === "string" ? { ok: true, relative, page: Math.max(1, page) } : relative;
}

/**
 * A decoded path as a path relative to the root, read as {@link parseId} reads it: a backslash
 * separates folders unless `indexed` holds the path with that backslash in a name.
 */
function relativeOf(path: string, indexed: { has(relative: string): boolean } | undefined): string | { readonly ok: false; readonly why: RefusedId } {
  if (path.includes("\0")) return { ok: false, why: "nul" };
  const asWritten = BACKSLASH_SEPARATES || indexed === undefined ? null : cleanRelative(path, "literal");
  const relative = asWritten !== null && indexed?.has(asWritten) === true ? asWritten : cleanRelative(path);
  return relative ?? { ok: false, why: namesNothing(path) ? "empty" : "outside" };
}

/** True when a path has no segment but `.` (and separators): `""`, `"."`, `"./"`, `"/"`. */
function namesNothing(path: string): boolean {
  return path.replaceAll("\\", "/").split("/").every((part) => part === "" || part === ".");
}

/** The path inside an id, a url or a file URI, or why it cannot name a place inside the root. */
function pathPart(rest: string, address: RootAddress): string | { readonly why: "invalid" | "outside" } {
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
      return { why: "invalid" };
    }
    return isWithin(address.root, absolute) ? relativePath(address.root, absolute) : { why: "outside" };
  }
  return rest;
}

/**
 * The decoded path of `rest` below the base URL, when `rest` is a url on the base URL's host: the
 * scheme (http or https, or none written), the host's case and a leading `www.` do not matter;
 * the port and the path prefix must match. `undefined` when `rest` is not on that host; a reason
 * when it is, but outside the base path or not decodable.
 */
function pathUnderBaseUrl(rest: string, baseUrl: string): string | { readonly why: "invalid" | "outside" } | undefined {
  const base = webUrl(baseUrl);
  const url = webUrl(rest) ?? webUrl(`https://${rest}`);
  if (base === undefined || url === undefined || bareHost(url) !== bareHost(base) || url.port !== base.port) return undefined;
  if (!url.pathname.startsWith(base.pathname)) return { why: "outside" };
  try {
    return decodeURIComponent(url.pathname.slice(base.pathname.length));
  } catch {
    return { why: "invalid" };
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

/**
 * The start of every document's resource uri. A scheme of its own, with a fixed authority, so a
 * resource uri is never mistaken for a file path, a `file://` URI or a fetch id.
 */
export const RESOURCE_URI_PREFIX = "mcp-search://doc/";

/**
 * The resource uri of a document: {@link RESOURCE_URI_PREFIX} and its relative path, each segment
 * percent-encoded with `encodeURIComponent` (so a space is `%20`, `#` is `%23`, `é` is `%C3%A9`,
 * and `/` only ever separates folders).
 *
 * @example
 * resourceUri("guias/café com leite.md"); // => "mcp-search://doc/guias/caf%C3%A9%20com%20leite.md"
 */
export function resourceUri(relative: string): string {
  return RESOURCE_URI_PREFIX + relative.split("/").map(encodeURIComponent).join("/");
}

/**
 * Why a resource uri was refused before any disk access: a reason of {@link RefusedId}, or
 * `"scheme"` when it does not start with {@link RESOURCE_URI_PREFIX}.
 *
 * @example
 * const why: RefusedUri = "scheme";
 */
export type RefusedUri = RefusedId | "scheme";

/**
 * A resource uri taken apart: the relative path it names, or why it was refused.
 *
 * @example
 * const parsed: ParsedUri = { ok: true, relative: "guides/brewing.md" };
 */
type ParsedUri = { readonly ok: true; readonly relative: string } | { readonly ok: false; readonly why: RefusedUri };

/**
 * Reads a resource uri a client sent, lexically, before any disk access. The scheme and the
 * authority are compared without case; the rest is split at `/`, each segment percent-decoded,
 * and the decoded path cleaned like a fetch id ({@link cleanRelative}): a `..` that climbs out
 * (written, or encoded as `%2e%2e` or `..%2F`) is `"outside"`, a query or fragment or bad
 * percent-encoding is `"invalid"`, a NUL byte (`%00`) is `"nul"`. A leading `/` after the
 * authority is read relative to the root, as an absolute-looking id is.
 *
 * @example
 * parseResourceUri("mcp-search://doc/guides/pour%20over.md"); // => { ok: true, relative: "guides/pour over.md" }
 * parseResourceUri("mcp-search://doc/..%2F..%2Fetc%2Fpasswd"); // => { ok: false, why: "outside" }
 * parseResourceUri("file:///etc/passwd");                      // => { ok: false, why: "scheme" }
 */
export function parseResourceUri(uri: string, indexed?: { has(relative: string): boolean }): ParsedUri {
  if (uri.includes("\0")) return { ok: false, why: "nul" };
  if (uri.slice(0, RESOURCE_URI_PREFIX.length).toLowerCase() !== RESOURCE_URI_PREFIX) return { ok: false, why: "scheme" };
  const rest = uri.slice(RESOURCE_URI_PREFIX.length);
  if (rest.includes("?") || rest.includes("#")) return { ok: false, why: "invalid" };
  let path: string;
  try {
    path = rest.split("/").map(decodeURIComponent).join("/");
  } catch {
    return { ok: false, why: "invalid" };
  }
  const relative = relativeOf(path, indexed);
  return typeof relative === "string" ? { ok: true, relative } : relative;
}
