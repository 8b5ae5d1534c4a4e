import { answersWithoutCors, crossOriginRefused, isBrowserFetchFailure } from './crossOrigin';
import { ServiceError, abortedError, networkError } from './errors';
import { timerDelay } from './limits';

// One HTTP exchange with the service: the request, its timeouts, the caller's cancel, and reading
// the body. Every way it can fail comes out as a ServiceError. All timers and listeners are
// released in `dispose()`, which the clients call in a `finally`.

export interface ClientOptions {
  baseUrl: string;
  /** Injected for tests and for environments without a global fetch. */
  fetch?: typeof fetch;
  /** Connection plus response headers. Default 30000. */
  requestTimeoutMs?: number;
  /** Longest silence while a body streams. Default 60000. */
  streamIdleTimeoutMs?: number;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 60_000;

export interface ExchangeOptions {
  fetch: typeof fetch;
  requestTimeoutMs: number;
  idleTimeoutMs: number;
  signal?: AbortSignal;
  /** host[:port], for messages. */
  host: string;
  /** Strings that must never show in an error (the key, a thread key). */
  secrets: readonly (string | undefined)[];
  /**
   * The body is an answer whose caller keeps what arrived when it stalls or breaks off (a JSON
   * body has nothing worth keeping); the errors say which.
   */
  keepsPartial?: boolean;
}

/** The exchange options a client's own options give, with the defaults. */
export function exchangeOptions(client: ClientOptions, call: Omit<ExchangeOptions, 'fetch' | 'requestTimeoutMs' | 'idleTimeoutMs'>): ExchangeOptions {
  return {
    fetch: client.fetch ?? globalThis.fetch,
    requestTimeoutMs: client.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    idleTimeoutMs: client.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS,
    ...call,
  };
}

type StopReason = 'headers-timeout' | 'idle-timeout' | 'deadline' | 'caller';

/** Seconds, to a tenth: 30, 0.3. */
function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}

export class Exchange {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private deadlineTimer: ReturnType<typeof setTimeout> | undefined;
  private stopReason: StopReason | undefined;
  private readonly onCallerAbort = (): void => this.stop('caller');
  private disposed = false;

  constructor(private readonly opts: ExchangeOptions) {}

  /**
   * Bounds the whole exchange, however steadily the body drips: after `ms` it is stopped, and
   * `reachedDeadline` says so, for a caller that keeps what arrived instead of failing.
   */
  limitTotal(ms: number): void {
    if (this.deadlineTimer !== undefined) clearTimeout(this.deadlineTimer);
    if (!(ms > 0) || !Number.isFinite(ms)) return;
    this.deadlineTimer = setTimeout(() => this.stop('deadline'), timerDelay(ms));
  }

  get reachedDeadline(): boolean {
    return this.stopReason === 'deadline';
  }

  /** Sends the request; resolves once the status and headers are in. */
  async start(url: string, init: RequestInit): Promise<Response> {
    const { signal } = this.opts;
    if (signal?.aborted) throw abortedError();
    signal?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.arm('headers-timeout', this.opts.requestTimeoutMs);
    try {
      // `redirect: 'manual'`: a key is never carried to an address nobody configured.
      // `credentials: 'omit'`: in a browser host, no cookie of the page's goes to a service on its origin.
      // Called unbound: a browser's fetch throws "Illegal invocation" when called as a method of another object.
      const fetchFn = this.opts.fetch;
      return await fetchFn(url, { ...init, redirect: 'manual', credentials: 'omit', signal: this.controller.signal });
    } catch (e) {
      const failure = this.failure(e, 'connect');
      this.disarm();
      // A browser does not say why: a service without CORS headers and one that is down look alike.
      if (failure.reason.code === 'unreachable' && isBrowserFetchFailure(e) && (await answersWithoutCors(url, this.opts.fetch, signal))) {
        throw crossOriginRefused(e, this.opts.host);
      }
      if (signal?.aborted) throw abortedError();
      throw failure;
    } finally {
      this.disarm();
    }
  }

