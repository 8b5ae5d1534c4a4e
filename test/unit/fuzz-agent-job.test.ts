import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { AGENT_JOB_STATUSES, AgentClient, parseAgentJob, ServiceError, type AgentJob } from '../../src/api';
import { words } from '../api/helpers';

// Random bodies through the agent job parser (src/api/agentJob.ts), the one gate between the
// service's JSON and the tree view, poller and PR buttons. The oracle below is written from the
// interface (service-interface.md §2.1, notes.md), not from the parser.
//
// Properties:
//   1. Never a job with a wrong status: whatever comes back has one of the four statuses, and it
//      is the status the body said, character for character (no trimming, no case folding).
//   2. A body that does not fit the interface is a ServiceError of kind `protocol`; nothing else
//      is ever thrown. One that fits is accepted with every field as sent.
//   3. A pull request link that comes back is an absolute http(s) address.

const SEED = 8_02_2025;
const counts = { random: 0, nearValid: 0, viaClient: 0, accepted: 0, refused: 0 };

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const isDate = (v: unknown): boolean => nonEmpty(v) && Number.isFinite(Date.parse(v));

/** Does `body` fit the interface's job shape? Independent of the parser. */
function fits(body: unknown): boolean {
  if (!isObj(body)) return false;
  const src = body.source;
  return (
    nonEmpty(body.id) &&
    typeof body.status === 'string' &&
    (AGENT_JOB_STATUSES as readonly string[]).includes(body.status) &&
    isObj(src) &&
    nonEmpty(src.repository) &&
    (src.ref === undefined || src.ref === null || typeof src.ref === 'string') &&
    nonEmpty(body.model) &&
    (body.prLink === undefined || body.prLink === null || typeof body.prLink === 'string') &&
    isDate(body.createdAt) &&
    (body.archivedAt === undefined || body.archivedAt === null || isDate(body.archivedAt))
  );
}

function isWebLink(v: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
}

/** Checks one body; returns whether it was accepted. */
function check(body: unknown): boolean {
  let job: AgentJob;
  try {
    job = parseAgentJob(body);
  } catch (e) {
    assert.ok(e instanceof ServiceError, `threw ${String(e)} instead of a ServiceError`);
    assert.equal(e.kind, 'protocol');
    assert.match(words(e), /^The service (sent an agent job that cannot be read: "[\w.]+" should be|answered with .* where an agent job was expected\.)/);
    assert.equal(fits(body), false, `a body that fits the interface was refused: ${e.message}\n${JSON.stringify(body)}`);
    counts.refused++;
    return false;
  }
  assert.equal(fits(body), true, `a body that does not fit was accepted: ${JSON.stringify(body)}`);
  const o = body as Obj;
  // Property 1: the status is one of the four, and exactly the one sent.
  assert.ok((AGENT_JOB_STATUSES as readonly string[]).includes(job.status));
  assert.equal(job.status, o.status);
  assert.equal(job.id, o.id);
  assert.equal(job.model, o.model);
  assert.equal(job.createdAt, o.createdAt);
  assert.equal(job.archivedAt, o.archivedAt ?? null);
  assert.equal(job.source.repository, (o.source as Obj).repository);
  assert.equal(job.source.ref, (o.source as Obj).ref ?? null);
  // Property 3: a link is kept only if it is a web address, and then as sent.
  if (job.prLink !== null) {
    assert.ok(isWebLink(job.prLink), `kept a link that is not http(s): ${job.prLink}`);
    assert.equal(job.prLink, o.prLink);
  } else if (typeof o.prLink === 'string') {
    assert.ok(!isWebLink(o.prLink), `dropped a web link: ${o.prLink}`);
  }
  // Only the documented fields, as plain data the store can save.
  assert.deepEqual(Object.keys(job).sort(), ['archivedAt', 'createdAt', 'id', 'model', 'prLink', 'source', 'status']);
  assert.deepEqual(JSON.parse(JSON.stringify(job)), job);
  counts.accepted++;
  return true;
}

