/**
 * Shared by the documentation tests: the Markdown documents a user reads, in pairs (English and
 * its pt-BR mirror), and a scanner for their headings and code fences. Not a test file itself.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Reads a file of the repository, by its path from the root. */
export const readDoc = (path: string): string => readFileSync(join(ROOT, path), "utf8");

/** The English guides under docs/, by file name. */
export const GUIDES: readonly string[] = readdirSync(join(ROOT, "docs"))
  .filter((name) => name.endsWith(".md"))
  .sort();

/** Every English document and its pt-BR mirror (the mirror's path, whether or not it exists). */
export const DOC_PAIRS: ReadonlyArray<readonly [en: string, pt: string]> = [
  ["README.md", "README.pt-BR.md"],
  ...GUIDES.map((name) => [`docs/${name}`, `docs/pt-BR/${name}`] as const),
];

/** Every Markdown document a user reads, in both languages, plus CONTRIBUTING.md and the CLI package's README. */
export const ALL_DOCS: readonly string[] = [
  ...DOC_PAIRS.flat().filter((path) => existsSync(join(ROOT, path))),
  ...["CONTRIBUTING.md", "packages/cli/README.md"].filter((path) => existsSync(join(ROOT, path))),
];

export interface Heading {
  readonly level: number;
  readonly text: string;
  readonly line: number;
}

export interface Fence {
  readonly language: string;
  readonly body: string;
  readonly line: number;
  /** The text of the nearest heading above the fence, of level 2 or less ("(top)" before any). */
  readonly section: string;
}

/** The Markdown headings and code fences of a text; a `#` inside a fence is not a heading. */
export function scanMarkdown(markdown: string): { headings: Heading[]; fences: Fence[] } {
  const headings: Heading[] = [];
  const fences: Fence[] = [];
  let section = "(top)";
  let open: { language: string; lines: string[]; line: number } | undefined;
  markdown.split("\n").forEach((line, index) => {
    if (open !== undefined) {
      if (line.trimEnd() === "```") {
        fences.push({ language: open.language, body: open.lines.join("\n"), line: open.line, section });
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
    if (heading !== null) {
      const level = heading[1]!.length;
      const text = heading[2]!.trim();
      headings.push({ level, text, line: index + 1 });
      if (level <= 2) section = text;
    }
  });
  if (open !== undefined) throw new Error(`unclosed fence opened on line ${open.line}`);
  return { headings, fences };
}

/** The inline-code parts of a text, in order: what stays the same when the prose is translated. */
export function codeParts(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
}
