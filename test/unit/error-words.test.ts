import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { notReadyError } from '../../src/agent/core/agentAccess';
import { LostResponseError } from '../../src/agent/core/agentJobs';
import {
  AgentClient,
  AssistantClient,
  errorFromStatus,
  networkError,
  parseBaseUrl,
  ServiceError,
  type KeyProblem,
  type ServiceErrorCode,
  type ServiceErrorReason,
} from '../../src/api';
import { english, type Translate } from '../../src/common/l10n';
import { describeForUser } from '../../src/host/core/errorWords';
import { delayWords, keyProblemWords } from '../../src/host/core/keyWords';
import { ADMIN, ASSISTANT, WRONG_KEYS, keyMessage } from './keyMessage';

// The words a user reads when a service call fails (src/host/core/errorWords.ts), written from the
// client's typed reasons. These are the words the client used to write itself, with the settings
// and commands that fix each failure named; the client tests assert the reasons.

/** 14:04:50 today, local time. */
const NOW = new Date(2024, 10, 23, 14, 4, 50).getTime();
const words = (e: ServiceError): string => describeForUser(e, english, NOW).message;
const err = (reason: ServiceErrorReason, extra: Partial<ConstructorParameters<typeof ServiceError>[0]> = {}): ServiceError =>
  new ServiceError({ reason, message: 'developer words', ...extra });
const headers = (h: Record<string, string> = {}) => new Headers(h);
const agent = { service: 'agent' as const, projectId: 'proj' };
const assistant = { service: 'assistant' as const, domain: 'acme' };
const status = (code: number, target: Parameters<typeof errorFromStatus>[2] = assistant, h: Record<string, string> = {}, body = '') =>
  errorFromStatus({ status: code, headers: headers(h) }, body, target, [], NOW);

/** What the client throws for a call, before any request. */
async function refusal(call: Promise<unknown> | AsyncGenerator<unknown>): Promise<ServiceError> {
  try {
    if (Symbol.asyncIterator in call) for await (const _ of call);
    else await call;
  } catch (e) {
    assert.ok(e instanceof ServiceError);
    return e;
  }
  assert.fail('expected a refusal');
}

