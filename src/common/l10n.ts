import type * as l10n from '@vscode/l10n';

// Translation for the modules that cannot import `vscode`: the vscode-free cores of the features
// (tested in Node) and the webview. They take a `Translate` and write every message as an
// `l10n.t('…', args)` call on it:
//
//   vscode.l10n.t   in the extension host (the bundle in l10n/ for the display language),
//   @vscode/l10n's t in the webview, configured with the bundle the host sends it,
//   `english`        in Node tests: the message itself, with its placeholders filled in; and
//                    where English is meant (what the docs tool tells the language model).
//
// `npm run l10n` (@vscode/l10n-dev) exports the `l10n.t('…')` calls of every file that imports
// `l10n` (from the vscode module or from @vscode/l10n). So such a module has a type-only import of
// @vscode/l10n as `l10n` (its type gives the translator's signature, as below) and calls the
// translator it was given through a local `const l10n = { t }`. Only `{0}` placeholders are used.

/** vscode.l10n.t, @vscode/l10n's t or `english`: a message with `{0}` placeholders, and their values. */
export type Translate = (message: string, ...args: l10n.L10nReplacement[]) => string;

/** The message in English (as written), placeholders filled: the translator of the Node tests and of the log. */
export const english: Translate = (message, ...args) =>
  message.replace(/\{(\d+)\}/g, (whole, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : whole));
