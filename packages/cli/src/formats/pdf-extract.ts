/**
 * A PDF's text, page by page, through unpdf (Mozilla's PDF.js built for servers), for ./pdf.ts.
 */
import { loadParser, type PdfPages } from "./types.js";

/**
 * The text of each page (lines kept), the metadata title, or the failure's reason: a PDF that
 * asks for a password is `encrypted`, one PDF.js cannot parse is `corrupt`. `deadline` is a
 * `performance.now()` time: past it, between two pages, the reading stops as `timeout`.
 *
 * @example
 * await extractPdfPages(bytes, performance.now() + 10_000); // => { ok: true, pages: ["LS(1) …", …], title: undefined }
 */
export async function extractPdfPages(bytes: Uint8Array, deadline: number): Promise<PdfPages> {
  const { getDocumentProxy } = await loadParser(() => import("unpdf"));
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // A copy as a plain Uint8Array: PDF.js refuses a Buffer, and may take over the bytes it is given.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, useSystemFonts: false, disableFontFace: true });
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: name === "PasswordException" ? "encrypted" : "corrupt", detail: message };
  }
  try {
    const pages: string[] = [];
    for (let number = 1; number <= pdf.numPages; number += 1) {
      if (performance.now() > deadline) return { ok: false, reason: "timeout", detail: `after ${number - 1} of ${pdf.numPages} pages` };
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      let text = "";
      for (const item of content.items) {
        if (!("str" in item)) continue;
        text += item.str;
        if (item.hasEOL) text += "\n";
      }
      pages.push(text.split("\n").map((line) => line.trimEnd()).join("\n").trim());
      page.cleanup();
    }
    const info = (await pdf.getMetadata().catch(() => undefined))?.info as { Title?: unknown } | undefined;
    const title = typeof info?.Title === "string" ? info.Title : undefined;
    return { ok: true, pages, title };
  } catch (error) {
    return { ok: false, reason: "corrupt", detail: error instanceof Error ? error.message : String(error) };
  } finally {
    await pdf.loadingTask.destroy().catch(() => undefined);
  }
}
