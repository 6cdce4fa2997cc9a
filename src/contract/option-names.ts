/**
 * Private helper: the option names each public function knows, and the refusal of any other.
 * TypeScript refuses a misspelt option at compile time; plain JavaScript ignored it silently, so
 * `maxResults: 5` (for `limit`) or `resolveID` (for `resolveId`) changed nothing, and nothing
 * said so. The functions that take an options object check its own keys against their list.
 */

/**
 * The names of `Options`' fields, as a list the compiler checks both ways: a name that is not a
 * field is refused, and so is a list that leaves a field out.
 *
 * @example
 * const NAMES = optionNames<{ a?: number; b?: string }>()(["a", "b"]); // => ["a", "b"]
 */
export function optionNames<Options>() {
  return <const Names extends readonly (keyof Options & string)[]>(
    names: Names & ([Exclude<keyof Options, Names[number]>] extends [never] ? unknown : { readonly missing: Exclude<keyof Options, Names[number]> }),
  ): readonly string[] => names;
}

/**
 * Spellings people reach for that name another option, by what they mean rather than by their
 * letters: `maxResults` is `limit`, `language` is a locale where the option is `locale`, and the
 * other way round.
 */
const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  limit: ["maxresults", "max", "topk", "top", "count", "size", "maxhits"],
  timeoutMs: ["timeout", "deadline", "timeoutms"],
  locale: ["language", "lang", "lng"],
  language: ["locale", "lang", "lng"],
  userAgent: ["agent", "useragent", "ua", "bot"],
  entries: ["entry", "table", "pairs", "words"],
  extraStopwords: ["stopwords"],
};

/**
 * The known name closest to `name`: the same name in another case, a synonym, else the one
 * fewest edits away (insertions, deletions, substitutions and swaps of two neighbours, case
 * ignored) when that is at most a third of the name, else `undefined`.
 *
 * @example
 * closestName("resolveID", ["resolveId", "limit"]); // => "resolveId"
 * closestName("maxResults", ["resolveId", "limit"]); // => "limit"
 * closestName("colour", ["resolveId", "limit"]); // => undefined
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase().replace(/[-_]/g, "");
  const same = known.find((candidate) => candidate.toLowerCase() === lower);
  if (same !== undefined) return same;
  const synonym = known.find((candidate) => SYNONYMS[candidate]?.includes(lower) === true);
  if (synonym !== undefined) return synonym;
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(lower.length / 3));
  for (const candidate of known) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance <= bestDistance && (best === undefined || distance < bestDistance)) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Optimal string alignment distance: Levenshtein's, with a swap of two neighbours as one edit. */
function editDistance(a: string, b: string): number {
  if (a.length > 64 || b.length > 64) return Math.max(a.length, b.length); // no name is that long
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, (before[j - 2] ?? 0) + 1);
      row.push(value);
    }
    before = previous;
    previous = row;
  }
  return previous[b.length] ?? 0;
}

/**
 * The first own key of `options` that is not a known name, with the known name closest to it,
 * or `undefined` when every key is known. Symbol keys are not options, and are left alone.
 *
 * @example
 * unknownOption({ limit: 5, maxResult: 5 }, ["limit", "locale"]); // => { name: "maxResult", closest: "limit" }
 */
export function unknownOption(options: object, known: readonly string[]): { readonly name: string; readonly closest: string | undefined } | undefined {
  for (const name of Object.keys(options)) {
    if (!known.includes(name)) return { name, closest: closestName(name, known) };
  }
  return undefined;
}

/**
 * The English sentence for an unknown option, as the set-up errors of the factory, the index and
 * the site helpers say it: the name, the closest known one, and every known one.
 *
 * @example
 * unknownOptionMessage({ name: "maxResults", closest: "limit" }, ["limit", "locale"]);
 * // => 'unknown option "maxResults": did you mean "limit"? The options are limit, locale.'
 */
export function unknownOptionMessage({ name, closest }: { readonly name: string; readonly closest: string | undefined }, known: readonly string[]): string {
  const guess = closest === undefined ? "" : ` did you mean "${closest}"?`;
  return `unknown option ${JSON.stringify(name)}:${guess} The options are ${known.join(", ")}.`;
}
