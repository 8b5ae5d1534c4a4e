import type * as l10n from '@vscode/l10n';
import type { ServiceError, KeyKind } from '../../api';
import { messageOf, retryAtOf, SETTING } from './reasonMessages';

// What the user reads when a service call fails, and what they can do about it. The client
// (src/api) only says what happened, as a typed `reason`; the words are written here, in the
// display language, with the settings and commands that fix it named: the message for each
// reason in reasonMessages.ts, the fixes to offer beside it here.
//
// Pure and free of `vscode` at run time, so the vscode-free cores (the agent's job list, the chat
// session) and their Node tests use it too. It takes the translator: vscode.l10n.t in the
// extension host, `english` (src/common/l10n.ts) in tests. Each message is an `l10n.t('…')` call
// on that translator, which is what `npm run l10n` (@vscode/l10n-dev) exports into the bundle.

/** vscode.l10n.t, or `english` (src/common/l10n.ts) in tests. */
type Translate = (message: string, ...args: l10n.L10nReplacement[]) => string;

/** What can be offered beside the message; each feature shows the ones it has a button for. */
export type ErrorFix = 'setKey' | 'configure' | 'newConversation' | 'retry';

export interface UserError {
  message: string;
  /** Most useful first. `retry` is last, and offered whenever trying again could work. */
  fixes: ErrorFix[];
  /** The key that `setKey` sets. */
  keyKind?: KeyKind;
  /** The setting to change, for `configure` (e.g. docsAssistant.baseUrl). */
  setting?: string;
  /** When a retry can work again (ms since the epoch), after a 429 that said when. */
  retryAt?: number;
}

/** The key a request used: the admin key for agent jobs, the assistant key for the chat. */
function keyKindOf(err: ServiceError): KeyKind | undefined {
  const r = err.reason;
  switch (r.code) {
    case 'keyInvalid':
    case 'keyMissing':
      return r.keyKind;
    case 'keyRefused':
      return r.service === 'agent' ? 'admin' : 'assistant';
    case 'projectForbidden':
      return 'admin';
    case 'domainForbidden':
      return 'assistant';
    case 'notConfigured':
      if (r.missing !== 'apiKey') return undefined;
      return r.service === 'agent' ? 'admin' : 'assistant';
    default:
      return undefined;
  }
}

/**
 * The words for `err` in the display language, with the fixes to offer. `now` is when it is
 * shown: a 429's time of day is worked out from it.
 */
export function describeForUser(err: ServiceError, t: Translate, now: number = Date.now()): UserError {
  const l10n = { t };
  let message = messageOf(err, t, now);
  // A create whose answer was lost: a job may exist anyway.
  if (err.lostResponse)
    message += ` ${l10n.t('The service may have started a job anyway: check the Agent Jobs list (Refresh) or the repository before you try again.')}`;
  const out: UserError = { message, fixes: [] };
  const keyKind = keyKindOf(err);
  const option = err.option;
  const setting = option === undefined || option === 'apiKey' ? undefined : SETTING[option];
  if (keyKind !== undefined) {
    out.keyKind = keyKind;
    out.fixes.push('setKey');
  }
  // A setting to change, when changing it is what fixes this (not a timeout the user may raise).
  if (
    setting !== undefined &&
    (err.kind === 'invalidInput' ||
      err.kind === 'notFound' ||
      err.reason.code === 'redirected' ||
      err.reason.code === 'tls' ||
      err.reason.code === 'crossOriginRefused')
  ) {
    out.setting = setting;
    out.fixes.push('configure');
  } else if (setting !== undefined) {
    out.setting = setting;
  }
  if (err.reason.code === 'threadGone') out.fixes.push('newConversation');
  if (err.kind !== 'aborted') out.fixes.push('retry');
  const retryAt = retryAtOf(err, now);
  if (retryAt !== undefined) out.retryAt = retryAt;
  return out;
}
