import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { buildAssistantBody, trimCurrentPath } from '../../src/api/requestBody';
import { chipLabel } from '../../src/common/chips';
import {
  DEFAULT_MAX_SELECTION_CHARS,
  PROSE_LANGUAGE_IDS,
  buildContextChip,
  contextKindFor,
  isSameSelection,
  truncationPoint,
} from '../../src/host/core/selectionContext';
import type { Selection } from '../../src/common/selection';

/** What a chip is built from: the one Selection, with the chip's id and the configured maximum. */
type SelectionInput = Selection & { id: string; maxChars: number };

// The selection rule: which kind of context a selection is, which path goes with it, how much of
// it is sent, and that the same selection is never attached twice. currentPath trimming (the last
// 200 characters) is covered by test/unit/request.test.ts; here only how a chat path gets there.

function selection(over: Partial<SelectionInput> = {}): SelectionInput {
  return {
    id: 'chip-1',
    languageId: 'typescript',
    path: 'src/webhooks/verify.ts',
    startLine: 10,
    endLine: 12,
    text: 'verify(signature, body);',
    maxChars: 20_000,
    ...over,
  };
}

describe('selection context: code or textSelection', () => {
  const prose = ['markdown', 'mdx', 'plaintext', 'restructuredtext', 'asciidoc', 'latex', 'org', 'quarto', 'rmd', 'git-commit'];
  const code = [
    'typescript',
    'javascript',
    'typescriptreact',
    'python',
    'go',
    'rust',
    'java',
    'csharp',
    'json',
    'yaml',
    'shellscript',
    'html',
    'css',
    'sql',
    'dockerfile',
  ];

  for (const id of prose) {
    it(`${id} is prose → textSelection`, () => {
      assert.equal(contextKindFor(id), 'textSelection');
      assert.equal(buildContextChip(selection({ languageId: id })).type, 'textSelection');
    });
  }
  for (const id of code) {
    it(`${id} is source → code`, () => assert.equal(buildContextChip(selection({ languageId: id })).type, 'code'));
  }

  it('language ids are compared without case; an unknown id counts as code', () => {
    assert.equal(contextKindFor('Markdown'), 'textSelection');
    assert.equal(contextKindFor('MDX'), 'textSelection');
    assert.equal(contextKindFor('some-new-language'), 'code');
    assert.equal(contextKindFor(''), 'code');
  });

  it('the prose list holds only lower-case ids (the comparison lower-cases its input)', () => {
    for (const id of PROSE_LANGUAGE_IDS) assert.equal(id, id.toLowerCase());
  });
});

describe('selection context: the chip', () => {
  it('keeps the workspace-relative path, the lines and the language; no elementId', () => {
    const chip = buildContextChip(selection());
    assert.deepEqual(chip, {
      id: 'chip-1',
      type: 'code',
      path: 'src/webhooks/verify.ts',
      startLine: 10,
      endLine: 12,
      languageId: 'typescript',
      value: 'verify(signature, body);',
    });
    assert.equal('elementId' in chip, false);
    assert.equal('truncatedFrom' in chip, false, 'a small selection is not marked as cut');
  });

  it('on the wire: path when there is one, never elementId, never an empty path', () => {
    const withPath = buildContextChip(selection());
    const noPath = buildContextChip(selection({ path: '', languageId: 'markdown' }));
    const body = buildAssistantBody(
      {
        fp: 'anonymous',
        messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'What does this do?' }] }],
        context: [withPath, noPath].map((c) => (c.path ? { type: c.type, value: c.value, path: c.path } : { type: c.type, value: c.value })),
      },
      'v2',
    );
    assert.deepEqual(body.context, [
      { type: 'code', value: 'verify(signature, body);', path: 'src/webhooks/verify.ts' },
      { type: 'textSelection', value: 'verify(signature, body);' },
    ]);
  });

  it('labels: path:line for one line, path:first-last for several', () => {
    assert.equal(chipLabel(buildContextChip(selection())), 'src/webhooks/verify.ts:10-12');
    assert.equal(chipLabel(buildContextChip(selection({ startLine: 4, endLine: 4 }))), 'src/webhooks/verify.ts:4');
    assert.equal(chipLabel({ id: 'x', type: 'code', value: 'v' }), 'selection');
  });
});

