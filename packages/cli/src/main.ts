/**
 * The `mcp-search` bin. stdout belongs to the protocol while serving: every log line goes to
 * stderr.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { HELP, parseCommandLine, type ServeArguments } from "./args.js";
import { openFolder } from "./folder.js";
import { serveFolderStdio, type FolderServerOptions } from "./serve.js";
import { describeLocaleChoice } from "./locale.js";
import { folderTexts } from "./texts.js";
import { loadVocabulary } from "./vocabulary-file.js";

const log = (line: string) => {
  process.stderr.write(`mcp-search: ${line}\n`);
};

function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version?: string };
  return manifest.version ?? "0.0.0";
}

async function serve(args: ServeArguments, version: string): Promise<void> {
  log(describeLocaleChoice({ locale: args.locale, reason: args.localeReason }));
  const vocabulary = await loadVocabulary(args.vocabulary, args.locale, folderTexts(args.locale).sourceName);
  const vocabularyKey = `${args.locale}:${args.vocabulary === undefined ? "" : createHash("sha256").update(readFileSync(args.vocabulary)).digest("hex")}`;
  // openFolder checks the folder and starts indexing in the background: the transport connects
  // at once, and a search meanwhile answers with what is indexed so far.
  const folder = await openFolder({
    root: args.folder, vocabulary, baseUrl: args.baseUrl, maxFileBytes: args.maxFileBytes, ranking: args.ranking, log,
    cache: args.cache, vocabularyKey,
  });
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
    serveFolderStdio(options, log);
    log(`serving ${folder.root} over stdio`);
    return;
  }
  const token = args.token ?? tokenFromEnvironment();
  // The HTTP adapter (and hono under it) loads only here: serving over stdio never pays for it.
  const { serveFolderHttp } = await import("./http.js");
  const serving = await serveFolderHttp(
    options,
    { ...args.http, allowedHosts: args.allowedHosts, allowedOrigins: args.allowedOrigins, token },
    log,
  );
  if (!serving.loopback) {
    log(
      token === undefined
        ? `warning: listening on ${args.http.host}, reachable from other machines, with no token: anyone who can reach it can read the folder. Set MCP_SEARCH_TOKEN (or --token), or put an authenticating proxy in front; and serve it over HTTPS`
        : `warning: listening on ${args.http.host}, reachable from other machines; put it behind HTTPS so the token does not travel in clear`,
    );
  }
  log(`serving ${folder.root} over Streamable HTTP at ${serving.url}`);
  const stop = () => {
    folder.close();
    void serving.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

/** The token from `MCP_SEARCH_TOKEN`, when set and not empty; checked like `--token`. */
function tokenFromEnvironment(): string | undefined {
  const value = process.env["MCP_SEARCH_TOKEN"];
  if (value === undefined || value === "") return undefined;
  if (!/^[\x21-\x7e]{16,}$/.test(value)) throw new Error("MCP_SEARCH_TOKEN must be at least 16 printable ASCII characters with no spaces.");
  return value;
}

async function main(argv: readonly string[]): Promise<number | undefined> {
  const line = parseCommandLine(argv, process.env);
  switch (line.command) {
    case "help":
      process.stdout.write(`${HELP}\n`);
      return 0;
    case "version":
      process.stdout.write(`${packageVersion()}\n`);
      return 0;
    case "error":
      process.stderr.write(`mcp-search: ${line.message} Run "mcp-search --help" for usage.\n`);
      return 2;
    case "demo": {
      // The SDK's client loads only for the demo.
      const { runDemo } = await import("./demo.js");
      log(describeLocaleChoice({ locale: line.locale, reason: line.localeReason }));
      return runDemo(fileURLToPath(import.meta.url), line.locale);
    }
    case "serve":
      await serve(line.options, packageVersion());
      return undefined;
  }
}

main(process.argv.slice(2)).then(
  (status) => {
    if (status !== undefined) process.exitCode = status;
  },
  (error: unknown) => {
    process.stderr.write(`mcp-search: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
