import { describe, expect, it } from "vitest";
import { extractDocument } from "../../src/formats/documents.js";
import { splitFrontMatter } from "../../src/formats/front-matter.js";
import { markdownToText } from "../../src/formats/markdown.js";

const NOTE = "---\ntitle: Weekly planning ritual\ntags: [planning, habits]\ndate: 2026-11-02\n---\n\nEvery Sunday I pick three priorities.";

describe("splitFrontMatter", () => {
  it("names the title, the summary and the labels, and where the text starts", () => {
    const split = splitFrontMatter(NOTE);
    expect(split?.named).toStrictEqual({ title: "Weekly planning ritual", summary: undefined, labels: ["planning", "habits"] });
    expect(NOTE.slice(split?.bodyStart)).toBe("\nEvery Sunday I pick three priorities.");
  });

  it("reads Windows line ends, a closing '...', labels as one string, and a summary", () => {
    const text = "---\r\ntitle: 2026\r\nkeywords: grinder, burr ,  \r\ncategories: [coffee]\r\nsummary: How to grind.\r\n...\r\nBody";
    expect(splitFrontMatter(text)).toStrictEqual({ named: { title: "2026", summary: "How to grind.", labels: ["grinder", "burr", "coffee"] }, bodyStart: text.indexOf("Body") });
  });

  it("prefers the description to the summary, and names nothing with a date, a list or a mapping", () => {
    const text = "---\ndescription: The short one\nsummary: The other\ntitle: [a, b]\ntags: { a: 1 }\n---\n";
    expect(splitFrontMatter(text)?.named).toStrictEqual({ title: undefined, summary: "The short one", labels: [] });
  });

  it("reads a block with an unknown tag and logs nothing: the file's words stay out of the server's log", () => {
    const emitted: unknown[] = [];
    const emitWarning = process.emitWarning;
    process.emitWarning = ((warning: unknown) => void emitted.push(warning)) as typeof process.emitWarning;
    try {
      expect(splitFrontMatter("---\ntitle: !secret Planning\n---\n")?.named.title).toBe("Planning");
    } finally {
      process.emitWarning = emitWarning;
    }
    expect(emitted).toStrictEqual([]);
  });

  it.each([
    ["no opening line", "# Title\n---\ntitle: x\n---\n"],
    ["a block that never closes", "---\ntitle: x\n\nBody"],
    ["prose that is not a mapping (a thematic break, then text)", "---\nJust a line of prose\n---\nMore"],
    ["a list", "---\n- a\n- b\n---\n"],
    ["broken YAML", "---\ntitle: [unclosed\n---\n"],
    ["an alias bomb", `---\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: [${Array(12).fill("*a").join(", ")}]\n---\n`],
    ["a block larger than 8 KiB", `---\ntitle: x\nnote: ${"y".repeat(9_000)}\n---\nBody`],
    ["lists nested 33 deep", `---\ntitle: x\nnote: ${"[".repeat(33)}${"]".repeat(33)}\n---\n`],
    ["a single line", "---"],
  ])("is undefined for %s", (_, text) => {
    expect(splitFrontMatter(text)).toBeUndefined();
  });
});

describe("a Markdown file with front matter", () => {
  it("takes its title from the front matter, its labels and summary as keywords, and leaves the block out of its plain text", () => {
    const doc = extractDocument("notes/plan.md", `${NOTE}\n\n## Review\n\nLook back.`);
    expect(doc.title).toBe("Weekly planning ritual");
    expect(doc.headings).toStrictEqual(["planning", "habits", "Review"]);
    expect(doc.text.startsWith("---\ntitle: Weekly planning ritual")).toBe(true); // fetch shows the file as written
    expect(markdownToText(doc.text)).toBe("Every Sunday I pick three priorities.\n\nReview\n\nLook back.");
  });

  it("falls back to its first heading when the front matter names no title, and reads a thematic break as one", () => {
    expect(extractDocument("a.md", "---\ntags: [x]\n---\n# Grinding\n\nText.").title).toBe("Grinding");
    expect(markdownToText("---\n\nIntro line\n\n---\n\n# After")).toBe("Intro line\n\nAfter");
    // A block that is not a mapping is text for the title too, as for the snippets.
    expect(extractDocument("b.md", "---\n# Shown\n---\n").title).toBe("Shown");
  });
});
