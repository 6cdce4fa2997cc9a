/**
 * The command line, read with `node:util` parseArgs. A bad flag, a bad value or a missing folder
 * becomes one clear sentence; nothing here touches the disk or the network, and the environment
 * (for the locale) is handed in.
 */
import { parseArgs } from "node:util";
import { DEFAULT_LIMIT, LANGUAGES, LOCALES, type Locale, type IndexRanking, type Language } from "@sbissoli/mcp-search";
import { chooseLocale, isServerLocale, type LocaleEnvironment } from "./locale.js";
import { DEFAULT_MAX_BINARY_BYTES, EXTRACTION_TIME_LIMIT_MS, MAX_UNZIPPED_BYTES } from "../folder/binary-file.js";
import { extensionsOf } from "../formats/registry.js";

/** `--language`'s values: "auto", then every language of the library (its `LANGUAGES`). */
const LANGUAGE_CHOICES: readonly string[] = ["auto", ...LANGUAGES];

/** The defaults of `serve`, written once: the parser applies them and the help text shows them. */
const SERVE_DEFAULTS = {
  limit: DEFAULT_LIMIT,
  maxChars: 20_000,
  snippetChars: 240,
  maxFileBytes: 1024 * 1024,
  ranking: "bm25",
} as const satisfies { ranking: IndexRanking; [name: string]: unknown };

/**
 * Everything `mcp-search serve` needs, with defaults applied.
 *
 * @example
 * const options: ServeArguments = { folder: "./docs", locale: "en", localeReason: "from LANG=en_US.UTF-8",
 *   limit: 10, maxChars: 20000, snippetChars: 240, maxFileBytes: 1048576, allowedHosts: [],
 *   allowedOrigins: [], ranking: "bm25", language: "auto", resources: true };
 */
export interface ServeArguments {
  readonly folder: string;
  /**
   * Every folder given, when there are several (`serve ~/notes ~/work/docs`): each is served
   * under a prefix, its name. @default undefined (`folder` alone, without a prefix)
   */
  readonly folders?: readonly string[] | undefined;
  /** Where to listen for Streamable HTTP; absent for stdio. @default undefined (stdio) */
  readonly http?: { readonly host: string; readonly port: number } | undefined;
  /** An http or https URL as parsed (openFolder ends it with "/"). @default undefined (file:// URIs) */
  readonly baseUrl?: string | undefined;
  /**
   * `--locale`, else the environment's (see ./locale.ts).
   * @default from LC_ALL, LC_MESSAGES or LANG; "en" when they name no language the server speaks
   */
  readonly locale: Locale;
  /** Why `locale` was chosen, for the start line: "from --locale", "from LANG=en_US.UTF-8"… */
  readonly localeReason: string;
  /** @default 10 */
  readonly limit: number;
  /** @default 20000 */
  readonly maxChars: number;
  /** @default 240 */
  readonly snippetChars: number;
  /** @default 1048576 */
  readonly maxFileBytes: number;
  /** A JSON vocabulary table. @default undefined (no translation) */
  readonly vocabulary?: string | undefined;
  /** Public host names accepted in the `Host` header, e.g. a tunnel's. @default [] */
  readonly allowedHosts: readonly string[];
  /** Origins accepted in the `Origin` header besides the loopback and allowed hosts'. @default [] */
  readonly allowedOrigins: readonly string[];
  /**
   * The bearer token every HTTP request must carry; the bin also reads it from `MCP_SEARCH_TOKEN`,
   * which keeps it out of `ps`. @default undefined (no authentication)
   */
  readonly token?: string | undefined;
  /** How search ranks documents: BM25F for prose, or the library's rule. @default "bm25" */
  readonly ranking: IndexRanking;
  /** A folder for the index snapshot, for a warm start. @default undefined (no snapshot) */
  readonly cache?: string | undefined;
  /**
   * BM25's language for every document (`--language`), or `"auto"`: detected per document,
   * the locale's language when unsure. @default "auto"
   */
  readonly language: Language | "auto";
  /** Offer the documents as MCP resources; `--no-resources` turns them off. @default true */
  readonly resources: boolean;
  /** `--exclude` patterns (.gitignore syntax): paths left out. @default [] */
  readonly exclude?: readonly string[] | undefined;
  /** `--include` patterns (.gitignore syntax): when given, only the files they match are served. @default [] */
  readonly include?: readonly string[] | undefined;
  /** `--oauth`: the built-in authorization server and its options. @default undefined (no OAuth) */
  readonly oauth?: OAuthArguments | undefined;
}

