import type { OptionalFeature } from './errorReasons';
import { ServiceError, describeError } from './errors';
import { errorFromStatus, type ErrorTarget } from './httpErrors';
import { Exchange, exchangeOptions, type ClientOptions } from './http';
import { keyProblem } from './keys';
import { redact } from './redact';
import { hostLabel, secureBaseUrl, serviceUrl } from './url';

// One JSON call with a key, shared by the agent-job, preview and analytics clients (the admin key)
// and the search client (the assistant key): the checks that must hold before the admin key leaves
// the machine (its shape, the project, the address it would travel to), the exchange with its
// timeouts, a bounded body, and JSON that is refused by name when it is not. What the body means
// is the caller's to validate.

export interface AdminClientOptions extends ClientOptions {
  projectId: string;
  apiKey: string;
}

const MAX_ERROR_BODY_BYTES = 16 * 1024;

/** The address of `segments` under the base URL, once the key and the project are fit to send. */
export function adminUrl(opts: AdminClientOptions, segments: readonly string[]): string {
  const problem = keyProblem(opts.apiKey ?? '', 'admin');
  if (problem !== undefined) throw new ServiceError({ reason: { code: 'keyInvalid', keyKind: 'admin', problem } });
  if (!opts.projectId || opts.projectId.trim() === '') throw new ServiceError({ reason: { code: 'projectMissing' } });
  return serviceUrl(secureBaseUrl(opts.baseUrl, 'agent'), segments);
}

export interface AdminRequest {
  method: 'GET' | 'POST';
  url: string;
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  maxBodyBytes: number;
  /** The error for a status outside 2xx, given the (bounded, best-effort) text of its body. */
  errorFor(response: Response, bodyText: string, secrets: readonly string[]): ServiceError;
}

/** Options of one keyed call: the address, timeouts and fetch, and the key it carries (its kind checked by the caller). */
export type KeyedOptions = ClientOptions & { apiKey: string };

/** Sends `req` with the key; resolves with the status and the parsed JSON of a 2xx answer. */
export async function keyedJson(opts: KeyedOptions, req: AdminRequest): Promise<{ status: number; json: unknown }> {
  const secrets = [opts.apiKey];
  const exchange = new Exchange(exchangeOptions(opts, { signal: req.signal, host: hostLabel(req.url), secrets }));
  try {
    const headers: Record<string, string> = { Authorization: `Bearer ${opts.apiKey.trim()}`, Accept: 'application/json' };
    if (req.body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await exchange.start(req.url, { method: req.method, headers, body: req.body === undefined ? undefined : JSON.stringify(req.body) });
    if (response.status < 200 || response.status >= 300) {
      throw req.errorFor(response, await exchange.textQuietly(response, MAX_ERROR_BODY_BYTES), secrets);
    }
    const text = await exchange.text(response, req.maxBodyBytes);
    try {
      return { status: response.status, json: JSON.parse(text) };
    } catch {
      throw new ServiceError({
        reason: { code: 'notJson' },
        status: response.status,
        detail: text.trim() === '' ? undefined : redact(text.trim(), secrets).slice(0, 300),
      });
    }
  } catch (e) {
    throw describeError(e, secrets);
  } finally {
    exchange.dispose();
  }
}

/**
 * The error of an endpoint beyond the interface (notes.md): 403 and 404 mean "not offered here"
 * (`notOffered`, which the caller turns into one quiet note); a 429 keeps when to retry, without
 * the agent jobs' hourly limit, which is not this endpoint's. `target` says which key it carried.
 */
export function optionalFeatureError(feature: OptionalFeature, target: ErrorTarget): AdminRequest['errorFor'] {
  return (response, text, secrets) => {
    const err = errorFromStatus(response, text, target, secrets);
    if (response.status === 403 || response.status === 404) {
      return err.with({ reason: { code: 'notOffered', feature, status: response.status } });
    }
    if (err.reason.code === 'rateLimited') {
      const { retryAt } = err.reason;
      const service = target.service;
      return err.with({ reason: retryAt === undefined ? { code: 'rateLimited', service } : { code: 'rateLimited', service, retryAt } });
    }
    return err;
  };
}
