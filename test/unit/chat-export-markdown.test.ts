import * as assert from 'node:assert/strict';
import { answerMarkdown, conversationMarkdown, exportFileName } from '../../src/chat/core/exportMarkdown';
import type { AnswerView, ContextChip, TurnView } from '../../src/common/protocol';

// Issue 19, item 3: a conversation exported as Markdown holds what it held (questions, attached
// context, answers, sources) and nothing it should not (the thread's id and key); nothing in an
// answer, a selection or a source title can break the document's structure or smuggle in a link.

function answer(text: string, sources: AnswerView['sources'] = [], status: AnswerView['status'] = 'done'): AnswerView {
  return {
    parts: [
      { kind: 'tool', toolName: 'search', query: 'x', state: 'done' },
      { kind: 'text', text },
    ],
    sources,
    status,
    notices: [],
    jobs: [],
  };
}

const chip: ContextChip = {
  id: 'k1',
  type: 'code',
  path: 'src/relay.ts',
  startLine: 10,
  endLine: 12,
  languageId: 'typescript',
  value: 'const s = `a ``` b`;\nrelay.start();',
};

const turn = (id: string, question: string, a: AnswerView, context: ContextChip[] = []): TurnView => ({ id, question, context, answer: a });

describe('conversation as Markdown', () => {
  const conv = {
    id: 'conv-secret-id',
    title: 'How do I start the relay?',
    createdAt: 0,
    threadId: 'thread-123-secret',
    threadKey: 'tk_secret_key_456',
    turns: [
      turn(
        't1',
        'How do I start the relay?',
        answer('Call `relay.start()`.', [
          { url: 'https://docs.acme.test/relay', title: 'Relay' },
          { url: 'javascript:alert(1)', title: 'Bad' },
          { title: 'No link' },
        ]),
        [chip],
      ),
      turn('t2', 'And stop it?', answer('Call `relay.stop()`.')),
    ],
  };
  const md = conversationMarkdown(conv);

  it('has the title, then per turn the question, its context fenced with path:lines, the answer and its http(s) sources', () => {
    assert.equal(
      md,
      [
        '# How do I start the relay?',
        '',
        '## Question',
        '',
        'How do I start the relay?',
        '',
        'src/relay.ts:10-12',
        '',
        '````typescript',
        'const s = `a ``` b`;',
        'relay.start();',
        '````',
        '',
        '## Answer',
        '',
        'Call `relay.start()`.',
        '',
        'Sources:',
        '',
        '- [Relay](https://docs.acme.test/relay)',
        '',
        '## Question',
        '',
        'And stop it?',
        '',
        '## Answer',
        '',
        'Call `relay.stop()`.',
        '',
      ].join('\n'),
    );
  });

  it('never holds the thread id, its key or the conversation id', () => {
    assert.doesNotMatch(md, /secret|tk_|thread-123/);
  });

  it('closes a fence an answer left open, so the next turn is not swallowed by it', () => {
    const out = conversationMarkdown({ title: 't', turns: [turn('a', 'q1', answer('Here:\n```ts\nconst x = 1;')), turn('b', 'q2', answer('ok'))] });
    const lines = out.split('\n');
    const open = lines.indexOf('```ts');
    assert.ok(open > 0);
    assert.equal(lines[open + 2], '```', out);
    // A longer fence holding a shorter one, or a tilde fence holding backticks, keeps its code
    // whole, in a backtick fence longer than any run inside (the safe writer fences every block).
    assert.equal(answerMarkdown(answer('A:\n````md\n```js\nx\n```\n````\nafter')), 'A:\n\n````md\n```js\nx\n```\n````\n\nafter');
    assert.equal(answerMarkdown(answer('B:\n~~~\n```\n~~~')), 'B:\n\n````\n```\n````');
  });

  it('escapes a hostile source title, so it cannot close the link text and point elsewhere', () => {
    const hostile = 'Docs](javascript:alert(1)) [x';
    const out = answerMarkdown(answer('Text.', [{ url: 'https://docs.acme.test/a_(b)', title: hostile }]));
    assert.equal(out, 'Text.\n\nSources:\n\n- [Docs\\](javascript:alert(1)) \\[x](https://docs.acme.test/a_%28b%29)');
    // A hostile conversation title cannot make a link or a second heading either.
    const titled = conversationMarkdown({ title: '[t](javascript:alert(1))\n# more', turns: [] });
    assert.equal(titled, '# \\[t\\](javascript:alert(1)) \\# more\n');
  });

  it('a copied answer is its text parts and its sources; a stopped or failed one says so', () => {
    assert.equal(answerMarkdown(answer('One.', [{ url: 'https://x.test/', title: '' }])), 'One.\n\nSources:\n\n- [https:/&#47;x.test/](https://x.test/)');
    assert.match(answerMarkdown(answer('Partial', [], 'stopped')), /^Partial\n\n_Stopped before the answer was complete\._$/);
    const failed: AnswerView = { ...answer('', [], 'error'), error: { message: 'The service is down.', kind: 'http', actions: [] } };
    assert.equal(answerMarkdown(failed), '_Error: The service is down._');
  });

  it('a text selection is fenced without a language, and a chip without a file is named "selection"', () => {
    const out = conversationMarkdown({
      title: 't',
      turns: [turn('a', 'q', answer('a'), [{ id: 'x', type: 'textSelection', value: 'Some prose', languageId: 'markdown\n# injected' }])],
    });
    assert.match(out, /\nselection\n\n```\nSome prose\n```\n/);
  });

  it('names the file after the title, in plain lower-case words', () => {
    assert.equal(exportFileName('How do I configure Webhooks?'), 'how-do-i-configure-webhooks.md');
    assert.equal(exportFileName('../../etc/passwd'), 'etc-passwd.md');
    assert.equal(exportFileName('Über `config`'), 'uber-config.md');
    assert.equal(exportFileName('???'), 'conversation.md');
    assert.ok(exportFileName('word '.repeat(50)).length <= 63);
  });
});
