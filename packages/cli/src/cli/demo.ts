/**
 * `mcp-search demo`: starts `mcp-search serve` on the bundled example folder as a child process
 * over stdio, connects a real MCP client, and prints the exchange readably.
 */
import { fileURLToPath } from "node:url";
import type { Locale } from "@sbissoli/mcp-search";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { ID_PREFIX, resourceUri } from "../folder/ids.js";

/** The bundled example folder and its vocabulary table, next to `dist/` and `src/`. */
const EXAMPLE_FOLDER = fileURLToPath(new URL("../examples/corpus", import.meta.url));
const EXAMPLE_VOCABULARY = fileURLToPath(new URL("../examples/vocabulary.json", import.meta.url));

/** The everyday question the demo asks: "café" and "azedo" reach "coffee" and "sour". */
const DEMO_QUERY = "café azedo";

/**
 * The Spanish question, asked of a second server started with `--locale es`: "luz" reaches
 * "electricidad" through the table, and "facturas" its singular "factura".
 */
const DEMO_QUERY_ES = "facturas de la luz";

interface ToolText {
  readonly isError?: boolean;
  readonly content?: readonly { readonly type: string; readonly text?: string }[];
  readonly structuredContent?: Record<string, unknown>;
}

function indent(text: string, by = "    "): string {
  return text
    .split("\n")
    .map((line) => by + line)
    .join("\n");
}

/** Prints one search's summary, notes and results, with their snippets. */
function printSearch(found: ToolText, say: (text?: string) => void): { id: string; title: string; url: string }[] {
  const structured = found.structuredContent ?? {};
  const results = (structured["results"] ?? []) as { id: string; title: string; url: string }[];
  const snippets = (structured["snippets"] ?? []) as { id: string; snippet: string }[];
  const summary = structured["summary"] as { message?: string } | undefined;
  say(indent(summary?.message ?? "", "  "));
  for (const note of (structured["notes"] ?? []) as string[]) say(`  ${note}`);
  results.forEach((result, index) => {
    say(`  ${index + 1}. ${result.title}  (${result.id})`);
    const snippet = snippets.find((entry) => entry.id === result.id)?.snippet;
    if (snippet !== undefined) say(`     ${snippet}`);
  });
  return results;
}

/**
 * The same folder served in Spanish (`--locale es`): one query, its note and its results.
 * True when the table translated a term and the search found a document.
 */
async function runSpanishQuery(bin: string, say: (text?: string) => void): Promise<boolean> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, "serve", EXAMPLE_FOLDER, "--vocabulary", EXAMPLE_VOCABULARY, "--locale", "es"],
    stderr: "pipe",
  });
  const client = new Client({ name: "mcp-search-demo", version: "1.0.0" });
  try {
    await client.connect(transport);
    say(`mcp-search demo: the same folder with "--locale es"`);
    say();
    say(`▸ tools/call search { "query": ${JSON.stringify(DEMO_QUERY_ES)} }`);
    const found = (await client.callTool({ name: "search", arguments: { query: DEMO_QUERY_ES } })) as ToolText;
    const results = printSearch(found, say);
    const notes = (found.structuredContent?.["notes"] ?? []) as string[];
    return found.isError !== true && results.length > 0 && notes.length > 0;
  } finally {
    await client.close().catch(() => undefined);
  }
}

function firstSentence(text: string): string {
  const end = text.search(/\.(\s|$)/);
  return end === -1 ? text : text.slice(0, end + 1);
}

/**
 * Runs the demo and returns the exit status: 0 when every step behaved as expected.
 *
 * @param bin - The `mcp-search` script to spawn with `serve`.
 * @param locale - The first server's locale, passed on as `--locale`: the SDK starts a child
 *   with only a few variables of the environment (no `LANG`), so the child could not find it.
 * @param write - Where the readable exchange goes. @default process.stdout
 * @example
 * process.exitCode = await runDemo(fileURLToPath(import.meta.url), "en");
 */
