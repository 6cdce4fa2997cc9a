/**
 * The descriptions the model reads for `search` and `fetch`. Always English, whatever the
 * surface locale: they are instructions to a model, not text shown to a person.
 */

/** What the descriptions are built from. */
interface DescriptionInputs {
  /** A phrase naming the catalogue, e.g. "IBGE official statistics". */
  readonly corpus: string;
  /** A phrase naming the server's own tools, e.g. "the `ibge_*` tools"; omitted when absent. */
  readonly richTools: string | undefined;
  /** The most results `search` returns. */
  readonly limit: number;
}

const PURPOSE =
  "This tool exists for the OpenAI Deep Research contract (the search/fetch pair ChatGPT uses for research and citations).";
const READ_ONLY = "Read-only: it never changes anything.";

function preferRichTools(richTools: string | undefined): string[] {
  return richTools === undefined
    ? []
    : [`For data questions, a capable client should prefer ${richTools}, which return the data itself.`];
}

/** The description of the `search` tool. */
export function describeSearch({ corpus, richTools, limit }: DescriptionInputs): string {
  return [
    `Search ${corpus}.`,
    PURPOSE,
    `Returns { results: [{ id, title, url }] }, most relevant first, at most ${limit}; no match returns an empty list.`,
    "Pass a result's id to the fetch tool to read the whole document.",
    ...preferRichTools(richTools),
    "The query is natural language or keywords; accents and case are ignored.",
    READ_ONLY,
  ].join(" ");
}

/** The description of the `fetch` tool. */
export function describeFetch({ corpus, richTools }: DescriptionInputs): string {
  return [
    `Fetch one document of ${corpus} by its id.`,
    PURPOSE,
    "Takes an id returned by the search tool and returns { id, title, text, url, metadata? }: the full document as readable Markdown, with its public URL for citation.",
    "An unknown id is an error that asks for an id returned by search.",
    ...preferRichTools(richTools),
    READ_ONLY,
  ].join(" ");
}
