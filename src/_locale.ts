/**
 * Every piece of surface text the library shows, one table per locale.
 * Identifiers stay English; only what a person or a model reads changes.
 * Private: never re-exported from the package entry.
 */

import type { ReplyProblem } from "./_replies.js";

/** The two surface languages. */
export type SurfaceLocale = "pt-BR" | "en";

/** Descriptions attached to the contract's zod schemas (and so to their JSON Schema). */
export interface SchemaTexts {
  readonly query: string;
  readonly searchInput: string;
  readonly resultId: string;
  readonly resultTitle: string;
  readonly resultUrl: string;
  readonly result: string;
  readonly results: string;
  readonly searchOutput: string;
  readonly fetchId: string;
  readonly fetchInput: string;
  readonly documentId: string;
  readonly documentTitle: string;
  readonly documentText: string;
  readonly documentUrl: string;
  readonly documentMetadata: string;
  readonly fetchDocument: string;
}

/** Messages for input that fails the contract's schemas. */
export interface ValidationTexts {
  /** A key outside the contract; `keys` are already quoted and joined. */
  readonly unknownKeys: (keys: string) => string;
  /** A value that is not a string; `field` is the key, or "" for the whole argument object. */
  readonly wrongType: (field: string, received: string) => string;
  /** An id that is empty. */
  readonly emptyId: (field: string) => string;
  /** A string longer than the contract's maximum; `length` is what arrived. */
  readonly tooLong: (field: string, max: number, length: number) => string;
}

/** Default titles and request-time messages of the `search` and `fetch` tools. */
export interface ToolTexts {
  /** Title of the search tool: short, human, different from the tool's name. */
  readonly searchTitle: string;
  /** Title of the fetch tool. */
  readonly fetchTitle: string;
  /** An id no document has; names it and points the model back to `search`. */
  readonly notFound: (id: string) => string;
  /** A callback that threw; names the tool and carries the error's message. */
  readonly error: (tool: string, message: string) => string;
  /** A callback's reply outside the contract; names the tool, the field and its position. */
  readonly badReply: (tool: string, problem: ReplyProblem) => string;
  /** A callback that outlived `timeoutMs`; names the tool and the limit. */
  readonly timeout: (tool: string, timeoutMs: number) => string;
}

/** The vocabulary's note and its set-up errors (src/vocabulary.ts, src/sql.ts). */
export interface VocabularyTexts {
  /** One note per translated term; `spellings` are already joined with ", ". */
  readonly note: (term: string, spellings: string, sourceName: string) => string;
  /** `sourceName` missing or empty. */
  readonly emptySourceName: string;
  /** `entries` is not an array. */
  readonly entriesNotArray: string;
  /** An entry whose `asked` is missing or empty after normalisation. */
  readonly emptyAsked: (entry: number) => string;
  /** An entry whose `source` is not a non-empty list. */
  readonly noSource: (entry: number, asked: string) => string;
  /** One source of an entry that is not text or is empty after normalisation. */
  readonly emptySource: (entry: number, asked: string, source: number) => string;
  /** A stopword in `extraStopwords` that is not text. */
  readonly badStopword: (index: number) => string;
  /** A SQL column name that is not a plain identifier; `column` is already quoted. */
  readonly unsafeColumn: (column: string) => string;
  /** A `locale` the vocabulary does not know; `locale` is already quoted. */
  readonly unknownLocale: (locale: string) => string;
}

/** Per-line problem reports of the catalogue parsers (src/catalogue.ts). */
export interface CatalogueTexts {
  /** The prefix naming a line: "linha 7". */
  readonly line: (line: number) => string;
  readonly malformedXml: (detail: string) => string;
  /** A `<url>` or `<sitemap>` block that could not be read even on its own, after a failed full parse. */
  readonly unreadableElement: string;
  readonly notASitemap: string;
  readonly sitemapIndex: (children: number) => string;
  readonly missingUrl: string;
  readonly relativeUrl: (url: string) => string;
  readonly invalidUrl: (url: string) => string;
  readonly duplicateUrl: (url: string, firstLine: number) => string;
  readonly duplicateId: (id: string, firstLine: number) => string;
  readonly emptyTitle: (url: string) => string;
  readonly notALink: (text: string) => string;
  readonly invalidLastmod: (value: string) => string;
  /** The end of a problem detail cut at its cap: how many characters were left out. */
  readonly detailCut: (left: number) => string;
  /** The last problem of a capped list: how many more were found and left out. */
  readonly moreProblems: (left: number) => string;
  /** A text over `maxBytes`, not read at all. */
  readonly tooLarge: (bytes: number, max: number) => string;
}

