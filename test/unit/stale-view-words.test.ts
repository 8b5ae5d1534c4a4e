import * as assert from 'node:assert/strict';
import { expectedChanges } from '../fixtures/staleDocsChange';
import { ServiceError } from '../../src/api';
import { english } from '../../src/common/l10n';
import { describeForUser } from '../../src/host/core/errorWords';
import { PatchText } from '../../src/staleDocs/core/patchText';
import type { ChangedItem, StaleCheck, StalePage } from '../../src/staleDocs/core/staleDocs';
import { changeLabel, checkSummary, pageDescription, pageUrl, placeLabel, ROW_MAX_CHARS, rowText } from '../../src/staleDocs/core/staleWords';

// What the Docs to Update view says and reads, without VS Code: the patch read up to its bound
// and cut at a line, the rows' words (a diff's and the service's text as one plain, visible,
// bounded line), the summary above the tree (the assistant fallback said), and a page's address
// on the docs site only when it is a plain http(s) one.

const HOSTILE = `[run](command:workbench.action.terminal.new) <img src=x onerror=alert(1)> \u202eevil\u202c\u0007\n# heading ${'A'.repeat(50_000)}`;

/** The scripted change's flag rename (test/fixtures/staleDocsChange.ts), as the extractor gives it. */
const dlq = expectedChanges[0]!;
const item = (over: Partial<ChangedItem> = {}): ChangedItem => ({
  ...dlq,
  id: 'flag:--dlq',
  old: { file: dlq.file, line: 12 },
  new: { file: dlq.file, line: 12 },
  weight: 10,
  ...over,
});

const page = (over: Partial<StalePage> = {}): StalePage => ({
  path: '/cli',
  staleItemIds: ['flag:--dlq'],
  updatedItemIds: [],
  lines: [{ line: 3, text: 'Use `--dlq` to name the queue.', itemIds: ['flag:--dlq'] }],
  ...over,
});

describe('Docs to Update: the patch read and the words shown', () => {
  it('reads the patch up to its bound, cut at a line, and says it was cut', () => {
    const p = new PatchText(100);
    p.add('diff --git a/x b/x\n+one\n');
    assert.equal(p.full, false);
    p.add(`${'+line\n'.repeat(30)}`);
    assert.ok(p.length <= 100, String(p.length));
    assert.ok(p.text.endsWith('\n'), 'whole lines only');
    assert.equal(p.cut, true);
    assert.equal(p.full, true);
    p.add('diff --git a/y b/y\n');
    assert.ok(!p.text.includes('a/y'), 'nothing is added past the bound');
    const q = new PatchText(100);
    q.add('no newline at the end');
    q.add('next');
    assert.equal(q.text, 'no newline at the end\nnext\n', 'pieces stay apart');
    assert.equal(q.cut, false);
  });

  it('a change is old → new with its file and line; a removed one says so', () => {
    assert.equal(changeLabel(item()), '--dlq → --dead-letter-queue');
    assert.equal(changeLabel(item({ how: 'removed', newForm: undefined, oldForm: '--delay' })), '--delay (removed)');
    assert.equal(placeLabel({ file: 'relay-cli/src/cli.ts', line: 12 }), 'relay-cli/src/cli.ts:12');
    assert.equal(pageDescription(page()), '1 change · 1 line');
    assert.equal(pageDescription(page({ staleItemIds: ['a', 'b'], lines: [page().lines[0]!, page().lines[0]!] })), '2 changes · 2 lines');
  });

  it('hostile text from a diff or the service is one visible, bounded line', () => {
    for (const shown of [rowText(HOSTILE), changeLabel(item({ oldForm: HOSTILE, newForm: HOSTILE })), placeLabel({ file: HOSTILE, line: 1 })]) {
      assert.ok(shown.length <= ROW_MAX_CHARS + 30, String(shown.length));
      // eslint-disable-next-line no-control-regex -- control and bidi characters are what must not show.
      assert.doesNotMatch(shown, /[\u0000-\u001f\u202a-\u202e]/);
      assert.ok(!shown.includes('\n'));
    }
  });

  it('the summary counts pages and changes, and says when the assistant was used and when the searches were cut', () => {
    const check: StaleCheck = { items: [item(), item({ id: 'b' })], pages: [page()], via: 'search', requests: 4, cut: false };
    assert.equal(checkSummary(check), '1 page to update for 2 code changes.');
    assert.equal(
      checkSummary({ ...check, via: 'assistant', cut: true, requests: 50 }),
      '1 page to update for 2 code changes. Search is not offered by this service: the assistant’s sources were used. Only the first 50 searches were made.',
    );
  });

  it('a check the service stopped says so in the error words, lists what was found, and is not called a cut', () => {
    const failed = new ServiceError({ reason: { code: 'serverError' }, status: 500 });
    const check: StaleCheck = { items: [item(), item({ id: 'b' })], pages: [page()], via: 'search', requests: 3, cut: true, failed };
    const words = describeForUser(failed, english).message;
    assert.equal(
      checkSummary(check),
      `1 page to update for 2 code changes. The search stopped at search 3: ${words} The pages it found until then are listed.`,
    );
  });

  it("a page's address is the docs site's plus its path, only as plain http(s)", () => {
    assert.equal(pageUrl('/cli', 'https://docs.example.com/'), 'https://docs.example.com/cli');
    assert.equal(pageUrl('/cli#flags', 'https://docs.example.com'), 'https://docs.example.com/cli#flags');
    assert.equal(pageUrl('https://docs.example.com/sdk', ''), 'https://docs.example.com/sdk');
    assert.equal(pageUrl('/cli', ''), undefined, 'no site address set');
    assert.equal(pageUrl('javascript:alert(1)', 'https://docs.example.com'), undefined);
    assert.equal(pageUrl('command:workbench.action.terminal.new', 'https://docs.example.com'), undefined);
    assert.equal(pageUrl('//evil.example/x', 'https://docs.example.com'), undefined);
    assert.equal(pageUrl('/cli', 'https://user:pw@docs.example.com'), undefined);
    assert.equal(pageUrl('https://user@evil.example/', ''), undefined);
  });
});
