import * as assert from 'node:assert/strict';
import {
  ServiceError,
  buildAssistantBody,
  describeError,
  errorFromStatus,
  extractDetail,
  isLoopbackUrl,
  parseAgentJob,
  parseBaseUrl,
  parseRetryAfter,
  serviceUrl,
  trimCurrentPath,
  type AssistantRequest,
} from '../../src/api';
import { words } from '../api/helpers';

const ADMIN = 'svc_7fK2pQ9xLm3Zt8Rw';

const request: AssistantRequest = {
  fp: 'anonymous',
  messages: [
    {
      id: 'u1',
      role: 'user',
      parts: [
        { type: 'text', text: 'How do I ' },
        { type: 'text', text: 'set up SSO?' },
      ],
    },
    { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'Under Settings.' }] },
    { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'And Okta?' }] },
  ],
};

describe('assistant request body', () => {
  it('v2: fp, messages with id/role/parts only, threadId null for a new conversation, default page size', () => {
    assert.deepEqual(buildAssistantBody(request, 'v2'), {
      fp: 'anonymous',
      messages: [
        {
          id: 'u1',
          role: 'user',
          parts: [
            { type: 'text', text: 'How do I ' },
            { type: 'text', text: 'set up SSO?' },
          ],
        },
        { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'Under Settings.' }] },
        { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'And Okta?' }] },
      ],
      threadId: null,
      retrievalPageSize: 5,
    });
  });

  it('v1: messages also carry content, the joined text', () => {
    const body = buildAssistantBody(request, 'v1') as { messages: Record<string, unknown>[] };
    assert.deepEqual(body.messages[0], {
      id: 'u1',
      role: 'user',
      content: 'How do I set up SSO?',
      parts: [
        { type: 'text', text: 'How do I ' },
        { type: 'text', text: 'set up SSO?' },
      ],
    });
  });

  it('sends threadId and threadKey when known, threadKey never without threadId', () => {
    assert.deepEqual(
      Object.entries(buildAssistantBody({ ...request, threadId: 'thr_1', threadKey: 'key_1' }, 'v2')).filter(([k]) => k.startsWith('thread')),
      [
        ['threadId', 'thr_1'],
        ['threadKey', 'key_1'],
      ],
    );
    assert.equal('threadKey' in buildAssistantBody({ ...request, threadId: 'thr_1' }, 'v2'), false);
    assert.equal('threadKey' in buildAssistantBody({ ...request, threadId: 'thr_1', threadKey: null }, 'v2'), false);
    const orphan = buildAssistantBody({ ...request, threadId: null, threadKey: 'k' }, 'v2');
    assert.equal(orphan.threadId, null);
    assert.equal('threadKey' in orphan, false);
  });

  it('context items: type, value, and path/elementId only when present', () => {
    const body = buildAssistantBody(
      {
        ...request,
        context: [
          { type: 'code', value: 'const a = 1;', path: 'src/a.ts' },
          { type: 'textSelection', value: 'Selected', elementId: 'el-1' },
          { type: 'code', value: 'x', path: '', elementId: undefined },
        ],
      },
      'v2',
    );
    assert.deepEqual(body.context, [
      { type: 'code', value: 'const a = 1;', path: 'src/a.ts' },
      { type: 'textSelection', value: 'Selected', elementId: 'el-1' },
      { type: 'code', value: 'x' },
    ]);
    assert.equal('context' in buildAssistantBody({ ...request, context: [] }, 'v2'), false);
  });

  it('filter as given (null included), page size as given, currentPath cut to its last 200 chars, blank fp → anonymous', () => {
    const long = `/docs/${'section/'.repeat(40)}page.md`;
    const body = buildAssistantBody({ ...request, fp: ' ', filter: { version: 'v2', groups: ['admin'] }, retrievalPageSize: 8, currentPath: long }, 'v2');
    assert.deepEqual(body.filter, { version: 'v2', groups: ['admin'] });
    assert.equal(body.retrievalPageSize, 8);
    assert.equal(body.fp, 'anonymous');
    assert.equal((body.currentPath as string).length, 200);
    assert.ok(long.endsWith(body.currentPath as string));
    assert.equal(buildAssistantBody({ ...request, filter: null }, 'v2').filter, null);
    assert.equal('filter' in buildAssistantBody(request, 'v2'), false);
    assert.equal('currentPath' in buildAssistantBody({ ...request, currentPath: '' }, 'v2'), false);
  });

  it('drops fields a caller carries on its objects instead of sending them', () => {
    const sneaky = { ...request, messages: [{ id: 'u', role: 'user' as const, parts: [{ type: 'text' as const, text: 'q', secret: 1 }], extra: true }] };
    assert.deepEqual((buildAssistantBody(sneaky, 'v2').messages as unknown[])[0], { id: 'u', role: 'user', parts: [{ type: 'text', text: 'q' }] });
  });
});

