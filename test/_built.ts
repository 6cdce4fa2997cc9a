/**
 * Whether a build is current, by modification times, as `make` decides: the global setup skips a
 * package's build, and test/installed.test.ts its declarations build, when every output was
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

/** Whether `outputs` is not empty, and each one exists and was written after the last change to any of `inputs`. */
export async function builtAfter(inputs: readonly string[], outputs: readonly string[]): Promise<boolean> {
  if (outputs.length === 0) return false;
  const times = async (files: readonly string[]) => Promise.all(files.map(async (file) => (await stat(file).catch(() => undefined))?.mtimeMs ?? Number.NaN));
  const [inputTimes, outputTimes] = await Promise.all([times(inputs), times(outputs)]);
  return Math.min(...outputTimes) >= Math.max(...inputTimes); // NaN, a missing file, compares false
}
