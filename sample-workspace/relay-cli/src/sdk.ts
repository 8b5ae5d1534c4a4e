import type { Settings } from './settings.js';

// The SDK's publishing calls (docs: /sdk), which the CLI uses too: one HTTPS request each, with
// the API key from the settings.

export interface PublishOptions {
  /** Seconds before the message can be received. */
  delaySeconds?: number;
  /** A second message with the same id within five minutes is accepted but not stored again. */
  deduplicationId?: string;
}

export class RelayError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly retryAfter?: number,
  ) {
    super(`Relay refused the request (${status} ${code})`);
  }
}

async function call(settings: Settings, path: string, body: unknown): Promise<unknown> {
  if (!settings.apiKey) throw new Error('Set RELAY_API_KEY or run relay login first');
  const response = await fetch(new URL(path, settings.apiUrl), {
    method: 'POST',
    headers: { authorization: `Bearer ${settings.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(settings.timeoutSeconds * 1000),
  });
  if (!response.ok) {
    const retryAfter = Number(response.headers.get('retry-after')) || undefined;
    throw new RelayError(response.status, response.statusText, retryAfter);
  }
  return response.json();
}

/** Publishes one message; resolves with its id. */
export async function publish(settings: Settings, queue: string, body: unknown, options: PublishOptions = {}): Promise<string> {
  const result = (await call(settings, `/v2/queues/${encodeURIComponent(queue)}/messages`, { body, ...options })) as { id: string };
  return result.id;
}

/** Publishes up to 100 messages in one request; resolves with their ids, in order. */
export async function publishBatch(settings: Settings, queue: string, bodies: unknown[]): Promise<string[]> {
  if (bodies.length > 100) throw new Error('publishBatch takes at most 100 messages');
  const result = (await call(settings, `/v2/queues/${encodeURIComponent(queue)}/messages:batch`, { messages: bodies })) as { ids: string[] };
  return result.ids;
}

export async function createQueue(settings: Settings, name: string, options: Record<string, string | number | undefined>): Promise<void> {
  await call(settings, '/v2/queues', { name, project: settings.project, ...options });
}