describe('trimCurrentPath', () => {
  it('keeps paths up to 200 characters and cuts longer ones keeping the end', () => {
    assert.equal(trimCurrentPath('/a/b'), '/a/b');
    const p200 = 'x'.repeat(200);
    assert.equal(trimCurrentPath(p200), p200);
    assert.equal(trimCurrentPath(`HEAD${p200}`), p200);
  });

  it('never splits a surrogate pair', () => {
    const path = `${'🙂'.repeat(150)}`; // 300 UTF-16 code units
    const out = trimCurrentPath(path);
    assert.ok(out.length <= 200);
    assert.equal(out, '🙂'.repeat(100));
    const odd = `a${'🙂'.repeat(100)}b`; // cut lands inside a pair
    const cut = trimCurrentPath(odd);
    assert.ok(cut.length === 199 && cut.endsWith('b') && cut.codePointAt(0) === 0x1f642);
  });
});

const job = {
  id: 'job_123',
  status: 'completed',
  source: { repository: 'https://github.com/acme/docs', ref: 'main' },
  model: 'agent-1',
  prLink: 'https://github.com/acme/docs/pull/7',
  createdAt: '2024-11-23T10:00:00Z',
  archivedAt: null,
};

describe('parseAgentJob', () => {
  it('accepts a full job, and null or absent for prLink, source.ref and archivedAt', () => {
    assert.deepEqual(parseAgentJob(job), job);
    const { prLink: _p, archivedAt: _a, ...rest } = job;
    const parsed = parseAgentJob({ ...rest, status: 'active', source: { repository: job.source.repository } });
    assert.equal(parsed.prLink, null);
    assert.equal(parsed.archivedAt, null);
    assert.equal(parsed.source.ref, null);
    assert.equal(parseAgentJob({ ...job, source: { repository: 'r', ref: null }, prLink: null }).source.ref, null);
  });

  it('accepts all four statuses and ignores unknown extra fields', () => {
    for (const status of ['active', 'completed', 'archived', 'failed']) assert.equal(parseAgentJob({ ...job, status, extra: 1 }).status, status);
  });

  it('refuses missing or wrongly typed fields and unknown statuses with a protocol error naming the field', () => {
    const cases: [unknown, RegExp][] = [
      [null, /where an agent job was expected/],
      ['job', /where an agent job was expected/],
      [[job], /where an agent job was expected/],
      [{ ...job, id: undefined }, /"id" should be a non-empty string, but it is nothing/],
      [{ ...job, id: 7 }, /"id" should be/],
      [{ ...job, status: 'paused' }, /"status" should be one of active, completed, archived, failed, but it is "paused"/],
      [{ ...job, status: undefined }, /"status"/],
      [{ ...job, source: 'acme/docs' }, /"source" should be an object/],
      [{ ...job, source: { ref: 'main' } }, /"source.repository"/],
      [{ ...job, source: { repository: 'r', ref: 3 } }, /"source.ref" should be a string or null/],
      [{ ...job, model: null }, /"model"/],
      [{ ...job, prLink: 5 }, /"prLink" should be a string or null/],
      [{ ...job, createdAt: 'yesterday' }, /"createdAt" should be a date-time/],
      [{ ...job, createdAt: undefined }, /"createdAt"/],
      [{ ...job, archivedAt: 12 }, /"archivedAt"/],
    ];
    for (const [body, pattern] of cases) {
      assert.throws(
        () => parseAgentJob(body),
        (e: unknown) => e instanceof ServiceError && e.kind === 'protocol' && pattern.test(words(e)),
        JSON.stringify(body),
      );
    }
  });

  it('does not echo a key that somehow sits in a bad field', () => {
    assert.throws(
      () => parseAgentJob({ ...job, status: ADMIN }),
      (e: unknown) => e instanceof ServiceError && !e.message.includes(ADMIN) && !words(e).includes(ADMIN) && e.reason.code === 'badJob',
    );
  });
});