describe('error words: what the user reads, from the typed reasons', () => {
  it('a refused key names the command that sets a new one', () => {
    assert.equal(
      words(status(401)),
      'The assistant API key was refused. It may have expired or been revoked. Set a new one with "Docs Assistant: Set Assistant API Key…".',
    );
    assert.equal(
      words(status(401, agent)),
      'The admin API key was refused. It may have expired or been revoked. Set a new one with "Docs Assistant: Set Admin API Key…".',
    );
  });

  it('403 and 404 name the setting to check', () => {
    assert.equal(
      words(status(403)),
      'The assistant API key is not allowed to use the documentation site "acme" (HTTP 403). Check docsAssistant.domain and that the key belongs to that site.',
    );
    assert.equal(
      words(status(403, agent)),
      'The admin API key is not allowed to use project "proj" (HTTP 403). Check docsAssistant.projectId and that the key belongs to that project.',
    );
    assert.equal(words(status(404)), 'The documentation site "acme" was not found on the service. Check docsAssistant.domain.');
    assert.equal(words(status(404, agent)), 'Project "proj" was not found on the service. Check docsAssistant.projectId.');
    assert.equal(
      words(status(404, { ...agent, jobId: 'job_9' })),
      'Job job_9 was not found on the service. It may have been deleted, or belong to another project.',
    );
    assert.equal(
      words(status(404, { ...assistant, threadId: 'thr' })),
      "This conversation's thread is no longer known to the service. Start a new conversation.",
    );
  });

  it('429 says when to try again as a time of day, and the agent limit; without Retry-After, later', () => {
    assert.equal(words(status(429, assistant, { 'retry-after': '7' })), "Too many requests: the service's rate limit was reached. Try again after 14:04:57.");
    assert.equal(
      words(status(429, agent, { 'retry-after': '99999999999' })),
      "Too many requests: the service's rate limit was reached. Try again after 15:05. (Agent jobs allow 100 new jobs and follow-ups per project per hour.)",
    );
    assert.equal(words(status(429)), "Too many requests: the service's rate limit was reached. Try again later.");
    // A 429 built without retryAt (an older error, a test double) still says when, from retryAfterMs.
    assert.equal(
      words(err({ code: 'rateLimited', service: 'assistant' }, { retryAfterMs: 7000 })),
      "Too many requests: the service's rate limit was reached. Try again after 14:04:57.",
    );
    assert.equal(describeForUser(status(429, assistant, { 'retry-after': '7' }), english, NOW).retryAt, NOW + 7000);
  });

  it('other statuses: the server, a refused request with the service’s words, a redirect', () => {
    assert.equal(words(status(503)), 'The service had a problem (HTTP 503). Try again in a moment.');
    assert.equal(words(status(400, assistant, {}, '{"error":"prompt too long"}')), 'The service refused the request (HTTP 400): prompt too long');
    assert.equal(words(status(422)), 'The service refused the request (HTTP 422).');
    assert.equal(
      words(status(308, agent, { location: '/v2/agent/proj/job-elsewhere' })),
      'The service redirected the request (HTTP 308 to /v2/agent/proj/job-elsewhere). Set docsAssistant.baseUrl to the address it redirects to.',
    );
    assert.equal(words(status(302)), 'The service redirected the request (HTTP 302). Set docsAssistant.baseUrl to the address it redirects to.');
  });

  it('connections: unreachable with why, TLS, a body broken off, a stall, a timeout', () => {
    const socket = (code: string) => Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(code), { code }) });
    assert.equal(
      words(networkError(socket('ECONNREFUSED'), '127.0.0.1:9')),
      'Could not reach 127.0.0.1:9 (connection refused). Check docsAssistant.baseUrl and your connection.',
    );
    assert.equal(
      words(networkError(socket('ENOTFOUND'), 'docs.invalid')),
      'Could not reach docs.invalid (the host name could not be resolved). Check docsAssistant.baseUrl and your connection.',
    );
    assert.equal(words(networkError(socket('EWHATEVER'), '')), 'Could not reach the service. Check docsAssistant.baseUrl and your connection.');
    assert.equal(
      words(networkError(socket('ERR_SSL_WRONG_VERSION_NUMBER'), 'h:1')),
      "Could not make a secure connection to h:1. If it only speaks plain http (like the local emulator), docsAssistant.baseUrl must start with http://; otherwise check the server's certificate.",
    );
    assert.equal(
      words(networkError(socket('ECONNRESET'), 'h:1', 'body', [], true)),
      'The connection to h:1 broke before the answer was complete (the connection was closed). What arrived so far is kept. Retry to get the whole answer.',
    );
    assert.equal(
      words(networkError(socket('ECONNRESET'), 'h:1', 'body')),
      'The connection to h:1 broke before the whole response arrived (the connection was closed). Try again in a moment.',
    );
    assert.equal(
      words(err({ code: 'endedEarly', host: 'h:1' })),
      'The connection to h:1 closed before the answer was complete. What arrived so far is kept. Retry to get the whole answer.',
    );
    assert.equal(
      words(err({ code: 'headersTimeout', host: 'h:1', seconds: 0.4 })),
      'h:1 did not answer within 0.4 s. Try again in a moment, or raise docsAssistant.requestTimeoutSeconds.',
    );
    assert.equal(
      words(err({ code: 'stalled', host: 'h:1', seconds: 60, keptPartial: true })),
      'The answer stalled: nothing arrived from h:1 for 60 s. What arrived so far is kept. Retry, or raise docsAssistant.streamIdleTimeoutSeconds if the service is often this slow.',
    );
    assert.equal(words(err({ code: 'stalled', host: 'h:1', seconds: 60, keptPartial: false })), 'h:1 stopped sending data for 60 s. Try again in a moment.');
  });

  it('the service address: missing, not an address, another scheme, credentials, plain http (by the real checks)', async () => {
    const thrown = (f: () => unknown): ServiceError => {
      try {
        f();
      } catch (e) {
        return e as ServiceError;
      }
      assert.fail('expected a throw');
    };
    assert.equal(words(thrown(() => parseBaseUrl(' '))), 'The service address is not set. Set docsAssistant.baseUrl, e.g. https://api.example.com.');
    assert.equal(
      words(thrown(() => parseBaseUrl('not a url'))),
      'docsAssistant.baseUrl is not a valid address ("not a url"). Use e.g. https://api.example.com.',
    );
    assert.equal(words(thrown(() => parseBaseUrl('ftp://x'))), 'docsAssistant.baseUrl must start with https:// (or http:// for a local emulator), not ftp://.');
    assert.equal(
      words(thrown(() => parseBaseUrl('https://me:pw@x'))),
      'docsAssistant.baseUrl must not contain a user name or password. Keys are set with "Docs Assistant: Set Admin API Key…" and "Docs Assistant: Set Assistant API Key…".',
    );
    const admin = new AgentClient({ baseUrl: 'http://docs.example.com/api/', projectId: 'p', apiKey: 'svc_7fK2pQ9xLm3Zt8Rw' });
    assert.equal(
      words(await refusal(admin.createJob('x'))),
      'The admin key is only sent over https. Change docsAssistant.baseUrl to https://docs.example.com/api (plain http is allowed only for a local emulator on this machine).',
    );
    const chat = new AssistantClient({ baseUrl: 'http://docs.example.com', domain: 'acme', apiKey: 'svc_dsc_Hq4nV8yTb2Kp6Lm1' });
    const question = { fp: 'anonymous', messages: [{ id: 'u', role: 'user' as const, parts: [{ type: 'text' as const, text: 'Hi' }] }] };
    assert.equal(
      words(await refusal(chat.send(question))),
      'Questions and the assistant key are only sent over https. Change docsAssistant.baseUrl to https://docs.example.com (plain http is allowed only for a local emulator on this machine).',
    );
    assert.equal(
      words(await refusal(new AgentClient({ baseUrl: 'https://x', projectId: ' ', apiKey: 'svc_7fK2pQ9xLm3Zt8Rw' }).createJob('x'))),
      'Set docsAssistant.projectId first (the project id from the API keys page of the dashboard).',
    );
    assert.equal(
      words(await refusal(new AssistantClient({ baseUrl: 'https://x', domain: '', apiKey: 'svc_dsc_Hq4nV8yTb2Kp6Lm1' }).send(question))),
      'Set docsAssistant.domain first (the last segment of the dashboard URL of your documentation site).',
    );
    assert.equal(words(err({ code: 'apiVersionInvalid', value: 'v3' })), 'docsAssistant.assistantApiVersion must be v1 or v2, not "v3".');
    assert.equal(
      words(err({ code: 'notAStream', contentType: 'application/json' })),
      'The service answered with application/json, not a stream. Check docsAssistant.baseUrl and docsAssistant.assistantApiVersion.',
    );
    assert.equal(
      words(err({ code: 'notJson' }, { status: 200 })),
      "The service answered HTTP 200 but not with a job (the body is not JSON). Try again in a moment; if it keeps happening, check that docsAssistant.baseUrl is the service's address.",
    );
    assert.equal(
      words(err({ code: 'otherJob', askedFor: 'job_1', answeredFor: 'job_2' })),
      'The service answered about job job_2 when asked about job job_1. Its answer was not used. Try again in a moment; if it keeps happening, check docsAssistant.baseUrl.',
    );
  });

  it('a create whose answer was lost says a job may exist, after what happened', () => {
    const lost = new LostResponseError(err({ code: 'headersTimeout', host: 'h:1', seconds: 30 }));
    assert.equal(
      words(lost),
      'h:1 did not answer within 30 s. Try again in a moment, or raise docsAssistant.requestTimeoutSeconds. The service may have started a job anyway: check the Agent Jobs list (Refresh) or the repository before you try again.',
    );
  });

  it('key problems: which key it is, never the key itself', () => {
    assert.equal(keyMessage(ADMIN, 'admin'), undefined);
    assert.equal(
      keyMessage(ASSISTANT, 'admin'),
      'That is an assistant key (it starts with "svc_dsc_"). Agent jobs need the admin key, which starts with "svc_" but not "svc_dsc_".',
    );
    assert.equal(
      keyMessage(ADMIN, 'assistant'),
      'That is an admin key. The chat needs the public assistant key, which starts with "svc_dsc_". Keep the admin key for agent jobs.',
    );
    assert.equal(keyMessage('   ', 'admin'), 'Enter a key.');
    assert.equal(keyMessage('svc_abc def', 'admin'), 'A key has no spaces or line breaks in it. Paste the key alone.');
    assert.equal(keyMessage('svc_', 'admin'), 'That is only the prefix. Paste the whole key.');
    assert.equal(keyMessage('sk-live-123', 'admin'), 'An admin key starts with "svc_". Copy it from the API keys page of the dashboard.');
    assert.equal(keyMessage('sk-live-123', 'assistant'), 'An assistant key starts with "svc_dsc_". Copy it from the API keys page of the dashboard.');
    for (const [key, kind] of WRONG_KEYS) {
      const msg = keyMessage(key, kind) ?? '';
      assert.ok(!msg.includes(key.trim()) && !msg.includes('secret-value') && !msg.includes('abc def'), msg);
    }
    // As an error the client throws before sending, the same words, and Set … API Key to fix it.
    const refused = err({ code: 'keyInvalid', keyKind: 'admin', problem: 'assistantKeyForAdmin' });
    assert.equal(words(refused), keyMessage(ASSISTANT, 'admin'));
    assert.deepEqual(describeForUser(refused, english, NOW), { message: keyMessage(ASSISTANT, 'admin'), fixes: ['setKey', 'retry'], keyKind: 'admin' });
  });

  it('delays in words, rounded up', () => {
    assert.equal(delayWords(7000, english), '7 seconds');
    assert.equal(delayWords(1000, english), '1 second');
    assert.equal(delayWords(400, english), '1 second');
    assert.equal(delayWords(600_000, english), '10 minutes');
    assert.equal(delayWords(3 * 60 * 60_000, english), '3 hours');
  });
});

