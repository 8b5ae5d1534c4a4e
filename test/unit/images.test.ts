import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadImage } from '../../src/chat/imageLoader';
import { imageOrigins } from '../../src/chat/imagePolicy';
import { english } from '../../src/common/l10n';
import { PNG_1X1 } from '../fixtures/hostileAnswer';

// Images in answers (issue 16): which origins load by themselves, and the host's bounded fetch
// behind "click to load", over real HTTP on 127.0.0.1.

describe('image policy and click-to-load', () => {
  it('allows the docs site and the user’s extra origins: https, or http on this machine only', () => {
    assert.deepEqual(
      imageOrigins('https://docs.acme.test/guide/intro', [
        'https://img.acme.test',
        'http://img.acme.test',
        'https://user:pw@x.test',
        'nonsense',
        'https://img.acme.test',
      ]),
      ['https://docs.acme.test', 'https://img.acme.test'],
    );
    assert.deepEqual(imageOrigins('http://127.0.0.1:4000/docs', []), ['http://127.0.0.1:4000']);
    assert.deepEqual(imageOrigins('http://docs.acme.test', []), [], 'plain http to another host is not an image origin');
    assert.deepEqual(imageOrigins('', []), []);
  });

  describe('loadImage', () => {
    let server: Server;
    let base = '';
    before(async () => {
      server = createServer((req, res) => {
        if (req.url === '/ok.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG_1X1);
        if (req.url === '/page') return res.writeHead(200, { 'content-type': 'text/html' }).end('<script>x</script>');
        if (req.url === '/img.svg') return res.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg/>');
        if (req.url === '/big.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(4096));
        if (req.url === '/moved') return res.writeHead(302, { location: '/ok.png' }).end();
        if (req.url === '/slow.png') return void res.writeHead(200, { 'content-type': 'image/png' });
        res.writeHead(404).end();
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => {
      server.closeAllConnections();
      server.close();
    });

    it('returns a raster image as a data: URL', async () => {
      assert.deepEqual(await loadImage(`${base}/ok.png`, english), { dataUrl: `data:image/png;base64,${PNG_1X1.toString('base64')}` });
    });

    it('refuses what is not a raster image, too big, redirected, slow, or not https', async () => {
      assert.match(((await loadImage(`${base}/page`, english)) as { error: string }).error, /did not send a PNG/);
      assert.match(((await loadImage(`${base}/img.svg`, english)) as { error: string }).error, /did not send a PNG/, 'an SVG is a document, not an image');
      assert.match(((await loadImage(`${base}/big.png`, english, { maxBytes: 1024 })) as { error: string }).error, /larger than/);
      assert.ok('error' in (await loadImage(`${base}/moved`, english)), 'a redirect is not followed');
      assert.match(((await loadImage(`${base}/slow.png`, english, { timeoutMs: 300 })) as { error: string }).error, /within/);
      assert.match(((await loadImage('http://docs.acme.test/x.png', english)) as { error: string }).error, /https/);
      assert.match(((await loadImage('javascript:alert(1)', english)) as { error: string }).error, /https/);
    });
  });
});
