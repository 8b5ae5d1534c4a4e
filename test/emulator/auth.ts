import type { IncomingMessage } from 'node:http';
import { ADMIN_KEY_PREFIX, ASSISTANT_KEY_PREFIX } from '../../src/api/keys';
import type { RecordedRequest } from './config';

// Bearer keys, told apart by kind. The messages name the kind of key that was expected, never
// the key that came, so a test log or a client's error message cannot leak one.

export type AuthKind = RecordedRequest['auth'];

interface Keys {
  adminKey: string;
  assistantKey: string;
}

export function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : '';
}

export function authKind(token: string | undefined, keys: Keys): AuthKind {
  if (token === undefined) return 'none';
  if (token === keys.adminKey) return 'admin';
  if (token === keys.assistantKey) return 'assistant';
  return 'other';
}

/** Why a request with `token` may not use an endpoint that needs `needed`, or undefined when it may. */
export function refusal(token: string | undefined, needed: 'admin' | 'assistant', keys: Keys): string | undefined {
  const kind = authKind(token, keys);
  if (kind === needed) return undefined;
  if (token === undefined) return 'Missing Authorization header. Send "Authorization: Bearer <key>".';
  if (token === '') return 'The Authorization header must be "Bearer <key>".';
  // The assistant prefix starts with the admin one, so it is checked first.
  const looksAssistant = token.startsWith(ASSISTANT_KEY_PREFIX);
  const looksAdmin = !looksAssistant && token.startsWith(ADMIN_KEY_PREFIX);
  if (needed === 'admin' && looksAssistant) {
    return `Wrong kind of key: this is an assistant key (${ASSISTANT_KEY_PREFIX}…). Agent endpoints need the admin API key (${ADMIN_KEY_PREFIX}…).`;
  }
  if (needed === 'assistant' && looksAdmin) {
    return `Wrong kind of key: this is an admin key. Assistant endpoints need the public assistant API key (${ASSISTANT_KEY_PREFIX}…).`;
  }
  return needed === 'admin' ? 'Invalid admin API key.' : 'Invalid assistant API key.';
}
