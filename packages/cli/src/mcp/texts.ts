/**
 * What the folder server says to the model, one table per locale. The CLI is a consumer of the
 * library's public API, so its surface text lives here rather than in the library's private
 * locale tables. Operator-facing text (help, stderr) is English.
 */
import type { Locale } from "@sbissoli/mcp-search";
import { RESOURCE_URI_PREFIX, type RefusedId, type RefusedUri } from "../folder/ids.js";

/**
 * Every message the folder server puts in a tool result, and the names and errors of its
 * resources (./resources.ts).
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
  /**
   * The folder holds no readable document at all, once its first indexing is done; `extensions`
   * lists the supported ones (".md, .pdf, …"), from the one list of formats.
   */
  readonly nothingIndexed: (extensions: string) => string;
  /** No document is indexed yet, while the first indexing is under way: search again soon. */
  readonly nothingIndexedYet: string;
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
  /** Closes a search summary when some files could not be read, or only in part. */
  readonly unreadable: (files: number) => string;
  /** The title of the resource template, as a host shows it. */
  readonly resourceTemplateTitle: string;
  /** What the resource template is, with an example uri. */
  readonly resourceTemplateDescription: string;
  /** A resource uri names no document, and never did in this session. */
  readonly resourceUnknown: (uri: string) => string;
  /** A resource uri named a document that was moved, renamed or deleted. */
  readonly resourceStale: (uri: string) => string;
  /** A listed document could not be read now (it changed while it was read, or became unreadable). */
  readonly resourceUnreadable: (uri: string) => string;
  /** A resource uri was refused before any disk access. */
  readonly resourceRefused: (uri: string, why: RefusedUri) => string;
  /** A `resources/list` cursor this server did not give. */
  readonly invalidCursor: (cursor: string) => string;
}

/** 20000 → "20,000" (en) or "20.000" (pt-BR), whatever the machine's locale. */
function grouped(n: number, separator: string): string {
  const digits = String(n);
  let out = "";
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += separator;
    out += digits[i];
  }
  return out;
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

const ES_REFUSALS: Readonly<Record<RefusedId, string>> = {
  nul: "contiene un byte nulo",
  empty: "está vacío y no nombra ningún documento",
  invalid: "no es una ruta válida (codificación porcentual o URI mal formada)",
  outside: "apunta fuera de la carpeta servida",
};

const PT_BR: FolderTexts = {
  sourceName: "os documentos da pasta",
  matched: (shown, documents) =>
    `${shown} ${shown === 1 ? "documento corresponde" : "documentos correspondem"} à consulta, entre ${documents} indexados.`,
  truncated: (shown, matches, documents) =>
    `Resultado truncado: mostrando ${shown} de ${matches} documentos que correspondem (entre ${documents} indexados). Refine a consulta com palavras mais específicas para ver os outros.`,
  noMatch: (documents) =>
    `0 correspondências entre ${documents} documentos indexados: a consulta não coincidiu com nenhum. Tente outras palavras, sinônimos ou a grafia usada nos documentos.`,
  nothingIndexed: (extensions) =>
    `Nada está indexado: a pasta servida não tem documentos legíveis (${extensions}). Buscar de novo não vai ajudar.`,
  nothingIndexedYet: "Nenhum documento foi indexado ainda: busque de novo em alguns segundos.",
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
  unreadable: (files) =>
    files === 1 ? "1 arquivo não pôde ser lido (ou só em parte); o log do servidor diz qual e por quê." : `${grouped(files, ".")} arquivos não puderam ser lidos (ou só em parte); o log do servidor diz quais e por quê.`,
  resourceTemplateTitle: "Documento da pasta",
  resourceTemplateDescription: `Um documento da pasta servida, pelo caminho relativo com cada parte em codificação percentual, como ${RESOURCE_URI_PREFIX}guias/caf%C3%A9-coado.md. O texto é o mesmo que a ferramenta fetch devolve, com HTML convertido em Markdown.`,
  resourceUnknown: (uri) => `Nenhum documento da pasta tem o uri ${JSON.stringify(uri)}. Liste os recursos (resources/list) para ver os uris atuais.`,
  resourceStale: (uri) =>
    `O documento ${JSON.stringify(uri)} não existe mais: foi movido, renomeado ou apagado. Liste os recursos (resources/list) de novo para ver os uris atuais.`,
  resourceUnreadable: (uri) =>
    `O documento ${JSON.stringify(uri)} não pôde ser lido agora: o arquivo mudou durante a leitura ou ficou ilegível. Tente de novo em instantes.`,
  resourceRefused: (uri, why) =>
    `O uri ${JSON.stringify(uri)} foi recusado: ${why === "scheme" ? `não é um uri deste servidor, cujos documentos têm uris que começam com ${RESOURCE_URI_PREFIX}` : PT_BR_REFUSALS[why]}.`,
  invalidCursor: (cursor) =>
    `O cursor ${JSON.stringify(cursor)} não é válido: passe o nextCursor da última resposta de resources/list, ou liste sem cursor para começar do início.`,
};

