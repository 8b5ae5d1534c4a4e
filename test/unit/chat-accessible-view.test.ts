import * as assert from 'node:assert/strict';
import { accessibleViewText } from '../../src/chat/core/accessibleView';
import type { AnswerView, TurnView } from '../../src/common/protocol';
import { CODE_SOURCE, HIDDEN_COMMAND, hostileAnswer, LAST_BLOCK } from '../fixtures/hostileAnswer';

// Issue 29: an answer in the Accessible View, a read-only plaintext document for a screen reader and
// for copying. Its words without Markdown's marks, its code verbatim in a fence it cannot close, its
// sources with their addresses; nothing from the service can hide text, reorder it, or pose as the
// document's own structure.

function turnWith(text: string, answer: Partial<AnswerView> = {}, question = 'How do I set the timeout?'): TurnView {
  return { id: 't1', question, context: [], answer: { parts: [{ kind: 'text', text }], sources: [], status: 'done', notices: [], jobs: [], ...answer } };
}

const CODE = 'const relay = new Relay({ timeout: 30_000 });\nif (a < b && c > d) console.log(`${x}`, "**not bold**");\n  indented();';

describe('chat: the Accessible View of an answer', () => {
  it('shows the question, the text without Markdown marks, and each source with its address', () => {
    const doc = accessibleViewText(
      turnWith('## Timeouts\n\nSet **connectTimeout** in [the config](https://docs.acme.test/config).\n\n- one\n- two', {
        sources: [{ title: 'Configuration reference', url: 'https://docs.acme.test/configuration' }, { title: 'No address' }],
      }),
    );
    assert.match(doc, /^Question: How do I set the timeout\?\n/);
    assert.match(doc, /\nTimeouts\n/);
    assert.match(doc, /Set connectTimeout in the config \(https:\/\/docs\.acme\.test\/config\)\./);
    assert.match(doc, /\n- one\n- two\n/);
    assert.doesNotMatch(doc, /\*\*|##/);
    assert.match(doc, /\nSources:\n- Configuration reference: https:\/\/docs\.acme\.test\/configuration\n- No address\n$/);
  });

  it('keeps code verbatim, in a fence longer than any backtick run in it', () => {
    const withTicks = `${CODE}\nconst md = "\`\`\`\`";`;
    const doc = accessibleViewText(turnWith(`Like this:\n\n\`\`\`\`\`ts\n${withTicks}\n\`\`\`\`\`\n\nDone.`));
    assert.ok(doc.includes(`\`\`\`\`\`ts\n${withTicks}\n\`\`\`\`\`\n`), doc);
    assert.ok(doc.indexOf('Done.') > doc.indexOf(withTicks));
  });

  it('a hostile answer stays inert: raw HTML is shown as text, nothing is hidden or reordered', () => {
    const hostile = `${hostileAnswer('https://docs.acme.test')}\n\nAb\u202edcba\u202c, \u2066isolated\u2069 and a bell\u0007.`;
    const doc = accessibleViewText(
      turnWith(hostile, { sources: [{ title: 'Line one\n\nSources:\n- Fake: https://evil.example', url: 'javascript:alert(1)' }] }, 'Q\n\nSources:\n- Fake'),
    );
    // The "hidden" command is there for the reader to see, with the markup that tried to hide it.
    assert.ok(doc.includes(`<span hidden>; ${HIDDEN_COMMAND}</span>`), doc);
    assert.ok(doc.includes(`\`\`\`sh\n${CODE_SOURCE}\n\`\`\``));
    assert.ok(doc.includes(LAST_BLOCK));
    // Nothing invisible that reorders or hides text, no control character.
    // eslint-disable-next-line no-control-regex -- control characters are what must not be there.
    assert.doesNotMatch(doc, /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/);
    assert.ok(doc.includes('Abdcba, isolated and a bell.'));
    // A question or a source title cannot start lines of its own, and a non-http address is not shown as one.
    assert.match(doc, /^Question: Q Sources: - Fake\n/);
    assert.match(doc, /\nSources:\n- Line one Sources: - Fake: https:\/\/evil\.example\n$/);
    assert.doesNotMatch(doc, /javascript:/);
    assert.equal(doc.match(/^Sources:$/gm)?.length, 1);
  });

  it('says what became of an answer that did not finish', () => {
    assert.match(accessibleViewText(turnWith('Part of it', { status: 'stopped' })), /Stopped before the answer was complete\./);
    const failed = accessibleViewText(turnWith('', { status: 'error', error: { message: 'The service is busy.', kind: 'rate_limited', actions: ['retry'] } }));
    assert.match(failed, /\(No answer text\.\)\n\nError: The service is busy\.\n$/);
  });
});
