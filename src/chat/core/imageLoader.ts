import type * as l10n from '@vscode/l10n';
import { IMAGE_FETCH_MS } from '../../common/requestBounds';
import { mayFetchImage, type ResolveHost } from './imagePolicy';

// "Click to load" for an image the answer points at (src/webview/images.ts): the user asked for
// it, so the host fetches it, with every size and wait bounded, and hands the page a data: URL,
// the only kind of outside image its CSP allows. Raster images only: an SVG is a document that
// can carry script and links. No key and no cookie travels with the request. Only a public
// address, or an origin the user configured, is connected to (imagePolicy.ts), and whatever goes
// wrong before an image arrives reads the same: a refused address, a closed port, a 404 and a
// timeout must not tell a page's author what listens on the user's machine or network.

export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
const IMAGE_TYPES = new Set(['image/png', 'image/gif', 'image/jpeg', 'image/webp']);

/** vscode.l10n.t, or `english` (src/common/l10n.ts) in tests. */
type Translate = (message: string, ...args: l10n.L10nReplacement[]) => string;

/** The image, or why not: `error` is what the user reads, in the display language. */
export type ImageLoad =
  | { dataUrl: string }
  | {
      /** @userFacing */
      error: string;
    };

export interface ImageLoadOptions {
  /** Origins the user configured (imagePolicy.ts trustedImageOrigins): loaded even from this machine. */
  trustedOrigins?: readonly string[];
  /** The host's DNS lookup, to check where a name leads; absent in a browser. */
  resolve?: ResolveHost;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  maxBytes?: number;
  timeoutMs?: number;
}

export async function loadImage(raw: string, t: Translate, opts: ImageLoadOptions = {}): Promise<ImageLoad> {
  const l10n = { t };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { error: l10n.t('That is not a web address.') };
  }
  // One message for every way of not getting an image (but a cancel the user asked for).
  const failed = (): ImageLoad => ({
    error: opts.signal?.aborted
      ? l10n.t('Cancelled.')
      : l10n.t('Could not load the image. Images load only over https from public addresses, or from your docs site.'),
  });
  const maxBytes = opts.maxBytes ?? IMAGE_MAX_BYTES;
  const tooLarge = (): ImageLoad => ({ error: l10n.t('The image is larger than {0} MB.', Math.round(maxBytes / 1024 / 1024)) });
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? IMAGE_FETCH_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  try {
    if (!(await mayFetchImage(url, opts.trustedOrigins ?? [], opts.resolve, signal))) return failed();
    // A redirect is an error, not followed: its target was never checked.
    const response = await (opts.fetch ?? globalThis.fetch)(url.href, {
      signal,
      redirect: 'error',
      credentials: 'omit',
      headers: { Accept: [...IMAGE_TYPES].join(', ') },
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return failed();
    }
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!IMAGE_TYPES.has(type)) {
      await response.body?.cancel().catch(() => undefined);
      return { error: l10n.t('{0} did not send a PNG, GIF, JPEG or WebP image.', url.host) };
    }
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      return tooLarge();
    }
    const chunks: Uint8Array[] = [];
    let total = 0;
    const reader = response.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return tooLarge();
      }
      chunks.push(value);
    }
    return { dataUrl: `data:${type};base64,${toBase64(chunks, total)}` };
  } catch {
    return failed();
  }
}

/** Base64 without Node's Buffer, so the same code runs in a browser extension host. */
function toBase64(chunks: readonly Uint8Array[], total: number): string {
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
