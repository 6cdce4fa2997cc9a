import { LANGUAGES } from "@sbissoli/mcp-search";
import { defineConfig } from "tsup";
import { writeBuiltRows } from "./src/folder/eld-table.js";

// The `mcp-search` bin: ESM with a shebang. Every dependency stays external, the library
// included: the CLI reaches it through its public entry, "@sbissoli/mcp-search", as any user does.
export default defineConfig({
  // The formats worker thread is an entry of its own: it is started from its file (./src/formats/extract.ts).
  entry: { "mcp-search": "src/cli/main.ts", "formats-worker": "src/formats/worker.ts" },
  format: ["esm"],
  dts: false,
  clean: true,
  sourcemap: true,
  target: "node20",
  platform: "node",
  // Split: the HTTP adapter and the demo's client are chunks that load only when used.
  splitting: true,
  banner: { js: "#!/usr/bin/env node" },
  // eld's rows for the library's languages, beside the bundle: the detector loads eld from them in
  // about 45 ms instead of 0.13 s from eld's data file, in the middle of indexing (./src/folder/eld-table.ts).
  onSuccess: async () => writeBuiltRows("dist", LANGUAGES),
});
