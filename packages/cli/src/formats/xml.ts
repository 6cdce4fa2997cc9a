/**
 * The little XML reading the zip formats need (a title in a metadata file, a path in a
 * manifest), over the HTML helpers' tag reader: no XML parser is loaded for a few attributes.
 * Tags are found with `indexOf`, so every read is linear in the text.
 */
import { attribute, decodeEntities, readTag } from "./html-text.js";

/** Where each start tag named `name` (prefix included, any case) begins, in order. */
function* startTags(xml: string, name: string): Generator<number> {
  const lower = xml.toLowerCase();
  const open = `<${name.toLowerCase()}`;
  for (let at = lower.indexOf(open); at !== -1; at = lower.indexOf(open, at + open.length)) {
    const next = lower[at + open.length];
    if (next === ">" || next === "/" || next === " " || next === "\t" || next === "\n" || next === "\r") yield at;
  }
}

/** A fragment's text without its tags, by `indexOf`: linear however many `<` it holds. */
function withoutTags(fragment: string): string {
  let out = "";
  let at = 0;
  for (let open = fragment.indexOf("<"); open !== -1; open = fragment.indexOf("<", at)) {
    out += fragment.slice(at, open);
    const close = fragment.indexOf(">", open);
    if (close === -1) return out;
    at = close + 1;
  }
  return out + fragment.slice(at);
}

/**
 * The text of the first element named `name` (with its prefix, e.g. `dc:title`), entities
 * decoded and whitespace collapsed; undefined when absent or empty.
 *
 * @example
 * elementText("<dc:title>Brewing &amp; more</dc:title>", "dc:title"); // => "Brewing & more"
 */
export function elementText(xml: string, name: string): string | undefined {
  for (const at of startTags(xml, name)) {
    const start = xml.indexOf(">", at);
    if (start === -1) return undefined;
    const end = xml.toLowerCase().indexOf(`</${name.toLowerCase()}>`, start);
    if (end === -1) return undefined;
    const text = decodeEntities(withoutTags(xml.slice(start + 1, end))).replace(/\s+/g, " ").trim();
    return text === "" ? undefined : text;
  }
  return undefined;
}

/**
 * Every start tag named `name` (prefix included), as the values of the attributes asked for
 * (an absent one is left out).
 *
 * @example
 * tagsNamed('<item id="c1" href="ch1.xhtml"/>', "item", ["id", "href"]); // => [{ id: "c1", href: "ch1.xhtml" }]
 */
export function tagsNamed(xml: string, name: string, attributes: readonly string[]): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  for (const at of startTags(xml, name)) {
    const tag = readTag(xml, at);
    if (tag === null) break;
    const values: Record<string, string> = {};
    for (const wanted of attributes) {
      const value = attribute(` ${tag.raw.slice(name.length)}`, wanted);
      if (value !== undefined) values[wanted] = value;
    }
    found.push(values);
  }
  return found;
}

/**
 * An XML or XHTML text without its document type declaration, internal subset included (whose
 * declarations hold ">" of their own, which would otherwise leave "]>" in the text). Linear in
 * the text.
 *
 * @example
 * withoutDoctype('<!DOCTYPE d [<!ENTITY e "x">]><d>text</d>'); // => "<d>text</d>"
 */
export function withoutDoctype(xml: string): string {
  const start = xml.indexOf("<!DOCTYPE");
  if (start === -1) return xml;
  const close = xml.indexOf(">", start);
  const subset = xml.indexOf("[", start);
  let end = close;
  if (subset !== -1 && (close === -1 || subset < close)) {
    // The internal subset ends at "]", spaces, then ">".
    end = -1;
    for (let bracket = xml.indexOf("]", subset); bracket !== -1; bracket = xml.indexOf("]", bracket + 1)) {
      let after = bracket + 1;
      while (after < xml.length && " \t\r\n".includes(xml[after] as string)) after += 1;
      if (xml[after] === ">") {
        end = after;
        break;
      }
    }
  }
  return end === -1 ? xml.slice(0, start) : xml.slice(0, start) + xml.slice(end + 1);
}

/** The entities every XML document has; any other is declared by a DTD. */
const PREDEFINED_ENTITIES: ReadonlySet<string> = new Set(["amp", "lt", "gt", "quot", "apos"]);

/**
 * An XML text without its document type declaration ({@link withoutDoctype}) and without the
 * references to the entities a DTD could declare: the text around them is kept, and nothing is
 * expanded (an entity expansion attack expands nothing). The five predefined entities and
 * character references stay. Linear in the text.
 *
 * @example
 * withoutDtd('<!DOCTYPE d [<!ENTITY e "x">]><d>a &e; &amp; b</d>'); // => "<d>a  &amp; b</d>"
 */
export function withoutDtd(xml: string): string {
  return withoutDoctype(xml).replace(/&([A-Z_a-z][\w.-]*);/g, (whole, name: string) => (PREDEFINED_ENTITIES.has(name) ? whole : ""));
}