const EN: FolderTexts = {
  sourceName: "the folder",
  matched: (shown, documents) =>
    `${shown} ${shown === 1 ? "document matches" : "documents match"} the query, among ${documents} indexed.`,
  truncated: (shown, matches, documents) =>
    `Truncated: showing ${shown} of ${matches} matching documents (among ${documents} indexed). Narrow the query with more specific words to see the others.`,
  noMatch: (documents) =>
    `0 matches among ${documents} indexed documents: the query matched none of them. Try other words, synonyms or the spelling the documents use.`,
  nothingIndexed: (extensions) =>
    `Nothing is indexed: the served folder holds no readable document (${extensions}). Searching again will not help.`,
  nothingIndexedYet: "No document is indexed yet: search again in a few seconds.",
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
  unreadable: (files) =>
    files === 1 ? "1 file could not be read (or only in part); the server's log names it and why." : `${grouped(files, ",")} files could not be read (or only in part); the server's log names them and why.`,
  resourceTemplateTitle: "Folder document",
  resourceTemplateDescription: `A document of the served folder, by its relative path with each segment percent-encoded, as in ${RESOURCE_URI_PREFIX}guides/pour-over.md. Its text is the one the fetch tool returns, HTML converted to Markdown.`,
  resourceUnknown: (uri) => `No document of the folder has the uri ${JSON.stringify(uri)}. List the resources (resources/list) to see the current uris.`,
  resourceStale: (uri) =>
    `The document ${JSON.stringify(uri)} no longer exists: it was moved, renamed or deleted. List the resources (resources/list) again to see the current uris.`,
  resourceUnreadable: (uri) =>
    `The document ${JSON.stringify(uri)} could not be read now: the file changed while it was read, or became unreadable. Try again in a moment.`,
  resourceRefused: (uri, why) =>
    `The uri ${JSON.stringify(uri)} was refused: ${why === "scheme" ? `it is not a uri of this server, whose documents' uris start with ${RESOURCE_URI_PREFIX}` : EN_REFUSALS[why]}.`,
  invalidCursor: (cursor) =>
    `The cursor ${JSON.stringify(cursor)} is not valid: pass the nextCursor of the last resources/list answer, or list without a cursor to start from the beginning.`,
};

