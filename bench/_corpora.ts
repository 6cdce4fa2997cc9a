/**
 * Benchmark corpora built from real data shipped in npm packages (dev dependencies), scaled
 * deterministically to any size. Same size → same entries, in the same order, on every run.
 *
 * - Portuguese: the IBGE municipalities, the CNAE 2.3 subclasses and the CBO 2002 occupations of
 *   `@brazilian-utils/brazilian-utils`.
 * - English: every feature of `@mdn/browser-compat-data`, its description as text.
 *
 * Scaling: the base catalogue first, then "tables" about each base entry (a topic and a year, as
 * SIDRA publishes one table per topic and municipality), until the size is reached.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { getCbo, getCnae, getMunicipalities, getStateNameByCode } from "@brazilian-utils/brazilian-utils";
import type { IndexEntry } from "../src/index.js";

export type CorpusLanguage = "pt" | "en";

const require = createRequire(import.meta.url);

/**
 * Every code of a lookup table: the package exposes lookups by code only, so the codes are read
 * from its own data module and each one is resolved through the public getter.
 */
function tableCodes(getter: "get-cnae" | "get-cbo", digits: number): string[] {
  const entry = require.resolve(`@brazilian-utils/brazilian-utils/${getter}`);
  const chunk = /require\("\.\/([^"]+)"\)/.exec(readFileSync(entry, "utf8"))?.[1];
  if (chunk === undefined) throw new Error(`Cannot find the data module of ${getter}`);
  const source = readFileSync(join(dirname(entry), chunk), "utf8");
  return [...source.matchAll(new RegExp(`"(\\d{${digits}})":`, "g"))].map((match) => match[1] as string);
}

function portugueseBase(): IndexEntry[] {
  const municipalities = getMunicipalities().map(({ code, name, stateCode }) => ({
    id: `ibge:${code}`,
    title: `${name} (${stateCode})`,
    url: `https://cidades.ibge.gov.br/brasil/${code}`,
    keywords: ["município", getStateNameByCode(stateCode) ?? stateCode],
    text: `Município de ${name}, ${getStateNameByCode(stateCode) ?? stateCode}, código IBGE ${code}.`,
  }));
  const activities = tableCodes("get-cnae", 7).flatMap((code) => {
    const cnae = getCnae(code);
    return cnae === null ? [] : [{
      id: `cnae:${cnae.code}`,
      title: cnae.description,
      url: `https://concla.ibge.gov.br/busca-online-cnae.html?subclasse=${cnae.code}`,
      keywords: ["atividade econômica", "CNAE"],
      text: `Subclasse ${cnae.code} da CNAE 2.3: ${cnae.description.toLowerCase()}.`,
    }];
  });
  const occupations = tableCodes("get-cbo", 6).flatMap((code) => {
    const cbo = getCbo(code);
    return cbo === null ? [] : [{
      id: `cbo:${cbo.code}`,
      title: cbo.description,
      url: `https://cbo.mte.gov.br/cbosite/pages/pesquisas/BuscaPorCodigo.jsf?codigo=${cbo.code}`,
      keywords: ["ocupação", "CBO 2002"],
      text: `Ocupação ${cbo.code} da Classificação Brasileira de Ocupações.`,
    }];
  });
  return [...municipalities, ...activities, ...occupations];
}

interface Compat {
  readonly description?: string;
  readonly mdn_url?: string;
}

function englishBase(): IndexEntry[] {
  const entries: IndexEntry[] = [];
  const walk = (node: Record<string, unknown>, path: string[]): void => {
    for (const [key, value] of Object.entries(node)) {
      if (key === "__compat") {
        const compat = value as Compat;
        const description = compat.description?.replace(/<[^>]+>/g, "");
        entries.push({
          id: path.join("."),
          title: path.slice(1).join(" › "),
          url: compat.mdn_url ?? `https://developer.mozilla.org/docs/${path.join("/")}`,
          keywords: [path[0] as string],
          ...(description !== undefined && { text: description }),
        });
      } else if (value !== null && typeof value === "object") {
        walk(value as Record<string, unknown>, [...path, key]);
      }
    }
  };
  // Read on first use, by Node's own JSON loader: 20 MB that the Portuguese corpus never needs,
  // and that a static import would have vitest transform into a module first (seconds of CPU).
  const bcd = require("@mdn/browser-compat-data") as Record<string, unknown>;
  for (const [key, value] of Object.entries(bcd)) {
    if (key !== "__meta" && key !== "browsers") walk(value as Record<string, unknown>, [key]);
  }
  return entries;
}

const TOPICS: Record<CorpusLanguage, readonly string[]> = {
  pt: ["População residente estimada", "Produto interno bruto", "Produção agrícola municipal", "Pecuária municipal",
    "Pessoal ocupado assalariado", "Salários e outras remunerações", "Número de empresas", "Matrículas no ensino médio",
    "Estabelecimentos de saúde", "Frota de veículos", "Despesas orçamentárias", "Admissões e desligamentos"],
  en: ["support in Chrome", "support in Firefox", "support in Safari", "support in Edge", "support in Opera",
    "support in Node.js", "support in Deno", "compatibility notes", "specification status", "release history"],
};

