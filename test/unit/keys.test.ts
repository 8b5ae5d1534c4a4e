import * as assert from 'node:assert/strict';
import { detectKeyKind, keyProblem, type KeyKind } from '../../src/api';
import { english } from '../../src/common/l10n';
import { keyProblemWords } from '../../src/host/core/keyWords';

const ADMIN = 'svc_7fK2pQ9xLm3Zt8Rw';
const ASSISTANT = 'svc_dsc_Hq4nV8yTb2Kp6Lm1';

/** What the user reads about `key` (the input box, an error), or undefined when it is a good key. */
function validateKey(key: string, kind: KeyKind): string | undefined {
  const problem = keyProblem(key, kind);
  return problem === undefined ? undefined : keyProblemWords(problem, kind, english);
}

describe('keys', () => {
  it('detects the kind by prefix, assistant before admin (svc_dsc_ starts with svc_)', () => {
    assert.equal(detectKeyKind(ADMIN), 'admin');
    assert.equal(detectKeyKind(ASSISTANT), 'assistant');
    assert.equal(detectKeyKind('sk-123'), undefined);
    assert.equal(detectKeyKind(''), undefined);
  });

  it('accepts a key of the right kind, with surrounding whitespace from a paste', () => {
    assert.equal(validateKey(ADMIN, 'admin'), undefined);
    assert.equal(validateKey(`  ${ASSISTANT}\n`, 'assistant'), undefined);
  });

  it('refuses an assistant key where the admin key belongs, and the reverse, saying which is which', () => {
    assert.match(validateKey(ASSISTANT, 'admin')!, /assistant key.*admin key/);
    assert.match(validateKey(ADMIN, 'assistant')!, /admin key.*assistant key/);
  });

  it('refuses empty input, inner whitespace, a bare prefix and foreign keys', () => {
    assert.equal(keyProblem('   ', 'admin'), 'empty');
    assert.equal(keyProblem('svc_abc def', 'admin'), 'whitespace');
    assert.equal(keyProblem('svc_', 'admin'), 'prefixOnly');
    assert.equal(keyProblem('svc_dsc_', 'assistant'), 'prefixOnly');
    assert.equal(keyProblem('sk-live-123', 'admin'), 'wrongPrefix');
    assert.equal(keyProblem(ASSISTANT, 'admin'), 'assistantKeyForAdmin');
    assert.equal(keyProblem(ADMIN, 'assistant'), 'adminKeyForAssistant');
    assert.equal(validateKey('   ', 'admin'), 'Enter a key.');
    assert.match(validateKey('svc_abc def', 'admin')!, /no spaces/);
    assert.match(validateKey('svc_', 'admin')!, /only the prefix/);
    assert.match(validateKey('svc_dsc_', 'assistant')!, /only the prefix/);
    assert.match(validateKey('sk-live-123', 'admin')!, /starts with "svc_"/);
    assert.match(validateKey('sk-live-123', 'assistant')!, /starts with "svc_dsc_"/);
  });

  it('refuses characters a bearer token cannot hold (`!`, `%`, `:`…), naming the ones a key has, without repeating it', () => {
    for (const [key, kind] of [
      ['svc_ab!cdEF12', 'admin'],
      ['svc_ab%2Fcd34', 'admin'],
      ['svc_ab:cdGH56', 'admin'],
      ['svc_dsc_ab!cd', 'assistant'],
      ['svc_dsc_ab"cd', 'assistant'],
      ['svc_dsc_ab,cd', 'assistant'],
      ['svc_dsc_abé', 'assistant'],
    ] as const) {
      assert.equal(keyProblem(key, kind), 'badCharacters', key);
      const msg = validateKey(key, kind)!;
      assert.match(msg, /letters, digits/, key);
      assert.ok(!msg.includes(key.slice(4)), `the refusal repeats the key: ${msg}`);
    }
    // RFC 6750's token characters, = only at the end.
    assert.equal(keyProblem('svc_aZ09-._~+/==', 'admin'), undefined);
    assert.equal(keyProblem('svc_dsc_aZ09-._~+/', 'assistant'), undefined);
    assert.equal(keyProblem('svc_ab=cd', 'admin'), 'badCharacters');
  });

  it('never echoes the key in its messages', () => {
    for (const [key, kind] of [
      [ASSISTANT, 'admin'],
      [ADMIN, 'assistant'],
      ['svc_abc def', 'admin'],
      ['sk-secret-value', 'assistant'],
    ] as const) {
      const msg = validateKey(key, kind) ?? '';
      assert.ok(!msg.includes(key.trim()) && !msg.includes('secret-value') && !msg.includes('abc def'), msg);
    }
  });
});
