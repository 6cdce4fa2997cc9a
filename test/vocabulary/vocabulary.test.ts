import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { McpSearchError, createVocabulary, type VocabularyEntry, type Locale } from "../../src/index.js";

const ibge = createVocabulary({
  locale: "pt-BR",
  sourceName: "o IBGE",
  entries: [
    { asked: "renda", source: ["rendimento"] },
    { asked: "populacao", source: ["população"] },
    { asked: "câncer", source: ["neoplasia maligna"] },
    { asked: "pressão alta", source: ["hipertens"] },
    { asked: "conta corrente", source: ["depósitos à vista"] },
    { asked: "saldo da conta corrente", source: ["saldo em depósitos"] },
    { asked: "taxa de juros", source: ["selic"] },
    { asked: "juros reais", source: ["juro real"] },
    { asked: "emprego", source: ["ocupa"] },
    { asked: "dentista", source: ["odontolog"] },
    { asked: "imóvel", source: ["imobiliári"] },
  ],
});
const ilostat = createVocabulary({
  locale: "en",
  sourceName: "ILOSTAT",
  entries: [
    { asked: "labor", source: ["labour"] },
    { asked: "kids", source: ["child"] },
    { asked: "enrollment", source: ["enrolment", "enrolled"] },
  ],
});
const bank = createVocabulary({
  sourceName: "o BCB",
  entries: [{ asked: "conta corrente", source: ["depósitos à vista"] }],
});
const plainPt = createVocabulary({ locale: "pt-BR", sourceName: "o IBGE", entries: [] });
const plainEn = createVocabulary({ locale: "en", sourceName: "UIS", entries: [] });
/** A table that translates nothing useful, so only the singular rules show. */
const singularOnly = (locale: Locale) =>
  createVocabulary({ locale, sourceName: "x", entries: [{ asked: "zzzz", source: ["yyyy"] }] });

describe("normalize", () => {
  it.each([
    ["População Residente", "populacao residente"],
    ["  IGP-M  ", "igp m"],
    ["igp‐m", "igp m"], // U+2010
    ["igp‑m", "igp m"], // U+2011
    ["1990‒2000", "1990 2000"], // U+2012
    ["1990–2000", "1990 2000"], // U+2013
    ["A—B", "a b"], // U+2014
    ["CÂNCER\t\nDE   MAMA", "cancer de mama"],
    ["", ""],
  ])("normalize(%j) is %j", (input, expected) => {
    expect(ibge.normalize(input)).toBe(expected);
  });

  it("lets IGP-M, IGP M and igp-m meet", () => {
    expect(new Set(["IGP-M", "IGP M", "igp-m"].map(ibge.normalize))).toStrictEqual(new Set(["igp m"]));
  });

  it("is idempotent", () => {
    const accented = fc.string({ unit: fc.constantFrom(..."aãçé É-–—‐ \t*?[]'%_ÅΩß\u0301\u0483") });
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary" }), accented), (text) => {
        const once = ibge.normalize(text);
        expect(ibge.normalize(once)).toBe(once);
      }),
      { numRuns: 500 },
    );
  });
});

describe("queryTerms", () => {
  it.each([
    [ilostat, "hours of work", ["hours", "work"]],
    [ilostat, "of", ["of"]],
    [ilostat, "the price of rice per kilo", ["price", "rice", "kilo"]],
    [plainPt, "taxa de desocupação por sexo", ["taxa", "desocupacao", "sexo"]],
    [plainPt, "de da do", ["de", "da", "do"]],
    [bank, "saldo da conta corrente", ["conta corrente", "saldo"]],
    [ibge, "saldo da conta corrente", ["saldo da conta corrente"]],
    [ibge, "extrato da conta corrente", ["conta corrente", "extrato"]],
    [ibge, "taxa de juros reais", ["taxa de juros", "reais"]],
    [ibge, "juros reais e taxa de juros", ["juros reais", "taxa de juros"]],
    [ibge, "contas correntes", ["contas", "correntes"]],
    [ibge, "PRESSÃO ALTA em idosos", ["pressao alta", "idosos"]],
    [ibge, "pressão-alta", ["pressao alta"]],
    [ibge, "IGP-M da FGV", ["igp m", "fgv"]],
    [ibge, "renda covid-19", ["covid 19", "renda"]],
    [ibge, "pão-de-ló", ["pao de lo"]],
    [ibge, "renda renda", ["renda"]],
    [ibge, "(renda), média?", ["renda", "media"]],
    [ibge, "  ", []],
    [ibge, "% * ? [ ] -", []],
    [ibge, "so*ja [x]", ["soja", "x"]],
  ])("%#: %j gives %j", (vocab, query, expected) => {
    expect(vocab.queryTerms(query)).toStrictEqual(expected);
  });

  it("keeps extraStopwords out of the AND", () => {
    const vocab = createVocabulary({ sourceName: "o IBGE", entries: [], extraStopwords: ["Tabela", "série"] });
    expect(vocab.queryTerms("tabela da série de renda")).toStrictEqual(["renda"]);
    expect(vocab.queryTerms("tabela")).toStrictEqual(["tabela"]);
  });
});

