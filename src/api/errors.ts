import type { AssembledMessage } from './types';
import { clampRetryAfter } from './limits';
import {
  kindOf,
  optionAtFault,
  type ClientOption,
  type NetworkCause,
  type ServiceErrorCode,
  type ServiceErrorKind,
  type ServiceErrorReason,
} from './errorReasons';
import { redact } from './redact';

// One error type for everything the service client can fail with. Callers switch on `kind` (how
// to react: retry, fix a key, fix a setting) and `reason` (exactly what happened, with its data);
// the words a user reads are written from those in the VS Code layer (src/host/core/errorWords.ts),
// translated there. `message` is only for logs and developers: the reason's code and data, the
// status and the service's own words (`keyRefused service=assistant (HTTP 401)`), written once, here.

export {
  kindOf,
  optionAtFault,
  type ServiceErrorKind,
  type ServiceName,
  type NetworkCause,
  type ClientOption,
  type ServiceErrorReason,
  type ServiceErrorCode,
  type ReasonOf,
} from './errorReasons';

export interface ServiceErrorInit {
  reason: ServiceErrorReason;
  /** For logs and developers; without it, one is written from the reason. Users read src/host/core/errorWords.ts. */
  message?: string;
  status?: number;
  retryAfterMs?: number;
  /** The service's own words (already redacted), for a tooltip or the log. */
  detail?: string;
  cause?: unknown;
  /** For a stream that broke part-way: what had arrived, so the caller can keep it on screen. */
  partial?: AssembledMessage;
  /**
   * The request certainly never reached the service (refused, name not resolved, TLS handshake
   * failed), so nothing can have happened there: a create can be sent again without a duplicate.
   */
  notSent?: boolean;
  /**
   * A request that changes something (a create) was sent, but its answer never came: the service
   * may have done it anyway, so the user should look before sending it again.
   */
  lostResponse?: boolean;
}

export class ServiceError extends Error {
  readonly kind: ServiceErrorKind;
  readonly reason: ServiceErrorReason;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly detail?: string;
  readonly partial?: AssembledMessage;
  readonly notSent?: boolean;
  readonly lostResponse?: boolean;

  constructor(init: ServiceErrorInit) {
    super(init.message ?? summary(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ServiceError';
    this.reason = init.reason;
    this.kind = kindOf(init.reason.code);
    this.status = init.status;
    // Whoever builds the error, the wait stays something a timer and a countdown can hold.
    this.retryAfterMs = init.retryAfterMs === undefined ? undefined : clampRetryAfter(init.retryAfterMs);
    this.detail = init.detail;
    this.partial = init.partial;
    if (init.notSent) this.notSent = true;
    if (init.lostResponse) this.lostResponse = true;
  }

  get code(): ServiceErrorCode {
    return this.reason.code;
  }

  /** The client option to change, if changing one is the likely fix. */
  get option(): ClientOption | undefined {
    return optionAtFault(this.reason);
  }

  /** A copy with `changes` applied; its message is written anew from what it carries. */
  with(changes: Partial<ServiceErrorInit>): ServiceError {
    const { reason, status, retryAfterMs, detail, cause, partial, notSent, lostResponse } = this;
    return new ServiceError({ reason, status, retryAfterMs, detail, cause, partial, notSent, lostResponse, ...changes });
  }
}

/** The message for logs: `code key=value… (HTTP status)`, then the service's own words. */
function summary(e: Omit<ServiceErrorInit, 'message'>): string {
  let out: string = e.reason.code;
  for (const [key, value] of Object.entries(e.reason)) if (key !== 'code' && value !== undefined) out += ` ${key}=${value}`;
  if (e.status !== undefined) out += ` (HTTP ${e.status})`;
  if (e.lostResponse) out += ' lostResponse';
  return e.detail ? `${out}: ${e.detail}` : out;
}

/** A copy of `e` that also carries what had arrived before it happened. */
export function withPartial(e: ServiceError, partial: AssembledMessage | undefined): ServiceError {
  if (partial === undefined || e.partial === partial) return e;
  return e.with({ partial });
}

export function abortedError(): ServiceError {
  return new ServiceError({ reason: { code: 'aborted' } });
}

/** Where a network failure happened: before the response, or while its body was arriving. */
export type NetworkPhase = 'connect' | 'body';

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/**
 * The innermost error with a `code` (undici wraps socket errors as `TypeError: fetch failed`
 * with the real error in `cause`; Happy Eyeballs may wrap several in an AggregateError).
 */
function rootCause(e: unknown): ErrorLike | undefined {
  let current: unknown = e;
  let found: ErrorLike | undefined;
  for (let depth = 0; depth < 6 && current !== null && typeof current === 'object'; depth++) {
    const err = current as ErrorLike;
    if (typeof err.code === 'string') found = err;
    if (err.cause !== undefined) current = err.cause;
    else if (Array.isArray(err.errors) && err.errors.length > 0) current = err.errors[0];
    else break;
  }
  return found ?? (e !== null && typeof e === 'object' ? (e as ErrorLike) : undefined);
}

function messageOf(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === 'string') return e;
  return String(e);
}

const TLS_CODE = /^(ERR_SSL_|ERR_TLS_|EPROTO$|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|HOSTNAME_MISMATCH$|ERR_OSSL_)/;

/**
 * Why a socket-level failure happened; `unsent` when it happened before a connection existed, so
 * no byte of the request can have reached the service.
 */
function networkCause(cause: ErrorLike | undefined): { cause: NetworkCause; tls: boolean; unsent: boolean } {
  const code = typeof cause?.code === 'string' ? cause.code : '';
  const text = typeof cause?.message === 'string' ? cause.message : '';
  if (code === 'ECONNREFUSED') return { cause: 'refused', tls: false, unsent: true };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME' || code === 'EAI_FAIL') return { cause: 'dnsFailed', tls: false, unsent: true };
  // The handshake comes before the request is written.
  if (TLS_CODE.test(code) || /\b(SSL|TLS)\b|certificate/i.test(text)) return { cause: 'unknown', tls: true, unsent: true };
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED')
    return { cause: 'closed', tls: false, unsent: false };
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return { cause: 'connectTimeout', tls: false, unsent: true };
  if (code === 'ETIMEDOUT') return { cause: 'timedOut', tls: false, unsent: false };
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'ENETDOWN') return { cause: 'noRoute', tls: false, unsent: true };
  if (/bad port/i.test(text)) return { cause: 'blockedPort', tls: false, unsent: true };
  return { cause: 'unknown', tls: false, unsent: false };
}