export interface LocaleTexts {
  readonly schema: SchemaTexts;
  readonly validation: ValidationTexts;
  readonly vocabulary: VocabularyTexts;
  readonly tools: ToolTexts;
  readonly catalogue: CatalogueTexts;
}

const EXPECTED_PT = {
  string: "texto",
  list: "uma lista",
  object: "um objeto",
  searchReply: "uma lista de resultados ou { results }",
  fetchReply: "um documento, { document } ou null",
} as const;

function describeProblemPt(problem: ReplyProblem): string {
  const where = problem.path === "" ? "a resposta" : problem.path;
  switch (problem.kind) {
    case "type":
      return `${where} deve ser ${EXPECTED_PT[problem.expected]} (recebido: ${problem.received})`;
    case "empty":
      return `${where} não pode ser vazio`;
    case "otherId":
      return `${where} é ${JSON.stringify(problem.returned)}, mas o id pedido foi ${JSON.stringify(problem.requested)}`;
    case "json":
      return `${where} não pode ser convertido em JSON (${problem.detail})`;
    case "invalid":
      return `${where} é inválido (${problem.detail})`;
    case "undeclared":
      return `${where} não está declarado no esquema de saída; declare-o com extendOutputSchema`;
  }
}

const EXPECTED_EN = {
  string: "a string",
  list: "a list",
  object: "an object",
  searchReply: "a list of results or { results }",
  fetchReply: "a document, { document } or null",
} as const;

function describeProblemEn(problem: ReplyProblem): string {
  const where = problem.path === "" ? "the reply" : problem.path;
  switch (problem.kind) {
    case "type":
      return `${where} must be ${EXPECTED_EN[problem.expected]} (received: ${problem.received})`;
    case "empty":
      return `${where} must not be empty`;
    case "otherId":
      return `${where} is ${JSON.stringify(problem.returned)}, but the id asked for was ${JSON.stringify(problem.requested)}`;
    case "json":
      return `${where} cannot be converted to JSON (${problem.detail})`;
    case "invalid":
      return `${where} is invalid (${problem.detail})`;
    case "undeclared":
      return `${where} is not declared in the output schema; declare it with extendOutputSchema`;
  }
}

