import { execFile as execFileCallback } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const execFile = promisify(execFileCallback);
const TSUP = fileURLToPath(new URL("../node_modules/tsup/dist/cli-default.js", import.meta.url));

/**
 * Builds both packages' JavaScript once before the suite: the stdio, HTTP and package tests spawn
 * or import the BUILT library and CLI, exactly as a consumer would. The two builds run at once:
 * the CLI's build leaves the library external (its bin imports it by name only when it runs). The
 * library's declarations (most of the build's time) are left to the one test that packs it,
 * test/installed.test.ts, which builds them beside the other tests unless `npm run build` already
 * did: the library's build here does not clean dist/, so declarations built before stay.
 */
export default async function buildPackages(): Promise<void> {
  await Promise.all(
    ([["..", ["--no-dts", "--no-clean"]], ["../packages/cli", []]] as const).map(([folder, flags]) =>
      execFile(process.execPath, [TSUP, ...flags], { cwd: fileURLToPath(new URL(folder, import.meta.url)) }).catch((error: { stderr?: string }) => {
        throw new Error(`the build in ${folder} failed:\n${error.stderr ?? String(error)}`);
      }),
    ),
  );
}
