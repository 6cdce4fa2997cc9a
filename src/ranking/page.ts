/**
 * When two URLs name the same page: the one rule shared by the catalogue (src/site/catalogue.ts)
 * and the tolerant resolver (./resolve.ts). Private: never re-exported.
 *
 * Both agree that the scheme, a `www.` before the host, trailing slashes and the fragment never
 * count (`new URL` already lower-cases the host and drops a default port). They differ, on
 * purpose, only on the query:
 *
 * - the catalogue keeps it verbatim ({@link pageKey}): a catalogue lists pages, and two entries
 *   whose queries differ in any way are two pages, each kept and given its own id;
 * - the resolver sorts its parameters and ignores it unless two entries differ only by it
 *   ({@link sortedQuery}, ./resolve.ts): it reads what a model sent back, often with a
 *   tracking query or parameters in another order, and must still find the one page meant.
 */

/** The path without its trailing slashes ("/" for the root); a loop, linear in a run of slashes. */
export function trimSlash(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47 /* "/" */) end -= 1;
  return end === 0 ? "/" : path.slice(0, end);
}

/** A host name without a leading `www.`: "www.example.com" and "example.com" are one site. */
export function withoutWww(host: string): string {
  return host.startsWith("www.") ? host.slice(4) : host;
}

/** The host as the page rules see it: `www.` dropped, the port kept ("example.com:8080"). */
export function siteOf(url: URL): string {
  return withoutWww(url.host);
}

/** The host and path of a page, without the query: "example.com/docs/a". */
function sitePath(url: URL): string {
  return `${siteOf(url)}${trimSlash(url.pathname)}`;
}

/** The catalogue's key for a page: {@link sitePath} plus the query verbatim. */
export function pageKey(url: URL): string {
  return `${sitePath(url)}${url.search}`;
}

/** The resolver's query: parameters sorted, so `?b=2&a=1` and `?a=1&b=2` meet; "" without one. */
export function sortedQuery(url: URL): string {
  if (url.search === "") return "";
  const params = new URLSearchParams(url.search);
  params.sort();
  return params.toString();
}
