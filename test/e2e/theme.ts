import type { Frame } from 'playwright-core';

// The high-contrast themes, as the user settings name them, and how to see one has reached a
// webview: VS Code marks a webview's <body> with the kind of theme it styles it for.

export interface Theme {
  /** The `workbench.colorTheme` value. */
  id: string;
  /** What the webview's body says in data-vscode-theme-kind. */
  kind: string;
  /** For file names. */
  slug: string;
}

export const HIGH_CONTRAST_THEMES: readonly Theme[] = [
  { id: 'Default High Contrast', kind: 'vscode-high-contrast', slug: 'hc-dark' },
  { id: 'Default High Contrast Light', kind: 'vscode-high-contrast-light', slug: 'hc-light' },
];

/** Waits until the chat webview is styled for `theme` (set in the stack's user settings). */
export async function waitForTheme(frame: Frame, theme: Theme, timeout = 20_000): Promise<void> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const kind = await frame.evaluate(() => document.body.getAttribute('data-vscode-theme-kind')).catch(() => null);
    if (kind === theme.kind) return;
    if (Date.now() > deadline) throw new Error(`The chat webview is not in "${theme.id}": its body says data-vscode-theme-kind=${JSON.stringify(kind)}.`);
    await frame.page().waitForTimeout(200);
  }
}
