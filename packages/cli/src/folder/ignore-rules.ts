/**
 * What the walk of a served folder leaves out besides hidden and vendor folders: the folder's own
 * `.gitignore` files, with git's semantics (negation, anchoring, a trailing `/`, `**`; a deeper
 * file's rules win over a shallower one's; a file in an ignored folder cannot be re-included),
 * through the `ignore` package; and the command line's `--exclude` and `--include` patterns,
 * written in the same syntax. Each `.gitignore` is read once, and again when its size or time
 * changes, so an edit to it applies on the next refresh.
 */
import { lstatSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import ignore, { type Ignore } from "ignore";

/**
 * Options of {@link createIgnoreRules}.
 *
 * @example
 * const options: IgnoreOptions = { exclude: ["drafts/", "*.tmp.md"], include: ["*.md", "*.pdf"] };
 */
export interface IgnoreOptions {
  /** Patterns (.gitignore syntax) of paths to leave out, whatever the `.gitignore` files say. @default [] */
  readonly exclude?: readonly string[] | undefined;
  /** When given, only the files that match one of these patterns (.gitignore syntax) are served. @default [] (every supported file) */
  readonly include?: readonly string[] | undefined;
  /** Whether the folder's `.gitignore` files are read. @default true */
  readonly gitignore?: boolean | undefined;
}

/**
 * The rules of one served folder. The walk calls `enter(folder)` as it lists a folder, which
 * reads that folder's `.gitignore` (again when it changed); `ignores(relative, directory)` then
 * tells whether a path is left out (`relative` uses "/", from the folder's root), from the
 * `.gitignore` files of the folders entered so far.
 *
 * @example
 * const rules = createIgnoreRules("/srv/docs", { exclude: ["drafts/"] });
 * rules.enter("");
 * rules.ignores("drafts", true);             // => true
 * rules.ignores("guides/brewing.md", false); // => false
 */
export interface IgnoreRules {
  enter(folder: string): void;
  ignores(relative: string, directory: boolean): boolean;
}

/** One folder's `.gitignore`, as last read. */
interface Read {
  readonly size: number;
  readonly modified: number;
  readonly rules: Ignore | undefined;
}

/** A pattern list as one `ignore` instance, or undefined when it is empty. */
function compile(patterns: readonly string[] | undefined): Ignore | undefined {
  return patterns === undefined || patterns.length === 0 ? undefined : ignore().add([...patterns]);
}

/**
 * The ignore rules of the folder at `root` (see {@link IgnoreRules}). A `.gitignore` that is not
 * a regular file (a link, a folder) or cannot be read is left out, with one line in `log`.
 *
 * @example
 * createIgnoreRules("/srv/docs", {}).ignores("build.log", false); // => true when /srv/docs/.gitignore says "*.log"
 */
export function createIgnoreRules(root: string, options: IgnoreOptions = {}, log: (line: string) => void = () => undefined): IgnoreRules {
  const exclude = compile(options.exclude);
  const include = compile(options.include);
  const readGitignore = options.gitignore ?? true;
  const folders = new Map<string, Read>();

  /** Reads `folder`'s own `.gitignore`, again only when its size or time changed. */
  function enter(folder: string): void {
    if (!readGitignore) return;
    const file = join(root, folder, ".gitignore");
    let info;
    try {
      info = lstatSync(file, { throwIfNoEntry: false });
    } catch {
      info = undefined;
    }
    if (info === undefined || !info.isFile()) {
      folders.delete(folder);
      return;
    }
    const before = folders.get(folder);
    if (before !== undefined && before.size === info.size && before.modified === info.mtimeMs) return;
    let rules: Ignore | undefined;
    try {
      rules = ignore().add(readFileSync(file, "utf8"));
    } catch (error) {
      log(`skipped ${folder === "" ? "" : `${folder}/`}.gitignore: it cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
    }
    folders.set(folder, { size: info.size, modified: info.mtimeMs, rules });
  }

  /** The verdict on one path: --exclude, then --include, then the deepest .gitignore that names it. */
  function decide(relative: string, directory: boolean): boolean {
    const path = directory ? `${relative}/` : relative;
    if (exclude?.ignores(path) === true) return true;
    if (!directory && include !== undefined && !include.ignores(relative)) return true;
    if (!readGitignore) return false;
    // git's order: the deepest .gitignore that says anything about the path decides.
    for (let folder = posix.dirname(relative); ; folder = posix.dirname(folder)) {
      const base = folder === "." ? "" : folder;
      const rules = folders.get(base)?.rules;
      if (rules !== undefined) {
        const verdict = rules.test(base === "" ? path : path.slice(base.length + 1));
        if (verdict.ignored) return true;
        if (verdict.unignored) return false;
      }
      if (base === "") return false;
    }
  }

  return {
    enter,
    ignores(relative, directory) {
      try {
        return decide(relative, directory);
      } catch {
        // The ignore package refuses a path it cannot read as relative: such a path is served,
        // and still goes through the containment check.
        return false;
      }
    },
  };
}
