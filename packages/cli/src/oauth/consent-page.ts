/**
 * The page the owner sees when a client asks for access: which client asks, the host it will
 * return to, which folders it will read, one field for the owner's secret, and Allow / Deny.
 * Plain HTML with a form: it works without JavaScript, and its one stylesheet (inline, allowed by
 * a nonce) reads well on a phone. It speaks the server's locale. Every value shown is escaped.
 */
import type { Locale } from "@sbissoli/mcp-search";

/** The words of the page, one table per locale. */
interface ConsentTexts {
  readonly lang: string;
  readonly title: string;
  readonly asks: string;
  readonly unnamed: string;
  readonly returnsTo: string;
  readonly folders: string;
  readonly readOnly: string;
  readonly secret: string;
  readonly secretHint: string;
  readonly allow: string;
  readonly deny: string;
  readonly wrongSecret: string;
  readonly tooMany: (minutes: number) => string;
  readonly expired: string;
  readonly errorTitle: string;
  readonly unknownClient: string;
  readonly badRedirect: string;
}

const TEXTS: Record<Locale, ConsentTexts> = {
  "pt-BR": {
    lang: "pt-BR",
    title: "Autorizar acesso aos seus documentos",
    asks: "pede para ler os seus documentos.",
    unnamed: "Um cliente sem nome",
    returnsTo: "Depois, você volta para",
    folders: "Pastas que ele poderá ler",
    readOnly: "Só leitura: ele busca e lê documentos, não altera nada.",
    secret: "Segredo do dono",
    secretHint: "O segredo que o servidor mostrou ao iniciar, ou o de MCP_SEARCH_OWNER_SECRET.",
    allow: "Permitir",
    deny: "Negar",
    wrongSecret: "Segredo errado. Tente de novo.",
    tooMany: (minutes) => `Tentativas erradas demais. Tente de novo em ${minutes} min.`,
    expired: "Este pedido expirou ou não veio desta página. Volte ao aplicativo e conecte de novo.",
    errorTitle: "Não foi possível autorizar",
    unknownClient: "Este cliente não está registrado neste servidor. Volte ao aplicativo e conecte de novo.",
    badRedirect: "O endereço de retorno não é um dos que o cliente registrou, então ninguém será levado para lá.",
  },
  en: {
    lang: "en",
    title: "Authorize access to your documents",
    asks: "asks to read your documents.",
    unnamed: "An unnamed client",
    returnsTo: "Afterwards, you return to",
    folders: "Folders it will read",
    readOnly: "Read only: it searches and reads documents, and changes nothing.",
    secret: "Owner's secret",
    secretHint: "The secret the server printed when it first started, or the one in MCP_SEARCH_OWNER_SECRET.",
    allow: "Allow",
    deny: "Deny",
    wrongSecret: "Wrong secret. Try again.",
    tooMany: (minutes) => `Too many wrong attempts. Try again in ${minutes} min.`,
    expired: "This request expired or did not come from this page. Go back to the app and connect again.",
    errorTitle: "Authorization is not possible",
    unknownClient: "This client is not registered with this server. Go back to the app and connect again.",
    badRedirect: "The return address is not one the client registered, so nobody will be sent there.",
  },
  es: {
    lang: "es",
    title: "Autorizar el acceso a sus documentos",
    asks: "pide leer sus documentos.",
    unnamed: "Un cliente sin nombre",
    returnsTo: "Después, vuelve a",
    folders: "Carpetas que podrá leer",
    readOnly: "Solo lectura: busca y lee documentos, no cambia nada.",
    secret: "Secreto del dueño",
    secretHint: "El secreto que el servidor mostró al iniciarse, o el de MCP_SEARCH_OWNER_SECRET.",
    allow: "Permitir",
    deny: "Denegar",
    wrongSecret: "Secreto incorrecto. Inténtelo de nuevo.",
    tooMany: (minutes) => `Demasiados intentos incorrectos. Inténtelo de nuevo en ${minutes} min.`,
    expired: "Esta solicitud caducó o no vino de esta página. Vuelva a la aplicación y conecte de nuevo.",
    errorTitle: "No es posible autorizar",
    unknownClient: "Este cliente no está registrado en este servidor. Vuelva a la aplicación y conecte de nuevo.",
    badRedirect: "La dirección de retorno no es una de las que el cliente registró, así que nadie será enviado allí.",
  },
};

/** The texts of `locale`. */
export function consentTexts(locale: Locale): ConsentTexts {
  return TEXTS[locale];
}

