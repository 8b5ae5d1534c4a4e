import * as assert from 'node:assert/strict';
import { planCodeActions, type PlanInput } from '../../src/codeActions/core/actionPlan';
import { ASK_ABOUT_SELECTION_COMMAND, FIX_DOCS_COMMAND, isAskAboutSelectionArgs, isCodeTarget } from '../../src/common/commandArgs';
import { english } from '../../src/common/l10n';
import { MAX_ENCLOSING_LINES, widenToSymbol, type SymbolNode } from '../../src/host/core/symbolTarget';

// Issue 19, item 1: which Docs actions the lightbulb offers for which document and selection,
// the arguments they hand the chat's and the agent's commands, and which symbol a word at the
// cursor widens to when the action runs.

const at = (line: number, character: number) => ({ line, character });
const span = (l1: number, c1: number, l2: number, c2: number) => ({ start: at(l1, c1), end: at(l2, c2) });
const plan = (input: Partial<PlanInput>) => planCodeActions({ uri: 'file:///w/x', languageId: 'typescript', ...input }, english);
const titles = (input: Partial<PlanInput>) => plan(input).map((a) => a.title);

describe('code actions: which actions, for what', () => {
  it('prose with a selection: Fix This in the Docs… and Ask Docs About This, on the selection', () => {
    for (const languageId of ['markdown', 'mdx', 'plaintext', 'restructuredtext', 'MarkDown']) {
      const actions = plan({ languageId, uri: 'file:///w/docs/a.md', selection: { ...span(2, 0, 5, 0) } });
      assert.deepEqual(
        actions.map((a) => [a.title, a.command]),
        [
          ['Fix This in the Docs…', FIX_DOCS_COMMAND],
          ['Ask Docs About This', ASK_ABOUT_SELECTION_COMMAND],
        ],
        languageId,
      );
      assert.deepEqual(actions[0]!.args, { uri: 'file:///w/docs/a.md', ...span(2, 0, 5, 0) });
      assert.equal((actions[1]!.args as { question: string }).question, 'What do the docs say about this passage?');
    }
  });

  it('prose without a selection, or with a blank one: nothing (no lightbulb on every line of the docs)', () => {
    assert.deepEqual(titles({ languageId: 'markdown', word: { ...span(1, 0, 1, 5), text: 'Hello' } }), []);
    assert.deepEqual(titles({ languageId: 'markdown', selection: { ...span(1, 0, 1, 3), text: '   ' } }), []);
  });

  it('code at a word: Ask Docs About `symbol` and Fix the Docs for `symbol`…, carrying the word to widen later', () => {
    const actions = plan({ word: { ...span(4, 17, 4, 29), text: 'RelayOptions' } });
    assert.deepEqual(
      actions.map((a) => a.title),
      ['Ask Docs About `RelayOptions`', 'Fix the Docs for `RelayOptions`…'],
    );
    assert.deepEqual(actions[1]!.args, { uri: 'file:///w/x', ...span(4, 17, 4, 29), symbol: 'RelayOptions' });
    assert.equal((actions[0]!.args as { question: string }).question, 'What do the docs say about `RelayOptions`?');
  });

  it('code at a keyword, a number or nothing: no actions', () => {
    for (const text of ['export', 'interface', 'const', '42', '0x1f']) assert.deepEqual(titles({ word: { ...span(0, 0, 0, text.length), text } }), [], text);
    assert.deepEqual(titles({}), []);
  });

  it('code with a selection: one identifier is a symbol; anything else is This Code', () => {
    assert.deepEqual(titles({ selection: { ...span(3, 2, 3, 7), text: 'relay' } }), ['Ask Docs About `relay`', 'Fix the Docs for `relay`…']);
    assert.deepEqual(titles({ selection: { ...span(3, 2, 3, 12), text: 'relay(opts)' } }), ['Ask Docs About This Code', 'Fix the Docs for This Code…']);
    // A long or multi-line selection is not read at all.
    const multi = plan({ selection: span(3, 0, 40, 0), word: { ...span(3, 0, 3, 5), text: 'relay' } });
    assert.deepEqual(
      multi.map((a) => a.title),
      ['Ask Docs About This Code', 'Fix the Docs for This Code…'],
    );
    assert.deepEqual(multi[1]!.args, { uri: 'file:///w/x', ...span(3, 0, 40, 0) });
  });

  it('every action’s arguments pass the command’s own check', () => {
    for (const input of [
      { languageId: 'markdown', selection: span(0, 0, 2, 0) },
      { word: { ...span(0, 6, 0, 11), text: 'relay' } },
      { selection: span(0, 0, 9, 0) },
    ]) {
      for (const a of plan(input)) {
        assert.ok(isCodeTarget(a.args), a.title);
        if (a.kind === 'ask') assert.ok(isAskAboutSelectionArgs(a.args), a.title);
      }
    }
  });
});

