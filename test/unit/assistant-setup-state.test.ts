import * as assert from 'node:assert/strict';
import { isNotSetUp, notSetUpError, SetupState, type SetupStatus } from '../../src/assistant/core/setupState';
import { ServiceError } from '../../src/api/errors';
import { english } from '../../src/common/l10n';
import { describeForUser } from '../../src/host/core/errorWords';

// The assistant's one readiness (src/assistant/core/setupState.ts): it names what is missing, as
// a reason the one table words (src/host/core/errorWords.ts), and tells its listeners when that
// changes, and only then.

const READY = { baseUrl: 'https://api.example.com', domain: 'acme', hasAssistantKey: true };

describe('SetupState: whether the docs can be asked, and what is missing', () => {
  it('fires on change, with what is missing first: the address, the domain, the assistant key', () => {
    const state = new SetupState();
    const seen: SetupStatus[] = [];
    state.onDidChange((s) => seen.push(s));
    assert.equal(state.current, undefined, 'not known before the settings and the keys were read');
    state.update({ baseUrl: '', domain: '', hasAssistantKey: false });
    state.update({ ...READY, domain: '', hasAssistantKey: false });
    state.update({ ...READY, hasAssistantKey: false });
    state.update({ ...READY, hasAssistantKey: false });
    state.update(READY);
    assert.deepEqual(
      seen.map((s) => (s.configured ? 'configured' : s.missing)),
      ['baseUrl', 'domain', 'assistantKey', 'configured'],
      'once per change, not for the same state again',
    );
    assert.deepEqual(state.current, { configured: true });
    state.dispose();
  });

  it('names the missing key in the one wording: the words of errorWords.ts, with the fix that sets it', () => {
    const state = new SetupState();
    const status = state.update({ ...READY, hasAssistantKey: false });
    assert.deepEqual(status, { configured: false, missing: 'assistantKey', reason: { code: 'keyMissing', keyKind: 'assistant' } });
    const err = notSetUpError(status)!;
    const words = describeForUser(err, english);
    assert.equal(words.message, 'The assistant API key is not set. Set it with "Docs Assistant: Set Assistant API Key…" (it starts with "svc_dsc_").');
    assert.deepEqual([words.fixes, words.keyKind, err.kind], [['setKey', 'retry'], 'assistant', 'invalidInput']);
    assert.equal(
      describeForUser(notSetUpError(state.update({ ...READY, baseUrl: '' }))!, english).message,
      describeForUser(new ServiceError({ reason: { code: 'baseUrlMissing' } }), english).message,
    );
    assert.equal(notSetUpError(state.update(READY)), undefined);
  });

  it('knows the client’s own checks for the same things as “not set up”, and nothing else', () => {
    for (const code of ['baseUrlMissing', 'domainMissing'] as const) assert.ok(isNotSetUp(new ServiceError({ reason: { code } })), code);
    assert.ok(isNotSetUp(new ServiceError({ reason: { code: 'keyMissing', keyKind: 'assistant' } })));
    assert.ok(!isNotSetUp(new ServiceError({ reason: { code: 'keyRefused', service: 'assistant' } })));
    assert.ok(!isNotSetUp(new ServiceError({ reason: { code: 'serverError' } })));
  });
});
