/**
 * The folder's documents as MCP resources, so that a person can attach one by hand in a host that
 * browses resources (Claude Desktop's "+" menu), without the model having to search.
 *
 * - `resources/list` lists the indexed documents, {@link RESOURCE_PAGE_SIZE} a page, in code-unit
 *   order of their paths, with the protocol's opaque cursor (`nextCursor`).
 * - `resources/templates/list` gives one template, `mcp-search://doc/{+path}`, so a client can
 *   build a uri from a path.
 * - `resources/read` returns the text `fetch` returns (HTML converted to Markdown), capped like
 *   `fetch`: the first `maxChars` characters, cut where fetch cuts its first page, then a line
 *   naming the fetch id of the next page. Read through {@link Folder.load}: the same one
 *   containment check, the same size cap and the same change check as `fetch`. A uri that is
 *   refused, unknown or stale is a JSON-RPC error naming it.
 * - {@link announceResourceListChanges} sends `notifications/resources/list_changed` at most once
 *   per burst of changes.
 *
 * The SDK's `McpServer.registerResource` answers `resources/list` with every resource at once and
 * ignores the cursor, so the three handlers are set on the low-level server instead.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type ListResourcesResult,
  type McpServer,
  type ReadResourceResult,
  type Resource,
} from "@modelcontextprotocol/server";
import type { Locale } from "@sbissoli/mcp-search";
import type { Folder, FolderDocument } from "../folder/folder.js";
import { documentId, parseResourceUri, RESOURCE_URI_PREFIX, resourceUri } from "../folder/ids.js";
import { readsAsMarkdown } from "../formats/registry.js";
import { folderTexts, type FolderTexts } from "./texts.js";
import { DEFAULT_MAX_CHARS, knownPaths, pagesOf } from "./tools.js";

/**
 * Documents per `resources/list` page. A 20,000-file folder is 40 pages of about 100 KB each,
 * within the 64 pages the SDK's client walks when it gathers every page itself.
 */
const RESOURCE_PAGE_SIZE = 500;

/**
 * How long the folder must stay quiet (ms) before a change is announced: a burst of writes (a
 * `git checkout`, an editor's save through a temporary file) gives one notification.
 */
export const RESOURCE_LIST_QUIET_MS = 300;

/** The uri template of every document, in RFC 6570 form (`{+path}` keeps its slashes). */
export const RESOURCE_URI_TEMPLATE = `${RESOURCE_URI_PREFIX}{+path}`;

/**
 * Options of {@link registerFolderResources}.
 *
 * @example
 * const options: FolderResourcesOptions = { folder, locale: "en" };
 */
interface FolderResourcesOptions {
  readonly folder: Folder;
  /** Language of the template's title and of the errors. @default "pt-BR" */
  readonly locale?: Locale | undefined;
  /** Documents per `resources/list` page; tests page a small folder with a small one. @default 500 */
  readonly pageSize?: number | undefined;
  /** The most characters of text one `resources/read` returns, as for a fetch page. @default 20000 */
  readonly maxChars?: number | undefined;
}

/**
 * The MIME type of a document's text as read: `text/markdown` for Markdown and for HTML (which is
 * read as Markdown), `text/plain` for every other format.
 *
 * @example
 * mimeTypeOf("html"); // => "text/markdown"
 * mimeTypeOf("json"); // => "text/plain"
 */
function mimeTypeOf(format: string): string {
  return readsAsMarkdown(format) ? "text/markdown" : "text/plain";
}

/**
 * A document as `resources/list` shows it: its uri, its relative path as `name`, its title, the
 * MIME type of its text, its size on disk in bytes and its modification time.
 *
 * @example
 * describeResource(doc);
 * // => { uri: "mcp-search://doc/guides/pour-over.md", name: "guides/pour-over.md", title: "Pour-over",
 * //      mimeType: "text/markdown", size: 1234, annotations: { lastModified: "2026-11-30T10:00:00.000Z" } }
 */
function describeResource(doc: FolderDocument): Resource {
  return {
    uri: resourceUri(doc.relative),
    name: doc.relative,
    title: doc.title,
    mimeType: mimeTypeOf(doc.format),
    size: doc.bytes,
    annotations: { lastModified: new Date(doc.modified).toISOString() },
  };
}

/**
 * The opaque cursor of the page that starts after `relative`: base64url of `{"after": relative}`.
 * Keyed by path, not by position, so a page asked after a file was added or removed neither
 * skips nor repeats a document that was already there.
 *
 * @example
 * cursorAfter("guides/pour-over.md"); // => "eyJhZnRlciI6Imd1aWRlcy9wb3VyLW92ZXIubWQifQ"
 */
