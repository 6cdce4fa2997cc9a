/**
 * What an entry is to BM25F: its fields' tokens, read in its language (paragraph by paragraph),
 * analysed and as written; and the units the lead and passage views cut from its text.
 */
import type { RankedEntry } from "../entries.js";
import type { Language } from "../../languages/index.js";
import { analyzeWithWritten, chooseLanguage, splitWords } from "../analysis/analyze.js";
import { DETECTION_SAMPLE, detectLanguage } from "../analysis/language.js";
import { withoutCrossReferences } from "../analysis/references.js";
import { isSpacelessWord } from "../analysis/tokenize.js";
import { BM25_DEFAULTS, type Bm25Parameters } from "./parameters.js";

/**
 * An entry's language, every language its words were read in, and its fields' tokens (id, title,
 * keywords, text), analysed (`fields`) and as written (`exact`: the same words, stopwords dropped,
 * neither plural-folded nor stemmed). The entry's language is chosen from its title's and text's words
 * (`chooseLanguage`); the id, the title and the keywords are read in it, and so is its text
 * (less the quoted titles of numbered cross-references, `withoutCrossReferences`), paragraph by
 * paragraph (blocks between blank lines), except a paragraph whose own function
 * words name another language (`detectLanguage` without the detector), read in that one: a page
 * translated in part keeps its English paragraphs English and its Italian ones Italian. With a
 * fixed `language`, every word is read in it.
 *
 * @example
 * entryTokens({ id: "a", title: "Ciudades", url: "https://x.org/a", text: "Las luces de la ciudad y del puerto" }, BM25_DEFAULTS);
 * // => { language: "es", languages: ["es"], fields: [[], ["ciudad"], [], ["luz", "ciudad", "puerto"]],
 * //      exact: [[], ["ciudades"], [], ["luces", "ciudad", "puerto"]] }
 */
export function entryTokens(entry: RankedEntry, parameters: Pick<Bm25Parameters, "analysis"> = BM25_DEFAULTS): { language: Language; languages: Language[]; fields: string[][]; exact: string[][] } {
  const { analysis } = parameters;
  const { segmentation } = analysis;
  const title = splitWords(entry.title, segmentation);
  const paragraphs = withoutCrossReferences(entry.text ?? "").split(PARAGRAPH_BREAK).map((paragraph) => splitWords(paragraph, segmentation));
  const auto = analysis.language === "auto";
  const language = chooseLanguage(auto ? title.concat(firstWords(paragraphs, DETECTION_SAMPLE)) : [], analysis);
  const keywords = (entry.keywords ?? []).flatMap((keyword) => splitWords(keyword, segmentation));
  const languages = [language];
  const text: string[] = [];
  const exactText: string[] = [];
  for (const words of paragraphs) {
    const own = (auto && paragraphs.length > 1 ? detectLanguage(words) : undefined) ?? language;
    if (!languages.includes(own)) languages.push(own);
    const [tokens, written] = analyzeWithWritten(words, own, analysis);
    for (const token of tokens) text.push(token);
    for (const token of written) exactText.push(token);
  }
  const heads = [splitWords(entry.id, segmentation), title, keywords].map((words) => analyzeWithWritten(words, language, analysis));
  const fields = [...heads.map(([tokens]) => tokens), text];
  const exact = [...heads.map(([, written]) => written), exactText];
  return { language, languages, fields, exact };
}

/** The first `count` words of `paragraphs`, in order. */
function firstWords(paragraphs: readonly (readonly string[])[], count: number): string[] {
  const words: string[] = [];
  for (const paragraph of paragraphs) {
    if (words.length >= count) break;
    words.push(...paragraph.slice(0, count - words.length));
  }
  return words;
}

/**
 * An entry's lead: its first `length` text tokens, then, when fewer than `length` of them are
 * words of a spaceless script (Han, kana, Thai, Lao), the next such words up to `length`. Cut by
 * the segmentation, those words are short (particles included), and a page translated in part
 * often opens with a paragraph left in English: GNOME's help in Japanese and Chinese ranked below
 * a plain BM25 with the first 30 tokens alone (0.675 and 0.558 MRR@10 against 0.684 and 0.577),
 * and above it with this lead (0.735, 0.607), for 0.003 and 0.007 on the Japanese and Chinese
 * development corpora; a lead per script cost the latter 0.014, and no lead 0.05
 * (docs/performance.md, "Languages"). Text with no such word keeps its first `length` tokens.
 * A shorter lead is tuned to the development corpora, not to the languages: 18 tokens (36 of a
 * spaceless script) gained 0.009 MRR@10 on all 11 of them, and lost 0.006 on the 25 test
 * corpora, 17 of them down (LibreOffice's help in Greek 0.039).
 *
 * @example
 * leadOf(["install", "the", "東京", "地下鉄"], 2); // => ["install", "the", "東京", "地下鉄"]
 */
export function leadOf(text: readonly string[], length: number): string[] {
  const lead = text.slice(0, length);
  let spaceless = 0;
  for (const word of lead) if (isSpacelessWord(word)) spaceless += 1;
  for (let i = length; i < text.length && spaceless < length; i++) {
    const word = text[i]!;
    if (isSpacelessWord(word)) {
      lead.push(word);
      spaceless += 1;
    }
  }
  return lead;
}

/** A blank line, with any spaces on it: where a paragraph ends. */
const PARAGRAPH_BREAK = /\n[ \t\r\f\v]*\n/;

/**
 * Where each passage of a text of `length` tokens starts: at 0, then every max(1, W) tokens
 * while the text goes on. Until the exact-word view, passages overlapped by half; with it, the
 * overlap scored the same on the development corpora (+0.0002 MRR@10 on average without it) and
 * held every token twice, as many postings as the exact-word view adds (docs/performance.md).
 *
 * @example
 * passageStarts(250, 100); // => [0, 100, 200]
 */
export function passageStarts(length: number, size: number): number[] {
  const step = Math.max(1, size);
  const starts = [0];
  for (let from = step; from < length; from += step) starts.push(from);
  return starts;
}
