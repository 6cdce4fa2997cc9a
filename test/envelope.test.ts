import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deepResearchError, deepResearchResult } from "../src/envelope.js";
import { fetchDocumentSchema, searchOutputSchema } from "../src/index.js";

const doc = { id: "doc:a.md", title: "A", text: "# A\nbody", url: "https://example.com/a" };

describe("deepResearchResult", () => {
  it("holds the object's compact JSON in the one content block and the object in structuredContent", () => {
    expect(deepResearchResult({ results: [] })).toStrictEqual({
      content: [{ type: "text", text: '{"results":[]}' }],
      structuredContent: { results: [] },
    });
  });

  it("merges structured extras under the object, so the contract's keys win a collision", () => {
    const result = deepResearchResult(doc, {
      structured: { provenance: { source: "IBGE" }, title: "forged", id: "forged" },
      meta: { "br.com.example/provenance": { cacheKey: "k" } },
    });
    expect(result).toStrictEqual({
      content: [{ type: "text", text: JSON.stringify(doc) }],
      structuredContent: { provenance: { source: "IBGE" }, ...doc },
      _meta: { "br.com.example/provenance": { cacheKey: "k" } },
    });
  });

  it.each([
    ["no extras", undefined],
    ["empty extras", {}],
    ["structured only", { structured: { provenance: 1 } }],
  ])("leaves _meta out when it is not given (%s)", (_label, extras) => {
    expect("_meta" in deepResearchResult(doc, extras)).toBe(false);
  });

  it("keeps extras out of the text block, whatever they hold", () => {
    const json = fc.jsonValue();
    fc.assert(
      fc.property(
        fc.record({ id: fc.string({ minLength: 1 }), title: fc.string(), text: fc.string(), url: fc.string() }),
        fc.dictionary(fc.string(), json),
        fc.dictionary(fc.string(), json),
        (object, structured, meta) => {
          const result = deepResearchResult(object, { structured, meta });
          expect(result.content).toHaveLength(1);
          expect(result.content[0].text).toBe(JSON.stringify(object));
          expect(JSON.parse(result.content[0].text)).toStrictEqual({ ...object });
          for (const key of Object.keys(object) as (keyof typeof object)[]) {
            expect(result.structuredContent[key]).toBe(object[key]);
          }
        },
      ),
    );
  });
});

describe("deepResearchError", () => {
  it("is one text block with isError and no structuredContent", () => {
    expect(deepResearchError("A ferramenta search falhou: timeout")).toStrictEqual({
      content: [{ type: "text", text: "A ferramenta search falhou: timeout" }],
      isError: true,
    });
  });
});

describe("deepResearchResult", () => {
  const text = fc.string({ unit: "binary", maxLength: 40 });
  const plain = { noNullPrototype: true } as const;
  // What JSON can carry: fc.jsonValue may yield -0, which JSON (and so the text block) writes as 0.
  const jsonData = fc.dictionary(text, fc.jsonValue({ maxDepth: 2 }), plain).map((value) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>);
  const hit = fc.record({ id: text.filter((id) => id !== ""), title: text, url: text }, plain);
  const document = fc.record(
    { id: text.filter((id) => id !== ""), title: text, text, url: text, metadata: jsonData },
    { requiredKeys: ["id", "title", "text", "url"], noNullPrototype: true },
  );
  const json = fc.dictionary(text, fc.jsonValue({ maxDepth: 1 }), plain);
  const extras = fc.record({ structured: json, meta: json }, { requiredKeys: [], noNullPrototype: true });

  it("puts text that always parses back to the search object, valid against the contract", () => {
    fc.assert(
      fc.property(fc.array(hit, { maxLength: 5 }), extras, (results, extra) => {
        const result = deepResearchResult({ results }, extra);
        const parsed: unknown = JSON.parse(result.content[0].text);
        expect(parsed).toStrictEqual({ results });
        expect(searchOutputSchema.parse(parsed)).toStrictEqual({ results });
        expect(result.content).toHaveLength(1);
      }),
    );
  });

  it("puts text that always parses back to the document, valid against the contract", () => {
    fc.assert(
      fc.property(document, extras, (doc, extra) => {
        const parsed: unknown = JSON.parse(deepResearchResult(doc, extra).content[0].text);
        expect(parsed).toStrictEqual(doc);
        expect(fetchDocumentSchema.safeParse(parsed).success).toBe(true);
      }),
    );
  });
});
