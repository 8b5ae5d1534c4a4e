import * as assert from 'node:assert/strict';
import { detectKeyKind, keyProblem } from '../../src/api';
import { ADMIN, ASSISTANT, WRONG_KEYS, keyMessage } from './keyMessage';

describe('keys', () => {
  it('detects the kind by prefix, assistant before admin (svc_dsc_ starts with svc_)', () => {
    assert.equal(detectKeyKind(ADMIN), 'admin');
    assert.equal(detectKeyKind(ASSISTANT), 'assistant');
    assert.equal(detectKeyKind('sk-123'), undefined);
    assert.equal(detectKeyKind(''), undefined);
  });

  it('accepts a key of the right kind, with surrounding whitespace from a paste', () => {
    assert.equal(keyMessage(ADMIN, 'admin'), undefined);
    assert.equal(keyMessage(`  ${ASSISTANT}\n`, 'assistant'), undefined);
  });

  it('refuses an assistant key where the admin key belongs, and the reverse, saying which is which', () => {
    assert.match(keyMessage(ASSISTANT, 'admin')!, /assistant key.*admin key/);
    assert.match(keyMessage(ADMIN, 'assistant')!, /admin key.*assistant key/);
  });

  it('refuses empty input, inner whitespace, a bare prefix and foreign keys', () => {
    assert.equal(keyProblem('   ', 'admin'), 'empty');
    assert.equal(keyProblem('svc_abc def', 'admin'), 'whitespace');
    assert.equal(keyProblem('svc_', 'admin'), 'prefixOnly');
    assert.equal(keyProblem('svc_dsc_', 'assistant'), 'prefixOnly');
    assert.equal(keyProblem('sk-live-123', 'admin'), 'wrongPrefix');
    assert.equal(keyProblem(ASSISTANT, 'admin'), 'assistantKeyForAdmin');
    assert.equal(keyProblem(ADMIN, 'assistant'), 'adminKeyForAssistant');
    assert.equal(keyMessage('   ', 'admin'), 'Enter a key.');
    assert.match(keyMessage('svc_abc def', 'admin')!, /no spaces/);
    assert.match(keyMessage('svc_', 'admin')!, /only the prefix/);
    assert.match(keyMessage('svc_dsc_', 'assistant')!, /only the prefix/);
    assert.match(keyMessage('sk-live-123', 'admin')!, /starts with "svc_"/);
    assert.match(keyMessage('sk-live-123', 'assistant')!, /starts with "svc_dsc_"/);
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
      const msg = keyMessage(key, kind)!;
      assert.match(msg, /letters, digits/, key);
      assert.ok(!msg.includes(key.slice(4)), `the refusal repeats the key: ${msg}`);
    }
    // RFC 6750's token characters, = only at the end.
    assert.equal(keyProblem('svc_aZ09-._~+/==', 'admin'), undefined);
    assert.equal(keyProblem('svc_dsc_aZ09-._~+/', 'assistant'), undefined);
    assert.equal(keyProblem('svc_ab=cd', 'admin'), 'badCharacters');
  });

  it('never echoes the key in its messages', () => {
    for (const [key, kind] of WRONG_KEYS) {
      const msg = keyMessage(key, kind) ?? '';
      assert.ok(!msg.includes(key.trim()) && !msg.includes('secret-value') && !msg.includes('abc def'), msg);
    }
  });
});
