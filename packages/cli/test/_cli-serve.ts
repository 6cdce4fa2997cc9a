/**
 * `mcp-search serve --http` in this process: the bin's own argument parsing and start
 * (packages/cli/src/cli/start.ts), for tests where the process itself is not what is tested. Not a
 * test file itself.
 */
import { parseCommandLine } from "../src/cli/args.js";
import { startServing } from "../src/cli/start.js";

/** A server started in process: its URL, its log lines as the bin would write them, and a stop. */
export interface ServedInProcess {
  readonly url: URL;
  stderr(): string;
  stop(): Promise<void>;
}

/**
 * Parses `serve …argv` as the bin does, with `environment` in place of the process's, and serves
 * over HTTP. Rejects with the bin's own message for a bad command line.
 */
export async function serveInProcess(argv: readonly string[], environment: Record<string, string> = {}): Promise<ServedInProcess> {
  const line = parseCommandLine(["serve", ...argv], environment);
  if (line.command === "error") throw new Error(line.message);
  if (line.command !== "serve" || line.options.http === undefined) throw new Error("serveInProcess serves a folder over HTTP: pass serve arguments with --http");
  let stderr = "";
  const serving = await startServing(line.options, { version: "0.0.0", log: (text) => (stderr += `mcp-search: ${text}\n`), environment });
  return { url: new URL(serving.url!), stderr: () => stderr, stop: () => serving.close() };
}
