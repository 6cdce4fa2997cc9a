// Given to the bin with --import: prints each module specifier it resolves, one stderr line each
// ("import <specifier>"), so a test can tell which packages a run loaded.
import { register } from "node:module";

register(
  "data:text/javascript," +
    encodeURIComponent(
      'export async function resolve(specifier, context, next) { process.stderr.write(`import ${specifier}\\n`); return next(specifier, context); }',
    ),
);
