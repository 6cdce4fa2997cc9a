import { defineConfig } from "tsup";

export default defineConfig([
  {
    entry: { index: "src/index.ts" },
    format: ["esm", "cjs"],
    dts: true,
    clean: true,
    sourcemap: true,
    target: "node20",
    platform: "node",
    splitting: false,
  },
  // The `mcp-search` bin: one ESM file with a shebang. It imports the library through its public
  // entry (src/index.ts), which is bundled in; the MCP SDK packages stay external dependencies.
  {
    entry: { "mcp-search": "src/cli/main.ts" },
    outDir: "dist/cli",
    format: ["esm"],
    dts: false,
    clean: false,
    sourcemap: true,
    target: "node20",
    platform: "node",
    splitting: false,
    banner: { js: "#!/usr/bin/env node" },
  },
]);
