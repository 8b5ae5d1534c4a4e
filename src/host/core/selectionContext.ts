import type * as l10n from '@vscode/l10n';
import { MAX_CHIPS, MAX_CONTEXT_CHARS, MAX_SELECTION_CHARS } from '../../api';
import { chipLabel } from '../../common/chips';
import type { ContextChip, ContextKind } from '../../common/protocol';
import type { Selection } from '../../common/selection';

// Which kind of context a selection is, and how much of it goes to the service, for both surfaces
// that send selections (the chat view's chips, the Chat view's #selection and #file). Pure, so the
// rule is tested in Node. The service distinguishes code from prose (service-interface.md §2.3).

/** vscode.l10n.t, or `english` (src/common/l10n.ts) in tests. */
type Translate = (message: string, ...args: l10n.L10nReplacement[]) => string;

/** Prose documents; everything else is treated as source code. */
export const PROSE_LANGUAGE_IDS: ReadonlySet<string> = new Set([
  'markdown',
  'mdx',
  'plaintext',
  'restructuredtext',
  'asciidoc',
  'latex',
  'tex',
  'bibtex',
  'org',
  'wikitext',
  'textile',
  'pandoc',
  'quarto',
  'rmd',
  'jupyter-markdown',
  'git-commit',
  'scminput',
]);

/** A language not known is read as code. */
export function contextKindFor(languageId: string | undefined): ContextKind {
  return PROSE_LANGUAGE_IDS.has((languageId ?? '').toLowerCase()) ? 'textSelection' : 'code';
}

/** The default of docsAssistant.chat.maxSelectionChars, used when no sane maximum is given. */
export const DEFAULT_MAX_SELECTION_CHARS = 20_000;
export { MAX_SELECTION_CHARS };

/**
 * How much of `text` is sent when it is longer than `maxChars`: up to the last line break in the
 * final fifth of the allowance (so the service does not get half a statement), else exactly
 * `maxChars`; never half a surrogate pair or a dangling `\r`.
 */
export function truncationPoint(text: string, maxChars: number): number {
  if (text.length <= maxChars) return text.length;
  let cut = text.lastIndexOf('\n', maxChars);
  if (cut < maxChars * 0.8) cut = maxChars;
  if (cut > 0 && text[cut - 1] === '\r') cut--;
  const before = text.charCodeAt(cut - 1);
  const after = text.charCodeAt(cut);
  if (before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff) cut--;
  return cut;
}

/** A chip (its id given) for the selection, cut to `maxChars` (never a whole huge file silently). */
export function buildContextChip(s: Selection & { id: string; maxChars: number }): ContextChip {
  const chip: ContextChip = {
    id: s.id,
    type: contextKindFor(s.languageId),
    path: s.path,
    startLine: s.startLine,
    endLine: s.endLine,
    languageId: s.languageId,
    value: s.text,
  };
  // A broken setting must not turn the limit off, and no setting raises it past MAX_SELECTION_CHARS.
  const max = Math.min(MAX_SELECTION_CHARS, Number.isFinite(s.maxChars) && s.maxChars >= 1 ? Math.floor(s.maxChars) : DEFAULT_MAX_SELECTION_CHARS);
  if (s.text.length > max) {
    chip.value = s.text.slice(0, truncationPoint(s.text, max));
    chip.truncatedFrom = s.text.length;
  }
  return chip;
}

/** The same selection: same file, same lines, same text. Attaching it twice would only repeat it. */
export function isSameSelection(a: ContextChip, b: ContextChip): boolean {
  return a.path === b.path && a.startLine === b.startLine && a.endLine === b.endLine && a.value === b.value;
}

/** The chip as it may join, or why it cannot. */
export type Fitted =
  | { chip: ContextChip }
  | {
      /** @userFacing */
      reason: string;
    };

/**
 * `chip` as it may join `attached`, within what one question may carry: not the same selection
 * twice, at most MAX_CHIPS, and at most MAX_CONTEXT_CHARS in all, so a chip past that is cut to
 * what is left (its note says so). When it cannot join, `reason` says why, in words for the user.
 */
export function fitChip(attached: readonly ContextChip[], chip: ContextChip, t: Translate): Fitted {
  const l10n = { t };
  if (attached.some((c) => isSameSelection(c, chip))) return { reason: l10n.t('{0} is already attached.', chipLabel(chip)) };
  if (attached.length >= MAX_CHIPS)
    return { reason: l10n.t('The question already carries {0} selections, the most one question can. Remove one to attach another.', MAX_CHIPS) };
  const left = MAX_CONTEXT_CHARS - attached.reduce((n, c) => n + c.value.length, 0);
  if (left <= 0) {
    return {
      reason: l10n.t(
        'The question already carries {0} characters of selections, the most one question can. Remove a selection to attach another.',
        MAX_CONTEXT_CHARS.toLocaleString('en-US'),
      ),
    };
  }
  if (chip.value.length <= left) return { chip };
  return { chip: { ...chip, value: chip.value.slice(0, truncationPoint(chip.value, left)), truncatedFrom: chip.truncatedFrom ?? chip.value.length } };
}
