/**
 * The folder server's layers point one way: cli → transports → oauth, mcp → folder → formats. A
 * file may import its own folder and any folder below its own, never one above, nor the other
 * folder of its own layer (oauth and mcp know nothing of each other). Every import counts: `import`,
 * `import type`, `export … from` and `import()`, read with the TypeScript compiler's own
 * pre-processor (`ts.preProcessFile`), as test/import-cycles.test.ts reads them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ts } from "../../../test/_typescript.js";

const SRC = fileURLToPath(new URL("../src/", import.meta.url));

/** Each folder of packages/cli/src and its layer: a file may import only lower layers, and its own folder. */
const LAYERS: Readonly<Record<string, number>> = { cli: 4, transports: 3, oauth: 2, mcp: 2, folder: 1, formats: 0 };

/** The folders of src/ a file's source imports (its own folder included), with what it wrote. */
function importedFolders(file: string, source: string): { folder: string; written: string }[] {
  const { importedFiles } = ts.preProcessFile(source, true, true);
  return importedFiles.flatMap(({ fileName }) => {
    if (!fileName.startsWith(".")) return [];
    const target = relative(SRC, resolve(SRC, dirname(file), fileName)).split("\\").join("/");
    return [{ folder: target.split("/")[0] ?? "", written: fileName }];
  });
}

/**
 * The imports that point up the layer order, or sideways to the other folder of the same layer,
 * as "file → import" lines. `sources` maps each file (relative to src/) to its source.
 */
function arrowsUp(sources: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, source] of sources) {
    const from = file.split("/")[0] ?? "";
    const layer = LAYERS[from];
    if (layer === undefined) {
      found.push(`${file}: in no layer`);
      continue;
    }
    for (const { folder, written } of importedFolders(file, source)) {
      if (folder === from) continue;
      const target = LAYERS[folder];
      if (target === undefined || target >= layer) found.push(`${file} → ${written}`);
    }
  }
  return found;
}

function sources(): Map<string, string> {
  const files = readdirSync(SRC, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts"));
  return new Map(files.map((file) => [file.split("\\").join("/"), readFileSync(join(SRC, file), "utf8")]));
}

describe("the folder server's layers", () => {
  it("has no import in packages/cli/src that points back up cli → transports → oauth/mcp → folder → formats", () => {
    const all = sources();
    expect(all.size).toBeGreaterThan(40);
    expect(arrowsUp(all)).toStrictEqual([]);
  });

  it("finds an arrow up, type-only and dynamic imports included, and one sideways between oauth and mcp", () => {
    const planted = new Map([
      ["formats/planted.ts", 'import type { Folder } from "../folder/folder.js";\nexport const x = 1;\n'],
      ["folder/planted.ts", 'export async function f() { return import("../mcp/tools.js"); }\n'],
      ["mcp/planted.ts", 'export { x } from "../oauth/state.js";\n'],
      ["transports/fine.ts", 'import { y } from "../folder/ids.js";\nimport { z } from "./serve.js";\n'],
      ["stray.ts", "export const s = 1;\n"],
    ]);
    expect(arrowsUp(planted)).toStrictEqual([
      "formats/planted.ts → ../folder/folder.js",
      "folder/planted.ts → ../mcp/tools.js",
      "mcp/planted.ts → ../oauth/state.js",
      "stray.ts: in no layer",
    ]);
  });
});
