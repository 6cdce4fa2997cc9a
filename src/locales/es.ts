/** Every piece of the library's surface text in Spanish (`locale: "es"`). */
import type { LocaleTexts, ReplyProblem } from "./types.js";

const EXPECTED = {
  string: "texto",
  list: "una lista",
  object: "un objeto",
  searchReply: "una lista de resultados o { results }",
  fetchReply: "un documento, { document } o null",
} as const;

function describeProblem(problem: ReplyProblem): string {
  const where = problem.path === "" ? "la respuesta" : problem.path;
  switch (problem.kind) {
    case "type":
      return `${where} debe ser ${EXPECTED[problem.expected]} (recibido: ${problem.received})`;
    case "empty":
      return `${where} no puede estar vacío`;
    case "otherId":
      return `${where} es ${JSON.stringify(problem.returned)}, pero el id pedido era ${JSON.stringify(problem.requested)}`;
    case "json":
      return `${where} no se puede convertir a JSON (${problem.detail})`;
    case "invalid":
      return `${where} no es válido (${problem.detail})`;
    case "undeclared":
      return `${where} no está declarado en el esquema de salida; declárelo con extendOutputSchema`;
    case "tooLarge":
      return problem.size === null
        ? `${where} es demasiado grande para serializarse como JSON (el límite es de ${problem.limit} caracteres); acorte el texto`
        : `${where} tiene ${problem.size} caracteres en JSON, por encima del límite de ${problem.limit}; acorte el texto`;
  }
}

/**
 * The short nouns and adjectives in -z whose plural ends in -ces ("luz", "luces"). Spelling alone
 * cannot tell "luces" (luz) from "doces" (doce) or "seces" (sece), so the -z rule fires only on
 * these stems; every other "-ces" keeps a part that both readings share.
 */
const SHORT_Z = new Set([
  "luz", "voz", "pez", "vez", "nuez", "cruz", "raiz", "maiz", "paz", "haz", "hez", "tez", "coz", "hoz",
  "faz", "fez", "diez", "juez", "prez", "soez",
]);

const VOWEL_END = /[aeiou]$/;
const CONSONANT_ES = /[^aeiou]es$/;

/**
 * The singular of one normalised (accentless, lower-case) Spanish word, as a pattern that only
 * ever keeps a prefix of a real word:
 * - "-ces": "luces" to "luz" for the short -z words above; after a vowel and a stem of four or
 *   more letters, the stem both readings share ("actrices" and "índices" to "actri", "indi",
 *   which reach "actriz" and "índice"); otherwise "-es" goes ("dulces" to "dulc", "entonces" to "entonc");
 * - "-es" after a consonant: "ciudades" to "ciudad", "leyes" to "ley" (four letters or fewer
 *   stay as written, so "tres" is not cut to "tr");
 * - "-íes", "-úes": "-es" goes ("rubíes" to "rubi", "bloques" to "bloqu", which reaches "bloque");
 * - plain "-s" otherwise: "casas" to "casa", "héroes" to "heroe".
 */
