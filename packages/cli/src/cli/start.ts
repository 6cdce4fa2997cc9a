/**
 * `mcp-search serve`, started from its parsed arguments: the folder opened (indexing goes on in
 * the background), then the server on stdio or on Streamable HTTP. The bin calls it with its
 * process's environment and stderr; tests call it in process.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import type { ServeArguments } from "./args.js";
import { openFolder } from "../folder/folder.js";
import { describeLocaleChoice, languageOfLocale } from "./locale.js";
import type { Mount } from "../folder/mounts.js";
import { serveFolderStdio, type FolderServerOptions } from "../transports/serve.js";
import { folderTexts } from "../mcp/texts.js";
import { loadVocabulary } from "./vocabulary-file.js";

/** What serving needs beyond the arguments. */
interface ServeContext {
  /** The version the server announces. */
  readonly version: string;
  /** Where log lines go (the bin: stderr, prefixed "mcp-search: "). */
  readonly log: (line: string) => void;
  /** Where `MCP_SEARCH_TOKEN` is read when `--token` is not given. */
  readonly environment: Readonly<Record<string, string | undefined>>;
}

/** A running server. */
interface Serving {
  /** The Streamable HTTP endpoint, or undefined over stdio. */
  readonly url: string | undefined;
  /** Stops watching the folder and closes the server. */
  close(): Promise<void>;
}

/** Opens the folder and serves it as `args` say; resolves once the transport is ready. */
export async function startServing(args: ServeArguments, { version, log, environment }: ServeContext): Promise<Serving> {
  const token = args.http === undefined ? undefined : (args.token ?? tokenFromEnvironment(environment));
  const vocabulary = await loadVocabulary(args.vocabulary, args.locale, folderTexts(args.locale).sourceName);
  const vocabularyKey = `${args.locale}:${args.vocabulary === undefined ? "" : createHash("sha256").update(readFileSync(args.vocabulary)).digest("hex")}`;
  // openFolder checks the folder and indexes it in the background once the transport is up (over
  // stdio, once it has answered its first message): a walk that holds the thread (a huge
  // .gitignore) never keeps listen or initialize waiting (startIndexing). A search meanwhile
  // answers with what is indexed so far.
  let startIndexing: () => void = () => undefined;
  const folder = await openFolder({
    indexAfter: new Promise<void>((resolve) => (startIndexing = resolve)),
    root: args.folders ?? args.folder, vocabulary, baseUrl: args.baseUrl, maxFileBytes: args.maxFileBytes, ranking: args.ranking, log,
    cache: args.cache, vocabularyKey, language: args.language, fallbackLanguage: languageOfLocale(args.locale),
    ignore: { exclude: args.exclude, include: args.include },
  });
  // After the folder's checks, so that a bad folder is one sentence on stderr.
  log(describeLocaleChoice({ locale: args.locale, reason: args.localeReason }));
  const options: FolderServerOptions = {
    name: "mcp-search",
    version,
    folder,
    vocabulary,
    locale: args.locale,
    limit: args.limit,
    snippetChars: args.snippetChars,
    maxChars: args.maxChars,
    // stdio is spawned by desktop hosts (Claude Desktop), which show the model only `content`;
    // ChatGPT connects over HTTP only, where the reply keeps its single contract block.
    contentSnippets: args.http === undefined,
    resources: args.resources,
  };
  if (args.http === undefined) {
    const serving = serveFolderStdio(options, log);
    // The first message (initialize) is answered in the turn it arrives; the walk starts after it.
    process.stdin.once("data", () => setImmediate(startIndexing));
    log(`serving ${servedFolders(folder.mounts)} over stdio`);
    return { url: undefined, close: () => (folder.close(), serving.close()) };
  }
  // The authorization server and jose load only with --oauth.
  const oauth =
    args.oauth === undefined
      ? undefined
      : await (await import("../oauth/setup.js")).prepareOAuth({
          state: args.oauth.state,
          ownerSecretFile: args.oauth.ownerSecretFile,
          environment,
          locale: args.locale,
          folders: folder.mounts.map((mount) => (mount.prefix === "" ? basename(mount.root) : mount.prefix)),
          trustForwardedFor: args.oauth.publicUrl !== undefined,
          log,
        });
  // The HTTP adapter (and hono under it) loads only here: serving over stdio never pays for it.
  const { serveFolderHttp } = await import("../transports/http.js");
  const serving = await serveFolderHttp(
    options,
    { ...args.http, allowedHosts: args.allowedHosts, allowedOrigins: args.allowedOrigins, token, oauth, publicUrl: args.oauth?.publicUrl },
    log,
  );
  startIndexing();
  if (oauth !== undefined) {
    log(`oauth: on; clients discover it from ${args.oauth?.publicUrl ?? "this server's own URL"}${args.oauth?.publicUrl === undefined && !serving.loopback ? " (remote clients need --public-url)" : ""}`);
  } else if (!serving.loopback) {
    log(
      token === undefined
        ? `warning: listening on ${args.http.host}, reachable from other machines, with no token: anyone who can reach it can read the folder. Set MCP_SEARCH_TOKEN (or --token), or put an authenticating proxy in front; and serve it over HTTPS`
        : `warning: listening on ${args.http.host}, reachable from other machines; put it behind HTTPS so the token does not travel in clear`,
    );
    // Host is checked on every bind (DNS rebinding): say how to reach this one by a name.
    if (args.allowedHosts.length === 0) log(`requests must name this server by an IP address in Host; to reach it by a name, pass --allowed-host NAME`);
  }
  log(`serving ${servedFolders(folder.mounts)} over Streamable HTTP at ${serving.url}`);
  return { url: serving.url, close: () => (folder.close(), serving.close()) };
}

/** The served folders for the start line: the one folder, or each with its prefix. */
function servedFolders(mounts: readonly Mount[]): string {
  return mounts.map((mount) => (mount.prefix === "" ? mount.root : `${mount.root} as ${mount.prefix}/`)).join(", ");
}

/** The token from `MCP_SEARCH_TOKEN`, when set and not empty; checked like `--token`. */
function tokenFromEnvironment(environment: ServeContext["environment"]): string | undefined {
  const value = environment["MCP_SEARCH_TOKEN"];
  if (value === undefined || value === "") return undefined;
  if (!/^[\x21-\x7e]{16,}$/.test(value)) throw new Error("MCP_SEARCH_TOKEN must be at least 16 printable ASCII characters with no spaces.");
  return value;
}
