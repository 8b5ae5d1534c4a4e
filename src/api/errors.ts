import type { AssembledMessage } from './types';
import { clampRetryAfter } from './limits';
import { redact } from './redact';

// One error type for everything the service client can fail with, so that callers
// switch on `kind` instead of parsing messages.

export type ServiceErrorKind =
  | 'badRequest'
  | 'unauthorized'
  | 'forbidden'
  | 'notFound'
  | 'rateLimited'
  | 'server'
  | 'network'
  | 'timeout'
  | 'protocol'
  | 'aborted'
  | 'invalidInput';

export interface ServiceErrorInit {
  kind: ServiceErrorKind;
  message: string;
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
}

export class ServiceError extends Error {
  readonly kind: ServiceErrorKind;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly detail?: string;
  readonly partial?: AssembledMessage;
  readonly notSent?: boolean;

  constructor(init: ServiceErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ServiceError';
    this.kind = init.kind;
    this.status = init.status;
    // Whoever builds the error, the wait stays something a timer and a countdown can hold.
    this.retryAfterMs = init.retryAfterMs === undefined ? undefined : clampRetryAfter(init.retryAfterMs);
    this.detail = init.detail;
    this.partial = init.partial;
    if (init.notSent) this.notSent = true;
  }
}

/** A copy of `e` that also carries what had arrived before it happened. */
export function withPartial(e: ServiceError, partial: AssembledMessage | undefined): ServiceError {
  if (partial === undefined || e.partial === partial) return e;
  return new ServiceError({
    kind: e.kind,
    message: e.message,
    status: e.status,
    retryAfterMs: e.retryAfterMs,
    detail: e.detail,
    cause: e.cause,
    partial,
    notSent: e.notSent,
  });
}

export function abortedError(): ServiceError {
  return new ServiceError({ kind: 'aborted', message: 'The request was cancelled.' });
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
 * Why a socket-level failure happened, in a few words a person understands; `unsent` when it
 * happened before a connection existed, so no byte of the request can have reached the service.
 */
function networkReason(cause: ErrorLike | undefined): { reason: string; tls: boolean; unsent: boolean } {
  const code = typeof cause?.code === 'string' ? cause.code : '';
  const text = typeof cause?.message === 'string' ? cause.message : '';
  if (code === 'ECONNREFUSED') return { reason: 'connection refused', tls: false, unsent: true };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME' || code === 'EAI_FAIL') return { reason: 'the host name could not be resolved', tls: false, unsent: true };
  // The handshake comes before the request is written.
  if (TLS_CODE.test(code) || /\b(SSL|TLS)\b|certificate/i.test(text)) return { reason: 'secure connection failed', tls: true, unsent: true };
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED') return { reason: 'the connection was closed', tls: false, unsent: false };
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return { reason: 'the connection timed out', tls: false, unsent: true };
  if (code === 'ETIMEDOUT') return { reason: 'the connection timed out', tls: false, unsent: false };
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'ENETDOWN') return { reason: 'no route to the host', tls: false, unsent: true };
  if (/bad port/i.test(text)) return { reason: 'that port is blocked for web requests', tls: false, unsent: true };
  return { reason: '', tls: false, unsent: false };
}

/**
 * Maps a failure of fetch or of reading its body onto a `network` ServiceError. `bodyMessage`
 * words a body that broke off for a caller that keeps what arrived (an answer); `reason` is
 * empty or " (why)".
 */
export function networkError(
  e: unknown,
  host: string,
  phase: NetworkPhase = 'connect',
  secrets: readonly (string | undefined)[] = [],
  bodyMessage?: (reason: string) => string,
): ServiceError {
  const cause = rootCause(e);
  const { reason, tls, unsent } = networkReason(cause);
  const detail = redact(`${messageOf(e)}${cause && cause !== e && typeof cause.message === 'string' ? `: ${cause.message}` : ''}`.trim(), secrets).slice(0, 300);
  let message: string;
  if (phase === 'body') {
    const why = reason ? ` (${reason})` : '';
    message = bodyMessage ? bodyMessage(why) : `The connection to ${host} broke before the whole response arrived${why}. Try again in a moment.`;
  } else if (tls) {
    message = `Could not make a secure connection to ${host}. If it only speaks plain http (like the local emulator), docsAssistant.baseUrl must start with http://; otherwise check the server's certificate.`;
  } else {
    message = `Could not reach ${host}${reason ? ` (${reason})` : ''}. Check docsAssistant.baseUrl and your connection.`;
  }
  return new ServiceError({ kind: 'network', message: redact(message, secrets), detail, cause: e, notSent: phase === 'connect' && unsent });
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
    return new ServiceError({ kind: 'timeout', message: 'The service took too long to answer. Try again in a moment.', cause: e });
  }
  const cause = rootCause(e);
  const looksNetwork =
    (e instanceof TypeError && /fetch failed|terminated|network/i.test(e.message)) || (cause !== undefined && typeof cause.code === 'string' && cause.code.length > 0);
  if (looksNetwork) return networkError(e, 'the service', 'connect', secrets);
  if (e instanceof SyntaxError) {
    return new ServiceError({ kind: 'protocol', message: 'The service sent something that could not be read.', detail: redact(e.message, secrets).slice(0, 300), cause: e });
  }
  // No better kind exists for an unexpected failure; `protocol` keeps it out of the retry paths.
  return new ServiceError({ kind: 'protocol', message: `Unexpected error: ${redact(messageOf(e), secrets).slice(0, 300)}`, cause: e });
}