describe('addresses', () => {
  it('isLoopbackUrl: 127.0.0.0/8, localhost and [::1] only', () => {
    for (const u of [
      'http://127.0.0.1:3000',
      'http://127.8.9.10/',
      'http://localhost:1',
      'http://LOCALHOST',
      'http://[::1]:80/x',
      'http://127.1/',
      'http://[0:0:0:0:0:0:0:1]/',
      'http://[::ffff:127.0.0.1]/',
    ]) {
      assert.equal(isLoopbackUrl(u), true, u);
    }
    for (const u of [
      'http://128.0.0.1',
      'http://10.0.0.1',
      'http://localhost.example.com',
      'http://127.0.0.1.nip.io',
      'http://[::2]',
      'http://0.0.0.0',
      'not a url',
      'http://example.com/?h=127.0.0.1',
      'http://127.0.0.1@evil.com/',
    ]) {
      assert.equal(isLoopbackUrl(u), false, u);
    }
  });

  it('builds paths with encoded segments under any base path prefix', () => {
    assert.equal(
      serviceUrl(parseBaseUrl('https://api.example.com'), ['v2', 'agent', 'p 1', 'job', 'a/b?c']),
      'https://api.example.com/v2/agent/p%201/job/a%2Fb%3Fc',
    );
    assert.equal(serviceUrl(parseBaseUrl('https://gw.example.com/docs-api///'), ['v2', 'x']), 'https://gw.example.com/docs-api/v2/x');
  });

  it('refuses a base address that is empty, not http(s), or carries credentials', () => {
    for (const [base, pattern] of [
      ['', /not set/],
      ['api.example.com', /not a valid address/],
      ['ftp://api.example.com', /must start with https/],
      ['https://user:pw@api.example.com', /must not contain a user name/],
    ] as const) {
      assert.throws(
        () => parseBaseUrl(base),
        (e: unknown) => e instanceof ServiceError && e.kind === 'invalidInput' && pattern.test(words(e)),
      );
    }
  });
});

