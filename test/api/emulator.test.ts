import * as assert from 'node:assert/strict';
import { parseJsonEventStream, readUIMessageStream, uiMessageChunkSchema, type UIMessage, type UIMessageChunk as SdkChunk } from 'ai';
import { startEmulator, type RecordedRequest, type RunningEmulator } from '../emulator';

// The local service emulator itself, over real HTTP with plain fetch: keys, the agent job
// lifecycle and limits, retrieval, threads, every fault mode, the request log, and close().
// The client tests lean on all of this, so it is pinned down here without the client in between.

/** Answers are read deep into untyped JSON; asserting on each level's type would bury the point of each test. */
type Json = Record<string, any>;

interface Reply {
  status: number;
  headers: Headers;
  text: string;
}

async function call(
  emu: RunningEmulator,
  method: string,
  path: string,
  opts: { key?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...opts.headers };
  if (opts.key !== undefined) headers.authorization = `Bearer ${opts.key}`;
  const body = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  const res = await fetch(`${emu.url}${path}`, { method, headers, body });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** SSE `data:` payloads: parsed JSON, or the raw text when it is not JSON. */
function sseData(text: string): unknown[] {
  return text
    .split('\n\n')
    .map((event) =>
      event
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n'),
    )
    .filter((d) => d !== '')
    .map((d) => {
      try {
        return JSON.parse(d) as unknown;
      } catch {
        return d;
      }
    });
}

const chunksOf = (text: string): Json[] => sseData(text).filter((d): d is Json => typeof d === 'object' && d !== null);
const answerText = (chunks: Json[]): string =>
  chunks
    .filter((c) => c.type === 'text-delta')
    .map((c) => c.delta as string)
    .join('');

function question(text: string, extra: Json = {}, version: 'v1' | 'v2' = 'v2'): Json {
  const message: Json = { id: `u${Math.random().toString(36).slice(2, 8)}`, role: 'user', parts: [{ type: 'text', text }] };
  if (version === 'v1') message.content = text;
  return { fp: 'anonymous', messages: [message], retrievalPageSize: 5, ...extra };
}

function ask(emu: RunningEmulator, body: Json, opts: { version?: 'v1' | 'v2'; fault?: string; key?: string } = {}): Promise<Reply> {
  const headers: Record<string, string> = opts.fault ? { 'x-emulator-fault': opts.fault } : {};
  return call(emu, 'POST', `/discovery/${opts.version ?? 'v2'}/assistant/${emu.domain}/message`, { key: opts.key ?? emu.assistantKey, body, headers });
}

describe('service emulator', function () {
  this.timeout(5000);
  let emu: RunningEmulator;

  before(async () => {
    emu = await startEmulator({ port: 0, jobDurationMs: 80, deltaDelayMs: 0, slowDripMs: 5 });
  });
  after(() => emu?.close());
  beforeEach(() => emu.reset());

  const jobs = (): string => `/v2/agent/${emu.projectId}/job`;
  const create = (prompt: unknown, key = emu.adminKey): Promise<Reply> => call(emu, 'POST', jobs(), { key, body: { prompt } });
  const getJob = (id: string): Promise<Reply> => call(emu, 'GET', `${jobs()}/${id}`, { key: emu.adminKey });
  async function settled(id: string): Promise<Json> {
    for (let i = 0; i < 50; i++) {
      const job = JSON.parse((await getJob(id)).text) as Json;
      if (job.status !== 'active') return job;
      await sleep(20);
    }
    assert.fail('the job stayed active');
  }

  describe('keys', () => {
    it('agent endpoints take only the admin key; an assistant key is "the wrong kind of key"', async () => {
      assert.equal((await create('Fix the intro')).status, 201);
      const wrongKind = await create('Fix the intro', emu.assistantKey);
      assert.equal(wrongKind.status, 401);
      assert.match(JSON.parse(wrongKind.text).error, /wrong kind of key/i);
      assert.equal((await create('Fix', 'svc_not_the_right_one')).status, 401);
      assert.equal((await call(emu, 'POST', jobs(), { body: { prompt: 'x' } })).status, 401);
      assert.ok(!wrongKind.text.includes(emu.assistantKey) && !wrongKind.text.includes(emu.adminKey), 'no key in the answer');
    });

    it('assistant endpoints take only the assistant key; an admin key is "the wrong kind of key"', async () => {
      assert.equal((await ask(emu, question('webhooks'))).status, 200);
      const wrongKind = await ask(emu, question('webhooks'), { key: emu.adminKey });
      assert.equal(wrongKind.status, 401);
      assert.match(JSON.parse(wrongKind.text).error, /wrong kind of key/i);
      assert.ok(!wrongKind.text.includes(emu.adminKey));
      assert.equal((await ask(emu, question('webhooks'), { key: 'svc_dsc_someone_elses' })).status, 401);
      assert.equal((await ask(emu, question('webhooks'), { version: 'v1', key: emu.adminKey })).status, 401);
    });

    it('unknown project and domain: 404 {error}', async () => {
      const p = await call(emu, 'POST', '/v2/agent/other-project/job', { key: emu.adminKey, body: { prompt: 'x' } });
      assert.equal(p.status, 404);
      assert.equal(typeof JSON.parse(p.text).error, 'string');
      const d = await call(emu, 'POST', '/discovery/v2/assistant/other-docs/message', { key: emu.assistantKey, body: question('x') });
      assert.equal(d.status, 404);
    });
  });

  describe('agent jobs', () => {
    it('create: 201 with the whole job shape, active; then completed with a pull request page', async () => {
      const r = await create('Fix the broken link on the webhooks page');
      assert.equal(r.status, 201);
      const job = JSON.parse(r.text) as Json;
      assert.deepEqual(Object.keys(job).sort(), ['archivedAt', 'createdAt', 'id', 'model', 'prLink', 'source', 'status']);
      assert.equal(job.status, 'active');
      assert.equal(job.prLink, null);
      assert.equal(job.archivedAt, null);
      // The job's own branch of the docs repository (issue 30 §5; its commits: emulator-git.test.ts).
      assert.equal(job.source.repository, 'https://github.com/acme/acme-docs');
      assert.match(job.source.ref, /^docs-agent\/[0-9a-f]{8}$/);
      assert.ok(!Number.isNaN(Date.parse(job.createdAt)));
      const done = await settled(job.id);
      assert.equal(done.status, 'completed');
      assert.equal(done.prLink, `${emu.url}/pr/acme/acme-docs/pull/1`);
      const page = await fetch(done.prLink);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /Fix the broken link on the webhooks page/);
      const second = await settled(JSON.parse((await create('Another fix')).text).id);
      assert.equal(second.prLink, `${emu.url}/pr/acme/acme-docs/pull/2`);
    });

    it('outcomes from the prompt: no changes, fail, archive', async () => {
      const ids = await Promise.all(
        ['Check the intro [[outcome:no-changes]]', 'Make sure there are no changes needed', 'Rewrite it [[outcome:fail]]', 'Old [[outcome:archive]]'].map(
          async (p) => JSON.parse((await create(p)).text).id as string,
        ),
      );
      const [a, b, c, d] = await Promise.all(ids.map(settled));
      assert.deepEqual([a!.status, a!.prLink], ['completed', null]);
      assert.deepEqual([b!.status, b!.prLink], ['completed', null]);
      assert.equal(c!.status, 'failed');
      assert.equal(d!.status, 'archived');
      assert.ok(!Number.isNaN(Date.parse(d!.archivedAt)));
    });

    it('a held job stays active past its time, and settles once released', async () => {
      emu.holdJobs(true);
      const id = JSON.parse((await create('Fix the typo')).text).id as string;
      await new Promise((r) => setTimeout(r, 200)); // past jobDurationMs (80 ms)
      assert.equal(JSON.parse((await getJob(id)).text).status, 'active');
      emu.holdJobs(false);
      assert.equal((await settled(id))!.status, 'completed');
    });

    it('a follow-up makes the job active again and keeps its pull request link throughout', async () => {
      const id = JSON.parse((await create('Fix the typo')).text).id as string;
      const first = await settled(id);
      assert.match(first.prLink, /\/pull\/1$/);
      const r = await call(emu, 'POST', `${jobs()}/${id}/message`, { key: emu.adminKey, body: { prompt: 'Also fix the title' } });
      assert.equal(r.status, 200);
      const followed = JSON.parse(r.text) as Json;
      assert.deepEqual([followed.id, followed.status, followed.prLink], [id, 'active', first.prLink]);
      const again = await settled(id);
      assert.equal(again.status, 'completed');
      assert.equal(again.prLink, first.prLink);
      // A follow-up that changes nothing leaves the pull request the job already had.
      await call(emu, 'POST', `${jobs()}/${id}/message`, { key: emu.adminKey, body: { prompt: 'Check it again, no changes needed' } });
      assert.deepEqual(((j) => [j.status, j.prLink])(await settled(id)), ['completed', first.prLink]);
      const page = await (await fetch(first.prLink)).text();
      assert.ok(page.includes('Also fix the title') && page.includes('Check it again'), 'the PR page lists every prompt');
      const failed = await call(emu, 'POST', `${jobs()}/${id}/message`, { key: emu.adminKey, body: { prompt: 'Now break [[outcome:fail]]' } });
      assert.equal(failed.status, 200);
      assert.equal((await settled(id)).status, 'failed');
    });

    it('an archived job takes no follow-up (400)', async () => {
      const id = JSON.parse((await create('x [[outcome:archive]]')).text).id as string;
      await settled(id);
      assert.equal((await call(emu, 'POST', `${jobs()}/${id}/message`, { key: emu.adminKey, body: { prompt: 'more' } })).status, 400);
    });

    it('unknown job: 404 on get and on follow-up', async () => {
      assert.equal((await getJob('job_nope')).status, 404);
      assert.equal(JSON.parse((await getJob('job_nope')).text).error, 'Agent job not found');
      assert.equal((await call(emu, 'POST', `${jobs()}/job_nope/message`, { key: emu.adminKey, body: { prompt: 'x' } })).status, 404);
    });

    it('400 for bad JSON, a missing, empty or all-whitespace prompt', async () => {
      assert.equal((await call(emu, 'POST', jobs(), { key: emu.adminKey, raw: '{"prompt": ' })).status, 400);
      for (const body of [{}, { prompt: '' }, { prompt: ' \n\t ' }, { prompt: 42 }]) {
        const r = await call(emu, 'POST', jobs(), { key: emu.adminKey, body });
        assert.equal(r.status, 400, JSON.stringify(body));
        assert.equal(typeof JSON.parse(r.text).error, 'string');
      }
    });

    it('429 with Retry-After past rateLimitPerHour creates + follow-ups; polling is not limited', async () => {
      const small = await startEmulator({ port: 0, jobDurationMs: 10, rateLimitPerHour: 2 });
      try {
        const path = `/v2/agent/${small.projectId}/job`;
        const id = JSON.parse((await call(small, 'POST', path, { key: small.adminKey, body: { prompt: 'one' } })).text).id as string;
        assert.equal((await call(small, 'POST', `${path}/${id}/message`, { key: small.adminKey, body: { prompt: 'two' } })).status, 200);
        const limited = await call(small, 'POST', path, { key: small.adminKey, body: { prompt: 'three' } });
        assert.equal(limited.status, 429);
        const retryAfter = Number(limited.headers.get('retry-after'));
        assert.ok(retryAfter > 3500 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
        assert.equal(typeof JSON.parse(limited.text).error, 'string');
        assert.equal((await call(small, 'GET', `${path}/${id}`, { key: small.adminKey })).status, 200);
        await call(small, 'POST', '/__emulator/reset');
        assert.equal((await call(small, 'POST', path, { key: small.adminKey, body: { prompt: 'after reset' } })).status, 201);
      } finally {
        await small.close();
      }
    });

    it('fault words: 500, 429, bad-json, bad-job, drop, stall-headers; none of them creates a job', async () => {
      const r500 = await create('Fix [[fault:500]]');
      assert.equal(r500.status, 500);
      const r429 = await create('Fix [[fault:429]]');
      assert.equal(r429.status, 429);
      assert.ok(Number(r429.headers.get('retry-after')) > 0);
      const badJson = await create('Fix [[fault:bad-json]]');
      assert.equal(badJson.status, 200);
      assert.throws(() => JSON.parse(badJson.text));
      const badJob = JSON.parse((await create('Fix [[fault:bad-job]]')).text) as Json;
      assert.equal(badJob.status, 'weird');
      assert.equal(badJob.source, undefined);
      await assert.rejects(create('Fix [[fault:drop]]'));
      await assert.rejects(
        fetch(`${emu.url}${jobs()}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${emu.adminKey}` },
          body: JSON.stringify({ prompt: '[[fault:stall-headers]]' }),
          signal: AbortSignal.timeout(200),
        }),
        { name: 'TimeoutError' },
      );
      const viaHeader = await call(emu, 'GET', `${jobs()}/job_x`, { key: emu.adminKey, headers: { 'x-emulator-fault': '503' } });
      assert.equal(viaHeader.status, 503);
      // The first real create after all of that still gets pull request #1: no faulted request made a job.
      const id = JSON.parse((await create('real')).text).id as string;
      assert.equal((await settled(id)).prLink, `${emu.url}/pr/acme/acme-docs/pull/1`);
    });
  });

  describe('assistant answers', () => {
    it('v2: a real UI message stream in the documented order, with the thread in headers and finish', async () => {
      const r = await ask(emu, question('How do I verify webhook signatures?'));
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), 'text/event-stream');
      assert.equal(r.headers.get('x-vercel-ai-ui-message-stream'), 'v1');
      const threadId = r.headers.get('x-thread-id');
      assert.match(threadId ?? '', /^thr_/);
      assert.ok(r.headers.get('x-thread-key'));
      const data = sseData(r.text);
      assert.equal(data[data.length - 1], '[DONE]');
      const chunks = chunksOf(r.text);
      const types = chunks.map((c) => c.type as string);
      const collapsed = types.filter((t, i) => t !== types[i - 1]);
      assert.deepEqual(collapsed, [
        'start',
        'start-step',
        'tool-input-start',
        'tool-input-available',
        'tool-output-available',
        'finish-step',
        'start-step',
        'source-url',
        'text-start',
        'text-delta',
        'text-end',
        'finish-step',
        'finish',
      ]);
      assert.ok(types.filter((t) => t === 'text-delta').length > 20, 'many small deltas');
      const tool = chunks.find((c) => c.type === 'tool-input-available')!;
      assert.deepEqual([tool.toolName, tool.input], ['searchDocs', { query: 'How do I verify webhook signatures?' }]);
      const finish = chunks[chunks.length - 1]!;
      assert.deepEqual([finish.finishReason, finish.threadId, finish.messageMetadata.threadId], ['stop', threadId, threadId]);
    });

    it('the answer quotes the passages (code blocks kept), attributes them, links pages, and does not pose as a model', async () => {
      const chunks = chunksOf((await ask(emu, question('How do I verify webhook signatures?'))).text);
      const text = answerText(chunks);
      assert.match(text, /^Here is what the documentation says about "How do I verify webhook signatures\?":/);
      assert.match(text, /```js\nimport \{ createHmac, timingSafeEqual \} from 'node:crypto';/);
      assert.ok(text.includes(`(${emu.url}/docs/webhooks#verifying-signatures)`));
      assert.match(text, /\nSee also: \[Webhooks\]\(/);
      assert.match(text, /no language model/);
      const sources = chunks.filter((c) => c.type === 'source-url');
      assert.equal(sources[0]!.url, `${emu.url}/docs/webhooks`);
      assert.equal(sources[0]!.title, 'Webhooks');
      const page = await fetch(sources[0]!.url);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /id="verifying-signatures"/);
    });

    it('the ai SDK accepts every chunk and assembles the same text, sources and tool call', async () => {
      const r = await ask(emu, question('How do I rotate an API key?'));
      const ours = answerText(chunksOf(r.text));
      const parsed = parseJsonEventStream({ stream: new Response(r.text).body!, schema: uiMessageChunkSchema });
      const bad: unknown[] = [];
      const chunks = parsed.pipeThrough(
        new TransformStream<{ success: boolean; value?: unknown; error?: unknown }, SdkChunk>({
          transform(result, controller) {
            if (result.success) controller.enqueue(result.value as SdkChunk);
            else bad.push(result.error);
          },
        }),
      );
      let last: UIMessage | undefined;
      for await (const message of readUIMessageStream({ stream: chunks })) last = message;
      assert.deepEqual(bad, []);
      const parts = last!.parts as Json[];
      assert.equal(
        parts
          .filter((p) => p.type === 'text')
          .map((p) => p.text)
          .join(''),
        ours,
      );
      assert.ok(parts.some((p) => p.type === 'source-url' && p.url === `${emu.url}/docs/authentication`));
      assert.ok(parts.some((p) => p.type === 'tool-searchDocs' && p.state === 'output-available'));
    });

    it('v1: the data stream protocol, with the thread in an annotation and the header', async () => {
      const r = await ask(emu, question('rate limit headers', {}, 'v1'), { version: 'v1' });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('x-vercel-ai-data-stream'), 'v1');
      const threadId = r.headers.get('x-thread-id')!;
      const lines = r.text.trimEnd().split('\n');
      const codes = lines.map((l) => l.slice(0, l.indexOf(':'))).filter((c, i, all) => c !== all[i - 1]);
      assert.deepEqual(codes, ['f', '8', '9', 'a', 'e', 'f', 'h', '0', 'e', 'd']);
      for (const l of lines) JSON.parse(l.slice(2));
      assert.deepEqual(JSON.parse(lines[1]!.slice(2)), [{ threadId }]);
      const text = lines
        .filter((l) => l.startsWith('0:'))
        .map((l) => JSON.parse(l.slice(2)) as string)
        .join('');
      assert.match(text, /X-RateLimit-Remaining/);
      const finish = JSON.parse(lines[lines.length - 1]!.slice(2)) as Json;
      assert.equal(finish.finishReason, 'stop');
      assert.equal(typeof finish.usage.completionTokens, 'number');
    });

    it('body validation: 400 for each rule of the request schema', async () => {
      const base = question('webhooks');
      const v2Message = base.messages[0];
      const cases: [string, unknown, ('v1' | 'v2')?][] = [
        ['bad JSON', undefined],
        ['fp missing', { ...base, fp: undefined }],
        ['messages not an array', { ...base, messages: 'hi' }],
        ['messages empty', { ...base, messages: [] }],
        ['parts missing', { ...base, messages: [{ id: 'u', role: 'user' }] }],
        ['bad role', { ...base, messages: [{ ...v2Message, role: 'robot' }] }],
        ['v1 without content', { ...base }, 'v1'],
        ['last message not from the user', { ...base, messages: [v2Message, { id: 'a', role: 'assistant', parts: [{ type: 'text', text: 'hi' }] }] }],
        ['currentPath 201 chars', { ...base, currentPath: `/${'x'.repeat(200)}` }],
        ['retrievalPageSize 0', { ...base, retrievalPageSize: 0 }],
        ['retrievalPageSize 51', { ...base, retrievalPageSize: 51 }],
        ['retrievalPageSize a string', { ...base, retrievalPageSize: '5' }],
        ['filter.groups not a list', { ...base, filter: { groups: 'ops' } }],
        ['context of an unknown type', { ...base, context: [{ type: 'image', value: 'x' }] }],
        ['threadId a number', { ...base, threadId: 7 }],
      ];
      for (const [name, body, version] of cases) {
        const path = `/discovery/${version ?? 'v2'}/assistant/${emu.domain}/message`;
        const r = await call(emu, 'POST', path, body === undefined ? { key: emu.assistantKey, raw: '{"fp":' } : { key: emu.assistantKey, body });
        assert.equal(r.status, 400, name);
        assert.equal(typeof JSON.parse(r.text).error, 'string', name);
      }
      assert.equal((await ask(emu, { ...base, currentPath: `/${'x'.repeat(199)}`, filter: null, threadId: null })).status, 200);
    });
  });

  describe('retrieval', () => {
    async function search(text: string, extra: Json = {}): Promise<{ results: Json[]; sources: Json[]; query: string; text: string }> {
      const r = await ask(emu, question(text, extra));
      assert.equal(r.status, 200, r.text);
      const chunks = chunksOf(r.text);
      return {
        results: chunks.find((c) => c.type === 'tool-output-available')!.output.results as Json[],
        sources: chunks.filter((c) => c.type === 'source-url'),
        query: chunks.find((c) => c.type === 'tool-input-available')!.input.query as string,
        text: answerText(chunks),
      };
    }
    const slugOf = (url: string): string => new URL(url).pathname.replace('/docs/', '');

    it('ranks the page a person would open first', async () => {
      const expected: [string, string][] = [
        ['How do I verify webhook signatures?', 'webhooks#verifying-signatures'],
        ['how do I install the python sdk', 'installation#install-the-python-sdk'],
        ['rotate an api key', 'authentication#rotate-and-revoke-keys'],
        ['messages are delivered twice', 'troubleshooting#messages-are-delivered-twice'],
        ['deploy on kubernetes', 'deployment#kubernetes-with-helm'],
        ['How do I change the visibility timeout?', 'configuration#changing-the-visibility-timeout'],
        ['what changed in 2.3.0', 'changelog#230'],
        ['is delivery exactly once?', 'faq#is-delivery-exactly-once'],
      ];
      for (const [q, where] of expected) {
        const { results } = await search(q);
        assert.equal(`${slugOf(results[0]!.url)}${new URL(results[0]!.url).hash}`, where, q);
      }
    });

    it('without a filter, other languages and older versions rank below the current docs', async () => {
      const pages = (s: { results: Json[] }): string[] => s.results.map((r) => slugOf(r.url.split('#')[0]));
      const any = pages(await search('relay queues create', { retrievalPageSize: 20 }));
      assert.ok(any.includes('erste-schritte'), 'a translated page is still found');
      assert.notEqual(any[0], 'erste-schritte');
      const cfg = pages(await search('configuration settings timeout', { retrievalPageSize: 20 }));
      assert.ok(cfg.indexOf('configuration') < cfg.indexOf('configuration-v1'), cfg.join());
    });

    it('every result has a snippet, also a section that is only a code block', async () => {
      const { results } = await search('relay queues create bestellungen', { filter: { language: 'de' } });
      assert.ok(results.length > 0);
      for (const r of results) assert.notEqual(r.snippet, '', r.url);
    });

    it('takes retrievalPageSize results', async () => {
      assert.equal((await search('queue', { retrievalPageSize: 2 })).results.length, 2);
      assert.equal((await search('queue', { retrievalPageSize: 12 })).results.length, 12);
    });

    it('filter narrows by version, language and groups', async () => {
      const pages = (s: { results: Json[] }): string[] => s.results.map((r) => slugOf(r.url.split('#')[0]));
      const v1 = pages(await search('configuration settings timeout', { filter: { version: 'v1' }, retrievalPageSize: 20 }));
      assert.ok(v1.includes('configuration-v1'));
      assert.ok(!v1.includes('configuration') && !v1.includes('cli'), v1.join());
      const v2 = pages(await search('configuration settings timeout', { filter: { version: 'v2' }, retrievalPageSize: 20 }));
      assert.ok(v2.includes('configuration') && !v2.includes('configuration-v1'));
      const de = pages(await search('relay queues create', { filter: { language: 'de' } }));
      assert.deepEqual([...new Set(de)], ['erste-schritte']);
      const ops = pages(await search('relay', { filter: { groups: ['ops'] }, retrievalPageSize: 50 }));
      assert.ok(ops.length > 0);
      for (const p of new Set(ops)) assert.ok(['installation', 'configuration', 'rate-limits', 'troubleshooting', 'deployment'].includes(p), p);
      const none = await search('relay', { filter: { groups: ['nobody'] } });
      assert.deepEqual(none.results, []);
      assert.match(none.text, /^I found nothing in the documentation/);
    });

    it('currentPath lifts passages of the page being viewed, as a path or a file name', async () => {
      const top = async (extra: Json): Promise<string> => slugOf((await search('create a key or a queue', extra)).results[0]!.url.split('#')[0]!);
      assert.equal(await top({ currentPath: '/docs/authentication' }), 'authentication');
      assert.equal(await top({ currentPath: 'docs/getting-started.md' }), 'getting-started');
    });

    it('context: mentioned in the answer, and its words are searched', async () => {
      const { text, results } = await search('What does this do?', {
        context: [{ type: 'code', value: 'await queue.publishBatch([{ orderId: 1 }])', path: 'src/orders.ts' }],
      });
      assert.match(text, /You selected code from `src\/orders\.ts`/);
      assert.equal(results[0]!.url, `${emu.url}/docs/sdk#publish-messages`);
    });

    it('a long selection steers the search but does not drown the question', async () => {
      const code = 'const relay = new Relay({ apiKey }); await relay.queue("orders").publish(order);\n'.repeat(60);
      const { results } = await search('How do I verify webhook signatures?', { context: [{ type: 'code', value: code, path: 'src/orders.ts' }] });
      assert.equal(results[0]!.url, `${emu.url}/docs/webhooks#verifying-signatures`);
    });

    it('a short or "it/that" follow-up is read together with the question before, in the thread', async () => {
      const first = await ask(emu, question('How do webhooks work?'));
      const thread = { threadId: first.headers.get('x-thread-id'), threadKey: first.headers.get('x-thread-key') };
      const r = await ask(emu, question('And retries?', thread));
      const chunks = chunksOf(r.text);
      assert.match(chunks.find((c) => c.type === 'tool-input-available')!.input.query, /retries.*webhooks/i);
      assert.equal(chunks.find((c) => c.type === 'tool-output-available')!.output.results[0].url, `${emu.url}/docs/webhooks#retries`);
      assert.match(answerText(chunks), /read together with your earlier question, "How do webhooks work\?"/);
    });

    it('magic words are not searched for', async () => {
      const { query } = await search('webhooks [[fault:slow]] retries');
      assert.equal(query, 'webhooks retries');
    });
  });

  describe('threads', () => {
    it('X-Thread-Key only on the answer that made the thread; a follow-up needs id and key', async () => {
      const first = await ask(emu, question('What is a webhook?'));
      const threadId = first.headers.get('x-thread-id')!;
      const threadKey = first.headers.get('x-thread-key')!;
      assert.match(threadKey, /^tk_[0-9a-f]{32}$/);
      const next = await ask(emu, question('retries', { threadId, threadKey }));
      assert.equal(next.status, 200);
      assert.equal(next.headers.get('x-thread-id'), threadId);
      assert.equal(next.headers.get('x-thread-key'), null);
      for (const extra of [{ threadId }, { threadId, threadKey: 'tk_wrong' }, { threadId: 'thr_unknown', threadKey }]) {
        const r = await ask(emu, question('retries', extra));
        assert.equal(r.status, 404);
        assert.deepEqual(JSON.parse(r.text), { error: 'Thread not found' });
      }
    });

    it('threadKeys: false hands out no key and takes a threadId alone', async () => {
      const open = await startEmulator({ port: 0, threadKeys: false, deltaDelayMs: 0 });
      try {
        const first = await ask(open, question('webhooks'));
        assert.equal(first.headers.get('x-thread-key'), null);
        const threadId = first.headers.get('x-thread-id')!;
        const next = await ask(open, question('retries', { threadId }));
        assert.equal(next.status, 200);
        assert.equal(next.headers.get('x-thread-id'), threadId);
        assert.equal((await ask(open, question('x', { threadId: 'thr_nope' }))).status, 404);
      } finally {
        await open.close();
      }
    });
  });

  describe('fault modes', () => {
    /** Reads a stream until `enough` says so; then checks that nothing more arrives for `quietMs`. */
    async function readUntil(res: Response, enough: (text: string) => boolean): Promise<{ text: string; reader: ReadableStreamDefaultReader<Uint8Array> }> {
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      while (!enough(text)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      return { text, reader };
    }
    const deltas = (text: string): number => (text.match(/"type":"text-delta"/g) ?? []).length;
    const post = (fault: string, signal?: AbortSignal): Promise<Response> =>
      fetch(`${emu.url}/discovery/v2/assistant/${emu.domain}/message`, {
        method: 'POST',
        headers: { authorization: `Bearer ${emu.assistantKey}`, 'content-type': 'application/json', 'x-emulator-fault': fault },
        body: JSON.stringify(question('webhook retries')),
        signal,
      });

    it('slow: the whole answer, with slowDripMs between chunks', async () => {
      const t0 = Date.now();
      const r = await ask(emu, question('webhook retries'), { fault: 'slow' });
      const chunks = chunksOf(r.text);
      assert.equal(chunks[chunks.length - 1]!.type, 'finish');
      assert.ok(Date.now() - t0 >= (chunks.length - 1) * 5, 'paced');
    });

    it('stall-mid: a few deltas, then silence with the connection open', async () => {
      const ac = new AbortController();
      const { text, reader } = await readUntil(await post('stall-mid', ac.signal), (t) => deltas(t) >= 3);
      assert.equal(deltas(text), 3);
      const more = await Promise.race([reader.read().then(() => 'data'), sleep(300).then(() => 'quiet')]);
      assert.equal(more, 'quiet');
      ac.abort();
      assert.equal((await call(emu, 'GET', '/__emulator/health')).status, 200);
    });

    it('stall-headers: never answers; recorded with status 0', async () => {
      await assert.rejects(post('stall-headers', AbortSignal.timeout(200)), { name: 'TimeoutError' });
      const rec = emu.requests.find((r) => r.headers['x-emulator-fault'] === 'stall-headers');
      assert.equal(rec?.status, 0);
    });

    it('drop-mid: a few deltas, then the connection breaks', async () => {
      const res = await post('drop-mid');
      assert.equal(res.status, 200);
      const { text } = await readUntil(res, (t) => deltas(t) >= 3);
      assert.ok(deltas(text) >= 1);
      await assert.rejects(res.text());
    });

    it('malformed: one event that is not JSON, the rest is whole', async () => {
      const data = sseData((await ask(emu, question('webhooks'), { fault: 'malformed' })).text);
      assert.deepEqual(
        data.filter((d) => typeof d === 'string'),
        ['{not json', '[DONE]'],
      );
      assert.ok(data.some((d) => (d as Json).type === 'finish'));
    });

    it('unknown-chunks: chunk types from the future and data-progress parts, then a normal finish', async () => {
      const chunks = chunksOf((await ask(emu, question('webhooks'), { fault: 'unknown-chunks' })).text);
      assert.ok(chunks.some((c) => c.type === 'x-future-thing'));
      assert.ok(chunks.filter((c) => c.type === 'data-progress').length >= 2);
      assert.equal(chunks[chunks.length - 1]!.type, 'finish');
      assert.ok(answerText(chunks).length > 100);
    });

    it('error-chunk: an error chunk after some text, then finish', async () => {
      const chunks = chunksOf((await ask(emu, question('webhooks'), { fault: 'error-chunk' })).text);
      const at = chunks.findIndex((c) => c.type === 'error');
      assert.ok(at > chunks.findIndex((c) => c.type === 'text-delta'));
      assert.equal(typeof chunks[at]!.errorText, 'string');
      assert.equal(chunks[chunks.length - 1]!.type, 'finish');
    });

    it('abort-chunk: some text, then abort with a reason and no finish', async () => {
      const chunks = chunksOf((await ask(emu, question('webhooks'), { fault: 'abort-chunk' })).text);
      assert.equal(chunks[chunks.length - 1]!.type, 'abort');
      assert.equal(typeof chunks[chunks.length - 1]!.reason, 'string');
      assert.ok(answerText(chunks).length > 0);
      assert.ok(!chunks.some((c) => c.type === 'finish'));
    });

    it('no-done: finish, but no [DONE]', async () => {
      const data = sseData((await ask(emu, question('webhooks'), { fault: 'no-done' })).text);
      assert.equal((data[data.length - 1] as Json).type, 'finish');
      assert.ok(!data.includes('[DONE]'));
    });

    it('huge-chunk: one text delta of 5 MB', async () => {
      const chunks = chunksOf((await ask(emu, question('webhooks'), { fault: 'huge-chunk' })).text);
      assert.ok(chunks.some((c) => c.type === 'text-delta' && (c.delta as string).length >= 5 * 1024 * 1024));
      assert.equal(chunks[chunks.length - 1]!.type, 'finish');
    });

    it('non-sse and html-502', async () => {
      const json = await ask(emu, question('webhooks'), { fault: 'non-sse' });
      assert.deepEqual([json.status, json.headers.get('content-type')], [200, 'application/json; charset=utf-8']);
      JSON.parse(json.text);
      const html = await ask(emu, question('webhooks'), { fault: 'html-502' });
      assert.equal(html.status, 502);
      assert.match(html.headers.get('content-type')!, /^text\/html/);
      assert.match(html.text, /<title>502 Bad Gateway<\/title>/);
    });

    it('status modes: the status, JSON bodies in several shapes, Retry-After 7 only on 429', async () => {
      const shapes = new Set<string>();
      for (const mode of ['400', '401', '403', '404', '429', '429-no-retry-after', '500', '503']) {
        const r = await ask(emu, question('webhooks'), { fault: mode });
        assert.equal(r.status, Number(mode.slice(0, 3)), mode);
        const body = JSON.parse(r.text) as Json;
        shapes.add(
          typeof body.error === 'string'
            ? 'error'
            : typeof body.error?.message === 'string'
              ? 'error.message'
              : typeof body.message === 'string'
                ? 'message'
                : 'other',
        );
        assert.equal(r.headers.get('retry-after'), mode === '429' ? '7' : null, mode);
      }
      assert.deepEqual([...shapes].sort(), ['error', 'error.message', 'message']);
    });

    it('the magic word in the question works like the header; an unknown mode is a 400', async () => {
      assert.equal((await ask(emu, question('please [[fault:503]]'))).status, 503);
      assert.equal((await ask(emu, question('x'), { fault: 'no-such-mode' })).status, 400);
    });

    it('v1 gets the same faults in its own protocol', async () => {
      const v1 = (text: string, fault: string): Promise<Reply> => ask(emu, question(text, {}, 'v1'), { version: 'v1', fault });
      const malformed = (await v1('webhooks', 'malformed')).text.split('\n');
      assert.ok(malformed.includes('0:{not json'));
      assert.match((await v1('webhooks', 'error-chunk')).text, /\n3:"[^"]+"\n/);
      assert.match((await v1('webhooks', 'unknown-chunks')).text, /\nz:\{/);
      const huge = (await v1('webhooks', 'huge-chunk')).text.split('\n');
      assert.ok(huge.some((l) => l.startsWith('0:') && l.length > 5 * 1024 * 1024));
      assert.equal((await v1('webhooks', '429')).headers.get('retry-after'), '7');
      await assert.rejects(v1('webhooks', 'drop-mid'));
    });
  });

  describe('request log', () => {
    it('records API requests with the key kind and status, never the Authorization header', async () => {
      await create('Fix it');
      await create('Fix it', emu.assistantKey);
      await call(emu, 'POST', jobs(), { key: 'svc_someone_else', body: { prompt: 'x' } });
      await call(emu, 'POST', jobs(), { body: { prompt: 'x' } });
      await ask(emu, question('webhooks'));
      await fetch(`${emu.url}/docs/webhooks`);
      await call(emu, 'GET', '/__emulator/health');
      const log = JSON.parse((await call(emu, 'GET', '/__emulator/requests')).text) as RecordedRequest[];
      assert.deepEqual(
        log.map((r) => [r.method, r.path, r.auth, r.status]),
        [
          ['POST', jobs(), 'admin', 201],
          ['POST', jobs(), 'assistant', 401],
          ['POST', jobs(), 'other', 401],
          ['POST', jobs(), 'none', 401],
          ['POST', `/discovery/v2/assistant/${emu.domain}/message`, 'assistant', 200],
        ],
      );
      assert.deepEqual(log[0]!.body, { prompt: 'Fix it' });
      assert.equal(log[0]!.headers['content-type'], 'application/json');
      const raw = JSON.stringify(log);
      assert.ok(!/authorization/i.test(raw));
      for (const key of [emu.adminKey, emu.assistantKey, 'svc_someone_else']) assert.ok(!raw.includes(key));
      assert.deepEqual(JSON.parse(JSON.stringify(emu.requests)), log);
    });

    it('POST /__emulator/reset clears the log, jobs and threads', async () => {
      const id = JSON.parse((await create('Fix it')).text).id as string;
      const first = await ask(emu, question('webhooks'));
      assert.equal((await call(emu, 'POST', '/__emulator/reset')).status, 200);
      assert.deepEqual(JSON.parse((await call(emu, 'GET', '/__emulator/requests')).text), []);
      assert.equal((await getJob(id)).status, 404);
      assert.equal(
        (await ask(emu, question('retries', { threadId: first.headers.get('x-thread-id'), threadKey: first.headers.get('x-thread-key') }))).status,
        404,
      );
    });
  });

  describe('lifetime', () => {
    it('close() resolves promptly with a stalled stream and a request that got no headers', async () => {
      const own = await startEmulator({ port: 0, deltaDelayMs: 0 });
      const headers = { authorization: `Bearer ${own.assistantKey}`, 'content-type': 'application/json' };
      const url = `${own.url}/discovery/v2/assistant/${own.domain}/message`;
      const stalled = await fetch(url, {
        method: 'POST',
        headers: { ...headers, 'x-emulator-fault': 'stall-mid' },
        body: JSON.stringify(question('webhooks')),
      });
      // Settled into values at once, so the rejections are not reported as unhandled meanwhile.
      const reading = stalled.text().then(
        () => 'ended',
        (e: unknown) => e,
      );
      const waiting = fetch(url, {
        method: 'POST',
        headers: { ...headers, 'x-emulator-fault': 'stall-headers' },
        body: JSON.stringify(question('webhooks')),
      }).then(
        () => 'answered',
        (e: unknown) => e,
      );
      await sleep(50);
      const t0 = Date.now();
      await own.close();
      assert.ok(Date.now() - t0 < 500, `close took ${Date.now() - t0} ms`);
      assert.ok((await reading) instanceof Error, 'the stalled stream broke off');
      assert.ok((await waiting) instanceof Error, 'the request without headers failed');
      await own.close(); // a second close is harmless
    });

    it('a client that leaves mid-stream stops the stream, and no timer is left behind', async () => {
      const own = await startEmulator({ port: 0, deltaDelayMs: 300 });
      const timeouts = (): number => process.getActiveResourcesInfo().filter((t) => t === 'Timeout').length;
      try {
        const baseline = timeouts();
        const ac = new AbortController();
        const res = await fetch(`${own.url}/discovery/v2/assistant/${own.domain}/message`, {
          method: 'POST',
          headers: { authorization: `Bearer ${own.assistantKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(question('webhook retries')),
          signal: ac.signal,
        });
        await res.body!.getReader().read();
        await sleep(30);
        assert.ok(timeouts() > baseline, 'the stream waits between chunks');
        ac.abort();
        await sleep(50);
        assert.ok(timeouts() <= baseline, 'the pause ended with the client');
      } finally {
        await own.close();
      }
    });

    it('serves the docs site and a health check', async () => {
      assert.equal((await call(emu, 'GET', '/__emulator/health')).status, 200);
      const index = await fetch(`${emu.url}/docs`);
      assert.match(await index.text(), /href="\/docs\/webhooks"/);
      assert.equal((await fetch(`${emu.url}/docs/no-such-page`)).status, 404);
      assert.equal((await fetch(`${emu.url}/pr/acme/acme-docs/pull/999`)).status, 404);
    });
  });
});