export function cursorAfter(relative: string): string {
  return Buffer.from(JSON.stringify({ after: relative }), "utf8").toString("base64url");
}

/** The path a cursor of {@link cursorAfter} starts after, or `undefined` when it is not one. */
function readCursor(cursor: string): string | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown;
    const after = (parsed as { after?: unknown } | null)?.after;
    return typeof after === "string" && cursorAfter(after) === cursor ? after : undefined;
  } catch {
    return undefined;
  }
}

/** Each folder's paths in code-unit order, sorted once per change of its document set. */
const sortedPaths = new WeakMap<Folder, { readonly generation: number; readonly paths: readonly string[] }>();

function pathsInOrder(folder: Folder): readonly string[] {
  const cached = sortedPaths.get(folder);
  if (cached?.generation === folder.generation) return cached.paths;
  // Code-unit order: the same on every machine, whatever its locale.
  const paths = [...folder.current.documents.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  sortedPaths.set(folder, { generation: folder.generation, paths });
  return paths;
}

/** The index of the first path after `after` in a sorted list (binary search). */
function firstAfter(paths: readonly string[], after: string): number {
  let low = 0;
  let high = paths.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((paths[middle] as string) <= after) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * One page of `resources/list`: the documents after the cursor's path, at most `pageSize`, and
 * the cursor of the next page when there is one. Throws a `ProtocolError` (invalid params) naming
 * a cursor this server did not give: one that does not decode to `{"after": path}`, or whose path
 * is neither indexed nor removed this session (../folder/folder.ts keeps the last 10,000 removed).
 *
 * @example
 * await listResourcePage(folder, undefined, 500, texts); // => { resources: [ …500 ], nextCursor: "eyJh…" }
 */
async function listResourcePage(folder: Folder, cursor: string | undefined, pageSize: number, texts: FolderTexts): Promise<ListResourcesResult> {
  const snapshot = await folder.refresh();
  const { documents } = snapshot;
  // A cursor names the last path of a page this server gave: a document then, so one indexed or
  // removed this session now. Any other path, however well encoded, is not one of ours.
  const after = cursor === undefined ? undefined : readCursor(cursor);
  if (cursor !== undefined && (after === undefined || !knownPaths(snapshot).has(after))) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, texts.invalidCursor(cursor), { cursor });
  }
  const paths = pathsInOrder(folder);
  const start = after === undefined ? 0 : firstAfter(paths, after);
  const page = paths.slice(start, start + pageSize);
  const resources = page.flatMap((relative) => {
    const doc = documents.get(relative);
    return doc === undefined ? [] : [describeResource(doc)];
  });
  const last = page[page.length - 1];
  return start + page.length < paths.length && last !== undefined ? { resources, nextCursor: cursorAfter(last) } : { resources };
}

/**
 * The text of the document a resource uri names, as `fetch` returns its first page of `maxChars`
 * characters: a longer document ends with the line that names the fetch id of page 2 (a
 * 1 MB file of control characters once made one reply of 6 MB, and 800 pipelined reads of it
 * 935 MB of memory). The uri is
 * refused before any disk access when it is not one of this server's, or climbs out of the folder;
 * an indexed document is read again through {@link Folder.load} (one containment check on one
 * file descriptor, the size cap, and the check that the file is still the one indexed), and when
 * the file changed since, the folder is refreshed once and the read tried again. Every failure is
 * a `ProtocolError` whose message names the uri: refused, unknown, stale (moved or deleted this
 * session) or unreadable now.
 *
 * @example
 * await readResourceText(folder, "mcp-search://doc/guides/pour-over.md", texts, 20_000);
 * // => { contents: [{ uri: "mcp-search://doc/guides/pour-over.md", mimeType: "text/markdown", text: "# Pour-over…" }] }
 */
