import type { AssembledMessage } from './types';

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
}

export class ServiceError extends Error {
  readonly kind: ServiceErrorKind;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly detail?: string;
  readonly partial?: AssembledMessage;

  constructor(init: ServiceErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ServiceError';
    this.kind = init.kind;
    this.status = init.status;
    this.retryAfterMs = init.retryAfterMs;
    this.detail = init.detail;
    this.partial = init.partial;
  }
}

export function isServiceError(e: unknown): e is ServiceError {
  return e instanceof ServiceError;
}
