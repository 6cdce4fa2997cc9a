// `mcp-search serve` under each environment of the locale rule: the start line, the tool titles
// from tools/list, and one message (fetch of an unknown id). Each case runs the bin's own
// argument parsing and start in this process (./_cli-serve.ts), given the case's environment in
// place of the process's, with a real client over HTTP. One case also spawns the built bin, as a
// host would, with only that environment: the bin reads the locale from its real process
// environment. The rule itself is unit-tested in-process in cli-locale.test.ts.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveInProcess } from "../_cli-serve.js";
import { call, connectHttp, StdioBin } from "../_cli-spawn.js";

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "mcp-search-locale-"));
  await writeFile(join(root, "notes.md"), "# Notes\n\nA few words.\n");
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Only what a bare host passes on, plus the case's locale variables: nothing leaks from the test run. */
const bare = (variables: Record<string, string>): NodeJS.ProcessEnv => ({ PATH: process.env["PATH"] ?? "", ...variables });

const TITLES = {
  "pt-BR": ["Buscar documentos", "Ler um documento"],
  en: ["Search documents", "Read a document"],
  es: ["Buscar documentos", "Leer un documento"],
} as const;

const UNKNOWN = {
  "pt-BR": 'Nenhum documento tem o id "doc:nada.md". Use um id devolvido pela ferramenta search.',
  en: 'No document has the id "doc:nada.md". Use an id returned by the search tool.',
  es: 'Ningún documento tiene el id "doc:nada.md". Use un id devuelto por la herramienta search.',
} as const;

describe("mcp-search serve: the locale from the environment", () => {
  it.each([
    [[], { LANG: "en_US.UTF-8" }, "en", "from LANG=en_US.UTF-8"],
    [[], { LANG: "pt_BR.UTF-8" }, "pt-BR", "from LANG=pt_BR.UTF-8"],
    [[], { LC_ALL: "es_ES.UTF-8", LANG: "pt_BR.UTF-8" }, "es", "from LC_ALL=es_ES.UTF-8"],
    [[], { LC_MESSAGES: "pt_BR.UTF-8", LANG: "en_US.UTF-8" }, "pt-BR", "from LC_MESSAGES=pt_BR.UTF-8"],
    [[], { LANG: "C" }, "en", "from LANG=C, which is not pt, es or en"],
    [[], {}, "en", "default: no locale in the environment"],
    [["--locale", "es"], { LC_ALL: "pt_BR.UTF-8" }, "es", "from --locale"],
  ] as const)("serve %j under %j speaks %s (%s)", async (flags, variables, locale, reason) => {
    const server = await serveInProcess([root, ...flags, "--http", "127.0.0.1:0"], variables);
    const client = await connectHttp(server.url);
    try {
      const { tools } = await client.listTools();
      expect(["search", "fetch"].map((name) => tools.find((tool) => tool.name === name)?.title)).toStrictEqual([...TITLES[locale]]);
      const result = await call(client, "fetch", { id: "doc:nada.md" });
      expect([result.isError, result.content[0]?.text]).toStrictEqual([true, UNKNOWN[locale]]);
      expect(server.stderr().split("\n")[0]).toBe(`mcp-search: locale ${locale} (${reason})`);
    } finally {
      await client.close();
      await server.stop();
    }
  });

  it("is read by the built bin from its own environment, none inherited from the test run", async () => {
    const server = new StdioBin(["serve", root], { env: bare({ LC_MESSAGES: "es_ES.UTF-8", LANG: "en_US.UTF-8" }) });
    try {
      await server.open();
      const listed = await server.request("tools/list");
      const tools = (listed["result"] as { tools: { name: string; title?: string }[] }).tools;
      expect(["search", "fetch"].map((name) => tools.find((tool) => tool.name === name)?.title)).toStrictEqual([...TITLES.es]);
      const fetched = await server.request("tools/call", { name: "fetch", arguments: { id: "doc:nada.md" } });
      const result = fetched["result"] as { isError?: boolean; content: { text: string }[] };
      expect([result.isError, result.content[0]?.text]).toStrictEqual([true, UNKNOWN.es]);
      expect(server.stderr[0]).toBe("mcp-search: locale es (from LC_MESSAGES=es_ES.UTF-8)");
    } finally {
      server.close();
    }
  });
});
