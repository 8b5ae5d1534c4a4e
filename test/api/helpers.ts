import * as assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { ServiceError } from '../../src/api/errors';
import { english } from '../../src/common/l10n';
import { describeForUser } from '../../src/host/core/errorWords';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../emulator';

// Stand-ins the host-side tests share: VS Code's Memento and a port nothing listens on.

/** workspaceState / globalState: values round-trip through JSON, as in VS Code, so only plain data survives. */
export class MemoryMemento {
  readonly data = new Map<string, string>();
  get<T>(key: string): T | undefined {
    const raw = this.data.get(key);
    return raw === undefined ? undefined : (JSON.parse(raw) as T);
  }
  update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.data.delete(key);
    else this.data.set(key, JSON.stringify(value));
    return Promise.resolve();
  }
  /** What a new window would find. */
  copy(): MemoryMemento {
    const m = new MemoryMemento();
    for (const [k, v] of this.data) m.data.set(k, v);
    return m;
  }
}

/** A port that was free a moment ago: connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * What the user reads for `err` (src/host/core/errorWords.ts, in English): the client only types what
 * happened (`reason`), and its `message` is a terse line for the log.
 */
export function words(err: ServiceError, now?: number): string {
  return describeForUser(err, english, now).message;
}

/** An agent job as the service sends it (service-interface.md), for scripted fetches. */
export const SAMPLE_JOB = {
  id: 'job_1',
  status: 'active',
  source: { repository: 'https://github.com/acme/docs', ref: 'main' },
  model: 'agent-1',
  prLink: null,
  createdAt: '2024-11-23T10:00:00Z',
  archivedAt: null,
};

/** The ServiceError `p` rejects with; none of `keys` in its message, words or detail. */
export async function rejection(p: Promise<unknown>, ...keys: string[]): Promise<ServiceError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ServiceError, `not a ServiceError: ${String(e)}`);
    for (const k of keys) {
      assert.ok(!e.message.includes(k), `key in message: ${e.message}`);
      assert.ok(!words(e).includes(k), `key in what the user reads: ${words(e)}`);
      assert.ok(!(e.detail ?? '').includes(k), `key in detail: ${e.detail}`);
    }
    return e;
  }
  assert.fail('expected a rejection');
}

/** A fetch that adds `x-emulator-fault: <mode>` (the only way to fault a poll, which has no prompt). */
export function faultFetch(mode: string): typeof fetch {
  return (input, init = {}) => fetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), 'x-emulator-fault': mode } });
}

/**
 * One emulator for the calling suite (a free port), reset before each test and closed after the
 * suite: call it in a describe, and the returned function gives the running emulator in a test.
 */
export function emulatorPerSuite(options: EmulatorOptions = {}): () => RunningEmulator {
  let emu: RunningEmulator | undefined;
  before(async () => {
    emu = await startEmulator({ port: 0, ...options });
  });
  after(async () => {
    await emu?.close();
  });
  beforeEach(() => emu!.reset());
  return () => emu!;
}
