import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { StringLiteral } from "typescript";
import { describe, expect, it } from "vitest";
import { ALL_DOCS, DOC_PAIRS, GUIDES, ROOT, codeParts, readDoc, scanMarkdown, type Fence, type Heading } from "./_docs.js";
import { ts } from "./_typescript.js";

// The documents, checked from a user's seat: README is a front page, every English document has a
// pt-BR mirror with the same headings and the same code, every code fence is run (ts, by
// docs-programs.test.ts), parsed (json) or a shell line that names the right package, no
// document tells how the project was made, and the CHANGELOG is release notes.

const PACKAGE = JSON.parse(readDoc("package.json")) as { name: string; scripts: Record<string, string> };
const CLI_PACKAGE = JSON.parse(readDoc("packages/cli/package.json")) as { name: string };

/** Each heading as its level and its inline code: what a translation keeps. */
const headingShape = (headings: readonly Heading[]) => headings.map(({ level, text }) => `${"#".repeat(level)} ${codeParts(text).join(" ")}`);

/** What a fence must keep across languages: its language, and for code, the names it imports. */
function fenceShape(fence: Fence): string {
  if (fence.language === "ts") {
    const file = ts.createSourceFile("block.ts", fence.body, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    const imports = file.statements.filter(ts.isImportDeclaration).map((declaration) => {
      const from = (declaration.moduleSpecifier as StringLiteral).text;
      const bindings = declaration.importClause?.namedBindings;
      const names = bindings !== undefined && ts.isNamedImports(bindings) ? bindings.elements.map((element) => element.name.text) : [];
      return `${from} {${[...names].sort().join(",")}}${declaration.importClause?.name === undefined ? "" : ` ${declaration.importClause.name.text}`}`;
    });
    return `ts ${imports.join("; ")}`;
  }
  if (fence.language === "sh") return `sh ${fence.body.split("\n").map((line) => line.replace(/(?:^|\s+)#.*$/, "").trimEnd()).join("\n")}`;
  if (fence.language === "json") return `json ${JSON.stringify(JSON.parse(fence.body))}`;
  return fence.language;
}

describe("the documents and their mirrors", () => {
  it("pair every guide under docs/ with one under docs/pt-BR/, and nothing else is there", () => {
    expect(GUIDES.length).toBeGreaterThanOrEqual(6);
    const mirrors = readdirSync(join(ROOT, "docs", "pt-BR")).filter((name) => name.endsWith(".md")).sort();
    expect(mirrors).toStrictEqual(GUIDES);
  });

  it.each(DOC_PAIRS)("%s and %s have the same headings: count, levels, order and inline code", (en, pt) => {
    const english = scanMarkdown(readDoc(en)).headings;
    expect(headingShape(scanMarkdown(readDoc(pt)).headings)).toStrictEqual(headingShape(english));
    expect(english[0]?.level).toBe(1);
    expect(english.filter((heading) => heading.level === 1)).toHaveLength(1);
  });

  it.each(DOC_PAIRS)("%s and %s have the same code fences: languages, imports, shell lines and JSON", (en, pt) => {
    const shape = (path: string) => scanMarkdown(readDoc(path)).fences.map(fenceShape);
    expect(shape(pt)).toStrictEqual(shape(en));
  });

  it.each(DOC_PAIRS)("%s links to its mirror %s and back", (en, pt) => {
    const name = (path: string) => path.split("/").pop()!;
    if (en === "README.md") {
      expect(readDoc(en)).toContain("](./README.pt-BR.md)");
      expect(readDoc(pt)).toContain("](./README.md)");
    } else {
      // The guides are reached from their README; each links the READMEs' guides by the same names.
      expect(readDoc("README.md")).toContain(`](./docs/${name(en)})`);
      expect(readDoc("README.pt-BR.md")).toContain(`](./docs/pt-BR/${name(pt)})`);
    }
  });

  it("notices a heading or a fence that differs", () => {
    const a = scanMarkdown("# T\n## A `x`\n```sh\nnpm test\n```\n");
    const b = scanMarkdown("# T\n## B `y`\n```sh\nnpm ci\n```\n");
    expect(headingShape(b.headings)).not.toStrictEqual(headingShape(a.headings));
    expect(b.fences.map(fenceShape)).not.toStrictEqual(a.fences.map(fenceShape));
    const c = scanMarkdown('# T\n```ts\nimport { a } from "m";\nconst comentario = a;\n```\n');
    const d = scanMarkdown('# T\n```ts\nimport { a } from "m";\nconst comment = a;\n```\n');
    expect(c.fences.map(fenceShape)).toStrictEqual(d.fences.map(fenceShape));
  });
});

describe("every document", () => {
  it.each(ALL_DOCS)("%s: every fence is ts (run by docs-programs.test.ts), sh, text or json (parsed here)", (path) => {
    const { fences } = scanMarkdown(readDoc(path));
    expect(fences.filter((fence) => !["ts", "sh", "text", "json"].includes(fence.language)).map((fence) => fence.line)).toStrictEqual([]);
    for (const fence of fences.filter((candidate) => candidate.language === "json")) {
      expect(() => JSON.parse(fence.body), `json fence on line ${fence.line}`).not.toThrow();
    }
  });

  it.each(ALL_DOCS)("%s: runs the folder server by its scoped name, never the unrelated `mcp-search` package", (path) => {
    const text = readDoc(path);
    expect(text).not.toMatch(/\bnpx\s+(?:-y\s+)?mcp-search\b/);
    expect(text).not.toMatch(/\bnpx\s+(?:-y\s+)?@sbissoli\/mcp-search\s+(?:serve|demo)\b/);
    for (const config of scanMarkdown(text).fences.filter((fence) => fence.language === "json").map((fence) => JSON.parse(fence.body) as { mcpServers?: Record<string, { command: string; args: string[] }> })) {
      for (const server of Object.values(config.mcpServers ?? {})) {
        expect(server.command).toBe("npx");
        expect(server.args.slice(0, 3)).toStrictEqual(["-y", CLI_PACKAGE.name, "serve"]);
      }
    }
  });

  it.each(ALL_DOCS)("%s: names its sources by their public titles and says nothing of how the project was made", (path) => {
    const text = readDoc(path);
    expect(text).not.toMatch(/\bseeds?\b(?:\s+\d|\/)/i);
    expect(text).not.toMatch(/\bissues?\s+#?\d+/i);
    expect(text).not.toMatch(/docs\/drafts|worktree/i);
  });

  it.each(ALL_DOCS)("%s: every relative link reaches a file in the repository", (path) => {
    const folder = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : ".";
    const targets = [...readDoc(path).matchAll(/\]\((\.{1,2}\/[^)#\s]*)(?:#[^)]*)?\)/g)].map((match) => match[1]!);
    expect(targets.filter((target) => !existsSync(join(ROOT, folder, target)))).toStrictEqual([]);
  });
});

describe("README.md, the front page", () => {
  const readme = readDoc("README.md");
  const headings = scanMarkdown(readme).headings;

  it("stays a front page: at most about 15 KB in each language", () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(15_500);
    expect(Buffer.byteLength(readDoc("README.pt-BR.md"))).toBeLessThanOrEqual(16_500);
  });

  it("opens with what and why, then install, the quick start and the folder server", () => {
    expect(headings.map((heading) => heading.text).slice(0, 4)).toStrictEqual(["@sbissoli/mcp-search", "Install", "Quick start", "Serve a folder, no code"]);
    const pitch = readme.slice(0, readme.indexOf("## Install"));
    expect(pitch).toMatch(/exactly two tools, `search` and `fetch`/);
    expect(scanMarkdown(readme).fences[0]?.body).toBe(`npm install ${PACKAGE.name} zod @modelcontextprotocol/server`);
  });

  it("connects the quick start's transport (docs-programs.test.ts talks MCP to it)", () => {
    const quickStart = scanMarkdown(readme).fences.find((fence) => fence.section === "Quick start" && fence.language === "ts");
    expect(quickStart?.body).toMatch(/^await server\.connect\(new StdioServerTransport\(\)\);$/m);
  });

  it("serves a folder in one command, by the CLI package's scoped name", () => {
    const serve = scanMarkdown(readme).fences.find((fence) => fence.section === "Serve a folder, no code");
    expect(serve?.body).toBe(`npx ${CLI_PACKAGE.name} serve ./docs`);
  });

  it("keeps the fresh-clone commands under Develop, and CI runs the README's test command", () => {
    const develop = scanMarkdown(readme).fences.filter((fence) => fence.section === "Develop");
    expect(develop.map((fence) => fence.body)).toStrictEqual(["npm ci && npm run demo\nnpm test"]);
    expect(readDoc(".ci/run")).toMatch(/^npm test\b/m);
    expect(readDoc(".ci/run")).toMatch(/^\s*npm run docs$/m);
    expect(PACKAGE.scripts.docs).toBe("typedoc");
  });

  it("has no per-export API headings: the reference is generated", () => {
    expect(headings.filter((heading) => /^`[A-Za-z_$][\w$]*`$/.test(heading.text))).toStrictEqual([]);
  });
});

describe("CHANGELOG.md", () => {
  const changelog = readDoc("CHANGELOG.md");
  const releases = changelog.split("\n").filter((line) => line.startsWith("## "));

  it("opens with ## [Unreleased], then releases as ## [x.y.z] - YYYY-MM-DD, 0.9.0 among them", () => {
    expect(releases[0]).toBe("## [Unreleased]");
    for (const release of releases.slice(1)) expect(release).toMatch(/^## \[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}$/);
    expect(releases.some((release) => release.startsWith(`## [${(JSON.parse(readDoc("package.json")) as { version: string }).version}] - `))).toBe(true);
  });

  it("groups changes under Keep a Changelog's headings only", () => {
    const groups = changelog.split("\n").filter((line) => line.startsWith("### "));
    expect(groups.length).toBeGreaterThanOrEqual(3);
    expect(groups.filter((line) => !/^### (?:Added|Changed|Deprecated|Removed|Fixed|Security)$/.test(line))).toStrictEqual([]);
  });

  it("is release notes for users, about 40 lines a release, not the work history", () => {
    const release = changelog.slice(changelog.indexOf("## [0.9.0]"));
    const lines = release.split("\n").filter((line) => line.trim() !== "");
    expect(lines.length).toBeGreaterThan(15);
    expect(lines.length).toBeLessThanOrEqual(70);
    expect(changelog).not.toMatch(/\bbench(?:mark)? delta|\bis gone\b|\bsrc\/_/i);
  });
});

describe("the guarantees guide", () => {
  it.each(["docs/guarantees.md", "docs/pt-BR/guarantees.md"])("%s names, for each promise, test files that exist and test names they hold", (path) => {
    const rows = readDoc(path)
      .split("\n")
      .filter((line) => line.startsWith("| ") && !line.startsWith("| ---"))
      .slice(1);
    expect(rows.length).toBeGreaterThan(8);
    const broken: string[] = [];
    for (const row of rows) {
      const held = row.replace(/\|\s*$/, "").split(" | ").pop()!;
      const files = [...held.matchAll(/(?:test|bench|packages\/cli\/test)\/[\w./-]+\.ts/g)].map((match) => match[0]);
      if (files.length === 0 && !held.includes("npm run")) broken.push(`no test named: ${held}`);
      const sources = files.filter((file) => existsSync(join(ROOT, file)));
      for (const file of files.filter((candidate) => !sources.includes(candidate))) broken.push(`missing file: ${file}`);
      const text = sources.map((file) => readDoc(file)).join("\n");
      for (const [, name] of held.matchAll(/"([^"]+)"/g)) if (!text.includes(name!)) broken.push(`no test "${name}" in ${files.join(", ")}`);
    }
    expect(broken).toStrictEqual([]);
  });
});

describe("the guides cover what the front page promises", () => {
  const headingsOf = (path: string) => scanMarkdown(readDoc(path)).headings.map((heading) => heading.text);

  it.each([
    ["docs/factory.md", ["The contract", "A server, step by step", "Choosing a ranking", "Options", "Tolerant ids", "Errors and messages", "Compatibility"]],
    ["docs/vocabulary.md", ["The question's vocabulary", "SQLite and Cloudflare D1", "PostgreSQL", "Limits"]],
    ["docs/site.md", ["A catalogue read from the site", "Dates as people type them", 'Intent: "right now" is not "the latest"']],
    ["docs/folder-server.md", ["Options", "Security", "Claude Desktop", "ChatGPT", "The Responses API"]],
  ] as const)("%s has its sections", (path, sections) => {
    const headings = headingsOf(path);
    expect(sections.filter((section) => !headings.includes(section))).toStrictEqual([]);
  });

  it.each(["docs/performance.md", "docs/pt-BR/performance.md", "CHANGELOG.md"])("keeps %s under 10 KB: release notes and measurements, not their history", (path) => {
    expect(Buffer.byteLength(readDoc(path))).toBeLessThan(10 * 1024);
  });

  it("shows the folder server's deployment with a token, for the Responses API", () => {
    const guide = readDoc("docs/folder-server.md");
    expect(guide).toContain("MCP_SEARCH_TOKEN=");
    const responses = scanMarkdown(guide).fences.filter((fence) => fence.section === "The Responses API" && fence.language === "json");
    expect(responses.map((fence) => (JSON.parse(fence.body) as { tools: Array<{ type: string; headers?: object }> }).tools[0])).toStrictEqual([
      expect.objectContaining({ type: "mcp", headers: { Authorization: "Bearer <token>" }, require_approval: "never" }),
    ]);
  });
});
