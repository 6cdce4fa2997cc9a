import { readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { loadPublicApi } from "./_public-api.js";
import * as api from "../src/index.js";

// The user's manual, checked from a user's seat: both READMEs carry the same headings, the API
// section names exactly what src/index.ts exports (with every option of every `XOptions` in a
// table), every code fence is either run, shell or parsed, and the CHANGELOG keeps its form.

const read = (path: string): string => readFileSync(new URL(`../${path}`, import.meta.url), "utf8");
const READMES = { en: read("README.md"), pt: read("README.pt-BR.md") } as const;
const INDEX_SOURCE = read("src/index.ts");
const PACKAGE = JSON.parse(read("package.json")) as { name: string };

interface Heading {
  readonly level: number;
  readonly text: string;
  readonly line: number;
}

interface Fence {
  readonly language: string;
  readonly body: string;
  readonly line: number;
}

/** The Markdown headings and code fences of a text; a `#` inside a fence is not a heading. */
export function scanMarkdown(markdown: string): { headings: Heading[]; fences: Fence[] } {
  const headings: Heading[] = [];
  const fences: Fence[] = [];
  let open: { language: string; lines: string[]; line: number } | undefined;
  markdown.split("\n").forEach((line, index) => {
    if (open !== undefined) {
      if (line.trimEnd() === "```") {
        fences.push({ language: open.language, body: open.lines.join("\n"), line: open.line });
        open = undefined;
      } else {
        open.lines.push(line);
      }
      return;
    }
    const fence = /^```(.*)$/.exec(line);
    if (fence !== null) {
      open = { language: (fence[1] ?? "").trim(), lines: [], line: index + 1 };
      return;
    }
    const heading = /^(#{1,6}) (.+)$/.exec(line);
    if (heading !== null) headings.push({ level: heading[1]!.length, text: heading[2]!.trim(), line: index + 1 });
  });
  if (open !== undefined) throw new Error(`unclosed fence opened on line ${open.line}`);
  return { headings, fences };
}

/** The inline-code parts of a text, in order: what stays the same when the prose is translated. */
export function codeParts(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
}

/** The lines of one `## ` section (heading excluded), up to the next `## ` or `# ` heading. */
export function sectionLines(markdown: string, title: string): string[] {
  const lines = markdown.split("\n");
  const { headings } = scanMarkdown(markdown);
  const start = headings.find((heading) => heading.level === 2 && heading.text === title);
  if (start === undefined) return [];
  const end = headings.find((heading) => heading.line > start.line && heading.level <= 2);
  return lines.slice(start.line, end === undefined ? lines.length : end.line - 1);
}

/** src/index.ts's export lists: each name, whether it is a type, and its `// Concept` group. */
export function indexExports(source: string): Array<{ name: string; type: boolean; group: string }> {
  const file = ts.createSourceFile("index.ts", source, ts.ScriptTarget.Latest, true);
  const names: Array<{ name: string; type: boolean; group: string }> = [];
  let group = "";
  for (const statement of file.statements) {
    for (const range of ts.getLeadingCommentRanges(source, statement.getFullStart()) ?? []) {
      const comment = source.slice(range.pos, range.end);
      if (comment.startsWith("// ")) group = comment.slice(3).trim();
    }
    if (!ts.isExportDeclaration(statement)) continue;
    const clause = statement.exportClause;
    if (clause === undefined || !ts.isNamedExports(clause)) throw new Error("src/index.ts must list every name by hand");
    for (const element of clause.elements) {
      names.push({ name: element.name.text, type: statement.isTypeOnly || element.isTypeOnly, group });
    }
  }
  return names;
}

const EXPORTS = indexExports(INDEX_SOURCE);
const GROUPS = [...new Set(EXPORTS.map((entry) => entry.group))];

/** The `###` headings of the API section, each the bare export name in backticks. */
function apiHeadings(markdown: string): string[] {
  return sectionLines(markdown, "API")
    .filter((line) => line.startsWith("### "))
    .map((line) => {
      const match = /^### `([A-Za-z_$][\w$]*)`$/.exec(line.trimEnd());
      return match === null ? `(not a bare name: ${line})` : match[1]!;
    });
}

/** The first-column names of the API section's tables: `intent.now` → now, `search(query)` → search. */
function tableOptionNames(markdown: string): Set<string> {
  const names = new Set<string>();
  for (const line of sectionLines(markdown, "API")) {
    const cells = line.split(" | ");
    if (!line.startsWith("| `") || cells.length < 3 || cells[1]!.trim() === "") continue;
    for (const code of codeParts(cells[0]!)) names.add(code.replace(/\(.*$/, "").replace(/^.*\./, ""));
  }
  return names;
}

/** Every property of every exported `…Options` interface, read from the source with the checker. */
function optionFields(): Array<{ owner: string; field: string }> {
  const { checker, exports } = loadPublicApi();
  return exports
    .filter(({ name }) => name.endsWith("Options"))
    .flatMap(({ name, target }) =>
      checker.getDeclaredTypeOfSymbol(target).getProperties().map((property) => ({ owner: name, field: property.name })),
    );
}

const LANGUAGES = [
  ["README.md", READMES.en],
  ["README.pt-BR.md", READMES.pt],
] as const;

describe("README headings", () => {
  it("are the same in both languages: count, levels, order and the inline code of each pair", () => {
    const en = scanMarkdown(READMES.en).headings;
    const pt = scanMarkdown(READMES.pt).headings;
    const shape = (headings: Heading[]) => headings.map(({ level, text }) => `${"#".repeat(level)} ${codeParts(text).join(" ")}`);
    expect(shape(pt)).toStrictEqual(shape(en));
    expect(en.length).toBeGreaterThan(20);
  });

  it("link each README to the other under the tagline", () => {
    expect(READMES.en).toContain("](./README.pt-BR.md)");
    expect(READMES.pt).toContain("](./README.md)");
  });

  it("ignore a # inside a code fence", () => {
    const { headings, fences } = scanMarkdown("# A\n```sh\n# comment\n```\n## B `x`\n");
    expect(headings.map(({ level, text }) => [level, text])).toStrictEqual([[1, "A"], [2, "B `x`"]]);
    expect(fences).toStrictEqual([{ language: "sh", body: "# comment", line: 2 }]);
  });
});

describe("README API section", () => {
  it("reads every name of src/index.ts's export lists, runtime and type, in its groups", () => {
    const runtime = EXPORTS.filter((entry) => !entry.type).map((entry) => entry.name);
    expect([...runtime].sort()).toStrictEqual(Object.keys(api).sort());
    expect(EXPORTS.filter((entry) => entry.type).length).toBeGreaterThan(30);
    expect(GROUPS).toContain("Contract");
    expect(EXPORTS.every((entry) => entry.group !== "")).toBe(true);
  });

  it.each(LANGUAGES)("%s has one ### heading per export, exactly the exported set, grouped as src/index.ts", (_file, markdown) => {
    const headings = apiHeadings(markdown);
    expect([...headings].sort()).toStrictEqual(EXPORTS.map((entry) => entry.name).sort());
    expect(new Set(headings).size).toBe(headings.length);
    const groupOf = new Map(EXPORTS.map((entry) => [entry.name, GROUPS.indexOf(entry.group)]));
    const order = headings.map((name) => groupOf.get(name) ?? -1);
    expect(order).toStrictEqual([...order].sort((a, b) => a - b));
  });

  it.each(LANGUAGES)("%s has no code fence inside the API section", (_file, markdown) => {
    expect(sectionLines(markdown, "API").filter((line) => line.startsWith("```"))).toStrictEqual([]);
  });

  it.each(LANGUAGES)("%s gives every field of every exported …Options interface a table row", (_file, markdown) => {
    const listed = tableOptionNames(markdown);
    const fields = optionFields();
    expect(fields.length).toBeGreaterThan(20);
    expect(fields.filter(({ field }) => !listed.has(field))).toStrictEqual([]);
  });
});

describe("README code fences", () => {
  it.each(LANGUAGES)("%s: every fence is ts (run by readme.test.ts), sh (shell) or json (parsed here)", (_file, markdown) => {
    const { fences } = scanMarkdown(markdown);
    expect(fences.filter((fence) => !["ts", "sh", "json"].includes(fence.language)).map((fence) => fence.line)).toStrictEqual([]);
    expect(fences.filter((fence) => fence.language === "ts").length).toBeGreaterThan(5);
    for (const fence of fences.filter((candidate) => candidate.language === "json")) {
      expect(() => JSON.parse(fence.body), `json fence on line ${fence.line}`).not.toThrow();
    }
  });

  it.each(LANGUAGES)("%s: a host config in json runs this package's bin with serve", (_file, markdown) => {
    const configs = scanMarkdown(markdown)
      .fences.filter((fence) => fence.language === "json")
      .map((fence) => JSON.parse(fence.body) as { mcpServers?: Record<string, { command: string; args: string[] }> })
      .filter((config) => config.mcpServers !== undefined);
    expect(configs.length).toBeGreaterThan(0);
    for (const config of configs) {
      for (const server of Object.values(config.mcpServers!)) {
        expect(server.command).toBe("npx");
        expect(server.args.slice(0, 3)).toStrictEqual(["-y", PACKAGE.name, "serve"]);
      }
    }
  });
});

describe("CHANGELOG.md", () => {
  const changelog = read("CHANGELOG.md");

  it("opens with ## Unreleased, then dated releases", () => {
    const sections = changelog.split("\n").filter((line) => line.startsWith("## "));
    expect(sections[0]).toBe("## Unreleased");
    for (const section of sections.slice(1)) expect(section).toMatch(/^## \d+\.\d+\.\d+ \(\d{4}-\d{2}-\d{2}\)$/);
  });

  it("starts every bullet with Add, Change, Fix, Remove or **Breaking:**", () => {
    const bullets = changelog.split("\n").filter((line) => /^\s*[-*] /.test(line));
    expect(bullets.length).toBeGreaterThan(10);
    expect(bullets.filter((line) => !/^- (?:Add|Change|Fix|Remove) |^- \*\*Breaking:\*\* /.test(line))).toStrictEqual([]);
  });
});