describe('selection context: truncation of large selections', () => {
  it('a selection at the limit is sent whole; one character more is cut and marked', () => {
    const exact = 'a'.repeat(500);
    assert.equal(buildContextChip(selection({ text: exact, maxChars: 500 })).value, exact);
    const over = buildContextChip(selection({ text: `${exact}b`, maxChars: 500 }));
    assert.equal(over.value, exact);
    assert.equal(over.truncatedFrom, 501, 'the chip knows the full size, for its visible note');
  });

  it('cuts at a line break in the last fifth of the allowance, so no half line is sent', () => {
    const line = `${'x'.repeat(99)}\n`; // 100 characters a line
    const text = line.repeat(50);
    const chip = buildContextChip(selection({ text, maxChars: 1050 }));
    assert.equal(chip.value, line.repeat(10).slice(0, -1), 'ten whole lines, without the last line break');
    assert.equal(chip.truncatedFrom, 5000);
  });

  it('a single huge line (a minified file) is cut hard at the limit', () => {
    const text = 'm'.repeat(1_000_000);
    const chip = buildContextChip(selection({ text, maxChars: 20_000 }));
    assert.equal(chip.value.length, 20_000);
    assert.equal(chip.truncatedFrom, 1_000_000);
  });

  it('CRLF files: no dangling \\r at the cut', () => {
    const text = `${'y'.repeat(98)}\r\n`.repeat(30);
    const chip = buildContextChip(selection({ text, maxChars: 1000 }));
    assert.ok(!chip.value.endsWith('\r'));
    assert.ok(chip.value.endsWith('y'));
  });

  it('never splits a surrogate pair (emoji, CJK extension characters)', () => {
    const text = `${'a'.repeat(299)}😀😀😀`;
    const chip = buildContextChip(selection({ text, maxChars: 300 }));
    assert.equal(chip.value, 'a'.repeat(299));
    assert.doesNotThrow(() => encodeURIComponent(chip.value), 'well-formed UTF-16');
  });

  it('a broken maximum (NaN, 0, negative) does not turn the limit off', () => {
    const text = 'z'.repeat(DEFAULT_MAX_SELECTION_CHARS + 5);
    for (const maxChars of [Number.NaN, 0, -1, Number.POSITIVE_INFINITY]) {
      const chip = buildContextChip(selection({ text, maxChars }));
      assert.equal(chip.value.length, DEFAULT_MAX_SELECTION_CHARS, `maxChars ${maxChars}`);
      assert.equal(chip.truncatedFrom, text.length);
    }
  });

  it('property: the value is a prefix of the selection, within the limit, well-formed, marked iff cut, and ends at a line break when one is near', () => {
    const textArb = fc
      .array(fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('\n', '\r\n', '😀', '\ud83d'), fc.string({ unit: 'grapheme', maxLength: 10 })), {
        maxLength: 80,
      })
      .map((a) => a.join(''));
    fc.assert(
      fc.property(textArb, fc.integer({ min: 1, max: 400 }), (text, maxChars) => {
        const chip = buildContextChip(selection({ text, maxChars }));
        assert.ok(text.startsWith(chip.value));
        assert.ok(chip.value.length <= maxChars);
        assert.equal(chip.truncatedFrom, text.length > maxChars ? text.length : undefined);
        if (text.length <= maxChars) assert.equal(chip.value, text);
        else {
          // Nothing is lost beyond what the rule allows: at most a fifth of the allowance (plus \r and a half pair).
          assert.ok(chip.value.length >= Math.floor(maxChars * 0.8) - 2, `${chip.value.length} of ${maxChars}`);
          const last = chip.value.charCodeAt(chip.value.length - 1);
          const next = text.charCodeAt(chip.value.length);
          assert.ok(!(last >= 0xd800 && last <= 0xdbff && next >= 0xdc00 && next <= 0xdfff), 'no pair split');
          const nl = text.lastIndexOf('\n', maxChars);
          if (nl >= maxChars * 0.8) assert.equal(text.slice(chip.value.length).replace(/^\r/, '')[0], '\n', 'cut at the line break');
        }
        assert.equal(truncationPoint(text, maxChars), chip.value.length);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('selection context: the same selection is not attached twice', () => {
  it('same file, lines and text is the same selection, whatever its chip id or type', () => {
    const a = buildContextChip(selection({ id: 'a' }));
    const b = buildContextChip(selection({ id: 'b' }));
    assert.equal(isSameSelection(a, b), true);
    assert.equal(isSameSelection(a, { ...b, type: 'textSelection' }), true, 'flipping the type does not make it new');
  });

  it('another file, other lines or other text is a different selection', () => {
    const a = buildContextChip(selection());
    assert.equal(isSameSelection(a, buildContextChip(selection({ path: 'src/other.ts' }))), false);
    assert.equal(isSameSelection(a, buildContextChip(selection({ startLine: 11 }))), false);
    assert.equal(isSameSelection(a, buildContextChip(selection({ endLine: 13 }))), false);
    assert.equal(isSameSelection(a, buildContextChip(selection({ text: 'verify(sig, body);' }))), false);
  });

  it('two huge selections of the same lines are the same even though both were cut', () => {
    const text = 'q'.repeat(50_000);
    assert.equal(isSameSelection(buildContextChip(selection({ id: '1', text })), buildContextChip(selection({ id: '2', text }))), true);
  });
});

describe('currentPath from the chat', () => {
  it('a long workspace-relative path keeps its end (the page), 200 characters at most', () => {
    const path = `${'packages/site/'.repeat(20)}docs/guides/webhooks.md`;
    const trimmed = trimCurrentPath(path);
    assert.equal(trimmed.length, 200);
    assert.ok(trimmed.endsWith('docs/guides/webhooks.md'));
    assert.equal(trimCurrentPath('docs/a.md'), 'docs/a.md');
  });
});
