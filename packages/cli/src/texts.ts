/**
 * What the folder server says to the model, one table per locale. The CLI is a consumer of the
 * library's public API, so its surface text lives here rather than in the library's private
 * locale tables. Operator-facing text (help, stderr) is English.
 */
import type { ContractLocale } from "@sbissoli/mcp-search";
import type { RefusedId } from "./paths.js";

/**
 * Every message the folder server puts in a tool result.
 *
 * @example
 * const texts: FolderTexts = folderTexts("en");
 * texts.noMatch(12); // => "0 matches among 12 documents: …"
 */
export interface FolderTexts {
  /** The vocabulary note's subject, when the table does not name one. */
  readonly sourceName: string;
  /** Some documents matched and all of them are shown. */
  readonly matched: (shown: number, documents: number) => string;
  /** More documents matched than the server returns. */
  readonly truncated: (shown: number, matches: number, documents: number) => string;
  /** The query matched nothing, among documents that exist. */
  readonly noMatch: (documents: number) => string;
  /** The folder holds no readable document at all. */
  readonly nothingIndexed: string;
  /** The id names no document, and never did in this session. */
  readonly unknown: (id: string) => string;
  /** The id named a document that was moved, renamed or deleted. */
  readonly stale: (id: string) => string;
  /** The id asked for a page past the end (the document changed or never had it). */
  readonly stalePage: (id: string, pages: number, first: string) => string;
  /** The id was refused before any disk access. */
  readonly refused: (id: string, why: RefusedId) => string;
  /** The line closing a page that is not the last one. */
  readonly truncatedPage: (page: number, pages: number, next: string) => string;
  /** The line closing the last page of a paged document. */
  readonly lastPage: (page: number, pages: number) => string;
  /** Opens a search summary while the first indexing is under way. */
  readonly indexing: (done: number, total: number) => string;
}

/** 20000 → "20,000" (en) or "20.000" (pt-BR), whatever the machine's locale. */
function grouped(n: number, separator: string): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, separator);
}

const PT_BR_REFUSALS: Readonly<Record<RefusedId, string>> = {
  nul: "contém um byte nulo",
  empty: "está vazio, não nomeia nenhum documento",
  invalid: "não é um caminho válido (codificação percentual ou URI malformada)",
  outside: "aponta para fora da pasta servida",
};

const EN_REFUSALS: Readonly<Record<RefusedId, string>> = {
  nul: "it contains a NUL byte",
  empty: "it is empty and names no document",
  invalid: "it is not a valid path (malformed percent-encoding or URI)",
  outside: "it points outside the served folder",
};

const PT_BR: FolderTexts = {
  sourceName: "os documentos da pasta",
  matched: (shown, documents) =>
    `${shown} ${shown === 1 ? "documento corresponde" : "documentos correspondem"} à consulta, entre ${documents} indexados.`,
  truncated: (shown, matches, documents) =>
    `Resultado truncado: mostrando ${shown} de ${matches} documentos que correspondem (entre ${documents} indexados). Refine a consulta com palavras mais específicas para ver os outros.`,
  noMatch: (documents) =>
    `0 correspondências entre ${documents} documentos indexados: a consulta não coincidiu com nenhum. Tente outras palavras, sinônimos ou a grafia usada nos documentos.`,
  nothingIndexed:
    "Nada está indexado: a pasta servida não tem documentos legíveis (.md, .markdown, .txt, .rst, .csv, .json, .yaml, .yml, .html). Buscar de novo não vai ajudar.",
  unknown: (id) => `Nenhum documento tem o id ${JSON.stringify(id)}. Use um id devolvido pela ferramenta search.`,
  stale: (id) =>
    `O documento ${JSON.stringify(id)} não existe mais: foi movido, renomeado ou apagado. Busque de novo com a ferramenta search para obter ids atuais.`,
  stalePage: (id, pages, first) =>
    `O id ${JSON.stringify(id)} pede uma página que não existe: o documento tem ${pages} ${pages === 1 ? "página" : "páginas"} (talvez tenha mudado). Leia ${JSON.stringify(first)} ou busque de novo com a ferramenta search.`,
  refused: (id, why) =>
    `O id ${JSON.stringify(id)} foi recusado: ${PT_BR_REFUSALS[why]}. Use um id devolvido pela ferramenta search.`,
  truncatedPage: (page, pages, next) =>
    `[Texto truncado: página ${page} de ${pages}. Para ler o resto, chame fetch com o id ${JSON.stringify(next)}.]`,
  lastPage: (page, pages) => `[Página ${page} de ${pages}: fim do documento.]`,
  indexing: (done, total) =>
    `Indexando: ${grouped(done, ".")} de ${grouped(total, ".")} arquivos; o resultado cobre só o que já foi indexado.`,
};

