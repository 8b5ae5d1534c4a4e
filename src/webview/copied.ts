import * as l10n from '@vscode/l10n';

// "Copied" on a button for a moment after the host has written to the clipboard: its icon becomes
// a check and its text (if it has one) says so; then it is as it was. Screen readers hear it
// through the page's announcer (announcer.ts). A button with text is named by its text (dom.ts iconButton):
// only one named by an aria-label gets "Copied" there too, and a tooltip it lacked stays absent.

export const COPIED_MS = 2000;
const timers = new WeakMap<HTMLElement, ReturnType<typeof setTimeout>>();

export function showCopied(btn: HTMLElement, announce?: (text: string) => void): void {
  const icon = btn.querySelector<HTMLElement>('.codicon');
  const text = btn.querySelector<HTMLElement>('span:not(.codicon)');
  const before = timers.get(btn);
  if (before) clearTimeout(before);
  else {
    btn.dataset.label = btn.getAttribute('aria-label') ?? '';
    btn.dataset.tip = btn.title;
    btn.dataset.text = text?.textContent ?? '';
  }
  const copied = l10n.t('Copied');
  btn.dataset.copied = 'true';
  if (btn.dataset.label) btn.setAttribute('aria-label', copied);
  btn.title = copied;
  if (text) text.textContent = copied;
  icon?.classList.replace('codicon-copy', 'codicon-check');
  announce?.(copied);
  timers.set(
    btn,
    setTimeout(() => {
      timers.delete(btn);
      delete btn.dataset.copied;
      if (btn.dataset.label) btn.setAttribute('aria-label', btn.dataset.label);
      if (btn.dataset.tip) btn.title = btn.dataset.tip;
      else btn.removeAttribute('title');
      if (text) text.textContent = btn.dataset.text ?? '';
      icon?.classList.replace('codicon-check', 'codicon-copy');
    }, COPIED_MS),
  );
}
