import type { KeyKind, KeyProblem } from './keys';

// What a ServiceError can say about what went wrong: its `kind` (how to react) and its typed
// `reason` (exactly what happened, with the data a message about it needs). The words a user
// reads are written from these in the VS Code layer (src/host/core/errorWords.ts).

export type ServiceErrorKind =
  'badRequest' | 'unauthorized' | 'forbidden' | 'notFound' | 'rateLimited' | 'server' | 'network' | 'timeout' | 'protocol' | 'aborted' | 'invalidInput';

/** Which service a request went to: it decides which key was used. */
export type ServiceName = 'agent' | 'assistant';

/** Why a connection failed, as far as the socket error tells. */
export type NetworkCause = 'refused' | 'dnsFailed' | 'closed' | 'connectTimeout' | 'timedOut' | 'noRoute' | 'blockedPort' | 'unknown';

/** Options of the clients that an error can be about (the VS Code layer maps them to its settings). */
export type ClientOption = 'apiKey' | 'baseUrl' | 'projectId' | 'domain' | 'apiVersion' | 'requestTimeoutMs' | 'streamIdleTimeoutMs';

/** What a feature can be missing before it can make a request: a setting, or its key. */
export type MissingOption = Extract<ClientOption, 'baseUrl' | 'projectId' | 'apiKey'>;

/**
 * Exactly what went wrong, with what a message about it needs. `code` is stable: the words, the
 * actions offered and the tests all key on it.
 */
/** Features built on the service's endpoints beyond the interface (notes.md): detected, never assumed. */
export type OptionalFeature = 'preview' | 'analytics' | 'search';

export type ServiceErrorReason =
  // Refused before any request: something to set or write first.
  | { code: 'keyInvalid'; keyKind: KeyKind; problem: KeyProblem }
  /** No key of that kind is stored yet. */
  | { code: 'keyMissing'; keyKind: KeyKind }
  | { code: 'baseUrlMissing' }
  | { code: 'baseUrlInvalid'; value: string }
  | { code: 'baseUrlScheme'; protocol: string }
  | { code: 'baseUrlCredentials' }
  /** A key (and the user's text) would go over plain http to a machine that is not this one. */
  | { code: 'plainHttp'; service: ServiceName; host: string; httpsUrl: string }
  | { code: 'projectMissing' }
  | { code: 'domainMissing' }
  | { code: 'jobIdMissing' }
  | { code: 'promptEmpty' }
  | { code: 'questionMissing' }
  | { code: 'questionEmpty' }
  | { code: 'apiVersionInvalid'; value: string }
  // The service answered with an error status.
  | { code: 'keyRefused'; service: ServiceName }
  | { code: 'projectForbidden'; projectId: string }
  | { code: 'domainForbidden'; domain: string }
  | { code: 'projectNotFound'; projectId: string }
  | { code: 'jobNotFound'; projectId: string; jobId: string }
  | { code: 'threadGone'; threadId: string }
  | { code: 'domainNotFound'; domain: string }
  /** An endpoint beyond the interface answered 403 or 404: not on this plan, or not on this service. */
  | { code: 'notOffered'; feature: OptionalFeature; status: number }
  /** `retryAt`: when the wait that Retry-After asked for is over (ms since the epoch, at most an hour away). */
  | { code: 'rateLimited'; service: ServiceName; retryAt?: number; perHour?: number }
  | { code: 'serverError' }
  | { code: 'badRequest' }
  | { code: 'unexpectedStatus' }
  | { code: 'redirected'; location?: string }
  // The connection.
  | { code: 'unreachable'; host: string; cause: NetworkCause }
  | { code: 'tls'; host: string }
  /** A browser refused the request: the service sends no CORS headers. `origin`: the page's, when known. */
  | { code: 'crossOriginRefused'; host: string; origin?: string }
  /** The body broke off; `keptPartial`: the caller keeps what arrived (an answer). */
  | { code: 'brokenBody'; host: string; cause: NetworkCause; keptPartial: boolean }
  /** An answer's stream ended without saying it was complete; what arrived is kept. */
  | { code: 'endedEarly'; host: string }
  | { code: 'headersTimeout'; host: string; seconds: number }
  | { code: 'stalled'; host: string; seconds: number; keptPartial: boolean }
  | { code: 'deadline'; host: string }
  | { code: 'timeout' }
  // What came back could not be used.
  | { code: 'notJson' }
  | { code: 'badJob'; field: string; expected: string; got: string }
  | { code: 'otherJob'; askedFor: string; answeredFor: string }
  /** A preview answer (the request's, or a status) that cannot be used, the field named. */
  | { code: 'badPreview'; field: string; expected: string; got: string }
  /** A reader analytics page whose envelope cannot be used (its entries are checked one by one, not here). */
  | { code: 'badAnalytics'; field: string; expected: string; got: string }
  /** A docs search (a list of hits) or page answer that cannot be used, the field named ('' for the whole body). */
  | { code: 'badSearch'; field: string; expected: string; got: string }
  | { code: 'notAStream'; contentType: string }
  | { code: 'tooLarge'; maxKb: number }
  | { code: 'unreadable' }
  | { code: 'unexpected' }
  // Nobody failed: the caller stopped it.
  | { code: 'aborted' }
  /** A feature was used before its settings and key were there; `missing`: the first thing to set, when known. */
  | { code: 'notConfigured'; service: ServiceName; missing?: MissingOption };

