import type { IncomingMessage, ServerResponse } from 'node:http';

// Cross-origin requests, answered the way a public API answers them. In a browser (github.dev,
// vscode.dev, code-server's web worker) every request to the service is cross-origin: the
// browser sends a preflight (OPTIONS) before a POST with a JSON body or an Authorization header,
// and lets the page read only the response headers the server exposes, so X-Thread-Id,
// X-Thread-Key and Retry-After are listed. No credentials (cookies) are ever allowed: the key
// travels in Authorization, which a page must set itself. `cors: false` plays a service that
// sends no CORS headers at all, which a browser refuses.

const ALLOW_HEADERS = 'authorization, content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id';
const EXPOSE_HEADERS = 'x-thread-id, x-thread-key, retry-after, mcp-session-id';

/** Adds the CORS headers to `res` for a request with an Origin; true when it was a preflight, now answered. */
export function answerCors(req: IncomingMessage, res: ServerResponse, enabled: boolean): boolean {
  const origin = req.headers.origin;
  const preflight = req.method === 'OPTIONS' && typeof req.headers['access-control-request-method'] === 'string';
  if (enabled && origin !== undefined) {
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-expose-headers', EXPOSE_HEADERS);
    res.setHeader('vary', 'origin');
    if (preflight) {
      res.setHeader('access-control-allow-methods', 'GET, POST, DELETE, OPTIONS');
      res.setHeader('access-control-allow-headers', ALLOW_HEADERS);
      res.setHeader('access-control-max-age', '600');
    }
  }
  if (!preflight) return false;
  // Without CORS the preflight still gets an answer, as from a server that knows nothing of it:
  // the browser refuses the request because the headers are missing, not because nobody answered.
  res.writeHead(enabled ? 204 : 405, { 'content-length': '0' }).end();
  return true;
}