/**
 * `--oauth` and the options that go with it.
 *
 * @example
 * const oauth: OAuthArguments = { publicUrl: "https://mcp.example.com", state: "/home/me/.cache/mcp-search" };
 */
interface OAuthArguments {
  /** `--public-url`: the origin clients reach the server at; the issuer and resource identifier. @default undefined (http://127.0.0.1:<port>) */
  readonly publicUrl?: string | undefined;
  /** `--state`, else `--cache`: where clients, grants and the signing key are kept. @default undefined (in memory) */
  readonly state?: string | undefined;
  /** `--owner-secret-file`: the owner's secret, when `MCP_SEARCH_OWNER_SECRET` is not set. @default undefined */
  readonly ownerSecretFile?: string | undefined;
}

/**
 * What the command line asks for.
 *
 * @example
 * parseCommandLine(["serve", "docs", "--http", "8787"]);
 * // => { command: "serve", options: { folder: "docs", http: { host: "127.0.0.1", port: 8787 }, … } }
 */
type CommandLine =
  | { readonly command: "help" }
  | { readonly command: "version" }
  | { readonly command: "demo"; readonly locale: Locale; readonly localeReason: string }
  | { readonly command: "serve"; readonly options: ServeArguments }
  | { readonly command: "revoke"; readonly state: string }
  | { readonly command: "error"; readonly message: string };

const OPTIONS = {
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
  http: { type: "string" },
  "base-url": { type: "string" },
  locale: { type: "string" },
  limit: { type: "string" },
  "max-chars": { type: "string" },
  "snippet-chars": { type: "string" },
  "max-file-bytes": { type: "string" },
  vocabulary: { type: "string" },
  "allowed-host": { type: "string", multiple: true },
  "allowed-origin": { type: "string", multiple: true },
  token: { type: "string" },
  ranking: { type: "string" },
  language: { type: "string" },
  cache: { type: "string" },
  "no-resources": { type: "boolean" },
  exclude: { type: "string", multiple: true },
  include: { type: "string", multiple: true },
  oauth: { type: "boolean" },
  "public-url": { type: "string" },
  state: { type: "string" },
  "owner-secret-file": { type: "string" },
} as const;

class UsageError extends Error {}

function positiveInteger(flag: string, value: string | undefined, fallback: number, minimum = 1): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(number) || number < minimum) {
    throw new UsageError(`--${flag} must be a whole number of at least ${minimum} (got ${JSON.stringify(value)}).`);
  }
  return number;
}

/**
 * Reads `--http [host:]port`. The host defaults to 127.0.0.1; `[::1]:8787` writes an IPv6 host.
 *
 * @example
 * parseListen("8787");         // => { host: "127.0.0.1", port: 8787 }
 * parseListen("0.0.0.0:8787"); // => { host: "0.0.0.0", port: 8787 }
 */
export function parseListen(value: string): { host: string; port: number } {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(value.trim());
  const port = Number(match?.[2]);
  if (match === null || port > 65535) {
    throw new UsageError(`--http takes [host:]port, such as 8787 or 127.0.0.1:8787 (got ${JSON.stringify(value)}).`);
  }
  return { host: match[1] ?? "127.0.0.1", port };
}

function parseBaseUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--base-url must be an absolute URL, such as https://docs.example.com/ (got ${JSON.stringify(value)}).`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new UsageError(`--base-url must be an http or https URL (got ${JSON.stringify(value)}).`);
  }
  return url.href; // openFolder ends it with one "/": the one place that normalises the base URL
}