// ---------------------------------------------------------------------------
// Bodies

const statusLike = fc.oneof(
  fc.constantFrom(...AGENT_JOB_STATUSES),
  fc.constantFrom(
    'Active',
    'COMPLETED',
    ' active',
    'active ',
    'active\n',
    'complete',
    'done',
    'cancelled',
    'pending',
    'archived\u0000',
    'ac\u200btive',
    '',
    '__proto__',
    'constructor',
    'toString',
  ),
  fc.string({ maxLength: 12 }),
  fc.jsonValue({ maxDepth: 1 }),
);
const dateLike = fc.oneof(
  fc.date({ noInvalidDate: true, min: new Date('1970-01-01'), max: new Date('2200-01-01') }).map((d) => d.toISOString()),
  fc.constantFrom('2026-11-23T11:55:00Z', '2026-11-23', 'yesterday', '', 'NaN', '2026-13-45T99:99:99Z', 'Tue, 23 Nov 2026 11:55:00 GMT'),
  fc.integer(),
  fc.constant(null),
);
const linkLike = fc.oneof(
  fc.webUrl(),
  fc.constantFrom(
    'https://github.com/acme/docs/pull/7',
    'http://127.0.0.1:8080/pr/1',
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'vscode://settings',
    'command:workbench.action.terminal.new',
    '/relative/pull/1',
    '//evil.example/pr',
    '',
    ' https://x.example/pr',
  ),
  fc.constant(null),
  fc.string({ maxLength: 20 }),
  fc.integer(),
);
const stringLike = fc.oneof(
  fc.string({ minLength: 1, maxLength: 16 }),
  fc.constant(''),
  fc.integer(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 2 }),
);

/** A job that fits, to be damaged at random. */
const validJob = fc.record({
  id: fc.string({ minLength: 1, maxLength: 24 }),
  status: fc.constantFrom(...AGENT_JOB_STATUSES),
  source: fc.record({
    repository: fc.constantFrom('https://github.com/acme/docs', 'acme/docs'),
    ref: fc.option(fc.constantFrom('main', 'docs/fix', ''), { nil: null }),
  }),
  model: fc.constantFrom('docs-agent-1', 'emulated-agent-1'),
  prLink: fc.option(fc.webUrl(), { nil: null }),
  createdAt: fc.date({ noInvalidDate: true, min: new Date('2000-01-01'), max: new Date('2100-01-01') }).map((d) => d.toISOString()),
  archivedAt: fc.option(fc.constant('2026-11-23T11:59:00Z'), { nil: null }),
});

const FIELDS = ['id', 'status', 'source', 'model', 'prLink', 'createdAt', 'archivedAt', 'source.repository', 'source.ref', 'extra', '__proto__'];

const edit = fc.tuple(
  fc.constantFrom(...FIELDS),
  fc.oneof(fc.constant<'delete'>('delete'), statusLike, dateLike, linkLike, stringLike, fc.jsonValue({ maxDepth: 2 })),
);

/** A valid job with a few fields replaced or deleted, sent through JSON text as the client reads it. */
const nearValid = fc.tuple(validJob, fc.array(edit, { maxLength: 3 })).map(([job, edits]) => {
  const body = JSON.parse(JSON.stringify(job)) as Obj;
  for (const [field, value] of edits) {
    const [head, tail] = field.split('.') as [string, string | undefined];
    const target = tail ? body[head] : body;
    if (!isObj(target)) continue;
    const key = tail ?? head;
    // defineProperty, so that "__proto__" becomes an own key, as JSON.parse makes it.
    if (value === 'delete') delete target[key];
    else Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  }
  // Through text, so `__proto__` arrives as an own key, as it would from the network.
  return JSON.parse(JSON.stringify(body)) as unknown;
});

