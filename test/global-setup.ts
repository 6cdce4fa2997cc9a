import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * Builds dist once before the suite: the stdio, HTTP and package tests spawn or import the BUILT
 * package, exactly as a consumer would.
 */
export default function buildPackage(): void {
  const root = fileURLToPath(new URL("..", import.meta.url));
  execFileSync(process.execPath, [fileURLToPath(new URL("../node_modules/tsup/dist/cli-default.js", import.meta.url))], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
  });
}
