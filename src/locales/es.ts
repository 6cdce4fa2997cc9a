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

export const es: LocaleTexts = {
  language: "es",
  intent: {
    now: ["ahora", "ahora mismo", "actualmente", "en este momento", "en ese momento", "hoy", "en vivo",
      "en directo", "en tiempo real", "tiempo real"],
    latest: ["último", "última", "últimos", "últimas", "más reciente", "más recientes", "reciente", "recientes",
      "recientemente", "más nuevo", "más nueva", "ayer"],
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
