import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type Mocha from 'mocha';
import { HEARTBEAT_MS, watchResults, writeResults, type IntegrationResults } from '../integration/results.mjs';
import { startHeartbeat } from '../integration/suite/heartbeat';
import { FakeClock } from './fakeClock';

// The integration runner (test/integration/run.mjs) reads results.json every 250 ms while the
// suite, in another process (the extension host), rewrites it after every test. A fresh CI
// machine once failed a run that had passed 50 of 50: a read landed mid-write, and an unreadable
// file counted as "the suite never started". Here a real second process rewrites the file as fast
// as it can while this one reads it, and a fake clock drives what the runner concludes: no total
// time, so that a slow machine never fails a suite that keeps going.

const RESULTS_MJS = pathToFileURL(join(__dirname, '..', 'integration', 'results.mjs')).href;

function resultsWith(n: number, done = false, write = 0): IntegrationResults {
  const tests = Array.from({ length: n }, (_, i) => ({
    title: `Docs Assistant integration test number ${i} with a title as long as the real ones are ${'x'.repeat(120)}`,
    state: 'passed' as const,
    durationMs: i,
  }));
  return { host: 'code-server 1.100.3 (test)', done, passed: n, failed: 0, pending: 0, durationMs: write, tests };
}

/**
 * Starts a process that rewrites `file` `rounds` times (a growing list of 50 tests, again and
 * again, each write different), then writes it once more with done: true. `inPlace` is the suite's old way
 * (writeFileSync: truncate, then write); otherwise the suite's writer, writeResults.
 */
function startWriter(file: string, rounds: number, inPlace: boolean): ChildProcess {
  const script = `
    import { writeFileSync } from 'node:fs';
    import { writeResults } from ${JSON.stringify(RESULTS_MJS)};
    const [file, rounds, inPlace] = [process.argv[1], Number(process.argv[2]), process.argv[3] === 'in-place'];
    const make = ${resultsWith.toString()};
    const write = (r) => (inPlace ? writeFileSync(file, JSON.stringify(r, null, 2)) : writeResults(file, r));
    for (let i = 0; i < rounds; i++) write(make(i % 50, false, i));
    write(make(50, true, rounds));
  `;
  return spawn(process.execPath, ['--input-type=module', '-e', script, file, String(rounds), inPlace ? 'in-place' : 'atomic'], { stdio: 'inherit' });
}

/** Reads the file as the runner does until it says done; counts the reads that failed. */
function readWhileWritten(file: string): { reads: number; misreads: number; versions: number } {
  let reads = 0;
  let misreads = 0;
  const seen = new Set<string>();
  const deadline = Date.now() + 60_000; // a writer that died must not hang the test
  while (Date.now() < deadline) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      misreads++; // gone in the middle of a rewrite
      continue;
    }
    reads++;
    let parsed: IntegrationResults;
    try {
      parsed = JSON.parse(text) as IntegrationResults;
    } catch {
      misreads++;
      continue;
    }
    seen.add(text);
    if (parsed.done) break;
  }
  return { reads, misreads, versions: seen.size };
}

describe('integration results.json, read while the suite rewrites it', function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'integration-results-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function race(inPlace: boolean, rounds: number) {
    const file = join(dir, 'results.json');
    writeFileSync(file, JSON.stringify(resultsWith(0))); // the suite has started: every read from here on must succeed
    const writer = startWriter(file, rounds, inPlace);
    const exited = new Promise<number | null>((r) => writer.once('exit', (code) => r(code)));
    const seen = readWhileWritten(file);
    assert.equal(await exited, 0, 'the writer process finished');
    return seen;
  }

  it('control: a file rewritten in place (truncate, then write) is misread by a reader in another process', async () => {
    const seen = await race(true, 500);
    assert.ok(seen.misreads > 0, `a read landed mid-write (${seen.misreads} of ${seen.reads}, ${seen.versions} versions seen)`);
  });

  it('the suite’s writer: a reader in another process never sees a partial file', async () => {
    const seen = await race(false, 500);
    assert.ok(seen.versions >= 10, `the reads interleaved with the writes (${seen.versions} versions seen in ${seen.reads} reads)`);
    assert.equal(seen.misreads, 0, `reads that landed mid-write: ${seen.misreads} of ${seen.reads}`);
  });
});

