/**
 * The seed's server, end to end: a catalogue read from the site's own llms.txt and sitemap.xml
 * (test/fixtures), an index with the intent hook, the factory with `resolveId: index.resolve`,
 * and a real Client calling `fetch` with what models really send back: citation URLs.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  type FetchDocument,
} from "../../src/index.js";
import {
  createIntentIndex,
  mergeCatalogues,
  parseLlmsTxt,
  type CatalogueEntry,
} from "../../src/site/index.js";
import { parseSitemap } from "../../src/site/sitemap.js";
import { connect, textOf } from "../_register-helpers.js";

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), "utf8");

const catalogue = mergeCatalogues(parseLlmsTxt(fixture("llms.txt")).entries, parseSitemap(fixture("sitemap.xml")).entries);
const index = createIntentIndex(catalogue, { now: ["page:/live"] });
const documents = new Map(
  catalogue.map((entry: CatalogueEntry): [string, FetchDocument] => [
    entry.id,
    { id: entry.id, title: entry.title, text: `# ${entry.title}\n\n${entry.text ?? ""}`.trim(), url: entry.url },
  ]),
);

/** The seed's server: search over the index, fetch from the documents, ids resolved tolerantly. */
function connectFieldServer() {
  return connect({
    search: (query) => index.search(query),
    fetch: (id) => documents.get(id) ?? null,
    resolveId: index.resolve,
    corpus: "the pages of example.com: a live gamma flip, docs, research and daily records",
  });
}

async function fetchDocument(id: string) {
  const { client } = await connectFieldServer();
  return client.callTool({ name: "fetch", arguments: { id } });
}

describe("a server built from llms.txt + sitemap.xml with resolveId", () => {
  it("reads the catalogue it is built on", () => {
    expect(catalogue.map((entry) => entry.id)).toEqual(
      expect.arrayContaining(["page:/live", "page:/docs/glossary", "page:/research/gamma-flip-volatility", "page:/record/2026-08-24"]),
    );
  });

  it.each([
    ["https://example.com/live", "page:/live"],
    ["example.com/live", "page:/live"],
    ["www.example.com/live/", "page:/live"],
    ["http://www.example.com/live#chart", "page:/live"],
    [" https://example.com/live?utm_source=chatgpt.com ", "page:/live"],
    ["https://example.com/docs/glossary", "page:/docs/glossary"],
    ["example.com/docs/glossary/", "page:/docs/glossary"],
    ["https://example.com/research/gamma-flip-volatility/", "page:/research/gamma-flip-volatility"],
    ["example.com/research/gamma-flip-volatility", "page:/research/gamma-flip-volatility"],
    ["https://www.example.com/record/2026-08-24", "page:/record/2026-08-24"],
    ["/record/2026-08-21", "page:/record/2026-08-21"],
    ["docs/methodology", "page:/docs/methodology"],
    ["page:/about", "page:/about"],
  ])("fetches %j as the document %j", async (raw, id) => {
    const document = documents.get(id);
    expect(document).toBeDefined();
    const result = await fetchDocument(raw);
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toStrictEqual(document);
    expect(JSON.parse(textOf(result))).toStrictEqual(document);
  });

  it.each(["https://example.com/nope", "https://elsewhere.org/live", "nope"])(
    "answers %j with the not-found message naming the raw argument",
    async (raw) => {
      const result = await fetchDocument(raw);
      expect(result).toStrictEqual({
        content: [{ type: "text", text: `Nenhum documento tem o id ${JSON.stringify(raw)}. Use um id devolvido pela ferramenta search.` }],
        isError: true,
      });
    },
  );

  it("fetches every id and every url that search hands out", async () => {
    const { client } = await connectFieldServer();
    const searched = await client.callTool({ name: "search", arguments: { query: "gamma flip" } });
    const { results } = searched.structuredContent as { results: { id: string; url: string }[] };
    expect(results.length).toBeGreaterThan(2);
    for (const { id, url } of results) {
      for (const raw of [id, url]) {
        const fetched = await client.callTool({ name: "fetch", arguments: { id: raw } });
        expect(fetched.structuredContent).toStrictEqual(documents.get(id));
      }
    }
  });

  it("answers a present-tense question with the live page first", async () => {
    const { client } = await connectFieldServer();
    for (const query of ["where is the SPX gamma flip right now", "onde está o gamma flip agora"]) {
      const searched = await client.callTool({ name: "search", arguments: { query } });
      const { results } = searched.structuredContent as { results: { id: string }[] };
      expect(results[0]?.id).toBe("page:/live");
    }
  });
});
