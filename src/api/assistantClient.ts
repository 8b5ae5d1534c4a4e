import { ServiceError, describeError, withPartial } from './errors';
import { Exchange, contentTypeOf, exchangeOptions, type ClientOptions } from './http';
import { errorFromStatus, extractDetail } from './httpErrors';
import { keyProblem } from './keys';
import { redact } from './redact';
import { buildAssistantBody } from './requestBody';
import { applyStreamItem, createDecoder } from './assemble';
import type { StreamDecoder } from './sse';
import type { AssembledMessage, AssistantApiVersion, AssistantRequest, AssistantStreamEvent } from './types';
import type { StreamItem } from './chunks';
import { createEmptyMessage } from './reducer';
import { describeBytes, describeDuration, MAX_ANSWER_BYTES, MAX_ANSWER_MS } from './limits';
import { hostLabel, secureBaseUrl, serviceUrl } from './url';

// Client for the assistant endpoints (service-interface.md §4.4–4.5, notes.md "Assistant").
// One call streams one answer. What arrived is never thrown away: every failure after the
// response started carries the message assembled so far as `partial`.

export interface AssistantClientOptions extends ClientOptions {
  domain: string;
  apiKey: string;
  apiVersion?: AssistantApiVersion;
  /** Bytes of one answer's stream before it is cut off, keeping what arrived. Default MAX_ANSWER_BYTES. */
  maxAnswerBytes?: number;
  /** How long one answer may stream before it is cut off, keeping what arrived. Default MAX_ANSWER_MS. */
  maxAnswerMs?: number;
}

const MAX_ERROR_BODY_BYTES = 16 * 1024;
const SKIP_DETAIL_MAX_CHARS = 200;

export class AssistantClient {
  private readonly opts: AssistantClientOptions;

  constructor(opts: AssistantClientOptions) {
    this.opts = { ...opts };
  }

  get apiVersion(): AssistantApiVersion {
    return this.opts.apiVersion ?? 'v2';
  }

