import type * as l10n from '@vscode/l10n';
import { type NetworkCause, type ReasonOf, type ServiceError, type ServiceErrorCode, retryTime, ADMIN_KEY_PREFIX, ASSISTANT_KEY_PREFIX } from '../../api';
import { keyCommandTitle, keyNoun, keyProblemWords } from './keyWords';

// The message for each reason a service call fails, one table (errorWords.ts adds the fixes to
// offer beside it). Written in the display language through the translator it is given, with
// the settings and commands that fix it named; free of `vscode` at run time, like errorWords.ts.

/** vscode.l10n.t, or `english` (src/common/l10n.ts) in tests. */
type Translate = (message: string, ...args: l10n.L10nReplacement[]) => string;

/** The settings the client's options come from (package.json declares them). */
export const SETTING = {
  baseUrl: 'docsAssistant.baseUrl',
  projectId: 'docsAssistant.projectId',
  domain: 'docsAssistant.domain',
  apiVersion: 'docsAssistant.assistantApiVersion',
  requestTimeoutMs: 'docsAssistant.requestTimeoutSeconds',
  streamIdleTimeoutMs: 'docsAssistant.streamIdleTimeoutSeconds',
} as const;

/** Why a connection failed, in words; nothing when the socket error did not say. */
function causeWords(cause: NetworkCause, t: Translate): string | undefined {
  const l10n = { t };
  const timedOut = (): string => l10n.t('the connection timed out');
  const words: Record<NetworkCause, () => string | undefined> = {
    refused: () => l10n.t('connection refused'),
    dnsFailed: () => l10n.t('the host name could not be resolved'),
    closed: () => l10n.t('the connection was closed'),
    connectTimeout: timedOut,
    timedOut,
    noRoute: () => l10n.t('no route to the host'),
    blockedPort: () => l10n.t('that port is blocked for web requests'),
    unknown: () => undefined,
  };
  return words[cause]();
}

/** " (connection refused)": why a connection failed, to follow what failed; nothing when the socket error did not say. */
function causeNote(cause: NetworkCause, t: Translate): string {
  const why = causeWords(cause, t);
  return why === undefined ? '' : ` (${why})`;
}

/** After an answer broke off: what became of its text, and what to do. */
function keptWords(t: Translate): string {
  const l10n = { t };
  return l10n.t('What arrived so far is kept. Retry to get the whole answer.');
}

/** What a message is written from: the reason, and what the error adds to it. */
interface Facts<R> {
  r: R;
  /** The translator, as `l10n.t` so that @vscode/l10n-dev exports the messages. */
  l10n: { t: Translate };
  status: number;
  /** The host that failed, or "the service". */
  host: string;
  err: ServiceError;
  now: number;
}

