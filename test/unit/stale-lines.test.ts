import * as assert from 'node:assert/strict';
import { MAX_SCAN_CHARS, scanPage } from '../../src/staleDocs/core/staleLines';
import type { ChangedItem } from '../../src/staleDocs/core/staleDocs';

// Issue 32: which lines of a page still say a changed item's old form. A renamed function or
// sub-command is one bare word that prose uses too; a hostile page is read only so far.

const item = (x: Partial<ChangedItem> & Pick<ChangedItem, 'id' | 'kind' | 'staleNeedles'>): ChangedItem => ({
  how: 'renamed',
  oldForm: x.staleNeedles.join(' '),
  updatedNeedles: [],
  weight: 1,
  ...x,
});

describe('stale docs: the lines of a page that say an old form (staleLines.ts)', () => {
  const publish = item({ id: 'symbol:publish', kind: 'symbol', staleNeedles: ['publish'], updatedNeedles: ['send'] });
  const create = item({ id: 'command:create', kind: 'command', staleNeedles: ['create'] });
  const dlq = item({ id: 'flag:--dlq', kind: 'flag', staleNeedles: ['--dlq'] });

  it('a bare function or sub-command name counts only where it is code: a code span, a code block, or a call', () => {
    const page = [
      'To publish a message, call the SDK.', // prose: not stale
      'Call `publish` with the queue and the body.', // code span
      'const r = publish(queue, body);', // a call
      '```sh',
      'relay queues create orders', // in a code block
      '```',
      'Create a queue first, then publish to it.', // prose again
      'Pass --dlq to name the dead-letter queue.', // a flag is a flag, prose or not
    ].join('\n');
    const scan = scanPage(page, [publish, create, dlq]);
    assert.deepEqual(
      scan.lines.map((l) => [l.line, l.itemIds]),
      [
        [2, ['symbol:publish']],
        [3, ['symbol:publish']],
        [5, ['command:create']],
        [8, ['flag:--dlq']],
      ],
    );
  });

  it('a page is read up to MAX_SCAN_CHARS: a hostile page stops there', () => {
    const page = `${'filler line\n'.repeat(Math.ceil(MAX_SCAN_CHARS / 12))}Pass --dlq here.\n`;
    assert.deepEqual(scanPage(page, [dlq]).lines, []);
    assert.equal(scanPage(`Pass --dlq here.\n${page}`, [dlq]).lines.length, 1);
  });
});
