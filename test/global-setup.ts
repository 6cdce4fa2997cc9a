import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const TSUP = fileURLToPath(new URL("../node_modules/tsup/dist/cli-default.js", import.meta.url));

/**
 * Builds both packages once before the suite: the stdio, HTTP and package tests spawn or import
 * the BUILT library and CLI, exactly as a consumer would. The library first: the CLI's bin
 * imports it by name.
 */
export default function buildPackages(): void {
  for (const folder of ["..", "../packages/cli"]) {
    execFileSync(process.execPath, [TSUP], {
      cwd: fileURLToPath(new URL(folder, import.meta.url)),
      stdio: ["ignore", "ignore", "inherit"],
    });
  }
}
