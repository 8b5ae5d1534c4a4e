// The chat webview's page. Pure (no vscode, no Node) so the browser tests render the very
// same HTML that VS Code gets. Everything interpolated is escaped; the CSP allows only the
// nonce'd bundle, styles and fonts from the extension, and images from the extension, data: and
// the origins the user allowed in their own settings (imagePolicy.ts). Nothing else may be
// fetched, framed, played or posted from the page: an image from anywhere else waits for a click
// and comes through the host (src/webview/images.ts). The page's words come with it: the l10n
// bundle of the display language, as a JSON data block that the page reads (src/webview/l10n.ts)
// and that is never run, so the CSP need not allow it.
// The whole page is one `main` landmark under a heading: a screen reader's landmark and heading
// keys land on the chat. The heading is the view's name as VS Code's view title shows it, so it
// is hidden from sight only (the title bar already shows it).

export interface WebviewHtmlOptions {
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  codiconUri: string;
  /** @userFacing */
  title: string;
  /** Origins whose images may load by themselves; already checked (imagePolicy.ts). */
  imageOrigins?: readonly string[];
  /** vscode.l10n.bundle: the translations of the display language; undefined for English. */
  l10nBundle?: Readonly<Record<string, string>>;
  /** The display language (vscode.env.language), for the page's `lang`. */
  lang?: string;
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * The bundle as the content of a `<script type="application/json">`: JSON whose every `<` is
 * escaped, so no text in it can end the element (`</script>`) or open a comment.
 */
export function l10nDataBlock(bundle: Readonly<Record<string, string>> | undefined): string {
  if (!bundle) return '';
  return `<script type="application/json" id="l10n">${JSON.stringify(bundle).replace(/</g, '\\u003c')}</script>\n`;
}

/** A language tag as `lang` takes it, or English. */
const LANG = /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i;

/** A CSP source list can be widened by a stray `;` or space: only plain origins get in. */
const ORIGIN = /^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$|^https?:\/\/\[[0-9a-f:]+\](:\d{1,5})?$/i;

export function contentSecurityPolicy(cspSource: string, nonce: string, imageOrigins: readonly string[] = []): string {
  const images = imageOrigins.filter((o) => ORIGIN.test(o));
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    ['img-src', cspSource, 'data:', ...images].join(' '),
    "media-src 'none'",
    "object-src 'none'",
    `font-src ${cspSource}`,
    "connect-src 'none'",
    "frame-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

export function renderWebviewHtml(o: WebviewHtmlOptions): string {
  return `<!DOCTYPE html>
<html lang="${o.lang && LANG.test(o.lang) ? o.lang : 'en'}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${esc(contentSecurityPolicy(o.cspSource, o.nonce, o.imageOrigins))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${esc(o.codiconUri)}">
<link rel="stylesheet" href="${esc(o.styleUri)}">
<title>${esc(o.title)}</title>
</head>
<body>
${l10nDataBlock(o.l10nBundle)}<main id="app" class="app" aria-busy="true" data-image-origins="${esc((o.imageOrigins ?? []).filter((x) => ORIGIN.test(x)).join(' '))}">
<h1 class="sr-only">${esc(o.title)}</h1>
</main>
<script nonce="${esc(o.nonce)}" src="${esc(o.scriptUri)}"></script>
</body>
</html>`;
}

/** 32 random characters from the platform's CSPRNG (crypto.getRandomValues works in Node and browsers). */
export function createNonce(): string {
  const bytes = new Uint8Array(24);
  globalThis.crypto.getRandomValues(bytes);
  let s = '';
  for (const b of bytes) s += b.toString(36).padStart(2, '0');
  return s.slice(0, 32);
}
