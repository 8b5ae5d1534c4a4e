import { ServiceError, type ServiceErrorReason } from '../../api';
import { Emitter, type Event } from '../../common/event';
import type { IDisposable } from '../../common/lifecycle';

// Whether the docs can be asked, and when not, what is missing: the one readiness of the
// assistant. The wiring (src/assistant/vscode) feeds it what the settings and the key store say;
// every surface reads it (the chat's setup banner, a question asked too early, #docs). What is
// missing is a typed reason, so the words for it are the one table's (src/host/core/errorWords.ts),
// the same ones the client's own checks get for the same reason.

/** What asking needs, in the order it is checked: the first one missing is the one named. */
export type SetupNeed = 'baseUrl' | 'domain' | 'assistantKey';

/** What the settings and the key store say now. */
export interface SetupFacts {
  baseUrl: string;
  domain: string;
  hasAssistantKey: boolean;
}

export type SetupStatus = { configured: true } | { configured: false; missing: SetupNeed; reason: ServiceErrorReason };

const REASONS: Record<SetupNeed, ServiceErrorReason> = {
  baseUrl: { code: 'baseUrlMissing' },
  domain: { code: 'domainMissing' },
  assistantKey: { code: 'keyMissing', keyKind: 'assistant' },
};

export function setupStatus(facts: SetupFacts): SetupStatus {
  const missing: SetupNeed | undefined = !facts.baseUrl ? 'baseUrl' : !facts.domain ? 'domain' : !facts.hasAssistantKey ? 'assistantKey' : undefined;
  return missing ? { configured: false, missing, reason: REASONS[missing] } : { configured: true };
}

/** The error a question gets while something is missing, or undefined when nothing is. */
export function notSetUpError(status: SetupStatus): ServiceError | undefined {
  return status.configured ? undefined : new ServiceError({ reason: status.reason });
}

/** Whether `err` says that something asking needs is not set (by this state, or by the client's own checks). */
export function isNotSetUp(err: ServiceError): boolean {
  return Object.values(REASONS).some((r) => r.code === err.reason.code);
}

export class SetupState implements IDisposable {
  private readonly changed = new Emitter<SetupStatus>();
  /** Fires with the new state whenever it changes. */
  readonly onDidChange: Event<SetupStatus> = this.changed.event;
  private status: SetupStatus | undefined;

  /** Undefined until the settings and the key store were first read. */
  get current(): SetupStatus | undefined {
    return this.status;
  }

  /** Takes what the settings and the key store say now; fires onDidChange when the state changed. */
  update(facts: SetupFacts): SetupStatus {
    const next = setupStatus(facts);
    const before = this.status;
    this.status = next;
    if (!before || JSON.stringify(before) !== JSON.stringify(next)) this.changed.fire(next);
    return next;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
