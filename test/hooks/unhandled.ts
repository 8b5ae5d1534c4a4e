// A root hook plugin (loaded through .mocharc.json "require") that fails the run on any
// unhandled promise rejection or uncaught exception.
//
// Why it is needed: Mocha traps `unhandledRejection` and re-emits it on `process`; with no other
// listener the re-emitted event goes nowhere, so a test that leaks a rejected promise passes.
// In the extension host such a rejection is an error in the log at best. Here it is a failure,
// reported against the test that was running when it surfaced.

interface Leak {
  kind: 'unhandledRejection' | 'uncaughtException';
  during: string;
  error: string;
}

const leaks: Leak[] = [];
let current = '(between tests)';

function describeLeak(reason: unknown): string {
  if (reason instanceof Error) return `${reason.name}: ${reason.message}${reason.stack ? `\n${reason.stack.split('\n').slice(1, 6).join('\n')}` : ''}`;
  try {
    return `non-Error value: ${JSON.stringify(reason)}`;
  } catch {
    return `non-Error value: ${String(reason)}`;
  }
}

function record(kind: Leak['kind'], reason: unknown): void {
  leaks.push({ kind, during: current, error: describeLeak(reason) });
}

// Mocha's re-emit calls this listener a second time with the same promise; count it once.
const seenPromises = new WeakSet<Promise<unknown>>();
process.on('unhandledRejection', (reason, promise) => {
  if (seenPromises.has(promise)) return;
  seenPromises.add(promise);
  record('unhandledRejection', reason);
});
// Mocha fails the running test on an uncaught exception itself; recording it too keeps the one
// that happens outside any test (where Mocha no longer listens) from passing silently.
process.on('uncaughtException', (error) => record('uncaughtException', error));

function takeLeaks(): Error | undefined {
  if (leaks.length === 0) return undefined;
  const list = leaks.splice(0, leaks.length);
  const error = new Error(`${list.length} unhandled error(s):\n${list.map((l) => `- ${l.kind} during "${l.during}": ${l.error}`).join('\n')}`);
  // The stacks that matter are the leaks' own, already in the message.
  error.stack = `Error: ${error.message}`;
  return error;
}

// One that surfaces after the last hook still fails the run. Mocha sets the exit code in its own
// 'exit' listener, registered later than this one, so only exiting here makes it stick.
process.on('exit', () => {
  const late = takeLeaks();
  if (late) {
    console.error(`After the last test: ${late.message}`);
    process.exit(1);
  }
});

export const mochaHooks = {
  beforeEach(this: Mocha.Context): void {
    current = this.currentTest?.fullTitle() ?? '(unknown test)';
  },
  async afterEach(this: Mocha.Context): Promise<void> {
    // Rejections are reported a tick after they happen; give them that tick before judging.
    await new Promise((resolve) => setImmediate(resolve));
    const leak = takeLeaks();
    current = '(between tests)';
    if (leak) throw leak;
  },
  async afterAll(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    const leak = takeLeaks();
    if (leak) throw leak;
  },
};