/** One message per reason: a table, so that a reason without words does not compile. */
const MESSAGES: { [C in ServiceErrorCode]: (f: Facts<ReasonOf<C>>) => string } = {
  keyInvalid: ({ r, l10n }) => keyProblemWords(r.problem, r.keyKind, l10n.t),
  keyMissing: ({ r, l10n }) =>
    l10n.t(
      'The {0} is not set. Set it with "{1}" (it starts with "{2}").',
      keyNoun(r.keyKind, l10n.t),
      keyCommandTitle(r.keyKind, l10n.t),
      r.keyKind === 'admin' ? ADMIN_KEY_PREFIX : ASSISTANT_KEY_PREFIX,
    ),
  baseUrlMissing: ({ l10n }) => l10n.t('The service address is not set. Set {0}, e.g. https://api.example.com.', SETTING.baseUrl),
  baseUrlInvalid: ({ r, l10n }) => l10n.t('{0} is not a valid address ("{1}"). Use e.g. https://api.example.com.', SETTING.baseUrl, r.value),
  baseUrlScheme: ({ r, l10n }) => l10n.t('{0} must start with https:// (or http:// for a local emulator), not {1}//.', SETTING.baseUrl, r.protocol),
  baseUrlCredentials: ({ l10n }) =>
    l10n.t(
      '{0} must not contain a user name or password. Keys are set with "{1}" and "{2}".',
      SETTING.baseUrl,
      keyCommandTitle('admin', l10n.t),
      keyCommandTitle('assistant', l10n.t),
    ),
  plainHttp: ({ r, l10n }) =>
    r.service === 'agent'
      ? l10n.t(
          'The admin key is only sent over https. Change {0} to {1} (plain http is allowed only for a local emulator on this machine).',
          SETTING.baseUrl,
          r.httpsUrl,
        )
      : l10n.t(
          'Questions and the assistant key are only sent over https. Change {0} to {1} (plain http is allowed only for a local emulator on this machine).',
          SETTING.baseUrl,
          r.httpsUrl,
        ),
  projectMissing: ({ l10n }) => l10n.t('Set {0} first (the project id from the API keys page of the dashboard).', SETTING.projectId),
  domainMissing: ({ l10n }) => l10n.t('Set {0} first (the last segment of the dashboard URL of your documentation site).', SETTING.domain),
  jobIdMissing: ({ l10n }) => l10n.t('The job id is empty.'),
  promptEmpty: ({ l10n }) => l10n.t('Write an instruction for the agent first: the prompt is empty.'),
  questionMissing: ({ l10n }) => l10n.t('There is no question to send.'),
  questionEmpty: ({ l10n }) => l10n.t('Write a question first: the message is empty.'),
  apiVersionInvalid: ({ r, l10n }) => l10n.t('{0} must be v1 or v2, not "{1}".', SETTING.apiVersion, r.value),
  notConfigured: ({ r, l10n }) => {
    if (r.service !== 'agent') return l10n.t('Docs Assistant is not set up for the chat yet.');
    // The agent's one readiness (src/agent/core/agentAccess.ts): what to set first, in these words everywhere.
    switch (r.missing) {
      case 'baseUrl':
        return l10n.t("Docs Assistant needs the service's base URL before it can start agent jobs.");
      case 'projectId':
        return l10n.t("Docs Assistant needs the service's project ID before it can start agent jobs.");
      case 'apiKey':
        return l10n.t('Agent jobs need the admin API key (it starts with "{0}").', ADMIN_KEY_PREFIX);
      default:
        return l10n.t('Docs Assistant is not set up for agent jobs yet.');
    }
  },
  keyRefused: ({ r, l10n }) => {
    const kind = r.service === 'agent' ? 'admin' : 'assistant';
    return l10n.t('The {0} was refused. It may have expired or been revoked. Set a new one with "{1}".', keyNoun(kind, l10n.t), keyCommandTitle(kind, l10n.t));
  },
  projectForbidden: ({ r, l10n }) =>
    l10n.t(
      'The admin API key is not allowed to use project "{0}" (HTTP 403). Check {1} and that the key belongs to that project.',
      r.projectId,
      SETTING.projectId,
    ),
  domainForbidden: ({ r, l10n }) =>
    l10n.t(
      'The assistant API key is not allowed to use the documentation site "{0}" (HTTP 403). Check {1} and that the key belongs to that site.',
      r.domain,
      SETTING.domain,
    ),
  projectNotFound: ({ r, l10n }) => l10n.t('Project "{0}" was not found on the service. Check {1}.', r.projectId, SETTING.projectId),
  jobNotFound: ({ r, l10n }) => l10n.t('Job {0} was not found on the service. It may have been deleted, or belong to another project.', r.jobId),
  notOffered: ({ r, l10n, status }) => {
    switch (r.feature) {
      case 'analytics':
        return l10n.t('Reader analytics are not offered by this service or plan (HTTP {0}).', status);
      case 'search':
        return l10n.t('Docs search is not offered by this service or plan (HTTP {0}).', status);
      default:
        return l10n.t('Preview deployments are not offered by this service or plan (HTTP {0}).', status);
    }
  },
  threadGone: ({ l10n }) => l10n.t("This conversation's thread is no longer known to the service. Start a new conversation."),
  domainNotFound: ({ r, l10n }) => l10n.t('The documentation site "{0}" was not found on the service. Check {1}.', r.domain, SETTING.domain),
  rateLimited: ({ r, l10n, err, now }) => {
    const at = retryAtOf(err, now);
    const said = `${l10n.t("Too many requests: the service's rate limit was reached.")} ${
      at === undefined ? l10n.t('Try again later.') : l10n.t('Try again after {0}.', retryTime(at - now, now))
    }`;
    return r.perHour === undefined ? said : `${said} ${l10n.t('(Agent jobs allow {0} new jobs and follow-ups per project per hour.)', r.perHour)}`;
  },
  serverError: ({ l10n, status }) => l10n.t('The service had a problem (HTTP {0}). Try again in a moment.', status),
  badRequest: ({ l10n, status, err }) =>
    err.detail ? l10n.t('The service refused the request (HTTP {0}): {1}', status, err.detail) : l10n.t('The service refused the request (HTTP {0}).', status),
  unexpectedStatus: ({ l10n, status }) => l10n.t('The service answered with an unexpected status (HTTP {0}).', status),
  redirected: ({ r, l10n, status }) =>
    r.location
      ? l10n.t('The service redirected the request (HTTP {0} to {1}). Set {2} to the address it redirects to.', status, r.location, SETTING.baseUrl)
      : l10n.t('The service redirected the request (HTTP {0}). Set {1} to the address it redirects to.', status, SETTING.baseUrl),
  unreachable: ({ r, l10n, host }) => l10n.t('Could not reach {0}{1}. Check {2} and your connection.', host, causeNote(r.cause, l10n.t), SETTING.baseUrl),
  crossOriginRefused: ({ r, l10n, host }) =>
    l10n.t(
      '{0} does not accept requests from a browser (its answers have no CORS headers), so VS Code in a browser cannot reach it. Use VS Code Desktop, or a code-server whose extensions run on its server, or ask the service to allow requests from {1}.',
      host,
      r.origin ?? l10n.t('this page'),
    ),
  tls: ({ l10n, host }) =>
    l10n.t(
      "Could not make a secure connection to {0}. If it only speaks plain http (like the local emulator), {1} must start with http://; otherwise check the server's certificate.",
      host,
      SETTING.baseUrl,
    ),
  brokenBody: ({ r, l10n, host }) =>
    r.keptPartial
      ? l10n.t('The connection to {0} broke before the answer was complete{1}. {2}', host, causeNote(r.cause, l10n.t), keptWords(l10n.t))
      : l10n.t('The connection to {0} broke before the whole response arrived{1}. Try again in a moment.', host, causeNote(r.cause, l10n.t)),
  endedEarly: ({ l10n, host }) => l10n.t('The connection to {0} closed before the answer was complete. {1}', host, keptWords(l10n.t)),
  headersTimeout: ({ r, l10n, host }) =>
    l10n.t('{0} did not answer within {1} s. Try again in a moment, or raise {2}.', host, r.seconds, SETTING.requestTimeoutMs),
  stalled: ({ r, l10n, host }) =>
    r.keptPartial
      ? l10n.t(
          'The answer stalled: nothing arrived from {0} for {1} s. What arrived so far is kept. Retry, or raise {2} if the service is often this slow.',
          host,
          r.seconds,
          SETTING.streamIdleTimeoutMs,
        )
      : l10n.t('{0} stopped sending data for {1} s. Try again in a moment.', host, r.seconds),
  deadline: ({ l10n, host }) => l10n.t('{0} took longer than the client allows for one answer. Try again in a moment.', host),
  timeout: ({ l10n }) => l10n.t('The service took too long to answer. Try again in a moment.'),
  notJson: ({ l10n, status }) =>
    l10n.t(
      "The service answered HTTP {0} but not with a job (the body is not JSON). Try again in a moment; if it keeps happening, check that {1} is the service's address.",
      status,
      SETTING.baseUrl,
    ),
  badJob: ({ r, l10n }) =>
    r.field
      ? l10n.t('The service sent an agent job that cannot be read: "{0}" should be {1}, but it is {2}.', r.field, r.expected, r.got)
      : l10n.t('The service answered with {0} where an agent job was expected.', r.got),
  otherJob: ({ r, l10n }) =>
    l10n.t(
      'The service answered about job {0} when asked about job {1}. Its answer was not used. Try again in a moment; if it keeps happening, check {2}.',
      r.answeredFor,
      r.askedFor,
      SETTING.baseUrl,
    ),
  badPreview: ({ r, l10n }) =>
    r.field
      ? l10n.t('The service sent a preview status that cannot be read: "{0}" should be {1}, but it is {2}.', r.field, r.expected, r.got)
      : l10n.t('The service answered with {0} where a preview status was expected.', r.got),
  badAnalytics: ({ r, l10n }) =>
    r.field
      ? l10n.t('The service sent reader analytics that cannot be read: "{0}" should be {1}, but it is {2}.', r.field, r.expected, r.got)
      : l10n.t('The service answered with {0} where reader analytics were expected.', r.got),
  badSearch: ({ r, l10n }) =>
    r.field
      ? l10n.t('The service sent search results that cannot be read: "{0}" should be {1}, but it is {2}.', r.field, r.expected, r.got)
      : l10n.t('The service sent search results that cannot be read: it answered with {0} where {1} was expected.', r.got, r.expected),
  notAStream: ({ r, l10n }) =>
    l10n.t('The service answered with {0}, not a stream. Check {1} and {2}.', r.contentType || l10n.t('no content type'), SETTING.baseUrl, SETTING.apiVersion),
  tooLarge: ({ r, l10n }) => l10n.t("The service's answer was larger than expected (over {0} KB).", r.maxKb),
  unreadable: ({ l10n }) => l10n.t('The service sent something that could not be read.'),
  unexpected: ({ l10n, err }) => (err.detail ? l10n.t('Unexpected error: {0}', err.detail) : l10n.t('Unexpected error.')),
  aborted: ({ l10n }) => l10n.t('The request was cancelled.'),
};

/** The message for `err`, without what a lost response adds. */
export function messageOf(err: ServiceError, t: Translate, now: number): string {
  const l10n = { t };
  const r = err.reason;
  const host = 'host' in r && r.host ? r.host : l10n.t('the service');
  const words = MESSAGES[r.code] as (f: Facts<typeof r>) => string;
  return words({ r, l10n, status: err.status ?? 0, host, err, now });
}

/** After a 429: when its Retry-After is over, if it said. */
export function retryAtOf(err: ServiceError, now: number): number | undefined {
  if (err.reason.code !== 'rateLimited') return undefined;
  if (err.reason.retryAt !== undefined) return err.reason.retryAt;
  return err.retryAfterMs === undefined ? undefined : now + err.retryAfterMs;
}
