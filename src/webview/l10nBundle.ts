import * as l10n from '@vscode/l10n';

// The page's words in VS Code's display language. The host puts vscode.l10n.bundle in the page
// as a JSON data block (src/chat/core/webviewHtml.ts), none for English; every word the page shows
// goes through @vscode/l10n's `l10n.t`, which looks it up there. So this runs before anything is
// rendered, and no module of the page calls `l10n.t` while it loads: only when it renders.

/** Hands the bundle in the page (`#l10n`) to @vscode/l10n. Without one, or with a broken one, the words stay English. */
export function useL10nBundle(doc: Document): void {
  const text = doc.getElementById('l10n')?.textContent;
  if (!text) return;
  let contents: unknown;
  try {
    contents = JSON.parse(text);
  } catch {
    return;
  }
  if (contents === null || typeof contents !== 'object' || Array.isArray(contents)) return;
  // Only strings: a translation is text, never markup or anything else the page would have to trust.
  const strings: Record<string, string> = {};
  for (const [k, v] of Object.entries(contents)) if (typeof v === 'string') strings[k] = v;
  l10n.config({ contents: strings });
}