const PT_BR: LocaleTexts = {
  schema: {
    query:
      "Consulta em linguagem natural ou palavras-chave. Acentos e maiúsculas são ignorados.",
    searchInput: "Argumentos da ferramenta search.",
    resultId: "Identificador estável do documento; é o valor que a ferramenta fetch recebe.",
    resultTitle: "Título legível do documento.",
    resultUrl:
      "URL pública do documento. O ChatGPT só cria uma citação a partir deste campo, e só quando ele não é vazio.",
    result: "Um documento encontrado.",
    results: "Documentos encontrados, do mais ao menos relevante. Vazio quando nada corresponde.",
    searchOutput: "Resultado da ferramenta search.",
    fetchId: "Identificador de um documento, tal como devolvido pela ferramenta search.",
    fetchInput: "Argumentos da ferramenta fetch.",
    documentId: "Identificador do documento, o mesmo recebido por fetch.",
    documentTitle: "Título legível do documento.",
    documentText: "Texto completo do documento, em Markdown legível.",
    documentUrl:
      "URL pública do documento. O ChatGPT só cria uma citação a partir deste campo, e só quando ele não é vazio.",
    documentMetadata: "Metadados adicionais do documento (fonte, data, licença…).",
    fetchDocument: "Documento completo devolvido pela ferramenta fetch.",
  },
  validation: {
    unknownKeys: (keys) => `Chave não reconhecida nos argumentos: ${keys}. Use apenas as chaves do contrato.`,
    wrongType: (field, received) =>
      field === ""
        ? `Os argumentos devem ser um objeto (recebido: ${received}).`
        : `O campo "${field}" é obrigatório e deve ser texto (recebido: ${received}).`,
    emptyId: (field) => `O campo "${field}" não pode ser vazio.`,
    tooLong: (field, max, length) =>
      `O campo "${field}" tem ${length} caracteres; o máximo é ${max}. Encurte-o e tente de novo.`,
  },
  vocabulary: {
    note: (term, spellings, sourceName) =>
      `"${term}" também foi buscado como ${spellings} — a palavra que ${sourceName} usa.`,
    emptySourceName: 'createVocabulary: "sourceName" é obrigatório e não pode ser vazio (ex.: "o IBGE").',
    entriesNotArray: 'createVocabulary: "entries" deve ser uma lista de { asked, source }.',
    emptyAsked: (entry) => `createVocabulary: a entrada ${entry} tem "asked" vazio.`,
    noSource: (entry, asked) =>
      `createVocabulary: a entrada ${entry} ("${asked}") precisa de ao menos uma palavra em "source".`,
    emptySource: (entry, asked, source) =>
      `createVocabulary: a entrada ${entry} ("${asked}") tem "source[${source}]" vazio.`,
    badStopword: (index) => `createVocabulary: "extraStopwords[${index}]" deve ser texto.`,
    unsafeColumn: (column) =>
      `buildGlobClause: a coluna ${column} não é um identificador simples ([A-Za-z_][A-Za-z0-9_]*).`,
    unknownLocale: (locale) => `createVocabulary: idioma ${locale} desconhecido; use "pt-BR" ou "en".`,
  },
  tools: {
    searchTitle: "Buscar documentos",
    fetchTitle: "Ler um documento",
    notFound: (id) =>
      `Nenhum documento tem o id ${JSON.stringify(id)}. Use um id devolvido pela ferramenta search.`,
    error: (tool, message) => `A ferramenta ${tool} falhou: ${message}`,
    badReply: (tool, problem) =>
      `A ferramenta ${tool} devolveu uma resposta fora do contrato: ${describeProblemPt(problem)}.`,
    timeout: (tool, timeoutMs) =>
      `A ferramenta ${tool} não respondeu dentro do limite de ${timeoutMs} ms; tente de novo mais tarde.`,
  },
  catalogue: {
    line: (line) => `linha ${line}`,
    malformedXml: (detail) => `XML malformado (${detail}); as entradas legíveis foram mantidas.`,
    unreadableElement: "um elemento <url> ou <sitemap> ilegível foi ignorado; os legíveis foram mantidos.",
    notASitemap: "não é um sitemap: falta <urlset> com elementos <url>.",
    sitemapIndex: (children) =>
      `é um índice de sitemaps (<sitemapindex>) com ${children} sitemap(s); busque cada um (lista em "sitemaps") e leia-o com parseSitemap.`,
    missingUrl: "falta a URL.",
    relativeUrl: (url) => `a URL ${JSON.stringify(url)} é relativa; use uma URL absoluta (https://…) ou passe baseUrl.`,
    invalidUrl: (url) => `a URL ${JSON.stringify(url)} não é uma URL http(s) válida.`,
    duplicateUrl: (url, firstLine) => `a página ${url} repete a da linha ${firstLine}; vale a primeira.`,
    duplicateId: (id, firstLine) => `o id ${JSON.stringify(id)} repete o da linha ${firstLine}; vale o primeiro.`,
    emptyTitle: (url) => `o link para ${url} não tem título.`,
    notALink: (text) => `item de lista sem link no formato [Título](url): ${JSON.stringify(text)}.`,
    detailCut: (left) => `… (mais ${left} caracteres omitidos)`,
    moreProblems: (left) => `mais ${left} problema(s) encontrados e omitidos desta lista.`,
    tooLarge: (bytes, max) => `o texto tem ${bytes} bytes, acima do limite de ${max} (maxBytes); nada foi lido.`,
    invalidLastmod: (value) =>
      `<lastmod> ${JSON.stringify(value)} não é uma data W3C (AAAA-MM-DD ou data e hora); a página foi mantida sem ela.`,
  },
};

