import type Mocha from 'mocha';
import { realClock, type PollClock } from '../../../src/agent/core/poller';
import { HEARTBEAT_MS, type IntegrationResults } from '../results.mjs';

// Keeps results.json changing while the suite runs, so that the runner (run.mjs) can tell a slow
// suite from a stopped one without guessing how fast the machine is. Every HEARTBEAT_MS the suite
// rewrites the file with a new count and the runnable (test or hook) in progress: its title, how
// long it has run and its own timeout, read live (a hook may raise it with this.timeout()).
// Mocha ends every runnable at its timeout, so a suite whose heartbeat goes on always finishes.

export interface Heartbeat {
  /** Follows mocha's runner: which test or hook is running, since when. */
  follow(runner: Mocha.Runner): void;
  stop(): void;
}

export function startHeartbeat(results: IntegrationResults, write: () => void, clock: PollClock = realClock): Heartbeat {
  let test: Mocha.Runnable | undefined;
  let hook: Mocha.Runnable | undefined;
  // When the current runnable began: a test's body starts when its last beforeEach hook ends.
  let since = clock.now();
  const beat = () => {
    const current = hook ?? test;
    results.heartbeats = (results.heartbeats ?? 0) + 1;
    results.current = current ? { title: current.fullTitle(), elapsedMs: clock.now() - since, timeoutMs: current.timeout() } : undefined;
    write();
    timer = clock.setTimeout(beat, HEARTBEAT_MS);
  };
  let timer = clock.setTimeout(beat, HEARTBEAT_MS);
  return {
    follow(runner) {
      runner.on('test', (t: Mocha.Test) => {
        test = t;
        since = clock.now();
      });
      runner.on('hook', (h: Mocha.Hook) => {
        hook = h;
        since = clock.now();
      });
      runner.on('hook end', () => {
        hook = undefined;
        since = clock.now();
      });
      runner.on('test end', () => {
        test = undefined;
        since = clock.now();
      });
    },
    stop() {
      clock.clearTimeout(timer);
      results.current = undefined;
    },
  };
}