describe('error mapping', () => {
  const headers = (h: Record<string, string>) => new Headers(h);
  const agent = { service: 'agent' as const, projectId: 'proj' };
  const assistant = { service: 'assistant' as const, domain: 'acme' };

  it('parseRetryAfter: seconds or an HTTP date; unreadable → undefined', () => {
    assert.equal(parseRetryAfter('7'), 7000);
    assert.equal(parseRetryAfter(' 1.5 '), 1500);
    const now = Date.parse('2024-11-23T10:00:00Z');
    assert.equal(parseRetryAfter('Sat, 23 Nov 2024 10:00:30 GMT', now), 30_000);
    assert.equal(parseRetryAfter('Sat, 23 Nov 2024 09:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('soon'), undefined);
    assert.equal(parseRetryAfter(null), undefined);
    assert.equal(parseRetryAfter(''), undefined);
  });

  it('extractDetail: {error}, {message}, {error:{message}}, HTML title, text; cut and redacted', () => {
    assert.equal(extractDetail('{"error":"prompt is required"}', 'application/json'), 'prompt is required');
    assert.equal(extractDetail('{"message":"nope"}', 'application/json'), 'nope');
    assert.equal(extractDetail('{"error":{"message":"deep","code":1}}', null), 'deep');
    assert.equal(extractDetail('<html><head><title>502 Bad Gateway</title></head><body><h1>Bad</h1></body></html>', 'text/html'), '502 Bad Gateway');
    assert.equal(extractDetail('<html><body><p>Upstream   down</p></body></html>', 'text/html'), 'Upstream down');
    assert.equal(extractDetail('plain words', 'text/plain'), 'plain words');
    assert.equal(extractDetail('   ', 'text/plain'), undefined);
    assert.equal(extractDetail('x'.repeat(1000), 'text/plain')!.length, 300);
    assert.equal(extractDetail(`{"error":"bad key ${ADMIN}"}`, 'application/json'), 'bad key svc_[redacted]');
  });

  it('maps statuses to kinds and to typed reasons (test/unit/error-words.test.ts words them)', () => {
    const e = (status: number, h: Record<string, string> = {}, body = '', target: Parameters<typeof errorFromStatus>[2] = assistant) =>
      errorFromStatus({ status, headers: headers(h) }, body, target);
    assert.equal(words(e(400, {}, '{"error":"prompt too long"}')), 'The service refused the request (HTTP 400): prompt too long');
    assert.deepEqual(e(400, {}, '{"error":"prompt too long"}').reason, { code: 'badRequest' });
    assert.equal(e(401).kind, 'unauthorized');
    assert.deepEqual(e(401).reason, { code: 'keyRefused', service: 'assistant' });
    assert.deepEqual(e(401, {}, '', agent).reason, { code: 'keyRefused', service: 'agent' });
    assert.equal(e(403).kind, 'forbidden');
    assert.deepEqual(e(403).reason, { code: 'domainForbidden', domain: 'acme' });
    assert.deepEqual(e(403, {}, '', agent).reason, { code: 'projectForbidden', projectId: 'proj' });
    assert.deepEqual(e(404).reason, { code: 'domainNotFound', domain: 'acme' });
    assert.equal(e(404).option, 'domain');
    assert.deepEqual(e(404, {}, '', { ...assistant, threadId: 'thr' }).reason, { code: 'threadGone', threadId: 'thr' });
    assert.deepEqual(e(404, {}, '', { ...agent, jobId: 'job_9' }).reason, { code: 'jobNotFound', projectId: 'proj', jobId: 'job_9' });
    assert.deepEqual(e(404, {}, '', agent).reason, { code: 'projectNotFound', projectId: 'proj' });
    const limited = e(429, { 'retry-after': '7' });
    assert.equal(limited.kind, 'rateLimited');
    assert.equal(limited.retryAfterMs, 7000);
    assert.equal(limited.reason.code === 'rateLimited' && limited.reason.retryAt! - Date.now() > 6000, true, 'retryAt: when the wait is over');
    assert.match(words(limited), /Try again after \d{2}:\d{2}:\d{2}\./, 'a time of day, to the second when it is soon');
    assert.deepEqual(e(429).reason, { code: 'rateLimited', service: 'assistant' }, 'no Retry-After: no retryAt');
    assert.deepEqual(e(429, {}, '', agent).reason, { code: 'rateLimited', service: 'agent', perHour: 100 });
    assert.deepEqual(e(503).reason, { code: 'serverError' });
    assert.equal(words(e(503)), 'The service had a problem (HTTP 503). Try again in a moment.');
    assert.equal(e(500).kind, 'server');
    assert.equal(e(422).kind, 'badRequest');
    const redirect = e(302, { location: 'https://new.example.com/x' });
    assert.equal(redirect.kind, 'protocol');
    assert.deepEqual(redirect.reason, { code: 'redirected', location: 'https://new.example.com/x' });
    // The client's own message is a line for the log, written from the reason in one place
    // (src/api/errors.ts); it never names a setting or a command: it knows neither.
    assert.equal(e(401).message, 'keyRefused service=assistant (HTTP 401)');
    assert.equal(e(404, {}, '', { ...agent, jobId: 'job_9' }).message, 'jobNotFound projectId=proj jobId=job_9 (HTTP 404)');
    assert.equal(e(400, {}, '{"error":"prompt too long"}').message, 'badRequest (HTTP 400): prompt too long');
    assert.equal(redirect.message, 'redirected location=https://new.example.com/x (HTTP 302)');
    for (const err of [e(400), e(401), e(401, {}, '', agent), e(403), e(403, {}, '', agent), e(404), e(404, {}, '', agent), e(429), e(503), redirect]) {
      assert.doesNotMatch(err.message, /docsAssistant\.|Docs Assistant:/, err.message);
    }
  });

  it('the message for the log is written from the reason; a copy writes its own', () => {
    const lost = new ServiceError({ reason: { code: 'unreachable', host: 'h:1', cause: 'refused' }, lostResponse: true, detail: 'fetch failed' });
    assert.equal(lost.message, 'unreachable host=h:1 cause=refused lostResponse: fetch failed');
    assert.equal(new ServiceError({ reason: { code: 'aborted' } }).message, 'aborted');
    assert.equal(new ServiceError({ reason: { code: 'serverError' }, message: 'given' }).message, 'given', 'a message given is kept');
    assert.equal(lost.with({ detail: 'other' }).message, 'unreachable host=h:1 cause=refused lostResponse: other');
  });

  it('describeError normalises anything into a ServiceError', () => {
    const same = new ServiceError({ reason: { code: 'serverError' }, message: 'x' });
    assert.equal(describeError(same), same);
    assert.equal(describeError(new DOMException('stop', 'AbortError')).kind, 'aborted');
    assert.equal(describeError(new DOMException('late', 'TimeoutError')).kind, 'timeout');
    const refused = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    assert.equal(describeError(refused).kind, 'network');
    assert.equal(describeError(new SyntaxError('Unexpected token')).kind, 'protocol');
    const weird = describeError(`boom ${ADMIN}`, [ADMIN]);
    assert.equal(weird.kind, 'protocol');
    assert.ok(!weird.message.includes(ADMIN) && !words(weird).includes(ADMIN));
    assert.deepEqual(weird.reason, { code: 'unexpected' });
    assert.match(weird.detail!, /^boom .*\[redacted\]/);
    assert.equal(describeError(new SyntaxError('Unexpected token')).reason.code, 'unreadable');
  });
});
