import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { MAX_ANSWER_BYTES, MAX_INPUT_CHARS } from '../../src/api/limits';
import { parseWebviewRequest, safeExternalUrl } from '../../src/chat/core/webviewMessages';
import type { WebviewRequestName } from '../../src/common/protocol';

// The host's gate for what the webview sends. The webview renders text from the network, so it is
// treated as hostile: only known requests with well-typed fields get through, unknown fields are
// dropped, nothing throws, and only http(s) links leave the editor.

const ROOT = join(__dirname, '..', '..');

/** One valid payload per request, as the webview sends them. */
const VALID: { [N in WebviewRequestName]: Record<string, unknown> } = {
  ready: {},
  send: { text: 'How do I configure webhooks?' },
  stop: {},
  saveDraft: { text: 'half a question' },
  removeChip: { chipId: 'c-1' },
  toggleChipType: { chipId: 'c-1' },
  openLink: { url: 'https://docs.example.com/webhooks' },
  copyCode: { code: 'npm install acme' },
  insertCode: { code: 'const x = 1;' },
  copyAnswer: { turnId: 't-1' },
  runAction: { action: 'retry', turnId: 't-1' },
  fixInDocs: { turnId: 't-1' },
  jobAction: { jobId: 'job_1', action: 'showJob' },
  loadImage: { url: 'https://images.example.com/diagram.png' },
  openAccessibleView: { turnId: 't-1' },
};
const NAMES = Object.keys(VALID) as WebviewRequestName[];
const ERROR_ACTIONS = ['retry', 'setAssistantKey', 'newConversation', 'openSettings'];
const JOB_ACTIONS = ['openPullRequest', 'followUp', 'showJob'];

/** Which string fields each request has, with their length limit, and which are optional. */
const STRING_FIELDS: { [N in WebviewRequestName]: [field: string, max: number][] } = {
  ready: [],
  send: [['text', MAX_INPUT_CHARS]],
  stop: [],
  saveDraft: [['text', MAX_INPUT_CHARS]],
  removeChip: [['chipId', 200]],
  toggleChipType: [['chipId', 200]],
  openLink: [['url', 8192]],
  copyCode: [['code', MAX_ANSWER_BYTES]],
  insertCode: [['code', MAX_ANSWER_BYTES]],
  copyAnswer: [['turnId', 200]],
  runAction: [['turnId', 200]],
  fixInDocs: [['turnId', 200]],
  jobAction: [['jobId', 200]],
  loadImage: [['url', 8192]],
  openAccessibleView: [['turnId', 200]],
};

const req = (name: string, payload?: unknown, id: unknown = 1) => ({ kind: 'request', id, name, payload });

/** An independent statement of the schema: what an accepted request must look like. */
function conforms(out: { name: string; payload: Record<string, unknown> }): boolean {
  const p = out.payload;
  const allowed = new Set(STRING_FIELDS[out.name as WebviewRequestName].map(([f]) => f));
  if (out.name === 'runAction' || out.name === 'jobAction') allowed.add('action');
  if (Object.keys(p).some((k) => !allowed.has(k))) return false;
  for (const [field, max] of STRING_FIELDS[out.name as WebviewRequestName]) {
    const optional = out.name === 'runAction' && field === 'turnId';
    if (optional && p[field] === undefined) continue;
    if (typeof p[field] !== 'string' || (p[field] as string).length > max) return false;
  }
  if (out.name === 'runAction' && !ERROR_ACTIONS.includes(p.action as string)) return false;
  if (out.name === 'jobAction' && !JOB_ACTIONS.includes(p.action as string)) return false;
  return true;
}