/**
 * `--public-url`: an https origin (http only on a loopback host, for local trials), without a
 * path, since the server answers at its root.
 *
 * @example
 * parsePublicUrl("https://mcp.example.com/"); // => "https://mcp.example.com"
 */
function parsePublicUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--public-url must be an absolute URL, such as https://mcp.example.com (got ${JSON.stringify(value)}).`);
  }
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) {
    throw new UsageError(`--public-url must be an https URL (http only on localhost), such as https://mcp.example.com (got ${JSON.stringify(value)}).`);
  }
  if (url.pathname !== "/" || url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") {
    throw new UsageError(`--public-url takes an origin without a path, such as https://mcp.example.com: the server answers at its root (got ${JSON.stringify(value)}).`);
  }
  return url.origin;
}

function parseOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--allowed-origin must be an origin such as https://app.example.com (got ${JSON.stringify(value)}).`);
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.origin === "null") {
    throw new UsageError(`--allowed-origin must be an http or https origin (got ${JSON.stringify(value)}).`);
  }
  return url.origin;
}

function parseToken(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[\x21-\x7e]{16,}$/.test(value)) {
    throw new UsageError("--token must be at least 16 printable ASCII characters with no spaces.");
  }
  return value;
}

/** `--exclude`/`--include` patterns: each a non-empty line of .gitignore syntax. */
function patterns(flag: string, values: readonly string[] | undefined): string[] {
  for (const value of values ?? []) {
    if (value.trim() === "" || /[\r\n]/.test(value)) throw new UsageError(`--${flag} takes one .gitignore-style pattern, such as drafts/ or *.tmp.md (got ${JSON.stringify(value)}).`);
  }
  return [...(values ?? [])];
}

/** `--locale` checked against the locales the server speaks; undefined when not given. */
function parseLocaleFlag(value: string | undefined): Locale | undefined {
  if (value === undefined || isServerLocale(value)) return value;
  throw new UsageError(`--locale must be ${LOCALES.join(", ")} (got ${JSON.stringify(value)}).`);
}

/**
 * Parses the arguments after `node mcp-search`. Never throws: misuse is `{ command: "error" }`
 * with one sentence. `environment` supplies the locale when `--locale` is not given (the bin
 * passes `process.env`; see ./locale.ts).
 *
 * @example
 * parseCommandLine(["serve"]); // => { command: "error", message: "serve needs a folder: mcp-search serve <dir>." }
 * parseCommandLine(["demo"], { LANG: "pt_BR.UTF-8" });
 * // => { command: "demo", locale: "pt-BR", localeReason: "from LANG=pt_BR.UTF-8" }
 */