describe('what the integration runner concludes while it waits', () => {
  let dir: string;
  let file: string;
  let t: number;
  const now = () => t;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'integration-watch-'));
    file = join(dir, 'results.json');
    t = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a suite whose file never became readable never started: 90 s, and it says so', () => {
    const watch = watchResults(file, { now });
    t = 89_000;
    assert.equal(watch.poll(), undefined);
    assert.equal(watch.failure(), undefined, 'still within the 90 s a start may take');
    writeFileSync(file, '{"host": "half of a fi'); // unreadable all along: still never started
    t = 90_001;
    watch.poll();
    assert.match(watch.failure() ?? '', /never started the suite within 90 s/);
  });

  it('once a read succeeded the suite has started, for good: a later unreadable read keeps the last results', () => {
    const watch = watchResults(file, { now });
    writeResults(file, resultsWith(3));
    t = 1000;
    assert.equal(watch.poll()?.passed, 3);
    writeFileSync(file, JSON.stringify(resultsWith(4)).slice(0, 50)); // what a read mid-rewrite saw
    t = 91_000;
    assert.equal(watch.poll()?.passed, 3, 'the last results read stay');
    assert.equal(watch.results?.passed, 3);
    assert.equal(watch.started, true);
    assert.doesNotMatch(watch.failure() ?? '', /never started|did not start/);
  });

  it('a suite that started and whose file then stayed unreadable says that, not "never started"', () => {
    const watch = watchResults(file, { now });
    writeResults(file, resultsWith(3));
    t = 1000;
    watch.poll();
    writeFileSync(file, '{"host": "half');
    for (t = 2000; t <= 200_000; t += 250) {
      watch.poll();
      if (watch.failure()) break;
    }
    assert.match(watch.failure() ?? '', /started, then results\.json became unreadable: nothing new and readable for 60 s/);
    assert.doesNotMatch(watch.failure() ?? '', /never started/);
  });

  it('a suite that started and then wrote nothing new for 60 s has stopped, and the message names where', () => {
    const watch = watchResults(file, { now });
    writeResults(file, { ...resultsWith(3), current: { title: 'the jobs tree lists a job', elapsedMs: 2000, timeoutMs: 30_000 } });
    t = 1000;
    watch.poll();
    t = 60_999;
    watch.poll();
    assert.equal(watch.failure(), undefined);
    t = 61_001;
    watch.poll();
    assert.match(
      watch.failure() ?? '',
      /started, then the extension host wrote nothing new for 60 s, though it writes every 1 s \(last in "the jobs tree lists a job"\)/,
    );
  });

  it('a test or hook that ran past twice its own timeout is reported, though the host still beats', () => {
    const watch = watchResults(file, { now });
    writeResults(file, { ...resultsWith(3), heartbeats: 61, current: { title: '"before all" hook in jobs', elapsedMs: 60_000, timeoutMs: 30_000 } });
    watch.poll();
    assert.equal(watch.failure(), undefined, 'twice its timeout is still allowed');
    writeResults(file, { ...resultsWith(3), heartbeats: 62, current: { title: '"before all" hook in jobs', elapsedMs: 61_000, timeoutMs: 30_000 } });
    watch.poll();
    assert.match(watch.failure() ?? '', /"before all" hook in jobs" has run 61 s, twice its own timeout of 30 s/);
  });
});

/** A stand-in for a mocha test or hook: a title and a timeout the body may raise. */
function runnable(title: string, timeoutMs = 30_000) {
  let timeout = timeoutMs;
  return {
    fullTitle: () => title,
    timeout: (ms?: number) => (ms === undefined ? timeout : (timeout = ms)),
  } as unknown as Mocha.Test & { timeout(ms?: number): number };
}

describe('the suite’s heartbeat, read by the runner', () => {
  let dir: string;
  let file: string;
  let clock: FakeClock;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'integration-heartbeat-'));
    file = join(dir, 'results.json');
    clock = new FakeClock();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function startSuite() {
    const results = resultsWith(0);
    writeResults(file, results);
    const runner = new EventEmitter();
    const heartbeat = startHeartbeat(results, () => writeResults(file, results), clock);
    heartbeat.follow(runner as unknown as Mocha.Runner);
    return { results, runner, heartbeat };
  }

  it('names the runnable in progress, its live timeout, and how long it has run since its own start', async () => {
    const { runner, heartbeat } = startSuite();
    const test = runnable('chat view resolves');
    const hook = runnable('"before each" hook for "chat view resolves"');
    runner.emit('test', test);
    runner.emit('hook', hook);
    await clock.advance(20_000);
    const read = () => JSON.parse(readFileSync(file, 'utf8')) as IntegrationResults;
    assert.deepEqual(read().current, { title: '"before each" hook for "chat view resolves"', elapsedMs: 20_000, timeoutMs: 30_000 });
    runner.emit('hook end', hook);
    test.timeout(60_000); // this.timeout() inside the body
    await clock.advance(5000);
    assert.deepEqual(read().current, { title: 'chat view resolves', elapsedMs: 5000, timeoutMs: 60_000 });
    assert.equal(read().heartbeats, 25_000 / HEARTBEAT_MS);
    heartbeat.stop();
    const last = readFileSync(file, 'utf8');
    await clock.advance(10_000);
    assert.equal(readFileSync(file, 'utf8'), last, 'nothing is written after stop()');
    assert.equal(clock.pending, 0);
  });

  it('a slow machine: 30 tests of 25 s after a 20 s hook each (over 22 minutes) never fail a suite that keeps going', async () => {
    const { results, runner, heartbeat } = startSuite();
    const watch = watchResults(file, { now: () => clock.now() });
    const step = async (ms: number) => {
      for (let waited = 0; waited < ms; waited += 250) {
        await clock.advance(250);
        watch.poll();
        assert.equal(watch.failure(), undefined, `at ${clock.now() / 1000} s`);
      }
    };
    for (let i = 0; i < 30; i++) {
      const test = runnable(`test ${i}`);
      const hook = runnable(`"before each" hook for "test ${i}"`);
      runner.emit('test', test);
      runner.emit('hook', hook);
      await step(20_000);
      runner.emit('hook end', hook);
      await step(25_000);
      results.passed++;
      writeResults(file, results);
      runner.emit('test end', test);
    }
    heartbeat.stop();
    assert.equal(watch.poll()?.passed, 30);
    assert.ok(clock.now() > 22 * 60_000);
  });
});
