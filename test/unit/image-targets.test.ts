import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadImage } from '../../src/chat/core/imageLoader';
import { english } from '../../src/common/l10n';
import { PNG_1X1 } from '../fixtures/hostileAnswer';

// Issue 27, item 6: one click on an image placeholder sent `GET /api/admin/delete-all?confirm=yes`
// to a server on this machine, and told an open port from a closed one. Here a server on every
// loopback address (dual-stack `::`) counts each connection and request: a refused target must
// never be connected to at all, and every refusal or failure reads the same.

const PUBLIC = '93.184.216.34';

describe('click-to-load reaches public addresses only', () => {
  let server: Server;
  let port = 0;
  let closedPort = 0;
  let connections = 0;
  let requests: string[] = [];

  before(async () => {
    server = createServer((req, res) => {
      requests.push(req.url ?? '');
      if (req.url === '/ok.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG_1X1);
      if (req.url === '/moved') return res.writeHead(302, { location: `http://[::ffff:127.0.0.1]:${port}/api/admin/delete-all?confirm=yes` }).end();
      res.writeHead(404).end();
    });
    server.on('connection', () => connections++);
    await new Promise<void>((r) => server.listen(0, '::', r));
    port = (server.address() as AddressInfo).port;
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
  });
  beforeEach(() => {
    connections = 0;
    requests = [];
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  /** The message of a load that must fail. */
  const failure = async (...args: Parameters<typeof loadImage>) => {
    const r = await loadImage(...args);
    assert.ok('error' in r, `${args[0]} did not load`);
    return r.error;
  };
  /** A fetch that records what it was asked for (the loader would swallow a throw). */
  const recording = (asked: string[]) =>
    (async (url: string) => {
      asked.push(url);
      return new Response(PNG_1X1, { headers: { 'content-type': 'image/png' } });
    }) as typeof fetch;

  it('never connects to this machine, however its address is spelled', async () => {
    const messages = new Set<string>();
    for (const scheme of ['http', 'https'])
      for (const host of [
        '127.0.0.1',
        '[::ffff:127.0.0.1]',
        '[::1]',
        'localhost',
        '2130706433',
        '0x7f.1',
        '127.1',
        '0177.0.0.1',
        '127.0.0.1.',
        '0.0.0.0',
        '[::]',
      ])
        messages.add(await failure(`${scheme}://${host}:${port}/api/admin/delete-all?confirm=yes`, english));
    assert.equal(connections, 0, `no connection reached the loopback server (requests: ${JSON.stringify(requests)})`);
    assert.equal(messages.size, 1, `one message: ${JSON.stringify([...messages])}`);
  });

  it('never tries the local network: private, link-local, CGNAT, unique-local, local names', async () => {
    const asked: string[] = [];
    for (const url of [
      'https://10.0.0.1/',
      'https://192.168.1.1/x.png',
      'https://172.16.0.1/x.png',
      'https://100.64.0.1/x.png',
      'https://169.254.169.254/latest/meta-data/',
      'https://[fd00::1]/x.png',
      'https://[fe80::1]/x.png',
      'https://[::ffff:10.0.0.1]/x.png',
      'https://printer.local/x.png',
      'https://intranet/x.png',
      'https://a.localhost/x.png',
    ])
      await failure(url, english, { fetch: recording(asked), resolve: async () => [PUBLIC] });
    assert.deepEqual(asked, [], 'nothing was fetched');
  });

  it('refuses a name that resolves to this machine or the local network, before connecting', async () => {
    // The test's fetch plays the network's DNS: images.acme.test is this machine, so only the
    // loader's own check on the resolved addresses stands between the click and the server.
    const viaLoopback = ((url: string, init: RequestInit) => fetch(url.replace('https://images.acme.test', `http://127.0.0.1:${port}`), init)) as typeof fetch;
    for (const addresses of [['127.0.0.1'], ['::ffff:127.0.0.1'], ['::1'], [PUBLIC, '10.0.0.1'], ['2606:4700::1111', 'fe80::1'], [], ['not an address']])
      await failure('https://images.acme.test/api/admin/delete-all?confirm=yes', english, { fetch: viaLoopback, resolve: async () => addresses });
    await failure('https://images.acme.test/ok.png', english, {
      fetch: viaLoopback,
      resolve: async () => {
        throw new Error('ENOTFOUND');
      },
    });
    // A lookup that never answers is bounded by the load's own wait.
    const started = Date.now();
    await failure('https://images.acme.test/ok.png', english, { fetch: viaLoopback, resolve: () => new Promise(() => undefined), timeoutMs: 200 });
    assert.ok(Date.now() - started < 2000, `gave up after ${Date.now() - started} ms`);
    assert.equal(connections, 0, `no connection (requests: ${JSON.stringify(requests)})`);
    // The same fetch does reach the server once the name resolves to public addresses only.
    const r = await loadImage('https://images.acme.test/ok.png', english, { fetch: viaLoopback, resolve: async () => [PUBLIC, '2606:4700::1111'] });
    assert.ok('dataUrl' in r, JSON.stringify(r));
    assert.deepEqual(requests, ['/ok.png']);
  });

  it('says the same whether the port is open or closed, and whether the address was refused or failed', async () => {
    const open = await failure(`http://127.0.0.1:${port}/api/admin/delete-all?confirm=yes`, english);
    const closed = await failure(`http://127.0.0.1:${closedPort}/api/admin/delete-all?confirm=yes`, english);
    assert.equal(open, closed);
    // A public address: one that answers 404, and one where nothing listens, read as the refusal does.
    const to = (p: number) =>
      ((url: string, init: RequestInit) => fetch(url.replace('https://images.acme.test', `http://127.0.0.1:${p}`), init)) as typeof fetch;
    const resolve = async () => [PUBLIC];
    assert.equal(await failure('https://images.acme.test/missing.png', english, { fetch: to(port), resolve }), open);
    assert.equal(await failure('https://images.acme.test/x.png', english, { fetch: to(closedPort), resolve }), open);
    assert.deepEqual(requests, ['/missing.png']);
  });

  it('still loads from the docs site on this machine (the emulator), and from no other origin there', async () => {
    const docsSite = `http://127.0.0.1:${port}`;
    const r = await loadImage(`${docsSite}/ok.png`, english, { trustedOrigins: [docsSite] });
    assert.ok('dataUrl' in r, JSON.stringify(r));
    await failure(`http://[::ffff:127.0.0.1]:${port}/ok.png`, english, { trustedOrigins: [docsSite] });
    await failure(`http://localhost:${port}/ok.png`, english, { trustedOrigins: [docsSite] });
    await failure(`http://127.0.0.1:${closedPort}/ok.png`, english, { trustedOrigins: [docsSite] });
    // Its redirect to another local address is not followed.
    await failure(`${docsSite}/moved`, english, { trustedOrigins: [docsSite] });
    assert.deepEqual(requests, ['/ok.png', '/moved']);
  });

  it('without a resolver (the browser host) fetches a public-looking name as the network resolves it', async () => {
    const asked: string[] = [];
    const spy = recording(asked);
    assert.ok('dataUrl' in (await loadImage('https://images.acme.test/ok.png', english, { fetch: spy })));
    await failure('https://localhost/ok.png', english, { fetch: spy });
    await failure('https://printer.local/ok.png', english, { fetch: spy });
    await failure('https://10.0.0.1/ok.png', english, { fetch: spy });
    assert.deepEqual(asked, ['https://images.acme.test/ok.png']);
  });
});
