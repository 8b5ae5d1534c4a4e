import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { keyProblem, redact } from '../../src/api';

const ADMIN = 'svc_7fK2pQ9xLm3Zt8Rw';
const ASSISTANT = 'svc_dsc_Hq4nV8yTb2Kp6Lm1';

describe('redact', () => {
  it('hides admin and assistant keys anywhere in a text, keeping the prefix for the reader', () => {
    assert.equal(redact(`key=${ADMIN}`), 'key=svc_[redacted]');
    assert.equal(redact(`{"key":"${ASSISTANT}"}`), '{"key":"svc_dsc_[redacted]"}');
    assert.equal(redact(`a ${ADMIN} b ${ASSISTANT} c`), 'a svc_[redacted] b svc_dsc_[redacted] c');
  });

  it('hides bearer tokens whatever they look like', () => {
    assert.equal(redact('Authorization: Bearer abc.def-ghi'), 'Authorization: Bearer [redacted]');
    assert.equal(redact('authorization: bearer XYZ, next'), 'authorization: bearer [redacted], next');
    assert.equal(redact(`"Bearer ${ADMIN}"`), '"Bearer [redacted]"');
  });

  it('hides known secrets that do not look like keys (e.g. a thread key)', () => {
    assert.equal(redact('thread key is tk-123456 ok', ['tk-123456']), 'thread key is [redacted] ok');
    assert.equal(redact('a tk1 b', ['tk1']), 'a tk1 b', 'under 4 characters is too short to redact safely');
    assert.equal(redact('nothing', [undefined, '']), 'nothing');
  });

  it('hides the user info of every URL, and only that', () => {
    assert.equal(redact('offered https://alice:hunter2@docs.example.com/mcp to agent mode'), 'offered https://[redacted]@docs.example.com/mcp to agent mode');
    assert.equal(redact('"http://tok@127.0.0.1:8080/x"'), '"http://[redacted]@127.0.0.1:8080/x"');
    // The parser reads up to the last @ before the path as user info: all of it is hidden.
    assert.equal(redact('https://a@b:c@host.example/p?q=d@e'), 'https://[redacted]@host.example/p?q=d@e');
    assert.equal(redact('x HTTPS://U:P@H.example y ftp://me@files.example'), 'x HTTPS://[redacted]@H.example y ftp://[redacted]@files.example');
    for (const text of ['https://docs.example.com/a@b', 'write to help@example.com', 'https://docs.example.com/?to=a@b', 'https://[::1]:8080/']) {
      assert.equal(redact(text), text);
    }
  });

  it('hides a known secret also as it looks percent-encoded or inside a JSON string', () => {
    const legacy = 'svc_dsc_ab+c/d"e';
    const out = redact(`url ?k=${encodeURIComponent(legacy)} json ${JSON.stringify({ k: legacy })} raw ${legacy}`, [legacy]);
    assert.equal(out, 'url ?k=[redacted] json {"k":"[redacted]"} raw [redacted]');
  });

  it('leaves ordinary text alone', () => {
    const text = 'The service had a problem (HTTP 503). See https://docs.example.com/svc-status.';
    assert.equal(redact(text), text);
  });

  it('redacts whole, by its shape alone, every key the key check accepts (the two agree on the characters)', () => {
    // Before issue 27, `svc_ab!cd` passed the check and came out as `svc_[redacted]!cd`.
    const bodyArb = fc.string({ unit: fc.constantFrom(...'aZ09-._~+/=!%:@#$^&*()[]{}|\\;?<>é'.split('')), minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(fc.constantFrom('svc_', 'svc_dsc_'), bodyArb, (prefix, body) => {
        const key = prefix + body;
        if (keyProblem(key, prefix === 'svc_' ? 'admin' : 'assistant') !== undefined) return;
        assert.equal(redact(`sent ${key} to`), `sent ${prefix}[redacted] to`, key);
      }),
      { numRuns: 2000 },
    );
    for (const key of ['svc_ab!cd', 'svc_ab%2Fcd', 'svc_ab:cd', 'svc_dsc_ab!cd'])
      assert.ok(keyProblem(key, key.startsWith('svc_dsc_') ? 'assistant' : 'admin') !== undefined || !redact(key).includes('cd'), key);
  });

  it('never lets a generated key through, wherever it is embedded', () => {
    const keyArb = fc.tuple(fc.constantFrom('svc_', 'svc_dsc_'), fc.stringMatching(/^[A-Za-z0-9_\-.~+/=]{8,40}$/)).map(([p, rest]) => p + rest);
    fc.assert(
      fc.property(fc.string(), keyArb, fc.string(), (before, key, after) => {
        const out = redact(`${before}${key}${after}`, [key]);
        assert.ok(!out.includes(key), out);
      }),
      { numRuns: 500 },
    );
  });
});
