/**
 * The little XML reading the zip formats need (a title in a metadata file, a path in a
 * manifest), over the HTML helpers' tag reader: no XML parser is loaded for a few attributes.
 */
import { decodeEntities } from "../html.js";

/**
 * The text of the first element named `name` (with its prefix, e.g. `dc:title`), entities
 * decoded and whitespace collapsed; undefined when absent or empty.
 *
 * @example
 * elementText("<dc:title>Brewing &amp; more</dc:title>", "dc:title"); // => "Brewing & more"
 */
export function elementText(xml: string, name: string): string | undefined {
  const open = new RegExp(`<${name}(?:\\s[^>]*)?>`, "i").exec(xml);
  if (open === null) return undefined;
  const start = open.index + open[0].length;
  const end = xml.toLowerCase().indexOf(`</${name.toLowerCase()}>`, start);
  if (end === -1) return undefined;
  const text = decodeEntities(xml.slice(start, end).replace(/<[^>]*>/g, "")).replace(/\s+/g, " ").trim();
  return text === "" ? undefined : text;
}

/**
 * Every start tag named `name` (prefix included), as its attributes by name.
 *
 * @example
 * tagsNamed('<item id="c1" href="ch1.xhtml"/>', "item"); // => [{ id: "c1", href: "ch1.xhtml" }]
 */
export function tagsNamed(xml: string, name: string): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  const tag = new RegExp(`<${name}(\\s[^>]*)?/?>`, "gi");
  for (let match = tag.exec(xml); match !== null; match = tag.exec(xml)) {
    const attributes: Record<string, string> = {};
    const attribute = /([\w:.-]+)\s*=\s*("([^"]*)"|'([^']*)')/g;
    const raw = match[1] ?? "";
    for (let pair = attribute.exec(raw); pair !== null; pair = attribute.exec(raw)) {
      attributes[pair[1] as string] = decodeEntities(pair[3] ?? pair[4] ?? "");
    }
    found.push(attributes);
  }
  return found;
}
