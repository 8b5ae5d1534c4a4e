import { describeError } from '../../api';
import { showServiceError } from './errorMessages';
import type { Log } from './log';
import type { KeyStore } from './secrets';

// What every command of both features runs inside. A failure becomes a notification that says
// what to do next, with the button that does it (errorMessages.ts), and a line in the log; both
// keys are kept out of either. A cancelled command says nothing. No command ever leaves an
// unhandled rejection in the extension host.

/** Wraps `fn`: its result, or undefined once a failure has been shown. `name` is what the log calls it. */
export type Guard = <A extends unknown[], R>(name: string, fn: (...args: A) => R | Promise<R>) => (...args: A) => Promise<R | undefined>;

export function commandGuard(services: { readonly keys: KeyStore; readonly log: Log }): Guard {
  return (name, fn) =>
    async (...args) => {
      try {
        return await fn(...args);
      } catch (e) {
        const { keys, log } = services;
        const err = describeError(e, [await keys.get('admin'), await keys.get('assistant')]);
        if (err.kind === 'aborted') return undefined;
        log.error(`${name} failed`, err);
        await showServiceError(err);
        return undefined;
      }
    };
}