export type ServiceErrorCode = ServiceErrorReason['code'];

/** The reason with `code` C, for code that switches on it. */
export type ReasonOf<C extends ServiceErrorCode> = Extract<ServiceErrorReason, { code: C }>;

/** The kind follows from the code, so the two can never disagree. */
const KIND_OF: Record<ServiceErrorCode, ServiceErrorKind> = {
  keyInvalid: 'invalidInput',
  keyMissing: 'invalidInput',
  baseUrlMissing: 'invalidInput',
  baseUrlInvalid: 'invalidInput',
  baseUrlScheme: 'invalidInput',
  baseUrlCredentials: 'invalidInput',
  plainHttp: 'invalidInput',
  projectMissing: 'invalidInput',
  domainMissing: 'invalidInput',
  jobIdMissing: 'invalidInput',
  promptEmpty: 'invalidInput',
  questionMissing: 'invalidInput',
  questionEmpty: 'invalidInput',
  apiVersionInvalid: 'invalidInput',
  notConfigured: 'invalidInput',
  keyRefused: 'unauthorized',
  projectForbidden: 'forbidden',
  domainForbidden: 'forbidden',
  projectNotFound: 'notFound',
  jobNotFound: 'notFound',
  threadGone: 'notFound',
  domainNotFound: 'notFound',
  notOffered: 'forbidden',
  rateLimited: 'rateLimited',
  serverError: 'server',
  badRequest: 'badRequest',
  unexpectedStatus: 'protocol',
  redirected: 'protocol',
  unreachable: 'network',
  tls: 'network',
  crossOriginRefused: 'network',
  brokenBody: 'network',
  endedEarly: 'network',
  headersTimeout: 'timeout',
  stalled: 'timeout',
  deadline: 'timeout',
  timeout: 'timeout',
  notJson: 'protocol',
  badJob: 'protocol',
  otherJob: 'protocol',
  badPreview: 'protocol',
  badAnalytics: 'protocol',
  badSearch: 'protocol',
  notAStream: 'protocol',
  tooLarge: 'protocol',
  unreadable: 'protocol',
  unexpected: 'protocol',
  aborted: 'aborted',
};

export function kindOf(code: ServiceErrorCode): ServiceErrorKind {
  return KIND_OF[code];
}

/** The client option to change when this happened, if changing one is the likely fix. */
export function optionAtFault(reason: ServiceErrorReason): ClientOption | undefined {
  switch (reason.code) {
    case 'keyInvalid':
    case 'keyMissing':
    case 'keyRefused':
      return 'apiKey';
    case 'baseUrlMissing':
    case 'baseUrlInvalid':
    case 'baseUrlScheme':
    case 'baseUrlCredentials':
    case 'plainHttp':
    case 'redirected':
    case 'unreachable':
    case 'tls':
    case 'crossOriginRefused':
    case 'notJson':
    case 'otherJob':
    case 'notAStream':
      return 'baseUrl';
    case 'projectMissing':
    case 'projectForbidden':
    case 'projectNotFound':
      return 'projectId';
    case 'domainMissing':
    case 'domainForbidden':
    case 'domainNotFound':
      return 'domain';
    case 'apiVersionInvalid':
      return 'apiVersion';
    case 'headersTimeout':
      return 'requestTimeoutMs';
    case 'stalled':
      return 'streamIdleTimeoutMs';
    case 'notConfigured':
      return reason.missing;
    default:
      return undefined;
  }
}
