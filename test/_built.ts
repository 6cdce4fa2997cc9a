/**
 * Whether a build is current, by modification times, as `make` decides: the global setup skips a
 * package's build, and test/extra/installed.test.ts its declarations build, when every output was
 * written after the last change to any input. A checkout, an edit or a new lockfile makes an
 * input newer, so that the next run builds again. Not a test file.
 */
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";

/** Every file under `folder`, at any depth, as paths joined to it; none when it does not exist. */
export async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/**
 * What the library's build reads (`tsup`, the JavaScript and the declarations alike), relative
 * to the repository's root: its sources, its configuration, and the lockfile for the build tools.
 */
export const LIBRARY_INPUTS: readonly string[] = ["src", "tsup.config.ts", "tsconfig.json", "package.json", "package-lock.json"];

/** The files of `inputs` (paths relative to `folder`), each folder expanded to every file under it. */
export async function inputFiles(folder: string, inputs: readonly string[]): Promise<string[]> {
  const lists = await Promise.all(
    inputs.map(async (input) => {
      const path = join(folder, input);
      const files = await filesUnder(path);
      return files.length > 0 ? files : [path]; // a file, not a folder: itself
    }),
  );
  return lists.flat();
}

/** Whether `outputs` is not empty, and each one exists and was written after the last change to any of `inputs`. */
export async function builtAfter(inputs: readonly string[], outputs: readonly string[]): Promise<boolean> {
  if (outputs.length === 0) return false;
  const times = async (files: readonly string[]) => Promise.all(files.map(async (file) => (await stat(file).catch(() => undefined))?.mtimeMs ?? Number.NaN));
  const [inputTimes, outputTimes] = await Promise.all([times(inputs), times(outputs)]);
  return Math.min(...outputTimes) >= Math.max(...inputTimes); // NaN, a missing file, compares false
}
