/**
 * eld's n-gram table, kept to the library's languages. The CLI's build reads it from eld's data
 * file and writes it as JSON beside the bundle, 270 KB ({@link writeBuiltRows}); the detector
 * (./detector.ts) loads eld from that file in about 45 ms, 3.8 MB of heap, instead of 0.13 s to
 * 0.17 s and 8.4 MB from eld's data file, in the middle of indexing: there, the scale bench's
 * longest event-loop stall while indexing was 99 to 136 ms, and 61 ms with no detector
 * (docs/performance.md).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** eld's n-gram table, as its data files hold it: per n-gram, a score per language index. */
export interface NgramsData {
  readonly type: string;
  readonly languages: Readonly<Record<string, string>>;
  readonly ngrams: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

/** The file the CLI's build writes beside its bundle: eld's rows for the library's languages. */
export const ELD_ROWS_FILE = "eld-extrasmall-rows.json";

/** What that file holds: the table, and what it was read from, so that another eld or other languages are noticed. */
interface BuiltRows {
  readonly eld: string;
  readonly languages: readonly string[];
  readonly table: NgramsData;
}

/** eld's `src` folder in its installed package. */
export function eldSource(): string {
  return dirname(dirname(fileURLToPath(import.meta.resolve("eld/extrasmall"))));
}

/** eld's "extrasmall" data file. */
export function eldDataFile(): string {
  return join(eldSource(), "ngrams", "extrasmall.js");
}

function eldVersion(): string {
  return (JSON.parse(readFileSync(join(eldSource(), "..", "package.json"), "utf8")) as { version: string }).version;
}

/** Writes {@link ELD_ROWS_FILE} into `folder`: the rows of `languages` from the installed eld's data file. */
export function writeBuiltRows(folder: string, languages: readonly string[]): void {
  const built: BuiltRows = { eld: eldVersion(), languages, table: readNgramRows(readFileSync(eldDataFile(), "utf8"), languages) };
  writeFileSync(join(folder, ELD_ROWS_FILE), JSON.stringify(built));
}

/**
 * The table in `file` as {@link writeBuiltRows} wrote it, or `undefined` when there is no such
 * file (the sources run, not the build) or it was written for another eld or other languages.
 */
export function readBuiltRows(file: URL, languages: readonly string[]): NgramsData | undefined {
  if (!existsSync(file)) return undefined;
  const built = JSON.parse(readFileSync(file, "utf8")) as BuiltRows;
  const same = built.eld === eldVersion() && built.languages.join() === languages.join();
  return same ? built.table : undefined;
}

/** A row of eld's table in its data file: after `{` or `,`, a key, quoted (`'\' a'`) or bare (`L_QL`), then its scores (`{11:50,42:30}`). */
const NGRAM_ROW = /[,{](?:'((?:[^'\\]|\\.)*)'|([^\s'",{}:]+)):\{([\d:,]*)\}/g;

/**
 * The table of eld's data file `text` (`export const ngramsData = {type:'XS60', languages:{0:'am',
 * …}, ngrams:{…}}`), keeping only the rows and scores of `languages`. Hand-read, not evaluated:
 * evaluating the literal builds all 49,553 rows first, and the process kept 97 MB more resident
 * memory after loading eld, against 25 MB read this way (and 0.5 s against 0.13 s). Read with
 * every language, the rows equal the evaluated table's (packages/cli/test/extra/detector.test.ts).
 */
export function readNgramRows(text: string, languages: readonly string[]): NgramsData {
  const type = /\btype:'([^']*)'/.exec(text)?.[1];
  const codes = /\blanguages:\{([^}]*)\}/.exec(text)?.[1];
  if (type === undefined || codes === undefined) throw new Error("eld's data file has no type or languages");
  const table: Record<string, string> = {};
  for (const pair of codes.split(",")) {
    const [index, code] = pair.split(":");
    table[index!] = code!.slice(1, -1);
  }
  const kept = new Set(Object.keys(table).filter((index) => languages.includes(table[index]!)));
  const ngrams: Record<string, Record<string, number>> = {};
  for (const [, quoted, bare, scores] of text.matchAll(NGRAM_ROW)) {
    let row: Record<string, number> | undefined;
    for (const pair of scores!.split(",")) {
      const colon = pair.indexOf(":");
      const index = pair.slice(0, colon);
      if (kept.has(index)) (row ??= {})[index] = Number(pair.slice(colon + 1));
    }
    if (row !== undefined) ngrams[quoted === undefined ? bare! : quoted.replace(/\\(.)/g, "$1")] = row;
  }
  return { type, languages: table, ngrams };
}