const EN: FolderTexts = {
  sourceName: "the documents in the folder",
  matched: (shown, documents) =>
    `${shown} ${shown === 1 ? "document matches" : "documents match"} the query, among ${documents} indexed.`,
  truncated: (shown, matches, documents) =>
    `Truncated: showing ${shown} of ${matches} matching documents (among ${documents} indexed). Narrow the query with more specific words to see the others.`,
  noMatch: (documents) =>
    `0 matches among ${documents} indexed documents: the query matched none of them. Try other words, synonyms or the spelling the documents use.`,
  nothingIndexed:
    "Nothing is indexed: the served folder holds no readable document (.md, .markdown, .txt, .rst, .csv, .json, .yaml, .yml, .html). Searching again will not help.",
  unknown: (id) => `No document has the id ${JSON.stringify(id)}. Use an id returned by the search tool.`,
  stale: (id) =>
    `The document ${JSON.stringify(id)} no longer exists: it was moved, renamed or deleted. Search again with the search tool to get current ids.`,
  stalePage: (id, pages, first) =>
    `The id ${JSON.stringify(id)} asks for a page that does not exist: the document has ${pages} ${pages === 1 ? "page" : "pages"} (it may have changed). Read ${JSON.stringify(first)} or search again with the search tool.`,
  refused: (id, why) => `The id ${JSON.stringify(id)} was refused: ${EN_REFUSALS[why]}. Use an id returned by the search tool.`,
  truncatedPage: (page, pages, next) =>
    `[Truncated: page ${page} of ${pages}. To read the rest, call fetch with the id ${JSON.stringify(next)}.]`,
  lastPage: (page, pages) => `[Page ${page} of ${pages}: end of the document.]`,
  indexing: (done, total) => `indexing: ${grouped(done, ",")} of ${grouped(total, ",")} files; the result covers only what is indexed so far.`,
};

const ES: FolderTexts = {
  sourceName: "la carpeta de documentos",
  matched: (shown, documents) =>
    `${shown} ${shown === 1 ? "documento coincide" : "documentos coinciden"} con la consulta, entre ${documents} indexados.`,
  truncated: (shown, matches, documents) =>
    `Resultado truncado: se muestran ${shown} de ${matches} documentos que coinciden (entre ${documents} indexados). Precise la consulta con palabras más específicas para ver los demás.`,
  noMatch: (documents) =>
    `0 coincidencias entre ${documents} documentos indexados: la consulta no coincidió con ninguno. Pruebe otras palabras, sinónimos o la grafía que usan los documentos.`,
  nothingIndexed:
    "No hay nada indexado: la carpeta servida no tiene documentos legibles (.md, .markdown, .txt, .rst, .csv, .json, .yaml, .yml, .html). Buscar de nuevo no servirá de nada.",
  unknown: (id) => `Ningún documento tiene el id ${JSON.stringify(id)}. Use un id devuelto por la herramienta search.`,
  stale: (id) =>
    `El documento ${JSON.stringify(id)} ya no existe: se movió, se renombró o se borró. Busque de nuevo con la herramienta search para obtener ids actuales.`,
  stalePage: (id, pages, first) =>
    `El id ${JSON.stringify(id)} pide una página que no existe: el documento tiene ${pages} ${pages === 1 ? "página" : "páginas"} (quizá cambió). Lea ${JSON.stringify(first)} o busque de nuevo con la herramienta search.`,
  refused: (id, why) =>
    why === "nul"
      ? `El id ${JSON.stringify(id)} fue rechazado: contiene un byte nulo. Use un id devuelto por la herramienta search.`
      : `El id ${JSON.stringify(id)} fue rechazado: apunta fuera de la carpeta servida. Use un id devuelto por la herramienta search.`,
  truncatedPage: (page, pages, next) =>
    `[Texto truncado: página ${page} de ${pages}. Para leer el resto, llame a fetch con el id ${JSON.stringify(next)}.]`,
  lastPage: (page, pages) => `[Página ${page} de ${pages}: fin del documento.]`,
  indexing: (done, total) =>
    `Indexando: ${grouped(done, ".")} de ${grouped(total, ".")} archivos; el resultado cubre solo lo ya indexado.`,
};

/** Every locale's table: the compiler refuses a locale of the library that has none. */
const TEXTS: Readonly<Record<ContractLocale, FolderTexts>> = { "pt-BR": PT_BR, en: EN, es: ES };

/**
 * The folder server's messages in one locale.
 *
 * @param locale - `"pt-BR"`, `"en"` or `"es"`. @default "pt-BR"
 * @example
 * folderTexts("pt-BR").nothingIndexed; // => "Nada está indexado: …"
 */
export function folderTexts(locale: ContractLocale = "pt-BR"): FolderTexts {
  return TEXTS[locale];
}