function singular(word: string): string {
  const n = word.length;
  if (n > 4 && word.endsWith("ces")) {
    const stem = word.slice(0, -3);
    if (SHORT_Z.has(`${stem}z`)) return `${stem}z`;
    if (stem.length >= 4 && VOWEL_END.test(stem)) return stem;
    return word.slice(0, -2);
  }
  if (CONSONANT_ES.test(word)) return n > 4 ? word.slice(0, -2) : word;
  if (n > 4 && (word.endsWith("ies") || word.endsWith("ues"))) return word.slice(0, -2);
  if (n > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

export const es: LocaleTexts = {
  language: {
    vocabularyStopwords: [
      "el", "la", "los", "las", "lo", "un", "una", "unos", "unas", "de", "del", "al", "a", "en", "y",
      "e", "o", "u", "por", "para", "con", "sin", "que", "sobre",
    ],
    singular,
    intent: {
      now: ["ahora", "ahora mismo", "actualmente", "en este momento", "en ese momento", "hoy", "en vivo",
        "en directo", "en tiempo real", "tiempo real"],
      latest: ["último", "última", "últimos", "últimas", "más reciente", "más recientes", "reciente", "recientes",
        "recientemente", "más nuevo", "más nueva", "ayer"],
    },
  },
  schema: {
    query:
      "Consulta en lenguaje natural o palabras clave. Se ignoran los acentos y las mayúsculas.",
    searchInput: "Argumentos de la herramienta search.",
    resultId: "Identificador estable del documento; es el valor que recibe la herramienta fetch.",
    resultTitle: "Título legible del documento.",
    resultUrl:
      "URL pública del documento. ChatGPT solo crea una cita a partir de este campo, y solo cuando no está vacío.",
    result: "Un documento encontrado.",
    results: "Documentos encontrados, del más al menos relevante. Vacío cuando nada coincide.",
    searchOutput: "Resultado de la herramienta search.",
    fetchId: "Identificador de un documento, tal como lo devolvió la herramienta search.",
    fetchInput: "Argumentos de la herramienta fetch.",
    documentId: "Identificador del documento, el mismo que recibió fetch.",
    documentTitle: "Título legible del documento.",
    documentText: "Texto completo del documento, en Markdown legible.",
    documentUrl:
      "URL pública del documento. ChatGPT solo crea una cita a partir de este campo, y solo cuando no está vacío.",
    documentMetadata: "Metadatos adicionales del documento, por nombre (fuente, fecha, licencia, página…): cada valor un texto, número, booleano, null, lista u objeto, como en JSON.",
    fetchDocument: "Documento completo devuelto por la herramienta fetch.",
  },
  validation: {
    unknownKeys: (keys) => `Clave no reconocida en los argumentos: ${keys}. Use solo las claves del contrato.`,
    wrongType: (field, received) =>
      field === ""
        ? `Los argumentos deben ser un objeto (recibido: ${received}).`
        : `El campo "${field}" es obligatorio y debe ser texto (recibido: ${received}).`,
    emptyId: (field) => `El campo "${field}" no puede estar vacío.`,
    tooLong: (field, max, length) =>
      `El campo "${field}" tiene ${length} caracteres; el máximo es ${max}. Acórtelo e inténtelo de nuevo.`,
  },
  vocabulary: {
    note: (term, spellings, sourceName) =>
      `"${term}" también se buscó como ${spellings} — la palabra que usa ${sourceName}.`,
    emptySourceName: 'createVocabulary: "sourceName" es obligatorio y no puede estar vacío (p. ej., "el INE").',
    entriesNotArray: 'createVocabulary: "entries" debe ser una lista de { asked, source }.',
    emptyAsked: (entry) => `createVocabulary: la entrada ${entry} tiene "asked" vacío.`,
    noSource: (entry, asked) =>
      `createVocabulary: la entrada ${entry} ("${asked}") necesita al menos una palabra en "source".`,
    emptySource: (entry, asked, source) =>
      `createVocabulary: la entrada ${entry} ("${asked}") tiene "source[${source}]" vacío.`,
    badStopword: (index) => `createVocabulary: "extraStopwords[${index}]" debe ser texto.`,
    unknownOption: (name, closest, known) =>
      `createVocabulary: opción desconocida ${JSON.stringify(name)}:${closest === undefined ? "" : ` ¿quiso decir "${closest}"?`} Las opciones son ${known}.`,
    unsafeColumn: (builder, column) =>
      `${builder}: la columna ${column} no es un identificador simple ([A-Za-z_][A-Za-z0-9_]*).`,
    badExpansion: (builder) =>
      `${builder}: la expansión debe ser una lista de términos { term, patterns }, con "patterns" una lista de textos (use vocab.expandQuery).`,
    tooManyTerms: (builder, count, max) =>
      `${builder}: la consulta tiene ${count} términos; el máximo es ${max} (SQL_CLAUSE_LIMITS.maxTerms). Acorte la consulta.`,
    tooManyPatterns: (builder, count, max) =>
      `${builder}: la expansión tiene ${count} patrones; el máximo es ${max} (SQL_CLAUSE_LIMITS.maxPatterns). Acorte la consulta o las fuentes del vocabulario.`,
    patternTooLong: (builder, length, max) =>
      `${builder}: un patrón tiene ${length} caracteres; el máximo es ${max} (SQL_CLAUSE_LIMITS.maxPatternLength).`,
    badFirstParameter: (value) =>
      `buildPostgresClause: "firstParameter" ${value} debe ser un entero de 1 a 65535, y los parámetros no pueden pasar de $65535.`,
  },
  tools: {
    searchTitle: "Buscar documentos",
    fetchTitle: "Leer un documento",
    notFound: (id) =>
      `Ningún documento tiene el id ${JSON.stringify(id)}. Use un id devuelto por la herramienta search.`,
    error: (tool, message) => `La herramienta ${tool} falló: ${message}`,
    unreadableMessage: "(un error cuyo mensaje no se pudo leer)",
    badReply: (tool, problem) =>
      `La herramienta ${tool} devolvió una respuesta fuera del contrato: ${describeProblem(problem)}.`,
    timeout: (tool, timeoutMs) =>
      `La herramienta ${tool} no respondió dentro del límite de ${timeoutMs} ms; inténtelo de nuevo más tarde.`,
  },
  catalogue: {
    line: (line) => `línea ${line}`,
    malformedXml: (detail) => `XML mal formado (${detail}); se conservaron las entradas legibles.`,
    unreadableElement: "se omitió un elemento <url> o <sitemap> ilegible; se conservaron los legibles.",
    unclosedElement: (name) =>
      `el elemento <${name}> abierto aquí nunca se cierra (el texto termina, o empieza el siguiente, antes de </${name}>); se omitió y se conservaron los legibles.`,
    notASitemap: "no es un sitemap: falta <urlset> con elementos <url>.",
    sitemapIndex: (children) =>
      `es un índice de sitemaps (<sitemapindex>) con ${children} sitemap(s); descargue cada uno (lista en "sitemaps") y léalo con parseSitemap.`,
    missingUrl: "falta la URL.",
    relativeUrl: (url) => `la URL ${JSON.stringify(url)} es relativa; use una URL absoluta (https://…) o pase baseUrl.`,
    invalidUrl: (url) => `la URL ${JSON.stringify(url)} no es una URL http(s) válida.`,
    duplicateUrl: (url, firstLine) => `la página ${url} repite la de la línea ${firstLine}; vale la primera.`,
    duplicateId: (id, firstLine) => `el id ${JSON.stringify(id)} repite el de la línea ${firstLine}; vale el primero.`,
    emptyTitle: (url) => `el enlace a ${url} no tiene título.`,
    notALink: (text) => `elemento de lista sin enlace con el formato [Título](url): ${JSON.stringify(text)}.`,
    detailCut: (left) => `… (${left} caracteres más omitidos)`,
    moreProblems: (left) => `${left} problema(s) más encontrados y omitidos de esta lista.`,
    tooLarge: (bytes, max) => `el texto tiene ${bytes} bytes, por encima del límite de ${max} (maxBytes); no se leyó nada.`,
    invalidLastmod: (value) =>
      `<lastmod> ${JSON.stringify(value)} no es una fecha W3C (AAAA-MM-DD o fecha y hora); la página se conservó sin ella.`,
  },
};
