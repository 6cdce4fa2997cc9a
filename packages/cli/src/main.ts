/**
 * The `mcp-search` bin. stdout belongs to the protocol while serving: every log line goes to
 * stderr.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { HELP, parseCommandLine, type ServeArguments } from "./args.js";
import { runDemo } from "./demo.js";
import { openFolder } from "./folder.js";
import { isLoopback, serveFolderHttp, serveFolderStdio, type FolderServerOptions } from "./serve.js";
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
  const vocabulary = await loadVocabulary(args.vocabulary, args.locale, folderTexts(args.locale).sourceName);
  const folder = await openFolder({ root: args.folder, vocabulary, baseUrl: args.baseUrl, maxFileBytes: args.maxFileBytes, ranking: args.ranking, log });
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
  };
  if (args.http === undefined) {
    serveFolderStdio(options, log);
    log(`serving ${folder.root} over stdio`);
    return;
  }
  if (!isLoopback(args.http.host)) {
    log(`warning: listening on ${args.http.host}, reachable from other machines; put it behind HTTPS`);
  }
  const serving = await serveFolderHttp(options, { ...args.http, allowedHosts: args.allowedHosts }, log);
  log(`serving ${folder.root} over Streamable HTTP at ${serving.url}`);
  const stop = () => {
    folder.close();
    void serving.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

async function main(argv: readonly string[]): Promise<number | undefined> {
  const line = parseCommandLine(argv);
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
    case "demo":
      return runDemo(fileURLToPath(import.meta.url));
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