const bases = new Map<CorpusLanguage, IndexEntry[]>();

/**
 * The first `size` entries of the scaled catalogue. Variant 0 is the base itself; variant k ≥ 1
 * is a table about base entry i: id `${id}/t${k}`, title `${topic} — ${title} (${year})`.
 *
 * @example
 * buildCorpus("pt", 10_000).length; // => 10000
 */
export function buildCorpus(language: CorpusLanguage, size: number): IndexEntry[] {
  let base = bases.get(language);
  if (base === undefined) {
    base = language === "pt" ? portugueseBase() : englishBase();
    bases.set(language, base);
  }
  const topics = TOPICS[language];
  const entries: IndexEntry[] = [];
  for (let variant = 0; entries.length < size; variant++) {
    for (let i = 0; i < base.length && entries.length < size; i++) {
      const entry = base[i] as IndexEntry;
      if (variant === 0) {
        entries.push(entry);
        continue;
      }
      const topic = topics[(i + variant) % topics.length] as string;
      const year = 2000 + ((i * 7 + variant * 3) % 24);
      entries.push({
        ...entry,
        id: `${entry.id}/t${variant}`,
        title: `${topic} — ${entry.title} (${year})`,
        url: `${entry.url}#t${variant}`,
      });
    }
  }
  return entries;
}

/** The query set of one language: 100+ queries of every kind the issue lists. */
export function buildQueries(language: CorpusLanguage): string[] {
  const shared = ["", "   ", "xyzzy", "qwertyuiop zzz", "2010", "2021"];
  if (language === "pt") {
    return [...shared,
      // single words, accented and not
      "soja", "milho", "arroz", "café", "cafe", "médico", "medico", "professor", "enfermeiro", "motorista", "pecuária",
      "pecuaria", "população", "populacao", "curitiba", "belém", "belem", "salvador", "manaus", "gesso", "petróleo",
      // phrases
      "produção de soja", "producao de soja", "cultivo de arroz", "fabricação de móveis", "população residente estimada",
      "pessoal ocupado em 2010", "técnico em enfermagem", "São Paulo", "sao paulo", "Rio de Janeiro", "rio grande do sul",
      "extração de minério de ferro", "comércio varejista de mercadorias", "analista de desenvolvimento de sistemas",
      "produto interno bruto de curitiba", "frota de veículos em belo horizonte", "matrículas no ensino médio 2015",
      "abate de bovinos", "fabricação de laticínios", "serviços de arquitetura", "professor de ensino fundamental",
      // prefixes being typed
      "pro", "prod", "produ", "produca", "cur", "curi", "curit", "enf", "enfer", "fab", "fabric", "ext", "extra",
      "sao", "sao pa", "sao pau", "rio", "rio gr", "com", "comer", "ana", "anal", "agr", "agric", "pec",
      // codes
      "0111301", "cnae:0111301", "6201501", "212405", "cbo:212405", "3550308", "ibge:3550308", "4106902", "5300108", "t3",
      // stopwords only
      "de", "a o", "para com", "de da do das dos", "the of", "em no na",
      // no match
      "blockchain", "zzzz", "kubernetes helm",
      // mixed
      "soja 2010", "milho paraná", "médico cardiologista", "venda de automóveis", "cultivo de soja em 2020",
      "goiás", "goias", "açúcar", "acucar", "número de empresas", "despesas orçamentárias 2019"];
  }
  return [...shared,
    "fetch", "grid", "flexbox", "flex", "animation", "transform", "websocket", "indexeddb", "canvas", "clipboard",
    "bluetooth", "geolocation", "notification", "promise", "array", "regexp", "intl", "proxy", "wasm", "manifest",
    "service worker", "web socket", "request animation frame", "background color", "border radius", "font family",
    "abort signal", "media query", "custom elements", "shadow root", "local storage", "array prototype flat",
    "support in chrome", "compatibility notes", "release history", "html elements input", "http headers cache control",
    "css selectors has", "javascript builtins promise all", "intersection observer", "resize observer",
    "serv", "servi", "anim", "anima", "trans", "transf", "backg", "backgr", "bord", "borde", "geo", "geol", "not",
    "notif", "int", "inte", "can", "canv", "cli", "clip", "pro", "prom", "obs", "obse", "req", "requ",
    "api.Window.fetch", "css.properties.grid", "api.AbortController.abort", "javascript.builtins.Array.flat", "t2",
    "html.elements.video", "http.headers.Cache-Control", "webextensions.api.tabs",
    "the of", "in and for by", "the",
    "frobnicate", "zzzz", "quantum entanglement",
    "Grid", "FETCH", "Fétch", "naïve", "résumé", "façade", "crème brûlée",
    "webgl", "webgl2 rendering context", "speech", "speech recognition", "gamepad", "payment request", "credentials",
    "svg elements", "mathml", "webdriver commands"];
}
