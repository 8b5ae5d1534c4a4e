import type * as l10n from '@vscode/l10n';
import { english } from '../../common/l10n';

/** vscode.l10n.t, or `english` (src/common/l10n.ts) in tests. */
type Translate = (message: string, ...args: l10n.L10nReplacement[]) => string;

// Accessibility Help (Alt+F1 in the chat): what the keys are, in the chat and in the Agent Jobs
// tree, as a read-only document. The extension's own shortcuts are read from its manifest's
// `contributes.keybindings` when the document is opened, so the list cannot drift from what VS Code
// binds; the keys of the page itself (composer.ts) and of VS Code's tree are described in words.

/** One entry of package.json's `contributes.keybindings`, as the manifest has it. */
export interface ContributedKeybinding {
  command: string;
  key: string;
  mac?: string;
  when?: string;
}

/** `ctrl+alt+d` as people write it: `Ctrl+Alt+D`. */
export function keyLabel(key: string): string {
  return key
    .split('+')
    .map((k) => (k.length === 1 ? k.toUpperCase() : k.charAt(0).toUpperCase() + k.slice(1)))
    .join('+');
}

/** A keybinding's keys, with the macOS ones after when they differ. */
function keysOf(kb: ContributedKeybinding, t: Translate): string {
  const l10n = { t };
  const key = keyLabel(kb.key);
  return kb.mac && kb.mac !== kb.key ? l10n.t('{0} (macOS: {1})', key, keyLabel(kb.mac)) : key;
}

type Place = 'chat' | 'tree' | 'editor' | 'anywhere';

/** Where a keybinding works, from its when-clause: the chat's view or tab, the Agent Jobs tree, an editor, else anywhere. */
function placeOf(kb: ContributedKeybinding): Place {
  const when = kb.when ?? '';
  if (/docsAssistant\.(chatView|chatPanel)/.test(when)) return 'chat';
  if (/docsAssistant\.jobsView/.test(when)) return 'tree';
  if (/\beditor\w*Focus\b|\bresource\b/.test(when)) return 'editor';
  return 'anywhere';
}

/**
 * The help document's text. `keybindings`: the manifest's; `titleOf`: a command's title as the
 * Command Palette shows it.
 */
export function accessibilityHelpText(keybindings: readonly ContributedKeybinding[], titleOf: (command: string) => string, t: Translate = english): string {
  const l10n = { t };
  const shortcuts = (place: Place): string[] => keybindings.filter((kb) => placeOf(kb) === place).map((kb) => `${keysOf(kb, t)}: ${titleOf(kb.command)}`);
  // A section with nothing to list is left out.
  const section = (title: string, lines: string[]): string => (lines.length ? [title, ...lines.map((line) => `- ${line}`)].join('\n') : '');
  return `${[
    l10n.t('Docs Assistant: Accessibility Help'),
    section(l10n.t('In the chat (the Ask Docs view, or its editor tab):'), [
      l10n.t('Enter: send the question. Shift+Enter: a new line.'),
      l10n.t('Up and Down in an empty input box: earlier questions.'),
      l10n.t(
        'Ctrl+Up (macOS: Cmd+Up): from the input box, the last answer; then the one before. Ctrl+Down (macOS: Cmd+Down): the next answer, and after the last one the input box. On an answer, Up, Down, Home and End move too.',
      ),
      l10n.t('Tab and Shift+Tab: the answers’ links, sources, code blocks and buttons, then the input box.'),
      l10n.t(
        'A screen reader hears that a question was sent, that the docs are searched, then the answer once (its code summarised) or the error with its actions.',
      ),
      ...shortcuts('chat'),
    ]),
    section(l10n.t('In the Agent Jobs tree:'), [
      l10n.t('Up and Down: the jobs and their entries. Right and Left: open and close a job.'),
      l10n.t('Enter: open the entry (a pull request, a job).'),
      l10n.t('Shift+F10 or the context menu key: the entry’s actions.'),
      ...shortcuts('tree'),
    ]),
    section(l10n.t('In an editor:'), shortcuts('editor')),
    section(l10n.t('Anywhere:'), shortcuts('anywhere')),
    l10n.t('Every command is also in the Command Palette (F1), under “Docs Assistant”.'),
  ]
    .filter(Boolean)
    .join('\n\n')}\n`;
}
