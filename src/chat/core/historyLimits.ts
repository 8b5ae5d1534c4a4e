import type * as l10n from '@vscode/l10n';

// How much history the file store keeps: every conversation the user did not delete, up to
// docsAssistant.chat.historyLimit conversations and MAX_HISTORY_CHARS on disk. Past either, the
// oldest go first, and the history list says how many went (and how many files could not be read).

export const HISTORY_LIMIT_DEFAULT = 1000;
const HISTORY_LIMIT_MIN = 1;
const HISTORY_LIMIT_MAX = 100_000;
/** The most the stored conversations may take together, in characters of JSON (about bytes). */
export const MAX_HISTORY_CHARS = 200 * 1024 * 1024;
const HISTORY_MB = MAX_HISTORY_CHARS / 1024 / 1024;

/** vscode.l10n.t, or `english` (src/common/l10n.ts) in tests. */
type Translate = (message: string, ...args: l10n.L10nReplacement[]) => string;

/** The setting's value as the store uses it: a whole number within bounds, the default for anything else. */
export function historyLimitOf(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return HISTORY_LIMIT_DEFAULT;
  return Math.min(HISTORY_LIMIT_MAX, Math.max(HISTORY_LIMIT_MIN, Math.floor(value)));
}

/** What the history list says of conversations it no longer has; undefined when none are missing. */
export function fileHistoryNote(removed: number, unreadable: number, limit: number, t: Translate): string | undefined {
  const l10n = { t };
  const notes: string[] = [];
  if (removed === 1)
    notes.push(
      l10n.t(
        '1 older conversation was removed: Docs Assistant keeps the {0} most recent (docsAssistant.chat.historyLimit), in at most {1} MB.',
        limit,
        HISTORY_MB,
      ),
    );
  else if (removed > 1)
    notes.push(
      l10n.t(
        '{0} older conversations were removed: Docs Assistant keeps the {1} most recent (docsAssistant.chat.historyLimit), in at most {2} MB.',
        removed,
        limit,
        HISTORY_MB,
      ),
    );
  if (unreadable === 1) notes.push(l10n.t('1 conversation could not be read (its file is missing or damaged) and was skipped.'));
  else if (unreadable > 1) notes.push(l10n.t('{0} conversations could not be read (their files are missing or damaged) and were skipped.', unreadable));
  return notes.length ? notes.join(' ') : undefined;
}
