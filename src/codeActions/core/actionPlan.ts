import type * as l10n from '@vscode/l10n';
import { ASK_ABOUT_SELECTION_COMMAND, FIX_DOCS_COMMAND, type AskAboutSelectionArgs, type FixDocsArgs, type PositionArg } from '../../common/commandArgs';
import { contextKindFor } from '../../host/core/selectionContext';

// Which code actions the lightbulb offers, for which document and selection. Pure and cheap (no
// document text beyond a short one-line selection, nothing awaited), so it is tested in Node and
// the provider can run it on every cursor move. Prose (the same rule as the chat's chips, src/host/core/selectionContext.ts)
// gets actions about a selected passage; code gets them about the selection or the word at the
// cursor, widened to its symbol only when the action runs.

/** vscode.l10n.t, or `english` (src/common/l10n.ts) in tests. */
type Translate = (message: string, ...args: l10n.L10nReplacement[]) => string;

export interface RangeArg {
  start: PositionArg;
  end: PositionArg;
}

export interface PlanInput {
  uri: string;
  languageId: string;
  /** The selection, when it is not empty; `text` only when it is on one line and short (else undefined: not read). */
  selection?: RangeArg & { text?: string };
  /** The word at the cursor (document.getWordRangeAtPosition), when nothing is selected. */
  word?: RangeArg & { text: string };
}

export type PlannedAction =
  | { kind: 'ask'; title: string; command: typeof ASK_ABOUT_SELECTION_COMMAND; args: AskAboutSelectionArgs }
  | { kind: 'fix'; title: string; command: typeof FIX_DOCS_COMMAND; args: FixDocsArgs };

/** The longest one-line selection whose text is read (to see whether it is blank or one identifier). */
export const SHORT_SELECTION_CHARS = 200;

const IDENTIFIER = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;

/** Words that are never what a reader asks the docs about (keywords of the common languages). */
const KEYWORDS = new Set(
  (
    'abstract as async await break case catch class const continue def default delete do elif else enum export extends false final finally ' +
    'fn for from func function go if impl implements import in instanceof interface let match mod module mut namespace new nil none null ' +
    'package private protected pub public readonly return self static struct super switch this throw true try type typeof undefined use ' +
    'var void while with yield'
  ).split(' '),
);

export function isSymbolWord(text: string): boolean {
  return text.length <= 100 && IDENTIFIER.test(text) && !KEYWORDS.has(text.toLowerCase());
}

export function planCodeActions(input: PlanInput, t: Translate): PlannedAction[] {
  const l10n = { t };
  const { uri, selection, word } = input;
  const prose = contextKindFor(input.languageId) === 'textSelection';
  const selected = selection && selection.text?.trim() !== '' ? selection : undefined;
  if (prose) {
    // A passage has to be chosen: a lightbulb on every line of the docs would be noise.
    if (!selected) return [];
    const target = { uri, start: selected.start, end: selected.end };
    return [
      { kind: 'fix', title: l10n.t('Fix This in the Docs…'), command: FIX_DOCS_COMMAND, args: target },
      {
        kind: 'ask',
        title: l10n.t('Ask Docs About This'),
        command: ASK_ABOUT_SELECTION_COMMAND,
        args: { ...target, question: l10n.t('What do the docs say about this passage?') },
      },
    ];
  }
  const symbol = selected
    ? selected.text !== undefined && isSymbolWord(selected.text.trim())
      ? selected.text.trim()
      : undefined
    : word && isSymbolWord(word.text)
      ? word.text
      : undefined;
  const range = selected ?? (symbol ? word : undefined);
  if (!range) return [];
  const target = { uri, start: range.start, end: range.end, ...(symbol ? { symbol } : {}) };
  if (symbol) {
    return [
      {
        kind: 'ask',
        title: l10n.t('Ask Docs About `{0}`', symbol),
        command: ASK_ABOUT_SELECTION_COMMAND,
        args: { ...target, question: l10n.t('What do the docs say about `{0}`?', symbol) },
      },
      { kind: 'fix', title: l10n.t('Fix the Docs for `{0}`…', symbol), command: FIX_DOCS_COMMAND, args: target },
    ];
  }
  return [
    {
      kind: 'ask',
      title: l10n.t('Ask Docs About This Code'),
      command: ASK_ABOUT_SELECTION_COMMAND,
      args: { ...target, question: l10n.t('What do the docs say about this code?') },
    },
    { kind: 'fix', title: l10n.t('Fix the Docs for This Code…'), command: FIX_DOCS_COMMAND, args: target },
  ];
}
