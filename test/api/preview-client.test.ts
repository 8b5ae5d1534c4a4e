import * as assert from 'node:assert/strict';
import { PreviewClient, type PreviewState, type PreviewStatus } from '../../src/api';
import { startEmulator, type RunningEmulator } from '../emulator';
import { faultFetch, rejection, words } from './helpers';

// PreviewClient against the emulator's preview endpoints over real HTTP (notes.md "Preview
// deployments"): the deployment's life to success and its page, a failure with its logs, the
// plan without previews (403) and a service without them (404) as `notOffered`, the published
// limit (429), and every shape the client must refuse before anything opens or shows it.

const STEP_MS = 60;

describe('PreviewClient against the emulator', function () {
  this.timeout(10_000);
  let emu: RunningEmulator;

  before(async () => {
    emu = await startEmulator({ port: 0, previewStepMs: STEP_MS });
  });
  after(async () => {
    await emu?.close();
  });
  beforeEach(() => emu.reset());

  const client = (fetchFn?: typeof fetch): PreviewClient =>
    new PreviewClient({ baseUrl: emu.url, projectId: emu.projectId, apiKey: emu.adminKey, requestTimeoutMs: 2000, fetch: fetchFn });

  /** Polls until the deployment ends, keeping each state seen once, in order. */
  async function follow(c: PreviewClient, statusId: string): Promise<{ seen: PreviewState[]; last: PreviewStatus }> {
    const seen: PreviewState[] = [];
    for (let i = 0; i < 200; i++) {
      const s = await c.getStatus(statusId);
      if (seen.at(-1) !== s.status) seen.push(s.status);
      if (s.status === 'success' || s.status === 'failure') return { seen, last: s };
      await new Promise((r) => setTimeout(r, STEP_MS / 4));
    }
    assert.fail('the deployment never ended');
  }

  it('deploys a branch: queued → in_progress → success, and the preview URL serves its pages', async () => {
    const c = client();
    const d = await c.requestPreview('docs-agent/abc123');
    assert.match(d.statusId, /^upd_/);
    assert.ok(d.previewUrl.startsWith(`${emu.url}/preview/docs-agent-abc123-`), d.previewUrl);
    const before = await fetch(new URL('getting-started', d.previewUrl));
    assert.equal(before.status, 404, 'no page before the deployment succeeded');
    const { seen, last } = await follow(c, d.statusId);
    assert.deepEqual(seen, ['queued', 'in_progress', 'success']);
    assert.equal(last.commit?.ref, 'docs-agent/abc123');
    assert.ok(last.endedAt);
    const page = await fetch(new URL('getting-started', d.previewUrl));
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /Preview<\/span> of <code>docs-agent\/abc123<\/code>/);
    assert.match(html, /<h1[^>]*>Getting started/i);
    const post = emu.requests.find((r) => r.method === 'POST')!;
    assert.equal(post.path, `/v1/project/preview/${emu.projectId}`);
    assert.deepEqual(post.body, { branch: 'docs-agent/abc123' });
    assert.equal(post.auth, 'admin');
  });

  it('a redeploy of the same branch keeps its address and gets a new status', async () => {
    const c = client();
    const a = await c.requestPreview('docs-agent/same');
    const b = await c.requestPreview('docs-agent/same');
    assert.equal(a.previewUrl, b.previewUrl);
    assert.notEqual(a.statusId, b.statusId);
  });

  it('a failed build ends in failure with its logs, the reason last', async () => {
    const c = client();
    const d = await client(faultFetch('failure')).requestPreview('docs-agent/broken');
    const { seen, last } = await follow(c, d.statusId);
    assert.deepEqual(seen, ['queued', 'in_progress', 'failure']);
    assert.match(last.summary, /Build failed/);
    assert.equal(last.logs.at(-1), 'Build failed');
    assert.ok(last.logs.some((l) => l.includes('guides/missing-page.mdx')));
    const page = await fetch(new URL('getting-started', d.previewUrl));
    assert.equal(page.status, 404, 'a failed preview serves nothing');
  });

  it('a plan without previews (403) and a service without the endpoint (404) are notOffered, for both calls', async () => {
    const c = client();
    const { statusId } = await c.requestPreview('docs-agent/x');
    emu.previews.offer(false);
    for (const call of [() => c.requestPreview('docs-agent/x'), () => c.getStatus(statusId)]) {
      const e = await rejection(call(), emu.adminKey);
      assert.deepEqual(e.reason, { code: 'notOffered', feature: 'preview', status: 403 });
      assert.equal(e.kind, 'forbidden');
      assert.match(words(e), /not offered by this service or plan \(HTTP 403\)/);
    }
    emu.previews.offer(true);
    const e404 = await rejection(client(faultFetch('404')).requestPreview('docs-agent/x'), emu.adminKey);
    assert.deepEqual(e404.reason, { code: 'notOffered', feature: 'preview', status: 404 });
  });

  it("past 5 requests a minute: 429 with when to retry, not the agent jobs' hourly limit", async () => {
    const c = client();
    for (let i = 0; i < 5; i++) await c.requestPreview(`docs-agent/b${i}`);
    const e = await rejection(c.requestPreview('docs-agent/b5'), emu.adminKey);
    assert.equal(e.reason.code, 'rateLimited');
    assert.ok(e.reason.code === 'rateLimited' && e.reason.retryAt !== undefined && e.reason.retryAt > Date.now());
    assert.ok(!('perHour' in e.reason), 'the hourly agent limit is not this one');
    assert.ok(e.retryAfterMs! > 50_000 && e.retryAfterMs! <= 60_000, String(e.retryAfterMs));
  });

  it('the emulator refuses a request without a branch (400), and the client refuses an empty one unsent', async () => {
    const res = await fetch(`${emu.url}/v1/project/preview/${emu.projectId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.adminKey}`, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(res.status, 400);
    emu.reset();
    const e = await rejection(client().requestPreview('  '), emu.adminKey);
    assert.equal(e.reason.code, 'badRequest');
    assert.equal(emu.requests.length, 0);
  });

  it('refuses shapes it cannot use: a bad deployment, a script as the preview URL, a status of another id, no JSON', async () => {
    const shape = await rejection(client(faultFetch('bad-shape')).requestPreview('docs-agent/x'), emu.adminKey);
    assert.deepEqual(shape.reason, { code: 'badPreview', field: 'statusId', expected: 'a status id (letters, digits, _ . : -)', got: 'number 42' });
    const hostile = await rejection(client(faultFetch('hostile-url')).requestPreview('docs-agent/x'), emu.adminKey);
    assert.equal(hostile.reason.code, 'badPreview');
    assert.ok(hostile.reason.code === 'badPreview' && hostile.reason.field === 'previewUrl');
    const notJson = await rejection(client(faultFetch('bad-json')).requestPreview('docs-agent/x'), emu.adminKey);
    assert.equal(notJson.reason.code, 'notJson');
    const { statusId } = await client().requestPreview('docs-agent/x');
    const other = await rejection(client(faultFetch('other-id')).getStatus(statusId), emu.adminKey);
    assert.ok(other.reason.code === 'badPreview' && other.reason.field === '_id', other.message);
    const badStatus = await rejection(client(faultFetch('bad-shape')).getStatus(statusId), emu.adminKey);
    assert.ok(badStatus.reason.code === 'badPreview' && badStatus.reason.field === 'status', badStatus.message);
  });

  it('caps logs: 5,000 lines arrive, the last 1,000 are kept after a line saying how many were left out', async () => {
    const c = client();
    const { statusId } = await c.requestPreview('docs-agent/x');
    const s = await client(faultFetch('huge-logs')).getStatus(statusId);
    assert.equal(s.logs.length, 1001);
    assert.equal(s.logs[0], '… 4000 earlier lines not shown');
    assert.equal(s.logs.at(-1), `line 4999: ${'x'.repeat(100)}`);
  });

  it('a bad key is refused before any request, and an unknown one by the service (401) without showing it', async () => {
    const bad = new PreviewClient({ baseUrl: emu.url, projectId: emu.projectId, apiKey: 'svc_dsc_public' });
    const e = await rejection(bad.requestPreview('docs-agent/x'), 'svc_dsc_public');
    assert.equal(e.reason.code, 'keyInvalid');
    const unknown = new PreviewClient({ baseUrl: emu.url, projectId: emu.projectId, apiKey: 'svc_unknown_0123456789' });
    const e401 = await rejection(unknown.requestPreview('docs-agent/x'), 'svc_unknown_0123456789');
    assert.deepEqual(e401.reason, { code: 'keyRefused', service: 'agent' });
  });
});