describe("expandTerm", () => {
  it.each([
    [ibge, "CÂNCER", ["cancer", "neoplasia maligna"]],
    [ibge, "rendas", ["rendas", "renda", "rendimento"]],
    [ibge, "imóveis", ["imoveis", "imovel", "imobiliari"]],
    [ibge, "média", ["media"]],
    [plainPt, "rendas", ["rendas", "renda"]],
    [plainPt, "construções", ["construcoes", "construcao"]],
    [plainPt, "hospitais", ["hospitais", "hospital"]],
    [plainEn, "industries", ["industries", "industry"]],
    [ilostat, "labor", ["labor", "labour"]],
    [ilostat, "enrollment", ["enrollment", "enrolment", "enrolled"]],
    [ibge, "", []],
  ])("%#: expandTerm(%j) is %j", (vocab, word, expected) => {
    expect(vocab.expandTerm(word)).toStrictEqual(expected);
  });

  it.each([
    ["en", "studies", ["studies", "study"]],
    ["en", "ties", ["ties", "tie"]],
    ["en", "pies", ["pies", "pie"]],
    ["en", "wages", ["wages", "wage"]],
    ["en", "boxes", ["boxes", "boxe"]],
    ["en", "glass", ["glass"]],
    ["en", "bus", ["bus"]],
    ["en", "rates", ["rates", "rate"]],
    ["pt-BR", "aplicações", ["aplicacoes", "aplicacao"]],
    ["pt-BR", "alemães", ["alemaes", "alemao"]],
    ["pt-BR", "imóveis", ["imoveis", "imovel"]],
    ["pt-BR", "animais", ["animais", "animal"]],
    ["pt-BR", "anzóis", ["anzois", "anzol"]],
    // four letters: the -ais/-eis/-ois rule would give "rel" (which meets "relatório") and "pal"
    ["pt-BR", "reis", ["reis", "rei"]],
    ["pt-BR", "pais", ["pais", "pai"]],
    ["pt-BR", "sois", ["sois", "soi"]],
    ["pt-BR", "reais", ["reais", "real"]],
    ["pt-BR", "pães", ["paes", "pae"]],
    ["pt-BR", "meses", ["meses", "mese"]],
    ["pt-BR", "progresso", ["progresso"]],
    ["pt-BR", "gás", ["gas"]],
    ["pt-BR", "contas correntes", ["contas correntes", "conta corrente"]],
  ] as const)("%s singular of %j", (locale, word, expected) => {
    expect(singularOnly(locale).expandTerm(word)).toStrictEqual(expected);
  });
});

describe("expandQuery", () => {
  it("orders patterns: the term, its sources, its singular, the singular's sources", () => {
    expect(ibge.expandQuery("rendas médias")).toStrictEqual([
      { term: "rendas", patterns: ["rendas", "renda", "rendimento"], translated: true },
      { term: "medias", patterns: ["medias", "media"], translated: false },
    ]);
  });

  it("applies singulars with an empty table, inventing no synonym and no note", () => {
    expect(plainPt.expandQuery("rendas médias")).toStrictEqual([
      { term: "rendas", patterns: ["rendas", "renda"], translated: false },
      { term: "medias", patterns: ["medias", "media"], translated: false },
    ]);
    expect(plainPt.vocabularyNotes(plainPt.expandQuery("rendas"))).toStrictEqual([]);
    const omitted = createVocabulary({ sourceName: "o IBGE" });
    expect(omitted.expandTerm("hospitais")).toStrictEqual(["hospitais", "hospital"]);
    expect(plainPt.matchesQuery(plainPt.normalize("Leitos por hospital"), plainPt.expandQuery("hospitais"))).toBe(true);
  });

  it("merges two entries with the same asked word", () => {
    const vocab = createVocabulary({
      sourceName: "o BCB",
      entries: [
        { asked: "calote", source: ["inadimplência"] },
        { asked: "Calote", source: ["inadimplencia", "atraso"] },
      ],
    });
    expect(vocab.expandTerm("calote")).toStrictEqual(["calote", "inadimplencia", "atraso"]);
  });
});