  /**
   * Sends the conversation and streams the answer.
   *
   * Yields a `response` event once the headers are in (with the thread from `X-Thread-Id` /
   * `X-Thread-Key`), then a `chunk` event per chunk (its `message` is the one message being
   * assembled, updated in place), and `skipped` for chunks it could not use. Returns the
   * assembled message. Throws ServiceError; once the response has started, the error carries
   * the message so far as `partial`.
   *
   * The message's `threadId`/`threadKey` are the thread for the next request: from the headers,
   * then from chunks (the last one wins). When the answer continues the thread the request named
   * without handing out a new key, the request's key is carried over.
   */
  async *send(request: AssistantRequest, opts: { signal?: AbortSignal } = {}): AsyncGenerator<AssistantStreamEvent, AssembledMessage, undefined> {
    const version = this.apiVersion;
    // Grows by the thread key the answer hands out, so no error or skip report can show it either.
    const secrets: (string | undefined)[] = [this.opts.apiKey, request.threadKey ?? undefined];
    const url = this.checkedUrl(request, version);
    const host = hostLabel(url);
    const exchange = new Exchange(exchangeOptions(this.opts, { signal: opts.signal, host, secrets, keepsPartial: true }));
    const maxBytes = this.opts.maxAnswerBytes ?? MAX_ANSWER_BYTES;
    const maxMs = this.opts.maxAnswerMs ?? MAX_ANSWER_MS;
    // An answer may never end (a broken or hostile service): the whole exchange is bounded in time.
    exchange.limitTotal(maxMs);
    let message: AssembledMessage | undefined;
    try {
      const response = await exchange.start(url, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${this.opts.apiKey.trim()}`,
          'Content-Type': 'application/json',
          Accept: version === 'v2' ? 'text/event-stream' : 'text/plain, text/event-stream',
        },
        body: JSON.stringify(buildAssistantBody(request, version)),
      });
      if (response.status < 200 || response.status >= 300) {
        const text = await exchange.textQuietly(response, MAX_ERROR_BODY_BYTES);
        throw errorFromStatus(response, text, { service: 'assistant', domain: this.opts.domain, threadId: request.threadId }, secrets);
      }
      const decoder = await this.decoderFor(response, version, exchange, secrets);

      message = createEmptyMessage();
      const threadId = response.headers.get('x-thread-id')?.trim() || undefined;
      const threadKey = response.headers.get('x-thread-key')?.trim() || undefined;
      if (threadId) message.threadId = threadId;
      if (threadKey) {
        message.threadKey = threadKey;
        secrets.push(threadKey);
      }
      const responseEvent: AssistantStreamEvent = { type: 'response', status: response.status };
      if (threadId) responseEvent.threadId = threadId;
      if (threadKey) responseEvent.threadKey = threadKey;
      yield responseEvent;

      let done = false;
      let received = 0;
      for await (const bytes of exchange.body(response)) {
        received += bytes.byteLength;
        // Past the size bound, only the bytes up to it are read; the rest is never decoded.
        const over = received - maxBytes;
        for (const item of decoder.push(over > 0 ? bytes.subarray(0, bytes.byteLength - over) : bytes)) {
          if (item.kind === 'done') {
            done = true;
            break;
          }
          yield this.apply(message, item, secrets);
          // The reducer stopped taking parts: the answer is cut off here, like past its size bound.
          if (message.cutOff) return inheritThreadKey(message, request);
        }
        // Anything after [DONE] is not part of the answer; stop reading and release the connection.
        if (done) break;
        if (over > 0) {
          message.cutOff = { reason: 'size', limit: describeBytes(maxBytes) };
          return inheritThreadKey(message, request);
        }
      }
      if (!done) {
        for (const item of decoder.end()) {
          if (item.kind === 'done') {
            done = true;
            break;
          }
          yield this.apply(message, item, secrets);
          if (message.cutOff) return inheritThreadKey(message, request);
        }
      }
      // A clean end without [DONE] is fine if the answer said it was over; otherwise it was cut off.
      if (!done && !message.finished && !message.aborted && message.errors.length === 0) {
        throw new ServiceError({
          reason: { code: 'endedEarly', host },
        });
      }
      return inheritThreadKey(message, request);
    } catch (e) {
      // Stopped at the time bound while streaming: the answer so far is the answer, marked as cut off.
      if (exchange.reachedDeadline && message) {
        message.cutOff = { reason: 'time', limit: describeDuration(maxMs) };
        return inheritThreadKey(message, request);
      }
      throw withPartial(describeError(e, secrets), message && inheritThreadKey(message, request));
    } finally {
      exchange.dispose();
    }
  }

  /** Applies one stream item to the message and says what happened. */
  private apply(message: AssembledMessage, item: Exclude<StreamItem, { kind: 'done' }>, secrets: (string | undefined)[]): AssistantStreamEvent {
    applyStreamItem(message, item);
    // A thread key can also come in a chunk's metadata; from then on it is a secret too.
    if (message.threadKey && !secrets.includes(message.threadKey)) secrets.push(message.threadKey);
    if (item.kind === 'skip') return { type: 'skipped', reason: item.reason, detail: redactDetail(item.detail, secrets) };
    return { type: 'chunk', chunk: item.chunk, message };
  }

  /**
   * v2 must be an event stream; anything else (a JSON error with status 200, an HTML page) is
   * refused with what the body says. v1 accepts the data stream, and an event stream too, since
   * a service that moved on may answer v1 requests in the v2 format.
   */
  private async decoderFor(
    response: Response,
    version: AssistantApiVersion,
    exchange: Exchange,
    secrets: readonly (string | undefined)[],
  ): Promise<StreamDecoder> {
    const type = contentTypeOf(response);
    if (type === 'text/event-stream') return createDecoder('sse');
    if (version === 'v1' && type !== 'application/json' && type !== 'text/html') return createDecoder('v1');
    const body = await exchange.textQuietly(response, MAX_ERROR_BODY_BYTES);
    throw new ServiceError({
      reason: { code: 'notAStream', contentType: type },
      status: response.status,
      detail: extractDetail(body, response.headers.get('content-type'), secrets),
    });
  }

  private checkedUrl(request: AssistantRequest, version: AssistantApiVersion): string {
    const problem = keyProblem(this.opts.apiKey ?? '', 'assistant');
    if (problem !== undefined) throw new ServiceError({ reason: { code: 'keyInvalid', keyKind: 'assistant', problem } });
    const domain = (this.opts.domain ?? '').trim();
    if (domain === '') {
      throw new ServiceError({ reason: { code: 'domainMissing' } });
    }
    if (!Array.isArray(request.messages) || request.messages.length === 0) {
      throw new ServiceError({ reason: { code: 'questionMissing' } });
    }
    const last = request.messages[request.messages.length - 1]!;
    if (last.role === 'user' && last.parts.every((p) => p.type !== 'text' || p.text.trim() === '')) {
      throw new ServiceError({ reason: { code: 'questionEmpty' } });
    }
    if (version !== 'v1' && version !== 'v2') {
      const value = String(version).slice(0, 40);
      throw new ServiceError({ reason: { code: 'apiVersionInvalid', value } });
    }
    // The assistant key is public, but the thread key, the question and the selected code are
    // the user's: like the admin key, they leave this machine only over https.
    const base = secureBaseUrl(this.opts.baseUrl, 'assistant');
    return serviceUrl(base, ['discovery', version, 'assistant', domain, 'message']);
  }
}

/**
 * The service sends `X-Thread-Key` only on the answer that created the thread (notes.md). When an
 * answer continues the thread the request named, the key sent with it still belongs to it, so the
 * message carries both: the caller can always take the next request's thread from the last message.
 */
function inheritThreadKey(message: AssembledMessage, request: AssistantRequest): AssembledMessage {
  if (!message.threadKey && request.threadKey && request.threadId && (message.threadId === undefined || message.threadId === request.threadId)) {
    message.threadId = request.threadId;
    message.threadKey = request.threadKey;
  }
  return message;
}

function redactDetail(detail: string, secrets: readonly (string | undefined)[]): string {
  const out = redact(detail, secrets);
  return out.length > SKIP_DETAIL_MAX_CHARS ? `${out.slice(0, SKIP_DETAIL_MAX_CHARS - 1)}…` : out;
}
