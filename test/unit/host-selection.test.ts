import * as assert from 'node:assert/strict';
import { selectedText } from '../../src/host/core/selection';

// The one rule for which lines a selection covers, shared by the chat's chips and the agent's
// prompts (they used to compute it each on their own).

function editor(start: [number, number], end: [number, number], text = 'selected', languageId = 'typescript') {
  const selection = {
    start: { line: start[0], character: start[1] },
    end: { line: end[0], character: end[1] },
    isEmpty: start[0] === end[0] && start[1] === end[1],
  };
  return { selection, document: { languageId, getText: (range: typeof selection) => (range === selection ? text : '') } };
}

describe('host: selectedText', () => {
  it('nothing selected, or no editor: undefined', () => {
    assert.equal(selectedText(undefined), undefined);
    assert.equal(selectedText(editor([3, 4], [3, 4])), undefined);
  });

  it('lines are 1-based and inclusive', () => {
    assert.deepEqual(selectedText(editor([9, 2], [11, 5], 'verify(sig);')), { languageId: 'typescript', startLine: 10, endLine: 12, text: 'verify(sig);' });
    assert.deepEqual(selectedText(editor([3, 0], [3, 7]))?.endLine, 4);
  });

  it('a selection that ends at the start of a line (whole lines) does not count that line', () => {
    const s = selectedText(editor([9, 0], [12, 0], 'a\nb\nc\n', 'markdown'));
    assert.deepEqual(s, { languageId: 'markdown', startLine: 10, endLine: 12, text: 'a\nb\nc\n' });
  });

  it('a selection from the middle of a line to the start of the next covers only its first line', () => {
    assert.equal(selectedText(editor([4, 0], [4, 0])), undefined);
    assert.deepEqual(selectedText(editor([4, 3], [5, 0]))?.endLine, 5);
  });
});
