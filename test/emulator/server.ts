import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentJobs } from './agent';
import { Analytics } from './analytics';
import { Assistant } from './assistant';
import { authKind, bearerToken, refusal } from './auth';
import { answerCors } from './cors';
import { resolveOptions, type EmulatorOptions, type RecordedRequest, type RunningEmulator } from './config';
import { DocsSite } from './docs';
import { createDocsRepository, isBranchName } from './docsRepo';
import { errorBody, Exchange, htmlPage } from './exchange';
import { DocsMcp, MCP_PATH } from './mcp';
import { Previews } from './preview';
import { DocsIndex } from './retrieval';
import { DocsSearch } from './search';

// The HTTP server: routing, the request log, keys, and a close() that ends open streams at once.

/** Paths of the service's API, and the docs site's MCP server; only these are recorded. */
const API_PATH = /^\/(v1|v2|discovery)\/|^\/mcp$/;
const MAX_BODY_BYTES = 10 * 1024 * 1024;
const MAX_RECORDED = 10_000;

const AGENT_JOBS = /^\/v2\/agent\/([^/]+)\/job$/;
const AGENT_JOB = /^\/v2\/agent\/([^/]+)\/job\/([^/]+)$/;
const AGENT_MESSAGE = /^\/v2\/agent\/([^/]+)\/job\/([^/]+)\/message$/;
const ASSISTANT_MESSAGE = /^\/discovery\/(v1|v2)\/assistant\/([^/]+)\/message$/;

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const opts = resolveOptions(options);
  const docs = DocsIndex.load(opts.docsDir);
  const site = new DocsSite(docs);
  // The repository the agent commits on: made from the same site, in a temporary folder of its own.
  const repoDir = await mkdtemp(join(tmpdir(), 'docs-emulator-'));
  const removeRepo = (): Promise<void> => rm(repoDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  const docsRepo = await createDocsRepository(repoDir, opts.docsDir).catch(async (e: unknown) => {
    await removeRepo();
    throw e;
  });
  let url = '';
  const baseUrl = (): string => url;
  const agent = new AgentJobs(opts, baseUrl, docsRepo);
  const assistant = new Assistant(opts, docs, baseUrl);
  const mcp = new DocsMcp(opts, docs, baseUrl);
  // A preview serves a page as its branch has it (the agent's edit), .mdx or .md by the docs.json rule.
  const previews = new Previews(opts, baseUrl, site, async (branch, page) =>
    isBranchName(branch) ? ((await docsRepo.readFile(branch, `${page}.mdx`)) ?? (await docsRepo.readFile(branch, `${page}.md`))) : undefined,
  );
  const analytics = new Analytics(opts);
  const search = new DocsSearch(opts, docs);
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const exchanges = new Set<Exchange>();

  const reset = (): void => {
    agent.reset();
    assistant.reset();
    previews.reset();
    analytics.reset();
    search.reset();
    requests.length = 0;
  };

  function record(ex: Exchange): void {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(ex.req.headers)) {
      // Credentials stay out of the log, which tests print and /__emulator/requests serves.
      if (name === 'authorization' || name === 'proxy-authorization' || value === undefined) continue;
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    let body: unknown = null;
    if (ex.rawBody !== '') {
      try {
        body = JSON.parse(ex.rawBody);
      } catch {
        body = ex.rawBody;
      }
    }
    ex.record = { at: Date.now(), method: ex.method, path: ex.req.url ?? '/', auth: authKind(bearerToken(ex.req), opts), headers, body, status: 0 };
    requests.push(ex.record);
    // A demo left polling for a day must not grow without bound; tests never get near this.
    if (requests.length > MAX_RECORDED) requests.splice(0, requests.length - MAX_RECORDED);
  }

  /** 401 unless the request carries the key of the kind the endpoint needs. */
  function keyRefused(ex: Exchange, needed: 'admin' | 'assistant'): boolean {
    const why = refusal(bearerToken(ex.req), needed, opts);
    if (why === undefined) return false;
    ex.json(401, errorBody(why), { 'www-authenticate': 'Bearer' });
    return true;
  }

  function methodNotAllowed(ex: Exchange, allow: string): void {
    ex.json(405, errorBody(`Use ${allow} here.`), { allow });
  }

  async function route(ex: Exchange): Promise<void> {
    const path = ex.url.pathname;
    const method = ex.method;
    const param = (s: string | undefined): string => {
      try {
        return decodeURIComponent(s ?? '');
      } catch {
        return s ?? '';
      }
    };

    if (path === '/__emulator/health') return ex.json(200, { ok: true });
    if (path === '/__emulator/requests') return ex.json(200, requests);
    if (path === '/__emulator/reset') {
      if (method !== 'POST') return methodNotAllowed(ex, 'POST');
      reset();
      return ex.json(200, { ok: true });
    }
    if (path === '/' && method === 'GET') return ex.html(200, site.home(opts));
    if ((path === '/docs' || path.startsWith('/docs/')) && method === 'GET') {
      const html = site.render(path);
      return html ? ex.html(200, html) : ex.html(404, htmlPage('Page not found', '<h1>Page not found</h1><p><a href="/docs">All pages</a></p>'));
    }
    if (path === MCP_PATH) return mcp.handle(ex);
    if (await previews.route(ex, (e) => keyRefused(e, 'admin'))) return;
    if (analytics.route(ex, (e) => keyRefused(e, 'admin'))) return;
    if (await search.route(ex, (e) => keyRefused(e, 'assistant'))) return;
    if (path.startsWith('/pr/') && method === 'GET') {
      const html = agent.prPage(path);
      return html ? ex.html(200, html) : ex.html(404, htmlPage('Pull request not found', '<h1>Pull request not found</h1>'));
    }

    const ask = ASSISTANT_MESSAGE.exec(path);
    if (ask) {
      if (method !== 'POST') return methodNotAllowed(ex, 'POST');
      if (keyRefused(ex, 'assistant')) return;
      if (param(ask[2]) !== opts.domain) return ex.json(404, errorBody(`Domain "${param(ask[2])}" not found`));
      return assistant.handle(ex, ask[1] as 'v1' | 'v2');
    }
    const jobs = AGENT_JOBS.exec(path);
    const job = AGENT_JOB.exec(path);
    const message = AGENT_MESSAGE.exec(path);
    const agentPath = jobs ?? job ?? message;
    if (agentPath) {
      if (keyRefused(ex, 'admin')) return;
      const projectId = param(agentPath[1]);
      if (projectId !== opts.projectId) return ex.json(404, errorBody(`Project "${projectId}" not found`));
      if (jobs) return method === 'POST' ? agent.create(ex, projectId) : methodNotAllowed(ex, 'POST');
      if (message) return method === 'POST' ? agent.followUp(ex, projectId, param(message[2])) : methodNotAllowed(ex, 'POST');
      return method === 'GET' ? agent.get(ex, param(agentPath[2])) : methodNotAllowed(ex, 'GET');
    }
    return ex.json(404, errorBody(`No such endpoint: ${method} ${path}`));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        res.writeHead(413, { 'content-type': 'application/json', connection: 'close' }).end(JSON.stringify(errorBody('Request body too large')));
        return;
      }
      chunks.push(chunk);
    }
    const ex = new Exchange(req, res, Buffer.concat(chunks).toString('utf8'), url);
    exchanges.add(ex);
    // A preflight is recorded too: the web e2e shows with it that a browser made the request.
    if (API_PATH.test(ex.url.pathname)) {
      record(ex);
      const line = (outcome: string | number): string => `${ex.method} ${ex.url.pathname} → ${outcome} (${ex.record!.auth} key)`;
      ex.onHead = (status) => opts.log(line(status));
      res.once('close', () => {
        if (!ex.record!.status) opts.log(line('no answer'));
      });
    }
    res.once('close', () => exchanges.delete(ex));
    try {
      if (answerCors(req, res, opts.cors)) {
        if (ex.record) ex.record.status = res.statusCode;
        return;
      }
      await route(ex);
    } catch (e) {
      opts.log(`${ex.method} ${ex.url.pathname} failed: ${e instanceof Error ? e.message : String(e)}`);
      if (!res.headersSent) ex.json(500, errorBody('The emulator failed on this request.'));
      else res.destroy();
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('clientError', (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch(async (e: unknown) => {
    await removeRepo();
    throw e;
  });
  const { port } = server.address() as AddressInfo;
  url = `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Streams that stall on purpose would otherwise keep the server open until their clients gave up.
      for (const ex of exchanges) ex.end();
      for (const socket of sockets) socket.destroy();
    })
      .then(() => docsRepo.close())
      .then(removeRepo));

  return {
    url,
    mcpUrl: `${url}${MCP_PATH}`,
    adminKey: opts.adminKey,
    assistantKey: opts.assistantKey,
    projectId: opts.projectId,
    domain: opts.domain,
    requests,
    docsRepo,
    holdJobs: (held: boolean) => agent.hold(held),
    previews,
    analytics,
    search,
    reset,
    close,
  };
}