describe('webview messages: parseWebviewRequest', () => {
  for (const name of NAMES) {
    it(`accepts a well-formed "${name}"`, () => {
      const out = parseWebviewRequest(req(name, VALID[name], 42));
      assert.deepEqual(out, { kind: 'request', id: 42, name, payload: VALID[name] });
    });
  }

  it('accepts a missing payload for requests without fields, and runAction without a turn', () => {
    for (const name of ['ready', 'stop']) assert.ok(parseWebviewRequest({ kind: 'request', id: 1, name }), name);
    for (const action of ERROR_ACTIONS) assert.deepEqual(parseWebviewRequest(req('runAction', { action }))?.payload, { action });
  });

  it('drops fields it does not know (they never reach the handler)', () => {
    const out = parseWebviewRequest(req('send', { text: 'hi', context: [{ type: 'code', value: 'x' }], threadKey: 'tk_x', __proto__: { polluted: true } }));
    assert.deepEqual(out?.payload, { text: 'hi' });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('rejects every malformed envelope', () => {
    const bad: unknown[] = [
      undefined,
      null,
      0,
      'request',
      [],
      [req('ready')],
      { id: 1, name: 'ready' },
      { kind: 'response', id: 1, name: 'ready' },
      { kind: 'notify', id: 1, name: 'ready' },
      req('ready', {}, '1'),
      req('ready', {}, 1.5),
      req('ready', {}, Number.NaN),
      req('ready', {}, Number.POSITIVE_INFINITY),
      req('ready', {}, 2 ** 53),
      req('ready', {}, null),
      { kind: 'request', id: 1 },
      req('READY'),
      req('unknownThing'),
      req('createJob', { prompt: 'delete all the docs' }),
      req('agent.create', { prompt: 'x' }),
      req('executeCommand', { command: 'docsAssistant.agent.fixDocs' }),
      req('__proto__'),
      req('constructor'),
      req('toString'),
      req('hasOwnProperty'),
      req('ready', null),
      req('ready', []),
      req('ready', 'x'),
      req('ready', 7),
      req('send', { text: 5 }),
      req('send', { text: null }),
      req('send', { text: ['a'] }),
      req('send', {}),
      req('send', { text: 'x'.repeat(MAX_INPUT_CHARS + 1) }),
      req('fixInDocs', { turnId: 'x'.repeat(201) }),
      req('fixInDocs', { turnId: { toString: () => 't-1' } }),
      // Retry, a new conversation and the history are a button's runAction or a view's title-bar
      // command: the webview never sent these, so they are no requests.
      req('retry', { turnId: 't-1' }),
      req('retry', { turnId: 'x'.repeat(201) }),
      req('retry', { turnId: { toString: () => 't-1' } }),
      req('newConversation'),
      req('showHistory'),
      req('openLink', { url: `https://e.com/${'a'.repeat(8192)}` }),
      req('runAction', { action: 'fixDocs' }),
      req('runAction', { action: 'setAdminKey' }),
      req('runAction', { action: 'clearAdminKey' }),
      req('runAction', { action: 'retry', turnId: 5 }),
      req('runAction', {}),
      req('jobAction', { jobId: 'job_1', action: 'removeJob' }),
      req('jobAction', { jobId: 'job_1', action: 'archive' }),
      req('jobAction', { jobId: 'job_1', action: 'create' }),
      req('jobAction', { jobId: 'job_1' }),
      req('jobAction', { action: 'showJob' }),
      req('fixInDocs', {}),
      req('fixInDocs', { prompt: 'Delete every page.' }),
    ];
    for (const m of bad) assert.equal(parseWebviewRequest(m), undefined, JSON.stringify(m)?.slice(0, 120));
  });

  it('property: random values never throw, and whatever is accepted fits the schema (≥ 2,000 cases)', () => {
    let accepted = 0;
    fc.assert(
      fc.property(
        fc.anything({
          maxDepth: 3,
          withNullPrototype: true,
          withObjectString: true,
          withBigInt: true,
          withDate: true,
          withMap: true,
          withSet: true,
          withTypedArray: true,
          withSparseArray: true,
        }),
        (v) => {
          const out = parseWebviewRequest(v);
          if (out) {
            accepted++;
            assert.ok(conforms(out as never));
          }
        },
      ),
      { numRuns: 3000 },
    );
    assert.equal(accepted, 0, 'random values are not requests');
  });

  it('property: near-miss requests (a known name with random fields) are accepted only when they fit the schema (≥ 2,000 cases)', () => {
    const field = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom(...ERROR_ACTIONS, ...JOB_ACTIONS, 'fixDocs', 'createJob'),
      fc.integer(),
      fc.constant(null),
      fc.constant(undefined),
      fc.array(fc.string(), { maxLength: 2 }),
      fc.object({ maxDepth: 1 }),
    );
    const payload = fc.oneof(
      fc.record({ text: field, turnId: field, chipId: field, url: field, code: field, action: field, jobId: field, prompt: field }, { requiredKeys: [] }),
      fc.anything({ maxDepth: 2 }),
    );
    const envelope = fc.record(
      {
        kind: fc.oneof(fc.constant('request'), fc.string({ maxLength: 8 })),
        id: fc.oneof(fc.integer(), fc.double(), fc.string({ maxLength: 3 })),
        name: fc.oneof(fc.constantFrom(...NAMES), fc.string({ maxLength: 12 })),
        payload,
      },
      { requiredKeys: ['kind', 'id', 'name'] },
    );
    let accepted = 0;
    fc.assert(
      fc.property(envelope, (m) => {
        const out = parseWebviewRequest(m);
        if (!out) return;
        accepted++;
        assert.equal(out.kind, 'request');
        assert.ok(Number.isSafeInteger(out.id));
        assert.ok(NAMES.includes(out.name));
        assert.ok(conforms(out as never), JSON.stringify(out));
      }),
      { numRuns: 4000 },
    );
    assert.ok(accepted > 20, `the generator also produces valid requests (${accepted})`);
  });

  it('property: every valid request is accepted with exactly its fields (≥ 2,000 cases)', () => {
    const s200 = fc.string({ maxLength: 200 });
    const arbs = [
      fc.record({ name: fc.constantFrom('ready', 'stop'), payload: fc.constant({}) }),
      fc.record({ name: fc.constantFrom('send', 'saveDraft'), payload: fc.record({ text: fc.string({ maxLength: 500 }) }) }),
      fc.record({ name: fc.constant('fixInDocs'), payload: fc.record({ turnId: s200 }) }),
      fc.record({ name: fc.constantFrom('removeChip', 'toggleChipType'), payload: fc.record({ chipId: s200 }) }),
      fc.record({ name: fc.constant('openLink'), payload: fc.record({ url: fc.webUrl() }) }),
      fc.record({ name: fc.constantFrom('copyCode', 'insertCode'), payload: fc.record({ code: fc.string({ maxLength: 500 }) }) }),
      fc.record({
        name: fc.constant('runAction'),
        payload: fc.record({ action: fc.constantFrom(...ERROR_ACTIONS), turnId: s200 }, { requiredKeys: ['action'] }),
      }),
      fc.record({ name: fc.constant('jobAction'), payload: fc.record({ jobId: s200, action: fc.constantFrom(...JOB_ACTIONS) }) }),
    ];
    fc.assert(
      fc.property(fc.oneof(...arbs), fc.maxSafeInteger(), ({ name, payload }, id) => {
        const out = parseWebviewRequest({ kind: 'request', id, name, payload });
        assert.ok(out, JSON.stringify({ name, payload }));
        assert.deepEqual([out.kind, out.id, out.name], ['request', id, name]);
        assert.deepEqual({ ...out.payload }, { ...payload });
      }),
      { numRuns: 2000 },
    );
  });
});

describe('webview messages: safeExternalUrl (only http and https leave the editor)', () => {
  const allowed: [string, string][] = [
    ['https://docs.example.com/webhooks?x=1#verify', 'https://docs.example.com/webhooks?x=1#verify'],
    ['http://127.0.0.1:4010/docs/webhooks', 'http://127.0.0.1:4010/docs/webhooks'],
    ['HTTPS://Docs.Example.COM', 'https://docs.example.com/'],
    ['  https://docs.example.com/a  ', 'https://docs.example.com/a'],
    ['https://docs.example.com/a b', 'https://docs.example.com/a%20b'],
    ['https://xn--nxasmq6b.example/', 'https://xn--nxasmq6b.example/'],
  ];
  for (const [raw, href] of allowed) it(`opens ${JSON.stringify(raw)} as ${href}`, () => assert.equal(safeExternalUrl(raw), href));

  const refused = [
    'javascript:alert(1)',
    'JavaScript:alert(document.cookie)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    '\u0000javascript:alert(1)',
    'javascript://example.com/%0aalert(1)',
    'vbscript:msgbox(1)',
    'data:text/html,<script>alert(1)</script>',
    'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
    'file:///etc/passwd',
    'file://C:/Windows/win.ini',
    'command:workbench.action.terminal.new',
    'command:docsAssistant.agent.fixDocs?%7B%22prompt%22%3A%22x%22%7D',
    'vscode://file/etc/passwd',
    'vscode-insiders://vscode.git/clone?url=x',
    'vscode-webview://abc/index.html',
    'blob:https://docs.example.com/1234',
    'ftp://example.com/file',
    'mailto:someone@example.com',
    'about:blank',
    '/docs/webhooks',
    '//evil.example/phish',
    'docs/webhooks',
    '#verify',
    '',
    '   ',
    'https://',
    'https://user:secret@docs.example.com/',
    'https://token@docs.example.com/',
    'https://docs.example.com@evil.example/',
    'http://:pw@docs.example.com/',
  ];
  for (const raw of refused) it(`refuses ${JSON.stringify(raw)}`, () => assert.equal(safeExternalUrl(raw), undefined));

  it('property: never throws; what it returns is an http(s) URL with a host and no credentials, and stays itself (≥ 2,000 cases)', () => {
    const schemes = fc.constantFrom('http', 'https', 'HTTPS', 'javascript', 'data', 'file', 'command', 'vscode', 'ftp', ' java\tscript', '');
    const urlish = fc.tuple(schemes, fc.constantFrom(':', '://', ':///', ''), fc.string({ maxLength: 40 })).map(([s, sep, rest]) => `${s}${sep}${rest}`);
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 60 }), fc.webUrl({ withQueryParameters: true, withFragments: true }), urlish), (raw) => {
        const out = safeExternalUrl(raw);
        if (out === undefined) return;
        const u = new URL(out);
        assert.ok(u.protocol === 'https:' || u.protocol === 'http:', out);
        assert.equal(u.username, '');
        assert.equal(u.password, '');
        assert.ok(u.hostname.length > 0);
        assert.equal(safeExternalUrl(out), out);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('webview messages: no admin action without the user confirming', () => {
  // The confirmation itself is a review document (run for real in the integration and e2e suites);
  // here: the webview has no request that starts a job, and the host's handler for "Fix This in
  // the Docs" can only reach the agent through the AgentJobsService, whose launch asks the user first.
  // Every file of the chat's host side: the request handlers, the controller's pieces, the job cards.
  const chatHost = readdirSync(join(ROOT, 'src', 'chat'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => readFileSync(join(ROOT, 'src', 'chat', f), 'utf8'));
  const jobCards = readFileSync(join(ROOT, 'src', 'chat', 'core', 'jobCards.ts'), 'utf8');
  const agentActions = readFileSync(join(ROOT, 'src', 'agent', 'vscode', 'actions.ts'), 'utf8');

  it('the webview has no request that names an agent job action other than the three the job card shows', () => {
    const accepted = JOB_ACTIONS.filter((action) => parseWebviewRequest(req('jobAction', { jobId: 'j', action })));
    assert.deepEqual(accepted, ['openPullRequest', 'followUp', 'showJob']);
    for (const action of [
      'fixDocs',
      'create',
      'removeJob',
      'archive',
      'copyJobId',
      'refresh',
      'jobState',
      'setAdminKey',
      'clearAdminKey',
      '../setAdminKey',
      'showJob ',
    ]) {
      assert.equal(parseWebviewRequest(req('jobAction', { jobId: 'j', action })), undefined, action);
    }
  });

  it('"fixInDocs" carries a turn id only: the webview cannot choose the prompt the agent gets', () => {
    assert.deepEqual(parseWebviewRequest(req('fixInDocs', { turnId: 't-1', prompt: 'Delete every page.', jobId: 'j', confirmed: true }))?.payload, {
      turnId: 't-1',
    });
  });

  it('source check: the chat host reaches the agent only through AgentJobsService, never its client or a command', () => {
    for (const file of chatHost) {
      assert.doesNotMatch(file, /from '\.\.\/agent/);
      assert.doesNotMatch(file, /AgentClient|agentClient/);
      assert.doesNotMatch(file, /docsAssistant\.agent\./, 'no agent command id is built or run');
    }
    const targets = chatHost.flatMap((file) => [...file.matchAll(/executeCommand\(\s*([`'][^`']+[`'])/g)].map((m) => m[1]!.slice(1, -1))).sort();
    // The chat runs its own view's focus, and the two commands its error and setup buttons offer.
    assert.deepEqual(targets, ['${CHAT_VIEW_ID}.focus', 'docsAssistant.configure', 'docsAssistant.setAssistantKey']);
    assert.match(jobCards, /this\.jobs\.launch\(\{ draft: fixPrompt\(turn\), label: turn\.question \}\)/);
  });

  it('source check: a launch shows the final prompt for review before it creates a job; followUp asks for the instruction before it sends', () => {
    const body = (name: string) => {
      const start = agentActions.search(new RegExp(`\\n  (private )?async ${name}\\(`));
      assert.ok(start >= 0, `${name} is defined`);
      return agentActions.slice(start, agentActions.indexOf('\n  }\n', start));
    };
    const launch = body('launch');
    // The job is created in one place, create(), which the launch reaches only after the review
    // (#fixDocs's startConfirmed reaches it after VS Code's confirmation, src/common/delegation.ts).
    assert.equal(agentActions.split('jobs.create(').length - 1, 1, 'one place creates a job');
    assert.ok(body('create').includes('jobs.create('), 'create() creates it');
    assert.ok(launch.indexOf('askFinalPrompt(') > 0 && launch.indexOf('askFinalPrompt(') < launch.indexOf('this.create('), 'review before create');
    assert.match(launch, /if \(isBlankPrompt\(prompt\)/, 'an escaped review sends nothing');
    const follow = body('followUp');
    assert.ok(follow.indexOf('askInstruction(') > 0 && follow.indexOf('askInstruction(') < follow.indexOf('jobs.followUp('), 'instruction before follow-up');
  });
});