describe('error words: the fixes offered', () => {
  const fixes = (e: ServiceError) => {
    const { message: _, ...rest } = describeForUser(e, english, NOW);
    return rest;
  };

  it('a key problem offers to set that key; a thread gone, a new conversation; a setting, Configure', () => {
    assert.deepEqual(fixes(status(401, agent)), { fixes: ['setKey', 'retry'], keyKind: 'admin' });
    assert.deepEqual(fixes(status(401)), { fixes: ['setKey', 'retry'], keyKind: 'assistant' });
    assert.deepEqual(fixes(status(403, agent)), { fixes: ['setKey', 'retry'], keyKind: 'admin', setting: 'docsAssistant.projectId' });
    assert.deepEqual(fixes(status(404, { ...assistant, threadId: 't' })), { fixes: ['newConversation', 'retry'] });
    assert.deepEqual(fixes(status(404)), { fixes: ['configure', 'retry'], setting: 'docsAssistant.domain' });
    assert.deepEqual(fixes(err({ code: 'plainHttp', service: 'agent', host: 'h', httpsUrl: 'https://h' })), {
      fixes: ['configure', 'retry'],
      setting: 'docsAssistant.baseUrl',
    });
    assert.deepEqual(fixes(err({ code: 'baseUrlMissing' })), { fixes: ['configure', 'retry'], setting: 'docsAssistant.baseUrl' });
    assert.deepEqual(fixes(err({ code: 'headersTimeout', host: 'h', seconds: 30 })), { fixes: ['retry'], setting: 'docsAssistant.requestTimeoutSeconds' });
    assert.deepEqual(fixes(status(503)), { fixes: ['retry'] });
    // A browser refused it: another address (a proxy that sends CORS headers) is a fix, as is another VS Code.
    assert.deepEqual(fixes(err({ code: 'crossOriginRefused', host: 'h' })), { fixes: ['configure', 'retry'], setting: 'docsAssistant.baseUrl' });
    assert.deepEqual(fixes(status(429, agent, { 'retry-after': '30' })), { fixes: ['retry'], retryAt: NOW + 30_000 });
    assert.deepEqual(fixes(err({ code: 'aborted' })), { fixes: [] }, 'nothing to do about a cancel');
  });

  // Issue 28: the agent's one readiness (src/agent/core/agentAccess.ts), worded once, here: the
  // warning before a job, the error of a call made too early and the chat's card all say this.
  it('agent jobs not ready: what to set first, in one wording, with the fix that sets it', () => {
    const notReady = (missing: 'baseUrl' | 'projectId' | 'apiKey') => describeForUser(notReadyError(missing), english, NOW);
    assert.deepEqual(notReady('baseUrl'), {
      message: "Docs Assistant needs the service's base URL before it can start agent jobs.",
      fixes: ['configure', 'retry'],
      setting: 'docsAssistant.baseUrl',
    });
    assert.deepEqual(notReady('projectId'), {
      message: "Docs Assistant needs the service's project ID before it can start agent jobs.",
      fixes: ['configure', 'retry'],
      setting: 'docsAssistant.projectId',
    });
    assert.deepEqual(notReady('apiKey'), {
      message: 'Agent jobs need the admin API key (it starts with "svc_").',
      fixes: ['setKey', 'retry'],
      keyKind: 'admin',
    });
  });
});