  /**
   * The body as byte chunks. Each wait for the next chunk is bounded by the idle timeout; time
   * the caller spends between chunks does not count. Stopping early (break/return) cancels the
   * body so the connection is released.
   */
  async *body(response: Response, idleTimeoutMs: number = this.opts.idleTimeoutMs): AsyncGenerator<Uint8Array, void, undefined> {
    if (!response.body) return;
    const reader = response.body.getReader();
    let finished = false;
    try {
      for (;;) {
        this.arm('idle-timeout', idleTimeoutMs);
        let result: ReadableStreamReadResult<Uint8Array>;
        try {
          result = await reader.read();
        } catch (e) {
          throw this.failure(e, 'body');
        } finally {
          this.disarm();
        }
        if (result.done) {
          finished = true;
          return;
        }
        if (result.value && result.value.byteLength > 0) yield result.value;
      }
    } finally {
      if (!finished) reader.cancel().catch(() => undefined);
      reader.releaseLock();
    }
  }

  /** The whole body as text, at most `maxBytes` (a protocol error beyond that). */
  async text(response: Response, maxBytes: number): Promise<string> {
    const decoder = new TextDecoder();
    const parts: string[] = [];
    let total = 0;
    for await (const bytes of this.body(response)) {
      total += bytes.byteLength;
      if (total > maxBytes) {
        const maxKb = Math.round(maxBytes / 1024);
        throw new ServiceError({ reason: { code: 'tooLarge', maxKb } });
      }
      parts.push(decoder.decode(bytes, { stream: true }));
    }
    parts.push(decoder.decode());
    return parts.join('');
  }

  /**
   * Best effort for error bodies: up to `maxBytes`, and what arrived if reading fails or stalls,
   * because the status alone already says what went wrong. Bounded by the shorter of the two
   * timeouts: nobody should wait a minute for the words of an error. Caller aborts still win.
   */
  async textQuietly(response: Response, maxBytes: number): Promise<string> {
    const decoder = new TextDecoder();
    let out = '';
    try {
      for await (const bytes of this.body(response, Math.min(this.opts.requestTimeoutMs, this.opts.idleTimeoutMs))) {
        out += decoder.decode(bytes, { stream: true });
        if (out.length >= maxBytes) break;
      }
    } catch (e) {
      if (e instanceof ServiceError && e.kind === 'aborted') throw e;
    }
    return out.slice(0, maxBytes);
  }

  /** Releases timers and the caller's signal listener; aborts a body nobody finished reading. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.disarm();
    if (this.deadlineTimer !== undefined) clearTimeout(this.deadlineTimer);
    this.deadlineTimer = undefined;
    this.opts.signal?.removeEventListener('abort', this.onCallerAbort);
    if (!this.controller.signal.aborted) this.controller.abort();
  }

  private stop(reason: StopReason): void {
    if (this.stopReason === undefined) this.stopReason = reason;
    this.disarm();
    this.controller.abort();
  }

  private arm(reason: StopReason, ms: number): void {
    this.disarm();
    if (!(ms > 0) || !Number.isFinite(ms)) return;
    this.timer = setTimeout(() => this.stop(reason), timerDelay(ms));
  }

  private disarm(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  /** Why the exchange failed: our own timers and the caller's cancel take precedence over what fetch says. */
  private failure(e: unknown, phase: 'connect' | 'body'): ServiceError {
    if (e instanceof ServiceError) return e;
    if (this.stopReason === 'caller' || (this.stopReason === undefined && this.opts.signal?.aborted)) return abortedError();
    const { host, keepsPartial = false } = this.opts;
    if (this.stopReason === 'headers-timeout') {
      const s = seconds(this.opts.requestTimeoutMs);
      return new ServiceError({
        reason: { code: 'headersTimeout', host, seconds: s },
        cause: e,
      });
    }
    if (this.stopReason === 'deadline') {
      return new ServiceError({
        reason: { code: 'deadline', host },
        cause: e,
      });
    }
    if (this.stopReason === 'idle-timeout') {
      const s = seconds(this.opts.idleTimeoutMs);
      return new ServiceError({
        reason: { code: 'stalled', host, seconds: s, keptPartial: keepsPartial },
        cause: e,
      });
    }
    return networkError(e, host, phase, this.opts.secrets, keepsPartial);
  }
}

/** Waits `ms`, or rejects with an `aborted` ServiceError as soon as `signal` fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortedError());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, timerDelay(ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function contentTypeOf(response: Response): string {
  return (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}