describe('code actions: the commands’ argument check', () => {
  const ok = { uri: 'file:///w/docs/a.md', ...span(1, 0, 2, 3) };
  it('takes file and untitled targets with a forward range', () => {
    assert.ok(isCodeTarget(ok));
    assert.ok(isCodeTarget({ ...ok, uri: 'untitled:Untitled-1', symbol: 'x' }));
  });
  it('refuses anything else', () => {
    for (const bad of [
      undefined,
      'file:///w/a.md',
      { ...ok, uri: 'https://example.com/a.md' },
      { ...ok, uri: 'vscode-userdata:/settings.json' },
      { ...ok, start: at(3, 0) },
      { ...ok, end: { line: -1, character: 0 } },
      { ...ok, end: { line: 1.5, character: 0 } },
      { ...ok, symbol: '' },
      { ...ok, symbol: 'x'.repeat(201) },
      { ...ok, symbol: 7 },
    ])
      assert.equal(isCodeTarget(bad), false, JSON.stringify(bad));
    assert.equal(isAskAboutSelectionArgs(ok), false, 'no question');
    assert.equal(isAskAboutSelectionArgs({ ...ok, question: '  ' }), false, 'a blank question');
    assert.ok(isAskAboutSelectionArgs({ ...ok, question: 'What?' }));
  });
});

describe('code actions: widening a word to its symbol when the action runs', () => {
  // export interface RelayOptions {      (line 4)
  //   timeoutMs: number;                 (line 5)
  // }                                    (line 6)
  // export function relay(o: RelayOptions) { … }   (lines 8-20)
  const symbols: SymbolNode[] = [
    {
      name: 'RelayOptions',
      range: span(4, 0, 6, 1),
      selectionRange: span(4, 17, 4, 29),
      children: [{ name: 'timeoutMs', range: span(5, 2, 5, 20), selectionRange: span(5, 2, 5, 11) }],
    },
    { name: 'relay', range: span(8, 0, 20, 1), selectionRange: span(8, 16, 8, 21) },
    { name: 'huge', range: span(30, 0, 30 + MAX_ENCLOSING_LINES + 5, 1), selectionRange: span(30, 9, 30, 13) },
  ];

  it('on a declaration’s name: that symbol, whole', () => {
    assert.deepEqual(widenToSymbol(symbols, at(4, 20), 'RelayOptions'), { name: 'RelayOptions', range: span(4, 0, 6, 1) });
    assert.deepEqual(widenToSymbol(symbols, at(5, 4), 'timeoutMs'), { name: 'timeoutMs', range: span(5, 2, 5, 20) });
  });

  it('on a word used inside a symbol: the word, with that symbol as its context', () => {
    assert.deepEqual(widenToSymbol(symbols, at(8, 28), 'RelayOptions'), { name: 'RelayOptions', range: span(8, 0, 20, 1) });
  });

  it('inside a symbol too long to send, or outside every symbol: nothing (the word’s line stands in)', () => {
    assert.equal(widenToSymbol(symbols, at(50, 3), 'x'), undefined);
    assert.equal(widenToSymbol(symbols, at(25, 0), 'x'), undefined);
    assert.equal(widenToSymbol([], at(1, 1), 'x'), undefined);
  });

  it('flat SymbolInformation (no selectionRange): the innermost symbol of that name', () => {
    const flat: SymbolNode[] = [
      { name: 'Outer', range: span(0, 0, 10, 1) },
      { name: 'inner', range: span(2, 2, 4, 3) },
    ];
    assert.deepEqual(widenToSymbol(flat, at(2, 8), 'inner'), { name: 'inner', range: span(2, 2, 4, 3) });
    assert.deepEqual(widenToSymbol(flat, at(6, 0), 'other'), { name: 'other', range: span(0, 0, 10, 1) });
  });
});
