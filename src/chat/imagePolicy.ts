import { isLoopbackUrl } from '../api/url';

// Which origins' images may load in an answer by themselves: the docs site's own, and any the
// user added, both from the user's settings only (host/config.ts). https only, or plain http to
// this machine (the local emulator serves its docs pages over http). Everything else waits for a
// click (src/webview/images.ts). Pure, so it is tested in Node.

export function imageOrigins(docsSiteUrl: string, extra: readonly string[]): string[] {
  const out = new Set<string>();
  for (const raw of [docsSiteUrl, ...extra]) {
    const origin = webOrigin(raw);
    if (origin) out.add(origin);
  }
  return [...out];
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