/** One reason of every code: the compiler checks that none is missing. */
const EVERY: Record<ServiceErrorCode, ServiceErrorReason> = {
  keyInvalid: { code: 'keyInvalid', keyKind: 'assistant', problem: 'prefixOnly' },
  keyMissing: { code: 'keyMissing', keyKind: 'assistant' },
  baseUrlMissing: { code: 'baseUrlMissing' },
  baseUrlInvalid: { code: 'baseUrlInvalid', value: 'x y' },
  baseUrlScheme: { code: 'baseUrlScheme', protocol: 'ftp:' },
  baseUrlCredentials: { code: 'baseUrlCredentials' },
  plainHttp: { code: 'plainHttp', service: 'assistant', host: 'h', httpsUrl: 'https://h' },
  projectMissing: { code: 'projectMissing' },
  domainMissing: { code: 'domainMissing' },
  jobIdMissing: { code: 'jobIdMissing' },
  promptEmpty: { code: 'promptEmpty' },
  questionMissing: { code: 'questionMissing' },
  questionEmpty: { code: 'questionEmpty' },
  apiVersionInvalid: { code: 'apiVersionInvalid', value: 'v9' },
  notConfigured: { code: 'notConfigured', service: 'agent' },
  keyRefused: { code: 'keyRefused', service: 'agent' },
  projectForbidden: { code: 'projectForbidden', projectId: 'p' },
  domainForbidden: { code: 'domainForbidden', domain: 'd' },
  projectNotFound: { code: 'projectNotFound', projectId: 'p' },
  jobNotFound: { code: 'jobNotFound', projectId: 'p', jobId: 'j' },
  threadGone: { code: 'threadGone', threadId: 't' },
  domainNotFound: { code: 'domainNotFound', domain: 'd' },
  notOffered: { code: 'notOffered', feature: 'preview', status: 403 },
  rateLimited: { code: 'rateLimited', service: 'agent', retryAt: NOW + 5000, perHour: 100 },
  serverError: { code: 'serverError' },
  badRequest: { code: 'badRequest' },
  unexpectedStatus: { code: 'unexpectedStatus' },
  redirected: { code: 'redirected', location: '/x' },
  unreachable: { code: 'unreachable', host: 'h', cause: 'noRoute' },
  tls: { code: 'tls', host: 'h' },
  crossOriginRefused: { code: 'crossOriginRefused', host: 'h', origin: 'https://github.dev' },
  brokenBody: { code: 'brokenBody', host: 'h', cause: 'unknown', keptPartial: true },
  endedEarly: { code: 'endedEarly', host: '' },
  headersTimeout: { code: 'headersTimeout', host: 'h', seconds: 1 },
  stalled: { code: 'stalled', host: 'h', seconds: 1, keptPartial: false },
  deadline: { code: 'deadline', host: 'h' },
  timeout: { code: 'timeout' },
  notJson: { code: 'notJson' },
  badJob: { code: 'badJob', field: '', expected: 'an agent job', got: 'a list' },
  otherJob: { code: 'otherJob', askedFor: 'a', answeredFor: 'b' },
  badPreview: { code: 'badPreview', field: 'status', expected: 'one of queued, in_progress, success, failure', got: '"exploded"' },
  badAnalytics: { code: 'badAnalytics', field: 'feedback', expected: 'a list', got: '"not a list"' },
  badSearch: { code: 'badSearch', field: '', expected: 'a list of hits', got: 'an object' },
  notAStream: { code: 'notAStream', contentType: '' },
  tooLarge: { code: 'tooLarge', maxKb: 1024 },
  unreadable: { code: 'unreadable' },
  unexpected: { code: 'unexpected' },
  aborted: { code: 'aborted' },
};