const ES: FolderTexts = {
  sourceName: "la carpeta de documentos",
  matched: (shown, documents) =>
    `${shown} ${shown === 1 ? "documento coincide" : "documentos coinciden"} con la consulta, entre ${documents} indexados.`,
  truncated: (shown, matches, documents) =>
    `Resultado truncado: se muestran ${shown} de ${matches} documentos que coinciden (entre ${documents} indexados). Precise la consulta con palabras más específicas para ver los demás.`,
  noMatch: (documents) =>
    `0 coincidencias entre ${documents} documentos indexados: la consulta no coincidió con ninguno. Pruebe otras palabras, sinónimos o la grafía que usan los documentos.`,
  nothingIndexed: (extensions) =>
    `No hay nada indexado: la carpeta servida no tiene documentos legibles (${extensions}). Buscar de nuevo no servirá de nada.`,
  nothingIndexedYet: "Todavía no hay ningún documento indexado: busque de nuevo en unos segundos.",
  unknown: (id) => `Ningún documento tiene el id ${JSON.stringify(id)}. Use un id devuelto por la herramienta search.`,
  stale: (id) =>
    `El documento ${JSON.stringify(id)} ya no existe: se movió, se renombró o se borró. Busque de nuevo con la herramienta search para obtener ids actuales.`,
  stalePage: (id, pages, first) =>
    `El id ${JSON.stringify(id)} pide una página que no existe: el documento tiene ${pages} ${pages === 1 ? "página" : "páginas"} (quizá cambió). Lea ${JSON.stringify(first)} o busque de nuevo con la herramienta search.`,
  refused: (id, why) => `El id ${JSON.stringify(id)} fue rechazado: ${ES_REFUSALS[why]}. Use un id devuelto por la herramienta search.`,
  truncatedPage: (page, pages, next) =>
    `[Texto truncado: página ${page} de ${pages}. Para leer el resto, llame a fetch con el id ${JSON.stringify(next)}.]`,
  lastPage: (page, pages) => `[Página ${page} de ${pages}: fin del documento.]`,
  indexing: (done, total) =>
    `Indexando: ${grouped(done, ".")} de ${grouped(total, ".")} archivos; el resultado cubre solo lo ya indexado.`,
  unreadable: (files) =>
    files === 1 ? "1 archivo no se pudo leer (o solo en parte); el log del servidor dice cuál y por qué." : `${grouped(files, ".")} archivos no se pudieron leer (o solo en parte); el log del servidor dice cuáles y por qué.`,
  resourceTemplateTitle: "Documento de la carpeta",
  resourceTemplateDescription: `Un documento de la carpeta servida, por su ruta relativa con cada parte en codificación porcentual, como ${RESOURCE_URI_PREFIX}es/caf%C3%A9-de-olla.md. Su texto es el que devuelve la herramienta fetch, con el HTML convertido en Markdown.`,
  resourceUnknown: (uri) => `Ningún documento de la carpeta tiene el uri ${JSON.stringify(uri)}. Liste los recursos (resources/list) para ver los uris actuales.`,
  resourceStale: (uri) =>
    `El documento ${JSON.stringify(uri)} ya no existe: se movió, se renombró o se borró. Liste los recursos (resources/list) de nuevo para ver los uris actuales.`,
  resourceUnreadable: (uri) =>
    `El documento ${JSON.stringify(uri)} no se pudo leer ahora: el archivo cambió mientras se leía o dejó de ser legible. Inténtelo de nuevo en un momento.`,
  resourceRefused: (uri, why) =>
    `El uri ${JSON.stringify(uri)} fue rechazado: ${why === "scheme" ? `no es un uri de este servidor, cuyos documentos tienen uris que empiezan por ${RESOURCE_URI_PREFIX}` : ES_REFUSALS[why]}.`,
  invalidCursor: (cursor) =>
    `El cursor ${JSON.stringify(cursor)} no es válido: pase el nextCursor de la última respuesta de resources/list, o liste sin cursor para empezar desde el principio.`,
};

/** Every locale's table: the compiler refuses a locale of the library that has none. */
const TEXTS: Readonly<Record<Locale, FolderTexts>> = { "pt-BR": PT_BR, en: EN, es: ES };

/**
 * The folder server's messages in one locale.
 *
 * @param locale - `"pt-BR"`, `"en"` or `"es"`. @default "pt-BR"
 * @example
 * folderTexts("pt-BR").nothingIndexedYet; // => "Nenhum documento foi indexado ainda: …"
 */
export function folderTexts(locale: Locale = "pt-BR"): FolderTexts {
  return TEXTS[locale];
}
