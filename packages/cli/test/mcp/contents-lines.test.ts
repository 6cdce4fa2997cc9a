import { describe, expect, it } from "vitest";
import { isContentsLine, outsideContentsLines } from "../../src/mcp/contents-lines.js";

const whole = (line: string) => isContentsLine(line, 0, line.length);

describe("isContentsLine", () => {
  it.each([
    "1 Recording changes in the package . . . . . . . . . . 1",
    "2.1 Grinding the beans.........................12",
    "Preface … xiv",
    "Index . . . 231  ",
    "Appendix A\t. . . . .\tIV\r",
  ])("takes %j: words, leader dots, a page number", (line) => {
    expect(whole(line)).toBe(true);
  });

  it.each([
    "It costs 12",
    "Wait.. 3",
    ". . . . 12",
    "Grinding . . . . page12",
    "Grinding . . . . 123456",
    "Grinding . . . .",
    "",
  ])("leaves %j: no leader, no words before it, or no page number of its own", (line) => {
    expect(whole(line)).toBe(false);
  });

  it("takes an entry without leader dots beside one with them: a part or a chapter above its sections", () => {
    const text = "Contents\nPart I Preparing a release 2\n1.1 Writing the notes . . . . 2\nPart II Shipping iv\n\nIt costs 12\nPart III 9";
    const line = (n: number) => {
      const lines = text.split("\n");
      const from = lines.slice(0, n).join("\n").length + (n > 0 ? 1 : 0);
      return isContentsLine(text, from, from + lines[n]!.length);
    };
    expect([0, 1, 2, 3, 4, 5, 6].map(line)).toStrictEqual([false, true, true, true, false, false, false]);
    // Beside two dots, which are no leader, or a line of dots without words: not an entry.
    expect(isContentsLine("Part I 2\n1.1 Wait.. 2", 0, 8)).toBe(false);
    expect(isContentsLine("Part I 2\n. . . . 3", 0, 8)).toBe(false);
    // The entry after, as the entry before.
    expect(isContentsLine("Intro . . . 1\nPart I 2", 14, 22)).toBe(true);
  });

  it("reads one line of a text, between the offsets it is given", () => {
    const text = "Intro\nGrinding . . . . 3\nBody";
    expect(isContentsLine(text, 6, 24)).toBe(true);
    expect(isContentsLine(text, 0, 5)).toBe(false);
  });

  it("reads a line of a million dots and no page number in one pass", () => {
    expect(whole(`Title ${". ".repeat(1_000_000)}`)).toBe(false);
    expect(whole(`Title ${". ".repeat(1_000_000)}7`)).toBe(true);
  });
});

describe("outsideContentsLines", () => {
  const text = "Contents\n1 Grinding . . . . 2\n2 Brewing . . . . 3\n\nGrinding\n\nGrind just before brewing.";
  const at = (word: string, from = 0, term = 0) => {
    const start = text.indexOf(word, from);
    return { start, end: start + word.length, term };
  };

  it("drops the matches on a contents line and keeps the others, in order", () => {
    const matches = [at("Grinding"), at("Brewing", 0, 1), at("Grinding", 40), at("Grind", 60), at("brewing", 60, 1)];
    expect(outsideContentsLines(matches, text)).toStrictEqual([at("Grinding", 40), at("Grind", 60), at("brewing", 60, 1)]);
  });

  it("keeps every match when all are on contents lines: the contents are then where the query is", () => {
    const matches = [at("Grinding"), at("Brewing", 0, 1)];
    expect(outsideContentsLines(matches, text)).toBe(matches);
  });

  it("reads the last line of a text, with no line break after it", () => {
    const last = "Body\nGrinding . . . . 9";
    expect(outsideContentsLines([{ start: 0, end: 4, term: 0 }, { start: 5, end: 13, term: 0 }], last)).toStrictEqual([{ start: 0, end: 4, term: 0 }]);
  });
});
