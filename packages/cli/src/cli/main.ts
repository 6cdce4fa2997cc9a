/**
 * The `mcp-search` bin. stdout belongs to the protocol while serving: every log line goes to
 * stderr.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { HELP, parseCommandLine } from "./args.js";
import { describeLocaleChoice } from "./locale.js";

const log = (line: string) => {
  process.stderr.write(`mcp-search: ${line}\n`);
};

function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version?: string };
  return manifest.version ?? "0.0.0";
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
    case "revoke": {
      const { revokeEveryGrant } = await import("../oauth/setup.js");
      const ended = revokeEveryGrant(line.state, log);
      log(`${ended} grant${ended === 1 ? "" : "s"} ended: every client must ask the owner again`);
      return 0;
    }
    case "serve": {
      // The serving code and the SDK's server load only to serve: --help and --version stay quick.
      const { startServing } = await import("./start.js");
      const serving = await startServing(line.options, { version: packageVersion(), log, environment: process.env });
      if (serving.url !== undefined) {
        // Over stdio the process ends with its input; over HTTP, on a signal.
        const stop = () => void serving.close().then(() => process.exit(0));
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      }
      return undefined;
    }
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