/**
 * Maps a failure of fetch or of reading its body onto a `network` ServiceError. `host` is
 * host[:port], or '' when unknown; `keptPartial`: the body was an answer whose caller keeps what arrived.
 */
export function networkError(
  e: unknown,
  host: string,
  phase: NetworkPhase = 'connect',
  secrets: readonly (string | undefined)[] = [],
  keptPartial = false,
): ServiceError {
  const root = rootCause(e);
  const { cause, tls, unsent } = networkCause(root);
  const detail = redact(`${messageOf(e)}${root && root !== e && typeof root.message === 'string' ? `: ${root.message}` : ''}`.trim(), secrets).slice(0, 300);
  const reason: ServiceErrorReason =
    phase === 'body' ? { code: 'brokenBody', host, cause, keptPartial } : tls ? { code: 'tls', host } : { code: 'unreachable', host, cause };
  return new ServiceError({ reason, detail, cause: e, notSent: phase === 'connect' && unsent });
}

function isAbortLike(e: unknown): boolean {
  return e !== null && typeof e === 'object' && (e as ErrorLike).name === 'AbortError';
}

/**
 * Normalises anything thrown around a service call into a ServiceError, so callers only ever
 * handle one type. Known secrets are redacted from whatever text ends up in it.
 */
export function describeError(e: unknown, secrets: readonly (string | undefined)[] = []): ServiceError {
  if (e instanceof ServiceError) return e;
  if (isAbortLike(e)) return abortedError();
  if (e !== null && typeof e === 'object' && (e as ErrorLike).name === 'TimeoutError') {
    return new ServiceError({ reason: { code: 'timeout' }, cause: e });
  }
  const cause = rootCause(e);
  const looksNetwork =
    (e instanceof TypeError && /fetch failed|terminated|network/i.test(e.message)) ||
    (cause !== undefined && typeof cause.code === 'string' && cause.code.length > 0);
  if (looksNetwork) return networkError(e, '', 'connect', secrets);
  const detail = redact(messageOf(e), secrets).slice(0, 300);
  // Unreadable JSON is the service's; for anything else no better kind exists than `protocol`
  // (`unexpected`), which keeps it out of the retry paths.
  return new ServiceError({ reason: { code: e instanceof SyntaxError ? 'unreadable' : 'unexpected' }, detail, cause: e });
}
