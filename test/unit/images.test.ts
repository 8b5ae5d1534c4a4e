import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadImage } from '../../src/chat/core/imageLoader';
import { imageOrigins, trustedImageOrigins } from '../../src/chat/core/imagePolicy';
import { english } from '../../src/common/l10n';
import { PNG_1X1 } from '../fixtures/hostileAnswer';

// Images in answers (issue 16): which origins load by themselves, and the host's bounded fetch
// behind "click to load", over real HTTP on 127.0.0.1, configured as the docs site (as the
// emulator is); image-targets.test.ts holds what the loader refuses to reach.

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

  it('lets a click load from the docs site, the service and the extra origins, on this machine too; nothing else', () => {
    assert.deepEqual(trustedImageOrigins('http://127.0.0.1:4000/docs', 'http://127.0.0.1:4000', []), ['http://127.0.0.1:4000']);
    assert.deepEqual(trustedImageOrigins('https://docs.acme.test', 'http://[::1]:7000/api', ['https://10.0.0.5']), [
      'https://docs.acme.test',
      'http://[::1]:7000',
      'https://10.0.0.5',
    ]);
    assert.deepEqual(trustedImageOrigins('', 'http://api.acme.test', ['https://u:p@img.acme.test']), [], 'plain http elsewhere, or user info, is not trusted');
  });

  describe('loadImage', () => {
    let server: Server;
    let base = '';
    /** The test server as the user's docs site, the only way a click reaches this machine. */
    const docsSite = () => ({ trustedOrigins: [base] });
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
      assert.deepEqual(await loadImage(`${base}/ok.png`, english, docsSite()), { dataUrl: `data:image/png;base64,${PNG_1X1.toString('base64')}` });
    });

    it('refuses what is not a raster image, too big, redirected, slow, or not https', async () => {
      const error = async (url: string, opts = {}) => ((await loadImage(url, english, { ...docsSite(), ...opts })) as { error: string }).error;
      assert.match(await error(`${base}/page`), /did not send a PNG/);
      assert.match(await error(`${base}/img.svg`), /did not send a PNG/, 'an SVG is a document, not an image');
      assert.match(await error(`${base}/big.png`, { maxBytes: 1024 }), /larger than/);
      // What fails before an image arrives reads as a refusal does (image-targets.test.ts).
      assert.match(await error(`${base}/moved`), /^Could not load the image/, 'a redirect is not followed');
      assert.match(await error(`${base}/slow.png`, { timeoutMs: 300 }), /^Could not load the image/);
      assert.match(await error('http://docs.acme.test/x.png'), /over https/);
      assert.match(await error('javascript:alert(1)'), /over https/);
    });
  });
});
