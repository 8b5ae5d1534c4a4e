import { isLoopbackUrl, hostScope, isPublicAddress } from '../../api';

// Which images may load, from the user's settings only (host/config.ts). By themselves, in an
// answer: the docs site's own and any origin the user added, https only, or plain http to this
// machine (the local emulator serves its docs pages over http). Everything else waits for a click
// (src/webview/images.ts), and then the host fetches it only from a public address, or from an
// origin the user configured. Pure, so it is tested in Node.

/** Every address a name resolves to: the Node host's DNS lookup (src/extension.ts). A browser has none. */
export type ResolveHost = (hostname: string) => Promise<readonly string[]>;

export function imageOrigins(docsSiteUrl: string, extra: readonly string[]): string[] {
  const out = new Set<string>();
  for (const raw of [docsSiteUrl, ...extra]) {
    const origin = webOrigin(raw);
    if (origin) out.add(origin);
  }
  return [...out];
}

/**
 * Origins a click may load from even when they are on this machine or network: the ones whose
 * images load by themselves, and the service's (the emulator serves both on 127.0.0.1).
 */
export function trustedImageOrigins(docsSiteUrl: string, baseUrl: string, extra: readonly string[]): string[] {
  return imageOrigins(docsSiteUrl, [baseUrl, ...extra]);
}

/**
 * Whether the host may connect to `url` at all. Any origin the user did not configure must be
 * https at a public address: an IP literal is judged as it is; a name, on every address it
 * resolves to when the host can resolve it (Node), else on the name alone (the browser, whose
 * fetch goes wherever its DNS says). A failed lookup is a refusal.
 */
export async function mayFetchImage(url: URL, trustedOrigins: readonly string[], resolve: ResolveHost | undefined, signal: AbortSignal): Promise<boolean> {
  if (trustedOrigins.includes(url.origin)) return true;
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  const scope = hostScope(url.hostname);
  if (scope !== 'name' || !resolve) return scope !== 'local';
  try {
    const addresses = await Promise.race([resolve(url.hostname), aborted(signal)]);
    return addresses.length > 0 && addresses.every(isPublicAddress);
  } catch {
    return false;
  }
}

/** Rejects when `signal` aborts, so a lookup that hangs is bounded by the load's own wait. */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

function webOrigin(raw: string): string | undefined {
  if (!raw || !raw.trim()) return undefined;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if (url.username || url.password) return undefined;
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackUrl(url.href))) return url.origin;
  return undefined;
}
