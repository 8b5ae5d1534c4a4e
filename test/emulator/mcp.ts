import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';
import { pageUrl, searchResult } from './compose';
import type { ResolvedOptions } from './config';
import type { Exchange } from './exchange';
import { tokenize, type DocsIndex } from './retrieval';

// POST /mcp: the MCP server a docs site publishes for AI tools (notes.md, "Beyond the interface"),
// over Streamable HTTP, built on the official SDK. Public like the real one: no key. Stateless: a
// new server and transport per POST, so there are no sessions to keep, leak or expire.

export const MCP_PATH = '/mcp';
/** A JSON-RPC call to a search tool is a few hundred bytes; this is room for any sane batch. */
export const MCP_MAX_BODY_BYTES = 64 * 1024;
export const QUERY_MAX_CHARS = 500;
export const SEARCH_LIMIT_MAX = 20;
const SEARCH_LIMIT_DEFAULT = 5;
/** get_page hands back at most this much markdown; the rest is a link. */
const PAGE_MAX_CHARS = 20_000;
const PAGE_ARG_MAX_CHARS = 2000;
/** The site the fixture docs describe; the docs pages carry the same name. */
const SITE_TITLE = 'Acme Relay documentation';

const text = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }] });
const toolError = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }], isError: true });

export class DocsMcp {
  constructor(
    private readonly opts: ResolvedOptions,
    private readonly docs: DocsIndex,
    private readonly baseUrl: () => string,
  ) {}

  async handle(ex: Exchange): Promise<void> {
    // GET would open a server-to-client SSE stream and DELETE would end a session; a stateless
    // server has neither, and says so the way the SDK's examples do.
    if (ex.method !== 'POST') return rpcError(ex, 405, -32000, 'Method not allowed: this MCP server is stateless and takes POST only.', { allow: 'POST' });
    if (Buffer.byteLength(ex.rawBody) > MCP_MAX_BODY_BYTES) {
      return rpcError(ex, 413, -32600, `Request body too large: at most ${MCP_MAX_BODY_BYTES} bytes.`, { connection: 'close' });
    }
    // The emulator has read the body already, so the transport gets it parsed; it must never be
    // left to read the spent request stream, so a body that is not JSON is answered here.
    let body: unknown;
    try {
      body = JSON.parse(ex.rawBody);
    } catch {
      return rpcError(ex, 400, -32700, 'Parse error: the request body is not JSON.');
    }

    const server = this.server();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const done = (): void => {
      void transport.close().catch(() => undefined);
      void server.close().catch(() => undefined);
    };
    if (ex.signal.aborted) return;
    ex.signal.addEventListener('abort', done, { once: true });
    try {
      await server.connect(transport);
      await transport.handleRequest(ex.req, ex.res, body);
    } catch (e) {
      this.opts.log(`POST ${MCP_PATH} failed: ${e instanceof Error ? e.message : String(e)}`);
      if (!ex.res.headersSent) return rpcError(ex, 500, -32603, 'Internal error in the emulator’s MCP server.');
      ex.res.destroy();
    } finally {
      // The transport wrote the response itself, past Exchange.head(): note the status for the log.
      if (ex.res.headersSent && ex.record && !ex.record.status) {
        ex.record.status = ex.res.statusCode;
        ex.onHead?.(ex.res.statusCode);
      }
    }
  }

  /** One server per request; registering two tools costs next to nothing. */
  private server(): McpServer {
    const server = new McpServer(
      { name: this.opts.domain, title: SITE_TITLE, version: '1.0.0', websiteUrl: `${this.baseUrl()}/docs` },
      {
        instructions: `Searches and reads the ${SITE_TITLE}. Use search first, then get_page for a page's full text. Cite the URLs the tools give.`,
      },
    );
    server.registerTool(
      'search',
      {
        title: 'Search the docs',
        description: `Search the ${SITE_TITLE}. Returns the best matching sections, each with its page title, URL and a snippet.`,
        inputSchema: {
          query: z
            .string()
            .min(1, 'The query is empty: say what to search for.')
            .max(QUERY_MAX_CHARS, `The query is too long: at most ${QUERY_MAX_CHARS} characters.`)
            .describe('What to search for, in a few words.'),
          limit: z
            .number()
            .int('limit must be a whole number.')
            .min(1, 'limit must be at least 1.')
            .max(SEARCH_LIMIT_MAX, `limit must be at most ${SEARCH_LIMIT_MAX}.`)
            .optional()
            .describe(`How many results, 1 to ${SEARCH_LIMIT_MAX}. Default ${SEARCH_LIMIT_DEFAULT}.`),
        },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      ({ query, limit }) => this.search(query, limit ?? SEARCH_LIMIT_DEFAULT),
    );
    server.registerTool(
      'get_page',
      {
        title: 'Read a docs page',
        description: `The markdown of one page of the ${SITE_TITLE}, by the URL that search gave, its path (/docs/<page>) or its name.`,
        inputSchema: {
          page: z
            .string()
            .min(1, 'Say which page: its URL, /docs/<page> path or name.')
            .max(PAGE_ARG_MAX_CHARS, `The page argument is too long: at most ${PAGE_ARG_MAX_CHARS} characters.`)
            .describe('The page URL from search, its path such as /docs/webhooks, or its name such as webhooks.'),
        },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      ({ page }) => this.page(page),
    );
    return server;
  }

  private search(query: string, limit: number): CallToolResult {
    if (query.trim() === '') return toolError('The query is blank: say what to search for.');
    const hits = this.docs.search({ terms: tokenize(query), limit });
    if (hits.length === 0) return text(`No pages match "${query.trim()}". Try other words.`);
    const lines = hits.map((hit, i) => {
      const r = searchResult(hit, this.baseUrl());
      return `${i + 1}. ${r.title}\n   URL: ${r.url}\n   ${r.snippet}`;
    });
    return text(`${hits.length} result${hits.length === 1 ? '' : 's'} for "${query.trim()}" in the ${SITE_TITLE}:\n\n${lines.join('\n\n')}`);
  }

  private page(which: string): CallToolResult {
    const page = this.docs.pageForPath(which.trim());
    if (!page) {
      const known = this.docs.pages.map((p) => p.slug).join(', ');
      return toolError(`No page "${which.trim().slice(0, 200)}" on this site. Pages: ${known}.`);
    }
    const url = pageUrl(this.baseUrl(), page.slug);
    const markdown =
      page.markdown.length <= PAGE_MAX_CHARS
        ? page.markdown
        : `${page.markdown.slice(0, PAGE_MAX_CHARS)}\n\n… (cut at ${PAGE_MAX_CHARS} characters; the whole page is at ${url})`;
    return text(`Page: ${page.title}\nURL: ${url}\n\n${markdown.trim()}`);
  }
}

/** A JSON-RPC error for a request the transport never saw; `id` is null since none was read. */
function rpcError(ex: Exchange, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  ex.json(status, { jsonrpc: '2.0', error: { code, message }, id: null }, headers);
}
