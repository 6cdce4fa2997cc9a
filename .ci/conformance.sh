#!/usr/bin/env bash
# The MCP conformance suite (@modelcontextprotocol/conformance 0.1.16, the protocol's official
# tests, which need Node 22 or later) against two servers over Streamable HTTP:
# - folder: the folder server's built bin, serving packages/cli/examples/corpus;
# - docs: the "Node over Streamable HTTP" program of docs/factory.md, as the file holds it now (its
#   ts blocks up to the client's), run with tsx.
# Both packages must be built first (npm run build); .ci/run calls this after its tests.
# Usage: .ci/conformance.sh [report.json]. It runs every scenario of the server suite (--suite all),
# prints one line per scenario and server, and fails when a scenario that applies fails.
# .ci/conformance-not-applicable.txt lists the ones that do not, and docs/guarantees.md says why.
# The report counts the scenarios that apply, in vitest's JSON keys (numPassedTests,
# numFailedTests), for .ci/run's summary. Each server's results (checks.json per scenario) stay in
# node_modules/.cache/mcp-search-ci/conformance-results/. It takes a few seconds once installed.
set -euo pipefail
cd "$(dirname "$0")/.."

report="${1:-}"
started=$SECONDS
conformance_version="$(node -p 'require("./.ci/conformance/package.json").dependencies["@modelcontextprotocol/conformance"]')"
node_version=22.23.5
cache="${MCP_SEARCH_CI_CACHE:-$PWD/node_modules/.cache/mcp-search-ci}"
results="$cache/conformance-results"

bin="$(.ci/node-bin.sh "$node_version")"
node22="$bin/node"
# Installed by npm ci from .ci/conformance/'s lockfile, so that its dependencies (the v1 SDK among
# them) do not move between runs; once per lockfile, keyed by its hash. Not a devDependency of the
# workspace: it needs Node 22 at run time, and would add 122 packages to every contributor's install.
lock_hash="$(sha256sum .ci/conformance/package-lock.json | cut -c1-16)"
home="$cache/conformance-$conformance_version-$lock_hash"
tool="$home/node_modules/@modelcontextprotocol/conformance/dist/index.js"
if [ ! -f "$tool" ]; then
  mkdir -p "$cache"
  partial="$(mktemp -d "$cache/.conformance.XXXXXX")"
  cp .ci/conformance/package.json .ci/conformance/package-lock.json "$partial/"
  (cd "$partial" && PATH="$bin:$PATH" npm ci --no-audit --no-fund --loglevel=error >&2)
  rm -rf "$home"
  mv "$partial" "$home"
fi

work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# Waits for the first http://127.0.0.1:<port>/mcp in the log $1 (of the process $2), and prints it.
url_in() {
  local log="$1" pid="$2" url
  for _ in $(seq 1 300); do
    url="$(grep -o 'http://127\.0\.0\.1:[0-9]*/mcp' "$log" | head -n 1 || true)"
    if [ -n "$url" ]; then echo "$url"; return 0; fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  echo "conformance: the server did not start:" >&2
  cat "$log" >&2
  return 1
}

# Runs the whole server suite against the URL $2, into $results/$1.
suite() {
  local name="$1" url="$2"
  rm -rf "${results:?}/$name"
  mkdir -p "$results/$name"
  # Its exit status says only that some scenario failed; the verdict is evaluate's, below.
  "$node22" "$tool" server --url "$url" --suite all -o "$results/$name" >"$results/$name.log" 2>&1 || true
}

# The folder server, on any free port (it prints the URL it bound).
"$node22" packages/cli/dist/mcp-search.js serve packages/cli/examples/corpus --http 127.0.0.1:0 --locale en \
  >"$work/folder.log" 2>&1 &
pids+=("$!")
url="$(url_in "$work/folder.log" "$!")"
suite folder "$url"

# The docs' program, as a user would paste it: its blocks before the client's, then one line that
# prints the endpoint it listens at (PORT unset: any free port).
mkdir -p "$work/docs"
ln -s "$PWD/node_modules" "$work/docs/node_modules"
echo '{ "type": "module" }' >"$work/docs/package.json"
node -e '
  const markdown = require("node:fs").readFileSync("docs/factory.md", "utf8");
  const heading = "\n### Node over Streamable HTTP\n";
  const start = markdown.indexOf(heading);
  if (start < 0) throw new Error("docs/factory.md has no \"### Node over Streamable HTTP\" section");
  const rest = markdown.slice(start + heading.length);
  const next = rest.search(/^#{2,3} /m);
  const section = next < 0 ? rest : rest.slice(0, next);
  const blocks = [...section.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
  const client = blocks.findIndex((block) => block.includes("@modelcontextprotocol/client"));
  const server = client < 0 ? blocks : blocks.slice(0, client);
  if (server.length === 0) throw new Error("no server program in that section");
  process.stdout.write(server.join("\n") + "console.log(String(endpoint));\n");
' >"$work/docs/server.ts"
(cd "$work/docs" && exec env -u PORT "$node22" --import tsx server.ts) >"$work/docs.log" 2>&1 &
pids+=("$!")
url="$(url_in "$work/docs.log" "$!")"
suite docs "$url"

# One line per scenario and server; the verdict and the report.
node -e '
  const fs = require("node:fs");
  const path = require("node:path");
  const [results, listFile, report] = process.argv.slice(1);
  const notApplicable = new Map();
  for (const line of fs.readFileSync(listFile, "utf8").split("\n")) {
    const [scenario, server] = line.replace(/#.*/, "").trim().split(/\s+/);
    if (scenario) notApplicable.set(`${scenario} ${server}`, true);
  }
  let passed = 0, failed = 0;
  for (const server of ["folder", "docs"]) {
    const runs = fs.readdirSync(path.join(results, server)).filter((name) => name.startsWith("server-")).sort();
    if (runs.length === 0) { console.log(`conformance ${server}: no results`); failed += 1; continue; }
    for (const run of runs) {
      const scenario = run.replace(/^server-/, "").replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, "");
      const checks = JSON.parse(fs.readFileSync(path.join(results, server, run, "checks.json"), "utf8"));
      const failures = checks.filter((check) => check.status === "FAILURE");
      const count = (status) => checks.filter((check) => check.status === status).length;
      const applies = !notApplicable.has(`${scenario} all`) && !notApplicable.has(`${scenario} ${server}`);
      const verdict = failures.length === 0 ? "passed" : "failed";
      if (applies) verdict === "passed" ? (passed += 1) : (failed += 1);
      const why = failures.map((check) => `${check.id}: ${check.errorMessage ?? check.description}`).join("; ");
      console.log(`conformance ${server.padEnd(6)} ${scenario.padEnd(30)} ${applies ? "applies " : "n/a     "} ${verdict} (${count("SUCCESS")} passed, ${failures.length} failed, ${count("WARNING")} warnings)${failures.length > 0 ? ": " + why.slice(0, 200) : ""}`);
    }
  }
  console.log(`conformance: ${passed} applicable scenarios passed, ${failed} failed, in ${process.argv[4]} s`);
  if (report) fs.writeFileSync(report, JSON.stringify({ numPassedTests: passed, numFailedTests: failed }));
  process.exitCode = failed === 0 ? 0 : 1;
' "$results" .ci/conformance-not-applicable.txt "$report" "$((SECONDS - started))"