describe('fuzz: agent job parser', function () {
  this.timeout(30_000);

  after(() => {
    console.log(
      `      (${counts.random + counts.nearValid + counts.viaClient} generated bodies: ${counts.random} random JSON, ${counts.nearValid} damaged jobs, ${counts.viaClient} through AgentClient; ${counts.accepted} accepted, ${counts.refused} refused as protocol errors)`,
    );
  });

  it('random JSON values: never a job with a wrong status; anything else is a protocol error', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (body) => {
        counts.random++;
        check(body);
      }),
      { numRuns: 4000, seed: SEED },
    );
  });

  it('damaged valid jobs (a field replaced, deleted or added, odd statuses, links and dates): accepted exactly when they fit', () => {
    let accepted = 0;
    fc.assert(
      fc.property(nearValid, (body) => {
        counts.nearValid++;
        if (check(body)) accepted++;
      }),
      { numRuns: 6000, seed: SEED + 1 },
    );
    // Both sides of the property were exercised, not only refusals.
    assert.ok(accepted > 500 && accepted < 5500, `${accepted} of 6000 accepted`);
  });

  it('a body with "__proto__" or an inherited status never passes for a job', () => {
    const inherited = Object.create({ status: 'active' }) as Obj;
    Object.assign(inherited, { id: 'job_1', source: { repository: 'r' }, model: 'm', createdAt: '2026-11-23T11:55:00Z' });
    assert.throws(
      () => parseAgentJob(inherited),
      (e: unknown) => e instanceof ServiceError && e.kind === 'protocol',
    );
    const polluted = JSON.parse(
      '{"id":"job_1","__proto__":{"status":"active"},"source":{"repository":"r"},"model":"m","createdAt":"2026-11-23T11:55:00Z"}',
    ) as unknown;
    assert.throws(
      () => parseAgentJob(polluted),
      (e: unknown) => e instanceof ServiceError && e.kind === 'protocol',
    );
    assert.equal(({} as Obj).status, undefined);
  });

  it('random bodies through AgentClient.getJob (real Response objects): a job that fits, or a protocol error', async () => {
    const body = fc.oneof(
      nearValid.map((b) => JSON.stringify(b)),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 60 }),
      fc.constantFrom('', '{', '{"id": "job_0f3a", "status": "act', '<!doctype html><title>Not a job</title>', 'null', '[]', '"active"'),
    );
    await fc.assert(
      fc.asyncProperty(body, fc.integer({ min: 200, max: 206 }), async (text, status) => {
        counts.viaClient++;
        const client = new AgentClient({
          baseUrl: 'https://agent.example.invalid',
          projectId: 'proj',
          apiKey: 'svc_fuzz_0123456789abcdef',
          fetch: async () => new Response(status === 204 || status === 205 ? null : text, { status, headers: { 'content-type': 'application/json' } }),
        });
        let parsed: unknown;
        let bodyFits: boolean;
        // Asked about the job the body names, where it names one that can be asked about, so that
        // bodies that fit are accepted; a reply about another job than the one asked for never fits.
        let asked = 'job_1';
        try {
          parsed = JSON.parse(text);
          const id = (parsed as Obj | null)?.id;
          if (typeof id === 'string' && id.trim() !== '') asked = id;
          bodyFits = fits(parsed) && id === asked;
        } catch {
          bodyFits = false;
        }
        if (status === 204 || status === 205) bodyFits = false;
        try {
          const job = await client.getJob(asked);
          assert.ok(bodyFits, `accepted a body that does not fit: ${text}`);
          assert.equal(job.status, (parsed as Obj).status);
        } catch (e) {
          assert.ok(e instanceof ServiceError, `threw ${String(e)}`);
          assert.equal(e.kind, 'protocol', e.message);
          assert.ok(!bodyFits, `refused a body that fits: ${e.message}`);
          assert.ok(
            !e.message.includes('svc_fuzz_0123456789abcdef') &&
              !words(e).includes('svc_fuzz_0123456789abcdef') &&
              !(e.detail ?? '').includes('svc_fuzz_0123456789abcdef'),
          );
        }
      }),
      { numRuns: 1000, seed: SEED + 2 },
    );
  });
});
