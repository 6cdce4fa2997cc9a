/**
 * The order in which `npm test` starts its files. Vitest starts the files that took longest in
 * the previous run first, from the durations it keeps under `node_modules/.vite`. A fresh clone,
 * which is what CI runs, has none, and vitest falls back to the largest files first, which put the
 * slowest files in the middle and the end: a fresh clone's run took 39 s where a warm one took 31 s.
 * Without those durations, the files below start first, slowest first, and the rest follow in
 * vitest's order. Most of them wait on child processes (npm installs, the built bin), so starting
 * them early lets the rest of the suite run beside them.
 */
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** The slowest files of a run on 2026-12-02 (16 s to 2.5 s each, on a loaded machine), slowest first. */
export const SLOWEST_FILES: readonly string[] = [
  "packages/cli/test/formats/cli-formats.test.ts",
  "test/sql/ranked-query.test.ts",
  "packages/cli/test/mcp/resources.test.ts",
  "packages/cli/test/mcp/cli-resources-e2e.test.ts",
  "test/ranking/updates.test.ts",
  "test/vocabulary/postgres.test.ts",
  "packages/cli/test/folder/cli-liveness.test.ts",
  "test/ranking/snapshot.test.ts",
];

/** Vitest's order when it knows every file's last duration; otherwise {@link SLOWEST_FILES} first. */
export class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const path = (file: TestSpecification) => relative(this.ctx.config.root, file.moduleId).replaceAll("\\", "/");
    const known = files.every((file) => this.ctx.cache.getFileTestResults(`${file.project.name}:${path(file)}`) !== undefined);
    if (known) return sorted;
    const rank = (file: TestSpecification) => {
      const index = SLOWEST_FILES.indexOf(path(file));
      return index === -1 ? SLOWEST_FILES.length : index;
    };
    return sorted.sort((a, b) => rank(a) - rank(b)); // stable: the rest keep vitest's order
  }
}
