import { execFile as execFileCallback } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { LIBRARY_INPUTS, builtAfter, filesUnder, inputFiles } from "./_built.js";

const execFile = promisify(execFileCallback);
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TSUP = join(ROOT, "node_modules", "tsup", "dist", "cli-default.js");

/** A package's JavaScript build, which writes its folder's dist/: where it runs, its flags, what it reads. */
interface Build {
  readonly folder: string;
  readonly flags: readonly string[];
  /** Files and folders (read whole) the build reads, relative to `folder`; the lockfile stands for the build tools. */
  readonly inputs: readonly string[];
}

const BUILDS: readonly Build[] = [
  // The library's declarations (most of its build's time) are left to the one test that packs it,
  // test/extra/installed.test.ts. No clean: declarations that `npm run build` wrote stay in dist/.
  {
    folder: ROOT,
    flags: ["--no-dts", "--no-clean"],
    inputs: LIBRARY_INPUTS,
  },
  // The CLI's build leaves the library external: its bin imports it by name, when it runs.
  {
    folder: join(ROOT, "packages", "cli"),
    flags: [],
    inputs: ["src", "tsup.config.ts", "package.json", "../../tsconfig.json", "../../package-lock.json"],
  },
];

/** Runs the build, unless every JavaScript file in its dist/ was written after its last input changed. */
async function buildIfStale(build: Build): Promise<void> {
  const [inputs, outputs] = await Promise.all([inputFiles(build.folder, build.inputs), filesUnder(join(build.folder, "dist"))]);
  if (await builtAfter(inputs, outputs.filter((file) => /\.c?js$/.test(file)))) return;
  await execFile(process.execPath, [TSUP, ...build.flags], { cwd: build.folder }).catch((error: { stderr?: string }) => {
    throw new Error(`the build in ${build.folder} failed:\n${error.stderr ?? String(error)}`);
  });
}

/**
 * Builds both packages' JavaScript before the suite, each only when its sources changed since
 * its last build: the stdio, HTTP and package tests spawn or import the BUILT library and CLI,
 * exactly as a consumer would. The two builds run at once.
 */
export default async function buildPackages(): Promise<void> {
  await Promise.all(BUILDS.map(buildIfStale));
}
