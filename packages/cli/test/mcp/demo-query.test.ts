// The demo's own query (packages/cli/src/cli/demo.ts) over the example folder and its vocabulary:
// "café azedo" is two concepts, coffee and sour, each with its vocabulary expansion ("azedo" is
// searched as "sour" too). The documents about sour coffee rank above "Pão de queijo", a recipe
// whose "polvilho azedo" is sour starch and which names coffee once, in its last line.
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { loadVocabulary } from "../../src/cli/vocabulary-file.js";
import { openFolder } from "../../src/folder/folder.js";
import { folderTexts } from "../../src/mcp/texts.js";
import { connectInMemory } from "../_cli-memory.js";
import type { CallResult } from "../_cli-spawn.js";

const CORPUS = fileURLToPath(new URL("../../examples/corpus", import.meta.url));
const VOCABULARY = fileURLToPath(new URL("../../examples/vocabulary.json", import.meta.url));
const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

describe("the demo's query over the example folder", () => {
  it("ranks the documents about sour coffee above Pão de queijo for \"café azedo\"", async () => {
    const vocabulary = await loadVocabulary(VOCABULARY, "pt-BR", folderTexts("pt-BR").sourceName);
    const folder = await openFolder({ root: CORPUS, vocabulary, watch: false });
    const { client } = await connectInMemory({ name: "test", version: "0.0.0", vocabulary, folder, locale: "pt-BR" }, clients);
    const result = (await client.callTool({ name: "search", arguments: { query: "café azedo" } })) as CallResult;
    const ids = ((result.structuredContent?.["results"] ?? []) as { id: string }[]).map((hit) => hit.id);
    const place = (id: string) => ids.indexOf(`doc:${id}`);
    expect(place("troubleshooting/sour-or-bitter.md")).toBe(0);
    for (const id of ["troubleshooting/sour-or-bitter.md", "referencia/glossario.md", "reference/water.yaml"]) {
      expect(place(id), id).toBeGreaterThanOrEqual(0);
      expect(place(id), id).toBeLessThan(place("receitas/pao-de-queijo.md"));
    }
    folder.close();
  });
});