describe("matchesQuery", () => {
  it.each([
    // measured pairs: with the table the source's word is reached, without it nothing is
    [ilostat, "labor", "Labour force participation rate", true],
    [plainEn, "labor", "Labour force participation rate", false],
    [ilostat, "enrollment", "Gross enrolment ratio, primary", true],
    [plainEn, "enrollment", "Gross enrolment ratio, primary", false],
    [ibge, "populacao", "População residente estimada", true],
    [ibge, "população", "População residente estimada", true],
    [ibge, "câncer", "Óbitos por neoplasia maligna da mama", true],
    [plainPt, "câncer", "Óbitos por neoplasia maligna da mama", false],
    // no match inside a word
    [plainPt, "uber", "CULTIVO DE RAÍZES E TUBÉRCULOS", false],
    [plainPt, "ovo", "COMÉRCIO A VAREJO DE AUTOMÓVEIS NOVOS", false],
    [plainPt, "ovos", "Produção de ovos de galinha", true],
    [plainPt, "idade", "Pessoas por atividade econômica", false],
    [plainPt, "idade", "Pessoas por idade", true],
    [plainEn, "male", "Population, female", false],
    [plainEn, "male", "Population, male", true],
    // stems reach their words
    [ibge, "emprego", "Pessoas ocupadas", true],
    [ibge, "emprego", "Posição na ocupação", true],
    [ibge, "dentista", "Clínica odontológica", true],
    [ilostat, "kids", "Children in employment", true],
    [plainPt, "ocupa", "Desocupação", false],
    // punctuation before a word still starts it
    [plainPt, "milho", "soja,milho", true],
    [plainPt, "milho", "cereais (milho)", true],
    [plainPt, "milho", "soja/milho", true],
    [plainPt, "milho", "soja-milho", true],
    [plainPt, "milho", "soja_milho", true],
    // hyphens
    [plainPt, "IGP-M", "IGP-M - Variação mensal", true],
    [plainPt, "IGP-M", "IGP M", true],
    [plainPt, "IGP-M", "IGP-DI - Variação mensal", false],
    [plainPt, "covid-19", "Casos de COVID-19", true],
    // AND of terms
    [plainPt, "renda média", "Renda média domiciliar", true],
    [plainPt, "renda média", "Renda domiciliar", false],
    [ibge, "renda mensal", "Rendimento médio mensal", true],
    [ibge, "pressão alta", "Hipertensão arterial", true],
    [ibge, "pressão alta", "Pressão arterial alta", false],
  ])("%#: %j in %j is %j", (vocab, query, text, expected) => {
    expect(vocab.matchesQuery(vocab.normalize(text), vocab.expandQuery(query))).toBe(expected);
  });

  it("matches nothing with an empty expansion, a term with no pattern, or an empty pattern", () => {
    expect(ibge.matchesQuery("renda", [])).toBe(false);
    expect(ibge.matchesQuery("renda", [{ term: "", patterns: [], translated: false }])).toBe(false);
    expect(ibge.matchesTerm("renda", { term: "", patterns: [""], translated: false })).toBe(false);
    expect(ibge.matchesTerm("", { term: "", patterns: [""], translated: false })).toBe(false);
  });

  const alphabet = fc.constantFrom(..."abcdeo09 ,-/(ãé");
  const word = fc.string({ unit: fc.constantFrom(..."abco9"), minLength: 1, maxLength: 4 });

  it("agrees with a naive scan of every word start", () => {
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 30 }), word, (raw, pattern) => {
        const text = plainPt.normalize(raw);
        let expected = false;
        for (let i = 0; i < text.length; i += 1) {
          const starts = i === 0 || !/[a-z0-9]/.test(text[i - 1] ?? "");
          if (starts && text.startsWith(pattern, i)) expected = true;
        }
        expect(plainPt.matchesTerm(text, { term: pattern, patterns: [pattern], translated: false })).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it("never matches a term inside a word", () => {
    const alnum = fc.string({ unit: fc.constantFrom(..."abco9"), minLength: 1, maxLength: 5 });
    const separator = fc.constantFrom(" ", ", ", " (", "/", " - ");
    fc.assert(
      fc.property(fc.array(fc.tuple(alnum, separator), { maxLength: 4 }), alnum, word, alnum, (words, head, term, tail) => {
        const text = plainEn.normalize(`${words.map(([w, s]) => w + s).join("")}${head}${term}${tail}`);
        const wordsOfText = text.split(/[^a-z0-9]+/);
        fc.pre(!wordsOfText.some((w) => w.startsWith(term)));
        expect(plainEn.matchesQuery(text, [{ term, patterns: [term], translated: false }])).toBe(false);
        expect(plainEn.matchesQuery(`${text} ${term}`, [{ term, patterns: [term], translated: false }])).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("makes every pattern of every term normalised", () => {
    const entry = fc.record({
      asked: fc.string({ unit: fc.constantFrom(..."aéõ -–xs"), minLength: 1, maxLength: 8 }),
      source: fc.array(fc.string({ unit: fc.constantFrom(..."bÇí -s"), minLength: 1, maxLength: 8 }), {
        minLength: 1,
        maxLength: 2,
      }),
    });
    fc.assert(
      fc.property(
        fc.array(entry, { maxLength: 4 }),
        fc.constantFrom<Locale>("pt-BR", "en"),
        fc.oneof(fc.string({ unit: "binary", maxLength: 20 }), fc.string({ unit: fc.constantFrom(..."aéõ -–xs*?[]'%") })),
        (entries: VocabularyEntry[], locale, query) => {
          const usable = entries.filter(
            (e) => plainPt.normalize(e.asked) !== "" && e.source.every((s) => plainPt.normalize(s) !== ""),
          );
          const vocab = createVocabulary({ locale, sourceName: "x", entries: usable });
          for (const term of vocab.expandQuery(query)) {
            expect(vocab.normalize(term.term)).toBe(term.term);
            for (const pattern of term.patterns) {
              expect(pattern).not.toBe("");
              expect(vocab.normalize(pattern)).toBe(pattern);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("vocabularyNotes", () => {
  it.each([
    [ibge, "renda média", ['"renda" também foi buscado como rendimento — a palavra que o IBGE usa.']],
    [ilostat, "labor", ['"labor" was also searched as labour — the wording ILOSTAT uses.']],
    [ilostat, "enrollments", ['"enrollments" was also searched as enrolment, enrolled — the wording ILOSTAT uses.']],
    [ibge, "pressão alta e câncer", [
      '"pressao alta" também foi buscado como hipertens — a palavra que o IBGE usa.',
      '"cancer" também foi buscado como neoplasia maligna — a palavra que o IBGE usa.',
    ]],
    [ibge, "média", []],
  ])("%#: notes for %j", (vocab, query, expected) => {
    expect(vocab.vocabularyNotes(vocab.expandQuery(query))).toStrictEqual(expected);
  });
});

describe("askedWordsFor", () => {
  it.each([
    ["Rendimento médio mensal", ["renda"]],
    ["Hipertensão e rendimento; depósitos à vista", ["renda", "pressão alta", "conta corrente"]],
    ["Pessoas desocupadas", []],
    ["Compreendimento", []],
    ["", []],
  ])("%#: %j gives %j", (name, expected) => {
    expect(ibge.askedWordsFor(name)).toStrictEqual(expected);
  });
});

describe("createVocabulary misuse", () => {
  const entries = (entry: unknown) => [{ asked: "ok", source: ["fine"] }, entry] as VocabularyEntry[];
  it.each([
    [{ sourceName: "x", entries: entries({ asked: "", source: ["a"] }) }, /entry 1 has an empty "asked"/],
    [{ sourceName: "x", entries: entries({ asked: " - ", source: ["a"] }) }, /entry 1 has an empty "asked"/],
    [{ sourceName: "x", entries: entries({ source: ["a"] }) }, /entry 1 has an empty "asked"/],
    [{ sourceName: "x", entries: entries({ asked: "renda", source: [] }) }, /entry 1 \("renda"\) needs at least one word/],
    [{ sourceName: "x", entries: entries({ asked: "renda" }) }, /entry 1 \("renda"\) needs at least one word/],
    [{ sourceName: "x", entries: entries({ asked: "renda", source: ["a", ""] }) }, /entry 1 \("renda"\) has an empty "source\[1\]"/],
    [{ sourceName: "x", entries: entries({ asked: "renda", source: [3] }) }, /entry 1 \("renda"\) has an empty "source\[0\]"/],
    [{ sourceName: "x", entries: entries(null) }, /entry 1 has an empty "asked"/],
    [{ sourceName: "", entries: [] }, /createVocabulary: "sourceName" is required/],
    [{ sourceName: "x", entries: "renda" }, /"entries" must be a list/],
    [{ sourceName: "x", extraStopwords: ["a", 1] }, /"extraStopwords\[1\]" must be text/],
    [{ locale: "en", sourceName: "x", entries: entries({ asked: "pay", source: [" "] }) }, /entry 1 \("pay"\) has an empty "source\[0\]"/],
    [{ locale: "fr", sourceName: "x" }, /createVocabulary: unknown `locale` "fr"/],
  ])("%#: throws McpSearchError naming the culprit, in English whatever the locale", (options, message) => {
    const create = () => createVocabulary(options as Parameters<typeof createVocabulary>[0]);
    expect(create).toThrow(McpSearchError);
    expect(create).toThrow(message);
  });
});
