import ts from "typescript";
import { describe, expect, it } from "vitest";
import { loadPublicApi } from "./_public-api.js";

// Every public name carries TSDoc with an @example, and every optional field of an exported
// `…Options` interface says its @default: read with the TypeScript checker from src/index.ts,
// following each re-export to the declaration a user's editor shows.

function publicDeclarations(): Array<{ name: string; declaration: ts.Declaration; checker: ts.TypeChecker }> {
  const { checker, exports } = loadPublicApi();
  return exports.flatMap(({ name, target }) => (target.declarations ?? []).map((declaration) => ({ name, declaration, checker })));
}

/** The JSDoc tags of a declaration, with a variable's tags read from its statement. */
function tagsOf(declaration: ts.Node): string[] {
  const tags = ts.getJSDocTags(declaration).map((tag) => tag.tagName.text);
  return tags;
}

function hasDoc(declaration: ts.Node): boolean {
  return ts.getJSDocCommentsAndTags(declaration).some((node) => ts.isJSDoc(node));
}

const DECLARATIONS = publicDeclarations();

describe("TSDoc of the public API", () => {
  it("follows every export of src/index.ts to its declaration", () => {
    const names = new Set(DECLARATIONS.map(({ name }) => name));
    expect(names.size).toBeGreaterThan(60);
    expect(names).toContain("normalizeText"); // re-exported twice: index.ts → rank.ts → _normalize.ts
    expect(names).toContain("SearchIndex");
  });

  it("gives every export a /** … */ comment with an @example", () => {
    const missing = DECLARATIONS.filter(({ declaration }) => !hasDoc(declaration) || !tagsOf(declaration).includes("example"));
    expect(missing.map(({ name, declaration }) => `${name} (${declaration.getSourceFile().fileName.replace(/^.*\/src\//, "src/")})`)).toStrictEqual([]);
  });

  it("gives every optional field of an exported …Options interface a @default", () => {
    const missing: string[] = [];
    for (const { name, declaration } of DECLARATIONS) {
      if (!name.endsWith("Options") || !ts.isInterfaceDeclaration(declaration)) continue;
      for (const member of declaration.members) {
        if (!ts.isPropertySignature(member) || member.questionToken === undefined) continue;
        if (!tagsOf(member).includes("default")) missing.push(`${name}.${member.name.getText()}`);
      }
    }
    expect(missing).toStrictEqual([]);
  });

  it("notices a declaration without an example", () => {
    const file = ts.createSourceFile(
      "probe.ts",
      "/** Documented.\n * @example\n * one(); // => 1\n */\nexport function one() { return 1; }\n/** No example. */\nexport const two = 2;\nexport type Three = 3;\n",
      ts.ScriptTarget.Latest,
      true,
    );
    const [first, second, third] = file.statements;
    const variable = (second as ts.VariableStatement).declarationList.declarations[0]!;
    expect([first!, variable, third!].map((node) => hasDoc(node) && tagsOf(node).includes("example"))).toStrictEqual([true, false, false]);
  });
});
