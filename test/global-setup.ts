import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const TSUP = fileURLToPath(new URL("../node_modules/tsup/dist/cli-default.js", import.meta.url));

/**
 * Builds both packages' JavaScript once before the suite: the stdio, HTTP and package tests spawn
 * or import the BUILT library and CLI, exactly as a consumer would. The library first: the CLI's
 * bin imports it by name. The library's declarations (most of the build's time) are left to the
 * one test that packs it, test/installed.test.ts, which builds them beside the other tests.
 */
export default function buildPackages(): void {
  for (const [folder, flags] of [["..", ["--no-dts"]], ["../packages/cli", []]] as const) {
    execFileSync(process.execPath, [TSUP, ...flags], {
      cwd: fileURLToPath(new URL(folder, import.meta.url)),
      stdio: ["ignore", "ignore", "inherit"],
    });
  }
}
