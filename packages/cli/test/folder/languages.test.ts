import { createIndex, LANGUAGES, type IndexEntry, type Language, type Stemmers } from "@sbissoli/mcp-search";
import { describe, expect, it } from "vitest";
import { SNOWBALL_STEMMERS } from "../../src/folder/stemmers.js";

const entry = (id: string, title: string, text: string): IndexEntry => ({ id, title, url: `https://x.org/${id}`, text });
const search = (entries: IndexEntry[], language: Language, query: string, stemmers?: Stemmers) =>
  createIndex(entries, { ranking: "bm25", language, ...(stemmers === undefined ? {} : { stemmers }) }).search(query).map((hit) => hit.id);

describe("the folder server's analysis per language: a query in one form finds the document in another", () => {
  it.each([
    ["de", [entry("a", "Drucker", "Den Drucker einstellen"), entry("b", "Netzwerk", "Das Netzwerk und die Verbindung")], "Einstellungen"],
    ["fr", [entry("a", "Imprimante", "Configurer une imprimante"), entry("b", "Réseau", "Les connexions et le réseau")], "configuration des imprimantes"],
    ["it", [entry("a", "Immagini", "Modificare le immagini del documento"), entry("b", "Rete", "Le connessioni di rete")], "immagine modificata"],
  ] as const)("%s: Snowball, on by default", (language, entries, query) => {
    expect(search([...entries], language, query, SNOWBALL_STEMMERS)).toStrictEqual(["a"]);
    expect(search([...entries], language, query)).toStrictEqual([]);
  });

  it.each([
    ["ru", [entry("a", "Файлы", "Открыть файлы в редакторе"), entry("b", "Сеть", "Подключение к сети")], "файлов"],
    ["ru", [entry("a", "Новый файл", "Создать новый документ"), entry("b", "Сеть", "Подключение к сети")], "новые документы"],
    ["uk", [entry("a", "Файли", "Відкрити файли в редакторі"), entry("b", "Мережа", "Підключення до мережі")], "файлів"],
    ["el", [entry("a", "Εικόνες", "Άνοιγμα των εικόνων στον επεξεργαστή"), entry("b", "Δίκτυο", "Σύνδεση στο δίκτυο")], "εικόνα"],
  ] as const)("%s: Snowball, on by default, й and ї kept for it", (language, entries, query) => {
    expect(search([...entries], language, query, SNOWBALL_STEMMERS)).toStrictEqual(["a"]);
    expect(search([...entries], language, query)).toStrictEqual([]);
  });

  it.each([
    ["ru", [entry("a", "Ёлка", "Новогодняя ёлка"), entry("b", "Сеть", "Подключение к сети")], "елка"],
    ["uk", [entry("a", "Їжак", "Їжак у лісі"), entry("b", "Мережа", "Підключення до мережі")], "ЇЖАК"],
    ["el", [entry("a", "ΡΥΘΜΙΣΕΙΣ", "Οι ρυθμίσεις του εκτυπωτή"), entry("b", "Δίκτυο", "Σύνδεση στο δίκτυο")], "ρυθμισεις"],
  ] as const)("%s: folding (accents, ё, the final sigma, case)", (language, entries, query) => {
    expect(search([...entries], language, query, SNOWBALL_STEMMERS)).toStrictEqual(["a"]);
  });

  it("reaches compounds in German, where the word also stands alone, and not in English or a mostly English folder", () => {
    const german = [
      entry("speicher", "Speicher", "Der Festplattenspeicher ist voll: Festplattenspeicher freigeben"),
      entry("netz", "Netzwerk", "Die Festplatte im Netzwerk freigeben und das Netzwerk einrichten"),
      entry("drucker", "Drucker", "Den Drucker einstellen"),
    ];
    expect(search(german, "de", "Festplatte", SNOWBALL_STEMMERS)).toStrictEqual(["netz", "speicher"]);
    const english = [
      entry("source", "Source", "The source of the sources"),
      entry("sour", "Sour", "A sour taste in the coffee"),
      entry("tea", "Tea", "The tea and the water"),
    ];
    expect(search(english, "en", "sour", SNOWBALL_STEMMERS)).toStrictEqual(["sour"]);
    // One German page among English ones leaves English words as they are.
    const mixed = [...english, entry("de", "Quelle", "Die Quelle der Daten und der Netzwerke ist nicht sour")];
    const index = createIndex(mixed, { ranking: "bm25", stemmers: SNOWBALL_STEMMERS });
    expect(index.search("sour").map((hit) => hit.id)).toStrictEqual(["sour", "de"]);
  });

  it("stems a word written in another script as that script's language: Russian in an English page, English in a Russian one", () => {
    const entries = [
      entry("en-page", "Packages", "Building packages: the новые пакеты are uploaded"),
      entry("ru-page", "Пакеты", "Что это: если пакет может быть собран, его uploading начинается"),
      entry("other", "Сеть", "Подключение к сети"),
    ];
    expect(search(entries, "en", "новый пакет", SNOWBALL_STEMMERS)).toStrictEqual(["en-page", "ru-page"]);
    expect(createIndex(entries, { ranking: "bm25", stemmers: SNOWBALL_STEMMERS }).search("upload").map((hit) => hit.id)).toStrictEqual(["en-page", "ru-page"]);
  });

  it("names its stemmers after the languages they stem, so that the --cache fingerprint changes with them", () => {
    const stemmed = LANGUAGES.filter((language) => typeof SNOWBALL_STEMMERS[language] === "function");
    expect(stemmed).toStrictEqual(["pt", "es", "en", "ru", "uk", "el", "de", "fr", "it"]);
    expect(SNOWBALL_STEMMERS.name).toBe(`snowball ${stemmed.join(" ")}`);
  });
});