describe('error words: every reason, every word through the translator, every message in the bundle', () => {
  const bundle = JSON.parse(readFileSync(join(__dirname, '..', '..', 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, unknown>;

  for (const [code, reason] of Object.entries(EVERY)) {
    it(`${code}: words, with every part of them translated, all exported to the bundle`, () => {
      const e = err(reason, { status: 500, detail: 'the service said so' });
      const used: string[] = [];
      // Marks what the translator returned: any word outside «…» bypassed it.
      const marking: Translate = (message, ...args) => {
        used.push(message);
        return `«${english(message, ...args)}»`;
      };
      const { message } = describeForUser(e, marking, NOW);
      assert.match(message, /^«.*»$/s, message);
      let outside = message;
      for (let before = ''; before !== outside;) [before, outside] = [outside, outside.replace(/«[^«»]*»/g, '')];
      assert.doesNotMatch(outside, /\p{L}/u, `words outside the translator: ${message}`);
      assert.doesNotMatch(message, /\{\d+\}|undefined|NaN/, message);
      const english_ = words(e);
      assert.ok(english_.length > 10 && english_ === message.replace(/[«»]/g, ''), english_);
      for (const m of used) assert.ok(m in bundle, `not in l10n/bundle.l10n.json (run npm run l10n): ${m}`);
    });
  }

  it('every key problem, both kinds', () => {
    const problems: KeyProblem[] = ['empty', 'whitespace', 'assistantKeyForAdmin', 'adminKeyForAssistant', 'wrongPrefix', 'prefixOnly'];
    for (const problem of problems) {
      for (const kind of ['admin', 'assistant'] as const) {
        const text = keyProblemWords(problem, kind, (m, ...a) => `«${english(m, ...a)}»`);
        assert.match(text, /^«[^«»]+»$/, text);
      }
    }
  });
});
