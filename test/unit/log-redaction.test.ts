import * as assert from 'node:assert/strict';
import { setErrorSink } from '../../src/common/errorSink';
import { Emitter } from '../../src/common/event';
import { DisposableStore, toDisposable } from '../../src/common/lifecycle';
import { KnownSecrets, logErrors, RedactingLog } from '../../src/host/core/redactingLog';

// Issue 27: nothing secret in the log. Every line goes through RedactingLog (src/host/vscode/log.ts is
// its VS Code output channel): key shapes and bearer tokens by pattern, the user info of every
// URL, and the keys by their stored value, read from the key store at each line, so a key whose
// shape the pattern does not know (one stored before the key check refused it, or mistyped) is
// hidden whole from the moment the extension has read it.

function rig() {
  const lines: string[] = [];
  const sink = {
    info: (l: string) => lines.push(`info ${l}`),
    warn: (l: string) => lines.push(`warn ${l}`),
    error: (l: string) => lines.push(`error ${l}`),
  };
  const known = new KnownSecrets();
  return { lines, known, log: new RedactingLog(sink, known) };
}

describe('the log: nothing secret in a line', () => {
  it('hides a stored key whole, whatever its shape, in every kind of line and in an error’s message', () => {
    const { lines, known, log } = rig();
    const legacy = 'svc_dsc_ab!cd:ef%zz';
    const odd = 'Legacy-Key!12345';
    known.remember(legacy);
    known.remember(odd);
    log.info(`sent ${legacy}`);
    log.warn(`kept ${odd} in memory`);
    log.error('request failed', new Error(`refused ${legacy} and ${encodeURIComponent(odd)}`));
    assert.deepEqual(lines, ['info sent [redacted]', 'warn kept [redacted] in memory', 'error request failed (Error: refused [redacted] and [redacted])']);
  });

  it('reads the keys at each line: a key read after the log was made is hidden from the next line on', () => {
    const { lines, known, log } = rig();
    const key = 'svc_ab!cd';
    log.info(`before ${key}`);
    known.remember(key);
    log.info(`after ${key}`);
    assert.equal(lines[1], 'info after [redacted]');
  });

  it('keeps a key it was told about after the key changes or is cleared, and forgets only the oldest of many', () => {
    const { lines, known, log } = rig();
    known.remember('first-key-0001');
    for (let i = 0; i < 40; i++) known.remember(`other-key-${String(i).padStart(4, '0')}`);
    log.info('other-key-0039 other-key-0030');
    assert.equal(lines[0], 'info [redacted] [redacted]');
    assert.ok([...known.knownSecrets()].length <= 32, 'bounded');
  });

  it('hides the user info of a URL in a line (a setting’s value, an error)', () => {
    const { lines, log } = rig();
    log.warn('docsAssistant.mcpServerUrl: https://alice:hunter2@docs.example.com/mcp');
    log.error('failed', new Error('GET https://tok3n@api.example.com/v2 refused'));
    for (const l of lines) assert.ok(!/alice|hunter2|tok3n/.test(l), l);
    assert.equal(lines[0], 'warn docsAssistant.mcpServerUrl: https://[redacted]@docs.example.com/mcp');
  });
});

describe('the log: what a listener or a dispose throws (issue 28)', () => {
  let previous: ReturnType<typeof setErrorSink> | undefined;
  afterEach(() => previous && setErrorSink(previous));

  it('is a line in the redacting log, with the key hidden, and the other listeners and disposables still run', () => {
    const { lines, known, log } = rig();
    const key = 'svc_legacy!key';
    known.remember(key);
    previous = setErrorSink(logErrors(log));
    const emitter = new Emitter<void>();
    let heard = 0;
    emitter.event(() => {
      throw new Error(`refused ${key}`);
    });
    emitter.event(() => heard++);
    emitter.fire();
    const store = new DisposableStore();
    let disposed = 0;
    store.add(toDisposable(() => disposed++));
    store.add(
      toDisposable(() => {
        throw new TypeError(`could not close ${key}`);
      }),
    );
    store.dispose();
    assert.equal(heard, 1);
    assert.equal(disposed, 1);
    assert.deepEqual(lines, ['error An event listener failed (Error: refused [redacted])', 'error A dispose failed (TypeError: could not close [redacted])']);
  });
});