/** What the consent form shows and carries. */
interface ConsentView {
  readonly locale: Locale;
  readonly clientName: string | undefined;
  /** The host the client's redirect URI returns to. */
  readonly returnHost: string;
  readonly folders: readonly string[];
  /** The pending request's id and its CSRF token, carried by hidden fields. */
  readonly requestId: string;
  readonly csrf: string;
  /** A message above the form: a wrong secret, too many attempts. */
  readonly notice?: string | undefined;
  /** The nonce of the page's style element (the Content-Security-Policy allows only it). */
  readonly nonce: string;
}

/**
 * Escapes text for HTML content and attribute values.
 *
 * @example
 * escapeHtml('<b title="x">'); // => "&lt;b title=&quot;x&quot;&gt;"
 */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}

const HTML_ESCAPES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1d2330}
main{max-width:28rem;margin:0 auto;padding:1.5rem 1rem}
h1{font-size:1.35rem;margin:0 0 1rem}
.card{background:#fff;border-radius:12px;padding:1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
.client{font-weight:600}
ul{padding-left:1.2rem;margin:.25rem 0 1rem}
li{overflow-wrap:anywhere}
.muted{color:#5a6272;font-size:.9rem}
.notice{background:#fdecea;color:#8a1c13;border-radius:8px;padding:.6rem .8rem;margin:0 0 1rem}
label{display:block;font-weight:600;margin:1rem 0 .25rem}
input[type=password]{width:100%;font-size:1.1rem;padding:.7rem;border:1px solid #b8bfcc;border-radius:8px}
.buttons{display:flex;gap:.75rem;margin-top:1.25rem}
button{flex:1;font-size:1.05rem;padding:.8rem;border-radius:8px;border:1px solid #1d4ed8;cursor:pointer}
.allow{background:#1d4ed8;color:#fff}
.deny{background:#fff;color:#1d4ed8}
`;

/** The page's common frame. */
function frame(locale: Locale, title: string, nonce: string, body: string): string {
  const texts = TEXTS[locale];
  return `<!doctype html>
<html lang="${texts.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/**
 * The consent page's HTML.
 *
 * @example
 * renderConsentPage({ locale: "en", clientName: "ChatGPT", returnHost: "chatgpt.com", folders: ["notes"], requestId, csrf, nonce });
 * // => "<!doctype html>…<span class=\"client\">ChatGPT</span> asks to read your documents.…"
 */
export function renderConsentPage(view: ConsentView): string {
  const texts = TEXTS[view.locale];
  const notice = view.notice === undefined ? "" : `<p class="notice" role="alert">${escapeHtml(view.notice)}</p>\n`;
  const folders = view.folders.map((folder) => `<li>${escapeHtml(folder)}</li>`).join("");
  return frame(
    view.locale,
    texts.title,
    view.nonce,
    `<h1>${escapeHtml(texts.title)}</h1>
<div class="card">
${notice}<p><span class="client">${escapeHtml(view.clientName ?? texts.unnamed)}</span> ${escapeHtml(texts.asks)}</p>
<p>${escapeHtml(texts.returnsTo)} <strong>${escapeHtml(view.returnHost)}</strong>.</p>
<p>${escapeHtml(texts.folders)}:</p>
<ul>${folders}</ul>
<p class="muted">${escapeHtml(texts.readOnly)}</p>
<form method="post" autocomplete="off">
<input type="hidden" name="request" value="${escapeHtml(view.requestId)}">
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
<label for="secret">${escapeHtml(texts.secret)}</label>
<input id="secret" name="secret" type="password" autocomplete="current-password" autocapitalize="none" spellcheck="false">
<p class="muted">${escapeHtml(texts.secretHint)}</p>
<div class="buttons">
<button class="deny" type="submit" name="decision" value="deny">${escapeHtml(texts.deny)}</button>
<button class="allow" type="submit" name="decision" value="allow">${escapeHtml(texts.allow)}</button>
</div>
</form>
</div>`,
  );
}

/**
 * A page that says why authorisation cannot go on (an unknown client, a redirect URI that does
 * not match, an expired form), without a link back: the client is not trusted to receive it.
 *
 * @example
 * renderErrorPage("en", "The client is not registered.", nonce); // => "<!doctype html>…"
 */
export function renderErrorPage(locale: Locale, message: string, nonce: string): string {
  const texts = TEXTS[locale];
  return frame(locale, texts.errorTitle, nonce, `<h1>${escapeHtml(texts.errorTitle)}</h1>\n<div class="card"><p>${escapeHtml(message)}</p></div>`);
}
