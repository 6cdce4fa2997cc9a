// Preloaded (NODE_OPTIONS=--require) by .ci/node-versions.sh only, in the test runs on Node 22
// and 24. A native addon is built for one Node ABI: the repository's
// node_modules/better-sqlite3/build/Release/better_sqlite3.node is Node 20's, the machine's, and
// must stay so for every other run. This sends the load of that file to the build for the running
// Node, which node-versions.sh compiled into its cache, so node_modules is never touched.
// better-sqlite3 loads it through `bindings`, then require, then process.dlopen, in every forked
// vitest worker and every child process alike (they inherit NODE_OPTIONS).
"use strict";

const target = process.env.MCP_SEARCH_CI_BETTER_SQLITE3;
if (target) {
  const dlopen = process.dlopen;
  const repositoryBuild = /[\\/]better-sqlite3[\\/]build[\\/]Release[\\/]better_sqlite3\.node$/;
  process.dlopen = function dlopenForThisNode(module, filename, ...rest) {
    return dlopen.call(this, module, repositoryBuild.test(filename) ? target : filename, ...rest);
  };
}
