import type * as l10n from '@vscode/l10n';
import { ADMIN_KEY_PREFIX, ASSISTANT_KEY_PREFIX, type KeyKind, type KeyProblem } from '../../api';

// Words about the two keys and about waiting, shared by the error words (errorWords.ts), the key
// input box (secrets.ts) and the agent's warnings. Pure, like errorWords.ts, and translated the
// same way: by the translator passed in, through a local `l10n.t` that @vscode/l10n-dev exports.

/** vscode.l10n.t, or `english` (src/common/l10n.ts) in tests. */
type Translate = (message: string, ...args: l10n.L10nReplacement[]) => string;

/** Why a string is not a key of the kind asked for, for the input box and for an error. */
export function keyProblemWords(problem: KeyProblem, expected: KeyKind, t: Translate): string {
  const l10n = { t };
  switch (problem) {
    case 'empty':
      return l10n.t('Enter a key.');
    case 'whitespace':
      return l10n.t('A key has no spaces or line breaks in it. Paste the key alone.');
    case 'assistantKeyForAdmin':
      return l10n.t(
        'That is an assistant key (it starts with "{0}"). Agent jobs need the admin key, which starts with "{1}" but not "{0}".',
        ASSISTANT_KEY_PREFIX,
        ADMIN_KEY_PREFIX,
      );
    case 'adminKeyForAssistant':
      return l10n.t(
        'That is an admin key. The chat needs the public assistant key, which starts with "{0}". Keep the admin key for agent jobs.',
        ASSISTANT_KEY_PREFIX,
      );
    case 'wrongPrefix':
      return expected === 'admin'
        ? l10n.t('An admin key starts with "{0}". Copy it from the API keys page of the dashboard.', ADMIN_KEY_PREFIX)
        : l10n.t('An assistant key starts with "{0}". Copy it from the API keys page of the dashboard.', ASSISTANT_KEY_PREFIX);
    case 'prefixOnly':
      return l10n.t('That is only the prefix. Paste the whole key.');
    case 'badCharacters':
      return l10n.t('A key holds only letters, digits and the characters - . _ ~ + / (with = only at its end). Copy the key again, and paste it alone.');
  }
}

/** "7 seconds", "3 minutes", "2 hours": rounded up, because retrying early only fails again. */
export function delayWords(ms: number, t: Translate): string {
  const l10n = { t };
  const s = Math.max(1, Math.ceil(ms / 1000));
  if (s === 1) return l10n.t('1 second');
  if (s < 90) return l10n.t('{0} seconds', s);
  const m = Math.ceil(s / 60);
  if (m < 90) return l10n.t('{0} minutes', m);
  return l10n.t('{0} hours', Math.ceil(m / 60));
}

/** "admin API key", in the display language: one noun for the sentences about either key. */
export function keyNoun(kind: KeyKind, t: Translate): string {
  const l10n = { t };
  return kind === 'admin' ? l10n.t('admin API key') : l10n.t('assistant API key');
}

/** The palette titles of the two key commands, as the user finds them (package.nls.json). */
export function keyCommandTitle(kind: KeyKind, t: Translate): string {
  const l10n = { t };
  return kind === 'admin' ? l10n.t('Docs Assistant: Set Admin API Key…') : l10n.t('Docs Assistant: Set Assistant API Key…');
}