export function parseCommandLine(argv: readonly string[], environment: LocaleEnvironment = {}): CommandLine {
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
    if (values.help === true) return { command: "help" };
    if (values.version === true) return { command: "version" };
    const [command, ...rest] = positionals;
    if (command === undefined) return { command: "help" };
    if (command === "demo") {
      if (rest.length > 0 || Object.keys(values).some((name) => name !== "locale")) {
        throw new UsageError("demo takes no arguments but --locale.");
      }
      const { locale, reason } = chooseLocale(parseLocaleFlag(values.locale), environment);
      return { command: "demo", locale, localeReason: reason };
    }
    if (command === "revoke") {
      const state = values.state ?? values.cache;
      if (rest.length > 0 || Object.keys(values).some((name) => name !== "state" && name !== "cache")) throw new UsageError("revoke takes --state DIR or --cache DIR only.");
      if (state === undefined) throw new UsageError("revoke needs the server's state folder: mcp-search revoke --state DIR (or the --cache DIR the server runs with).");
      return { command: "revoke", state };
    }
    if (command !== "serve") throw new UsageError(`unknown command ${JSON.stringify(command)}: use serve, demo or revoke.`);
    const [folder, ...extra] = rest;
    if (folder === undefined) throw new UsageError("serve needs a folder: mcp-search serve <dir>.");
    // Over stdio the host that starts the server is its only client: a token there would guard
    // nothing, and ignoring it silently would let an operator believe otherwise.
    if (values.token !== undefined && values.http === undefined) {
      throw new UsageError("--token applies to --http only: over stdio, the host that starts the server is its only client.");
    }
    if (values.oauth === true && values.http === undefined) {
      throw new UsageError("--oauth applies to --http only: over stdio, the host that starts the server is its only client.");
    }
    for (const flag of ["public-url", "state", "owner-secret-file"] as const) {
      if (values[flag] !== undefined && values.oauth !== true) throw new UsageError(`--${flag} applies to --oauth only.`);
    }
    const { locale, reason: localeReason } = chooseLocale(parseLocaleFlag(values.locale), environment);
    const ranking = values.ranking ?? SERVE_DEFAULTS.ranking;
    if (ranking !== "bm25" && ranking !== "rule") throw new UsageError(`--ranking must be bm25 or rule (got ${JSON.stringify(ranking)}).`);
    const language = values.language ?? "auto";
    if (!LANGUAGE_CHOICES.includes(language)) throw new UsageError(`--language must be ${LANGUAGE_CHOICES.slice(0, -1).join(", ")} or ${LANGUAGE_CHOICES.at(-1)} (got ${JSON.stringify(language)}).`);
    if (ranking === "rule" && values.language !== undefined) throw new UsageError("--language applies to --ranking bm25 only.");
    return {
      command: "serve",
      options: {
        folder,
        folders: extra.length > 0 ? [folder, ...extra] : undefined,
        http: values.http === undefined ? undefined : parseListen(values.http),
        baseUrl: parseBaseUrl(values["base-url"]),
        locale,
        localeReason,
        // The library's rule for every limit: a whole number, 0 or more.
        limit: positiveInteger("limit", values.limit, SERVE_DEFAULTS.limit, 0),
        maxChars: positiveInteger("max-chars", values["max-chars"], SERVE_DEFAULTS.maxChars, 200),
        snippetChars: positiveInteger("snippet-chars", values["snippet-chars"], SERVE_DEFAULTS.snippetChars, 40),
        maxFileBytes: positiveInteger("max-file-bytes", values["max-file-bytes"], SERVE_DEFAULTS.maxFileBytes),
        vocabulary: values.vocabulary,
        allowedHosts: values["allowed-host"] ?? [],
        allowedOrigins: (values["allowed-origin"] ?? []).map(parseOrigin),
        token: parseToken(values.token),
        ranking,
        language: language as Language | "auto",
        cache: values.cache,
        resources: values["no-resources"] !== true,
        exclude: patterns("exclude", values.exclude),
        include: patterns("include", values.include),
        oauth:
          values.oauth === true
            ? { publicUrl: parsePublicUrl(values["public-url"]), state: values.state ?? values.cache, ownerSecretFile: values["owner-secret-file"] }
            : undefined,
      },
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { command: "error", message: message.replace(/\.?$/, ".") };
  }
}