export async function runDemo(
  bin: string,
  locale: Locale,
  write: (text: string) => void = (text) => process.stdout.write(text),
): Promise<number> {
  const say = (text = "") => write(`${text}\n`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, "serve", EXAMPLE_FOLDER, "--vocabulary", EXAMPLE_VOCABULARY, "--locale", locale],
    stderr: "pipe",
  });
  const serverLog: string[] = [];
  transport.stderr?.on("data", (chunk: Buffer) => serverLog.push(chunk.toString("utf8")));
  const client = new Client({ name: "mcp-search-demo", version: "1.0.0" });
  let ok = true;
  try {
    await client.connect(transport);
    say(`mcp-search demo: "mcp-search serve examples/corpus --vocabulary examples/vocabulary.json --locale ${locale}", over stdio`);
    say();
    say("▸ tools/list");
    const { tools } = await client.listTools();
    for (const tool of tools) say(`  ${tool.name.padEnd(6)} "${tool.title ?? ""}": ${firstSentence(tool.description ?? "")}`);
    say();

    say(`▸ tools/call search { "query": ${JSON.stringify(DEMO_QUERY)} }`);
    const found = (await client.callTool({ name: "search", arguments: { query: DEMO_QUERY } })) as ToolText;
    const results = printSearch(found, say);
    say();
    const top = results[0];
    if (found.isError === true || top === undefined) {
      ok = false;
      say("  (the search found nothing: the demo expected a match)");
    } else {
      say(`▸ tools/call fetch { "id": ${JSON.stringify(top.id)} }`);
      const doc = (await client.callTool({ name: "fetch", arguments: { id: top.id } })) as ToolText;
      const document = (doc.structuredContent ?? {}) as { title?: string; url?: string; text?: string };
      say(`  title: ${document.title ?? ""}`);
      say(`  url:   ${document.url ?? ""}`);
      const text = document.text ?? "";
      say(indent(text.length > 700 ? `${text.slice(0, 700)}…` : text));
      ok &&= doc.isError !== true;
      say();

      // The same document as a resource: what a person attaches by hand in Claude Desktop.
      const { resources } = await client.listResources();
      say(`▸ resources/list: ${resources.length} documents, such as`);
      for (const resource of resources.slice(0, 3)) say(`  ${resource.uri} "${resource.title ?? ""}" (${resource.mimeType ?? ""})`);
      const uri = resourceUri(top.id.slice(ID_PREFIX.length));
      say(`▸ resources/read { "uri": ${JSON.stringify(uri)} }`);
      const read = (await client.readResource({ uri })).contents[0] as { mimeType?: string; text?: string } | undefined;
      const same = read?.text === text;
      say(`  ${read?.mimeType ?? ""}, ${read?.text?.length ?? 0} characters: ${same ? "the text fetch returned" : "NOT the text fetch returned"}`);
      ok &&= same;
      say();
    }

    const unknown = "doc:receitas/feijoada.md";
    say(`▸ tools/call fetch { "id": ${JSON.stringify(unknown)} }`);
    const missing = (await client.callTool({ name: "fetch", arguments: { id: unknown } })) as ToolText;
    say(`  isError: ${String(missing.isError === true)}`);
    say(`  ${missing.content?.[0]?.text ?? ""}`);
    ok &&= missing.isError === true;
    await client.close().catch(() => undefined);
    say();
    const spanish = await runSpanishQuery(bin, say);
    if (!spanish) say("  (the Spanish search found nothing, or translated nothing: the demo expected both)");
    ok &&= spanish;
  } catch (error) {
    ok = false;
    process.stderr.write(`mcp-search demo failed: ${error instanceof Error ? error.message : String(error)}\n${serverLog.join("")}`);
  } finally {
    await client.close().catch(() => undefined);
  }
  return ok ? 0 : 1;
}
