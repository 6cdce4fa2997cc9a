/**
 * What `mcp-search serve --oauth` and `mcp-search revoke` do with the authorization server's
 * state, loaded only by them: a server without `--oauth` never loads this folder.
 */
import { createAuthorizationServer, type AuthorizationServer } from "./authorization-server.js";
import { configuredSecret, settleOwnerSecret } from "./owner-secret.js";
import { openStateStore } from "./state.js";
import type { Locale } from "@sbissoli/mcp-search";

/** What {@link prepareOAuth} needs. */
interface OAuthSetup {
  /** `--state` (else `--cache`); undefined keeps the state in memory. */
  readonly state?: string | undefined;
  readonly ownerSecretFile?: string | undefined;
  /** Where `MCP_SEARCH_OWNER_SECRET` is read. */
  readonly environment: Readonly<Record<string, string | undefined>>;
  readonly locale: Locale;
  /** The folders the consent page names. */
  readonly folders: readonly string[];
  /** True behind `--public-url`: the proxy's `X-Forwarded-For` names the client. */
  readonly trustForwardedFor: boolean;
  readonly log: (line: string) => void;
}

/**
 * Opens the state, settles the owner's secret (printing a new one once), and returns the
 * factory the HTTP transport calls with the issuer once it is listening. Throws one sentence
 * for a state folder or a secret that cannot be used.
 *
 * @example
 * const oauth = await prepareOAuth({ environment: process.env, locale: "en", folders: ["docs"], trustForwardedFor: false, log });
 * const server = oauth("http://127.0.0.1:8787");
 */
export async function prepareOAuth(setup: OAuthSetup): Promise<(issuer: string) => AuthorizationServer> {
  const { log } = setup;
  const configured = configuredSecret({ environment: setup.environment["MCP_SEARCH_OWNER_SECRET"], file: setup.ownerSecretFile });
  const store = openStateStore(setup.state, log);
  const ownerSecret = await settleOwnerSecret(store, configured, log, (secret) => {
    log(`oauth: the owner's secret, shown this once: ${secret}`);
    log(`oauth: type it on the consent page to allow a client. To choose your own, set MCP_SEARCH_OWNER_SECRET or --owner-secret-file (a new secret ends every grant)`);
  });
  const grants = store.read().grants.length;
  log(`oauth: state in ${store.where}${store.where === "memory" ? " (a restart ends every grant: pass --state DIR to keep them)" : ""}; ${grants} grant${grants === 1 ? "" : "s"} alive`);
  return (issuer) => createAuthorizationServer({ issuer, mcpPath: "/mcp", store, ownerSecret, locale: setup.locale, folders: setup.folders, log, trustForwardedFor: setup.trustForwardedFor });
}

/**
 * `mcp-search revoke`: ends every grant kept in `stateDir`. A running server reads the change
 * before its next request, so every access and refresh token stops working at once. Returns how
 * many grants ended.
 *
 * @example
 * revokeEveryGrant("/home/me/.cache/mcp-search", log); // => 2
 */
export function revokeEveryGrant(stateDir: string, log: (line: string) => void): number {
  const store = openStateStore(stateDir, log);
  const ended = store.read().grants.length;
  store.update((state) => ({ ...state, grants: [] }));
  return ended;
}