async function readResourceText(folder: Folder, uri: string, texts: FolderTexts, maxChars: number = DEFAULT_MAX_CHARS): Promise<ReadResourceResult> {
  const snapshot = await folder.refresh();
  const parsed = parseResourceUri(uri, knownPaths(snapshot));
  if (!parsed.ok) throw new ProtocolError(ProtocolErrorCode.InvalidParams, texts.resourceRefused(uri, parsed.why), { uri });
  const indexed = snapshot.documents.get(parsed.relative);
  let doc = indexed === undefined ? undefined : await folder.load(indexed);
  if (indexed !== undefined && doc === undefined) {
    const again = (await folder.refresh()).documents.get(parsed.relative);
    doc = again === undefined ? undefined : await folder.load(again);
  }
  if (doc === undefined) {
    const { documents, removed } = folder.current;
    if (documents.has(parsed.relative)) throw new ProtocolError(ProtocolErrorCode.InternalError, texts.resourceUnreadable(uri), { uri });
    throw new ResourceNotFoundError(uri, removed.has(documentId(parsed.relative)) ? texts.resourceStale(uri) : texts.resourceUnknown(uri));
  }
  const pages = pagesOf(doc, maxChars);
  const [from, to] = pages[0] ?? [0, doc.text.length];
  const text = pages.length > 1 ? `${doc.text.slice(from, to).trimEnd()}\n\n${texts.truncatedPage(1, pages.length, documentId(doc.relative, 2))}` : doc.text;
  return { contents: [{ uri: resourceUri(doc.relative), mimeType: mimeTypeOf(doc.format), text }] };
}

/**
 * Offers the folder's documents as resources on `server`: declares the `resources` capability
 * (with `listChanged`) and answers `resources/list` (paged), `resources/templates/list` and
 * `resources/read`. Call it before `connect`. Notifications are sent by
 * {@link announceResourceListChanges}, which the transports set up.
 *
 * @example
 * const server = new McpServer({ name: "mcp-search", version: "0.9.0" }, { capabilities: { tools: {} } });
 * registerFolderResources(server, { folder, locale: "en" });
 */
export function registerFolderResources(server: McpServer, options: FolderResourcesOptions): void {
  const { folder } = options;
  const texts = folderTexts(options.locale ?? "pt-BR");
  const pageSize = Math.max(1, Math.floor(options.pageSize ?? RESOURCE_PAGE_SIZE));
  const low = server.server;
  low.registerCapabilities({ resources: { listChanged: true } });
  low.setRequestHandler("resources/list", (request) => listResourcePage(folder, request.params?.cursor, pageSize, texts));
  low.setRequestHandler("resources/templates/list", () => ({
    resourceTemplates: [
      {
        uriTemplate: RESOURCE_URI_TEMPLATE,
        name: "document",
        title: texts.resourceTemplateTitle,
        description: texts.resourceTemplateDescription,
      },
    ],
  }));
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  low.setRequestHandler("resources/read", (request) => readResourceText(folder, request.params.uri, texts, maxChars));
}

/**
 * Calls `notify` once after each burst of changes to the folder's document set: every sign that
 * the folder may have changed (an event of its watch, a refresh that changed documents) restarts a
 * {@link RESOURCE_LIST_QUIET_MS} timer; when it runs out, the folder is refreshed, and `notify` is
 * called only if the document set changed since the last call. A change that touches no indexed
 * document (a hidden file, an editor's swap file) announces nothing. The timer never keeps the
 * process alive. Returns the function that stops it.
 *
 * @example
 * const stop = announceResourceListChanges(folder, () => server.sendResourceListChanged());
 * // … later, when the connection closes:
 * stop();
 */
export function announceResourceListChanges(folder: Folder, notify: () => void, quietMs = RESOURCE_LIST_QUIET_MS): () => void {
  let announced = folder.generation;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const settle = async () => {
    timer = undefined;
    try {
      await folder.refresh();
    } catch {
      return; // a failed refresh is tried again by the next change or call
    }
    if (stopped || folder.generation === announced) return;
    announced = folder.generation;
    notify();
  };
  const unsubscribe = folder.onChange(() => {
    if (stopped) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => void settle(), quietMs);
    timer.unref();
  });
  return () => {
    stopped = true;
    unsubscribe();
    if (timer !== undefined) clearTimeout(timer);
  };
}

/**
 * {@link announceResourceListChanges} for one connected server: `notifications/resources/list_changed`
 * goes to its client (over stdio, one server serves the whole connection), and stops when its
 * connection closes. Over HTTP, where each request has its own server, the handler's notifier is
 * used instead (../transports/http.ts).
 *
 * @example
 * const server = createFolderServer(options);
 * announceResourceListChangesTo(server, folder);
 * await server.connect(transport);
 */
export function announceResourceListChangesTo(server: McpServer, folder: Folder): void {
  const stop = announceResourceListChanges(folder, () => server.sendResourceListChanged());
  const closed = server.server.onclose;
  server.server.onclose = () => {
    stop();
    closed?.();
  };
}
