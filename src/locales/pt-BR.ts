/** Every piece of the library's surface text in Brazilian Portuguese, the default locale. */
import type { LocaleTexts, ReplyProblem } from "./types.js";

const EXPECTED = {
  string: "texto",
  list: "uma lista",
  object: "um objeto",
  searchReply: "uma lista de resultados ou { results }",
  fetchReply: "um documento, { document } ou null",
} as const;

function describeProblem(problem: ReplyProblem): string {
  const where = problem.path === "" ? "a resposta" : problem.path;
  switch (problem.kind) {
    case "type":
      return `${where} deve ser ${EXPECTED[problem.expected]} (recebido: ${problem.received})`;
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
    case "tooLarge":
      return problem.size === null
        ? `${where} é grande demais para ser serializada em JSON (o limite é de ${problem.limit} caracteres); encurte o texto`
        : `${where} tem ${problem.size} caracteres em JSON, acima do limite de ${problem.limit}; encurte o texto`;
  }
}

export const ptBR: LocaleTexts = {
  language: "pt",
  intent: {
    now: ["agora", "agora mesmo", "atualmente", "neste momento", "nesse momento", "no momento",
      "hoje", "ao vivo", "em tempo real", "tempo real"],
    latest: ["último", "última", "últimos", "últimas", "mais recente", "mais recentes", "recente", "recentes",
      "recentemente", "mais novo", "mais nova", "ontem"],
  },
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
    documentMetadata: "Metadados adicionais do documento, por nome (fonte, data, licença, página…): cada valor um texto, número, booleano, null, lista ou objeto, como em JSON.",
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
  },
  tools: {
    searchTitle: "Buscar documentos",
    fetchTitle: "Ler um documento",
    notFound: (id) =>
      `Nenhum documento tem o id ${JSON.stringify(id)}. Use um id devolvido pela ferramenta search.`,
    error: (tool, message) => `A ferramenta ${tool} falhou: ${message}`,
    unreadableMessage: "(um erro cuja mensagem não pôde ser lida)",
    badReply: (tool, problem) =>
      `A ferramenta ${tool} devolveu uma resposta fora do contrato: ${describeProblem(problem)}.`,
    timeout: (tool, timeoutMs) =>
      `A ferramenta ${tool} não respondeu dentro do limite de ${timeoutMs} ms; tente de novo mais tarde.`,
  },
  catalogue: {
    line: (line) => `linha ${line}`,
    malformedXml: (detail) => `XML malformado (${detail}); as entradas legíveis foram mantidas.`,
    unreadableElement: "um elemento <url> ou <sitemap> ilegível foi ignorado; os legíveis foram mantidos.",
    unclosedElement: (name) =>
      `o elemento <${name}> aberto aqui nunca é fechado (o texto acaba, ou o próximo começa, antes de </${name}>); ele foi ignorado e os legíveis foram mantidos.`,
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
