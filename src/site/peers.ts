/**
 * The site helpers' parsers are optional peer dependencies: the main entry never loads them, and
 * a project that imports `@sbissoli/mcp-search/site` installs them itself. They are loaded with
 * `require` (both ship CommonJS) so that a missing one fails with one sentence naming the package
 * to install, instead of the resolver's error about a file path inside dist/.
 */
import { createRequire } from "node:module";
import { McpSearchError } from "../errors.js";
import type * as ChronoNode from "chrono-node";
import type * as FastXmlParser from "fast-xml-parser";

/** The optional peers, by package name. */
interface Peers {
  readonly "chrono-node": typeof ChronoNode;
  readonly "fast-xml-parser": typeof FastXmlParser;
}

const requirePeer = createRequire(import.meta.url);

/** Loads an optional peer, or throws `McpSearchError` naming the package to install. */
export function loadPeer<Name extends keyof Peers>(name: Name): Peers[Name] {
  try {
    return requirePeer(name) as Peers[Name];
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== "MODULE_NOT_FOUND") throw error;
    throw new McpSearchError(
      `@sbissoli/mcp-search/site needs the optional peer dependency "${name}": install it with \`npm install ${name}\`.`,
    );
  }
}