/** The text of `mcp-search --help`. */
export const HELP = `mcp-search: a Deep Research (search + fetch) MCP server over a folder of documents.

Usage:
  mcp-search serve <dir> [options]   serve the documents under <dir> over stdio (default) or HTTP
  mcp-search serve <dir> <dir>…      several folders, each under a prefix, its name: ids read
                                     doc:notes/a.md, doc:docs/b.pdf
  mcp-search demo [--locale L]       serve the bundled example folder and show a client using it
  mcp-search revoke --state DIR      end every OAuth grant of the server whose state is in DIR
  mcp-search --help | --version

Options of serve:
  --http [host:]port     serve Streamable HTTP at http://host:port/mcp instead of stdio;
                         host defaults to 127.0.0.1 (a non-loopback host must be written out)
  --allowed-host NAME    also accept this Host header over HTTP (a tunnel or proxy's public
                         name, or this machine's name on a 0.0.0.0 bind); repeatable. IP
                         addresses, loopback names and the bound address are always accepted.
                         Behind such a name, the Origins of ChatGPT and Claude's connectors
                         (https://chatgpt.com, https://claude.ai, https://claude.com) are
                         accepted too
  --allowed-origin URL   also accept this Origin header over HTTP; repeatable
  --token TOKEN          every HTTP request must send "Authorization: Bearer TOKEN" (16+
                         characters); prefer the MCP_SEARCH_TOKEN environment variable, which
                         stays out of ps. With --http only: an error over stdio, where
                         MCP_SEARCH_TOKEN is ignored
  --oauth                with --http: ChatGPT and claude.ai connect through OAuth, and you
                         allow each client on a consent page with the owner's secret:
                         MCP_SEARCH_OWNER_SECRET, --owner-secret-file, or else one made at the
                         first start and printed once on stderr. Every MCP request then needs
                         an access token (or --token, which keeps working)
  --public-url URL       with --oauth: the https origin clients reach the server at, behind a
                         tunnel or a reverse proxy (default: http://127.0.0.1:PORT, local use
                         only); its host is accepted in Host, and X-Forwarded-For is trusted
                         for the consent page's per-address limits
  --state DIR            with --oauth: keep registered clients, grants (hashed) and the signing
                         key in DIR, so a restart keeps every connection (default: the --cache
                         folder; without either, a restart ends every grant)
  --owner-secret-file F  with --oauth: read the owner's secret from F
  --base-url URL         a document's url is URL + its path (default: its file:// URI);
                         citations in ChatGPT need a public URL
  --locale ${LOCALES.join("|").padEnd(13)} language of titles, schema descriptions and messages. Without it,
                         the first of LC_ALL, LC_MESSAGES and LANG that is set: pt* gives
                         pt-BR, es* gives es, anything else (en*, C, POSIX, unset) gives en.
                         --locale always wins: write it in a host's configuration, since a
                         host starts servers with its own environment, not yours
  --limit N              most results per search (default ${SERVE_DEFAULTS.limit})
  --snippet-chars N      longest snippet per result (default ${SERVE_DEFAULTS.snippetChars})
  --max-chars N          most characters of text per fetch; longer documents come in pages
                         addressed as doc:path#2, doc:path#3… (default ${SERVE_DEFAULTS.maxChars})
  --max-file-bytes N     larger files are skipped (default ${SERVE_DEFAULTS.maxFileBytes})
  --ranking bm25|rule    bm25 (default): BM25F with term frequency and length normalisation,
                         for prose; rule: the library's rule, for catalogues of short titles
  --language ${LANGUAGE_CHOICES.join("|")}
                         the documents' language for BM25's stopwords and stemming (each
                         language's stages: docs/folder-server.md). auto (default): detected
                         per document among these languages (function words, then eld),
                         the --locale's language when unsure. Words of every script are
                         found whatever the language
  --cache DIR            keep a snapshot of the index in DIR: a restart reads again only the
                         files whose path, size or modification time changed
  --vocabulary FILE      JSON table of { asked, source[] } pairs: everyday words to the
                         documents' words ([…] or { "sourceName": "…", "entries": […] })
  --exclude PATTERN      leave out the paths this pattern matches, in .gitignore syntax
                         (drafts/, *.tmp.md, /archive, notes/**/old); repeatable. The
                         folder's own .gitignore files are always read, with git's rules
  --include PATTERN      serve only the files this pattern matches (*.pdf, docs/**);
                         repeatable
  --no-resources         do not offer the documents as MCP resources (mcp-search://doc/<path>,
                         which a person can attach in Claude Desktop); for hosts that list
                         every resource up front

Indexed: ${extensionsOf("text").join(" ")} (UTF-8),
and ${extensionsOf("binary").join(" ")} (up to ${DEFAULT_MAX_BINARY_BYTES / 2 ** 20} MiB a file; text cut at --max-file-bytes characters; a zip
may expand to ${MAX_UNZIPPED_BYTES / 2 ** 20} MiB; ${EXTRACTION_TIME_LIMIT_MS / 1000} s to read a file). A scanned or encrypted PDF, a damaged file or a zip
bomb is skipped with one stderr line saying why. Skipped: hidden folders, node_modules, dist,
build, vendor, venv and the like. Logs go to stderr; stdout carries only the protocol.`;
