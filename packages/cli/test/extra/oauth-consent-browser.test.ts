/**
 * The consent page in a real headless Chromium (Debian's `chromium`, driven by playwright-core),
 * on a phone-sized screen, with JavaScript off: the owner types the secret and allows, and the
 * browser is sent back to the client's redirect URI with a code. The screenshot is checked to be
 * the page (a phone-wide PNG, far richer than a blank page), and the layout to fit the screen.
 *
 * CI installs Chromium (.ci/run sets MCP_SEARCH_REQUIRE_CHROMIUM=1, so a missing browser fails
 * there); elsewhere the file skips when /usr/bin/chromium is absent.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveInProcess, type ServedInProcess } from "../_cli-serve.js";
import { OWNER_SECRET } from "../oauth/_oauth-client.js";

const CHROMIUM = "/usr/bin/chromium";
const available = existsSync(CHROMIUM) || process.env["MCP_SEARCH_REQUIRE_CHROMIUM"] === "1";
const PHONE = { width: 390, height: 844 };

/** The width and height a PNG's IHDR chunk states. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8)).toStrictEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe.skipIf(!available)("the consent page in Chromium", () => {
  const folder = mkdtempSync(join(tmpdir(), "mcp-search-consent-browser-"));
  writeFileSync(join(folder, "note.md"), "# A note\n\nPrivate.\n");
  let served: ServedInProcess;
  let browser: Browser;
  /** The client's own callback on a loopback port, as Claude Code and Cursor run one. */
  let callback: Server;
  let redirectUri: string;

  beforeAll(async () => {
    callback = createServer((_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("back at the client"));
    await new Promise<void>((resolve) => callback.listen(0, "127.0.0.1", resolve));
    redirectUri = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
    served = await serveInProcess([folder, "--http", "127.0.0.1:0", "--oauth", "--locale", "pt-BR"], { MCP_SEARCH_OWNER_SECRET: OWNER_SECRET });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    callback?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("lets the owner allow on a phone without JavaScript, and sends the browser back with a code", async () => {
    const base = served.url.origin;
    const registered = (await (await fetch(`${base}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "ChatGPT", redirect_uris: [redirectUri], token_endpoint_auth_method: "none" }),
    })).json()) as { client_id: string };
    const challenge = createHash("sha256").update(randomBytes(32).toString("base64url")).digest("base64url");
    const authorize = new URL(`${base}/oauth/authorize`);
    for (const [key, value] of Object.entries({ response_type: "code", client_id: registered.client_id, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256", state: "s1" })) {
      authorize.searchParams.set(key, value);
    }

    const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
    const page = await context.newPage();

    const blank = await page.screenshot();
    await page.goto(authorize.href);
    expect(await page.locator("html").getAttribute("lang")).toBe("pt-BR");
    await expect(page.locator("h1").textContent()).resolves.toBe("Autorizar acesso aos seus documentos");
    await expect(page.locator(".client").textContent()).resolves.toBe("ChatGPT");
    // It fits a phone: no sideways scrolling, and touch targets of at least 44 px.
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(PHONE.width);
    for (const selector of ["#secret", "button.allow", "button.deny"]) {
      const box = await page.locator(selector).boundingBox();
      expect(box!.height).toBeGreaterThanOrEqual(44);
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    }
    const shot = await page.screenshot({ fullPage: true, path: join(tmpdir(), "mcp-search-consent.png") });
    expect(pngSize(shot).width).toBe(PHONE.width);
    expect(shot.length).toBeGreaterThan(3 * blank.length);

    await page.locator("#secret").fill(OWNER_SECRET);
    await Promise.all([page.waitForURL((url) => url.href.startsWith(redirectUri)), page.locator("button.allow").click()]);
    const back = new URL(page.url());
    expect(back.searchParams.get("code")).toMatch(/^[\w-]{43}$/);
    expect(back.searchParams.get("state")).toBe("s1");
    expect(back.searchParams.get("iss")).toBe(base);
    await context.close();
  });
});
