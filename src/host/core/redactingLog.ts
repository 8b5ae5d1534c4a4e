import { redact } from '../../api';
import type { ErrorSink } from '../../common/errorSink';

// What every log line goes through before it is written (log.ts is VS Code's output channel
// around it): key shapes and bearer tokens by pattern, the user info of any URL, and the keys by
// their stored value. The values come from the key store (secrets.ts), which remembers each key it
// reads or stores before handing it out, and are read at each line: no event has to arrive first,
// and a key whose shape the pattern does not know (stored before the key check refused it, say)
// is hidden whole. Free of vscode, so it is tested in Node.

/** Where lines go: VS Code's LogOutputChannel, or an array in a test. */
export interface LogSink {
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
}

/** The secrets' values, as they are now. */
export interface SecretSource {
  knownSecrets(): Iterable<string>;
}

/** Keys the extension has held this session. A cleared or replaced key stays: old lines may still carry it. */
export class KnownSecrets implements SecretSource {
  private static readonly MAX = 32;
  private readonly values = new Set<string>();

  remember(value: string | undefined): void {
    if (!value) return;
    this.values.delete(value);
    this.values.add(value);
    if (this.values.size > KnownSecrets.MAX) this.values.delete(this.values.values().next().value!);
  }

  knownSecrets(): Iterable<string> {
    return this.values;
  }
}

export class RedactingLog {
  constructor(
    private readonly sink: LogSink,
    private readonly secrets: SecretSource,
  ) {}

  private clean(message: string): string {
    return redact(message, [...this.secrets.knownSecrets()]);
  }

  info(message: string): void {
    this.sink.info(this.clean(message));
  }

  warn(message: string): void {
    this.sink.warn(this.clean(message));
  }

  error(message: string, err?: unknown): void {
    const detail = err instanceof Error ? `${err.name}: ${err.message}` : err === undefined ? '' : String(err);
    this.sink.error(this.clean(detail ? `${message} (${detail})` : message));
  }
}

/**
 * Where activation points the event and disposable kit's errors (src/common/errorSink.ts): a line
 * in this log, cleaned like every other, never the console.
 */
export function logErrors(log: Pick<RedactingLog, 'error'>): ErrorSink {
  return (error, origin) => log.error(origin === 'listener' ? 'An event listener failed' : 'A dispose failed', error);
}