const EN: LocaleTexts = {
  schema: {
    query: "Natural-language question or keywords. Accents and case are ignored.",
    searchInput: "Arguments of the search tool.",
    resultId: "Stable document identifier; the value the fetch tool takes.",
    resultTitle: "Human-readable document title.",
    resultUrl:
      "Public URL of the document. ChatGPT creates a citation only from this field, and only when it is non-empty.",
    result: "One matching document.",
    results: "Matching documents, most relevant first. Empty when nothing matches.",
    searchOutput: "Result of the search tool.",
    fetchId: "Identifier of a document, exactly as returned by the search tool.",
    fetchInput: "Arguments of the fetch tool.",
    documentId: "Document identifier, the same one fetch received.",
    documentTitle: "Human-readable document title.",
    documentText: "Full text of the document, as readable Markdown.",
    documentUrl:
      "Public URL of the document. ChatGPT creates a citation only from this field, and only when it is non-empty.",
    documentMetadata: "Additional document metadata (source, date, licence…).",
    fetchDocument: "Full document returned by the fetch tool.",
  },
  validation: {
    unknownKeys: (keys) => `Unrecognized key in the arguments: ${keys}. Use only the contract's keys.`,
    wrongType: (field, received) =>
      field === ""
        ? `The arguments must be an object (received: ${received}).`
        : `Field "${field}" is required and must be a string (received: ${received}).`,
    emptyId: (field) => `Field "${field}" must not be empty.`,
    tooLong: (field, max, length) =>
      `Field "${field}" has ${length} characters; the maximum is ${max}. Shorten it and try again.`,
  },
  vocabulary: {
    note: (term, spellings, sourceName) =>
      `"${term}" was also searched as ${spellings} — the wording ${sourceName} uses.`,
    emptySourceName: 'createVocabulary: "sourceName" is required and must not be empty (e.g. "ILOSTAT").',
    entriesNotArray: 'createVocabulary: "entries" must be a list of { asked, source }.',
    emptyAsked: (entry) => `createVocabulary: entry ${entry} has an empty "asked".`,
    noSource: (entry, asked) =>
      `createVocabulary: entry ${entry} ("${asked}") needs at least one word in "source".`,
    emptySource: (entry, asked, source) =>
      `createVocabulary: entry ${entry} ("${asked}") has an empty "source[${source}]".`,
    badStopword: (index) => `createVocabulary: "extraStopwords[${index}]" must be text.`,
    unsafeColumn: (column) =>
      `buildGlobClause: column ${column} is not a plain identifier ([A-Za-z_][A-Za-z0-9_]*).`,
    unknownLocale: (locale) => `createVocabulary: unknown locale ${locale}; use "pt-BR" or "en".`,
  },
  tools: {
    searchTitle: "Search documents",
    fetchTitle: "Read a document",
    notFound: (id) => `No document has the id ${JSON.stringify(id)}. Use an id returned by the search tool.`,
    error: (tool, message) => `The ${tool} tool failed: ${message}`,
    badReply: (tool, problem) => `The ${tool} tool returned a reply outside the contract: ${describeProblemEn(problem)}.`,
    timeout: (tool, timeoutMs) => `The ${tool} tool did not answer within its limit of ${timeoutMs} ms; try again later.`,
  },
  catalogue: {
    line: (line) => `line ${line}`,
    malformedXml: (detail) => `malformed XML (${detail}); the readable entries were kept.`,
    unreadableElement: "an unreadable <url> or <sitemap> element was skipped; the readable ones were kept.",
    notASitemap: "not a sitemap: no <urlset> with <url> elements.",
    sitemapIndex: (children) =>
      `this is a sitemap index (<sitemapindex>) with ${children} sitemap(s); fetch each one (listed in "sitemaps") and read it with parseSitemap.`,
    missingUrl: "the URL is missing.",
    relativeUrl: (url) => `the URL ${JSON.stringify(url)} is relative; use an absolute URL (https://…) or pass baseUrl.`,
    invalidUrl: (url) => `the URL ${JSON.stringify(url)} is not a valid http(s) URL.`,
    duplicateUrl: (url, firstLine) => `the page ${url} repeats the one on line ${firstLine}; the first one stands.`,
    duplicateId: (id, firstLine) => `the id ${JSON.stringify(id)} repeats the one on line ${firstLine}; the first one stands.`,
    emptyTitle: (url) => `the link to ${url} has no title.`,
    notALink: (text) => `list item without a [Title](url) link: ${JSON.stringify(text)}.`,
    detailCut: (left) => `… (${left} more characters left out)`,
    moreProblems: (left) => `${left} more problem(s) found and left out of this list.`,
    tooLarge: (bytes, max) => `the text is ${bytes} bytes, over the ${max}-byte limit (maxBytes); nothing was read.`,
    invalidLastmod: (value) =>
      `<lastmod> ${JSON.stringify(value)} is not a W3C date (YYYY-MM-DD or date and time); the page was kept without it.`,
  },
};

const TEXTS: Readonly<Record<SurfaceLocale, LocaleTexts>> = { "pt-BR": PT_BR, en: EN };

/** The surface texts of one locale; throws on a locale the library does not know. */
export function localeTexts(locale: SurfaceLocale): LocaleTexts {
  const texts = TEXTS[locale];
  if (texts === undefined) {
    throw new TypeError(`Unknown locale ${JSON.stringify(locale)}: use "pt-BR" or "en".`);
  }
  return texts;
}
