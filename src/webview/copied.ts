import * as l10n from '@vscode/l10n';

// "Copied" on a button for a moment after the host has written to the clipboard: its icon becomes
// a check and its text (if it has one) says so; then it is as it was. Screen readers hear it
// through the page's announcer (announcer.ts).

export const COPIED_MS = 2000;
const timers = new WeakMap<HTMLElement, ReturnType<typeof setTimeout>>();

export function showCopied(btn: HTMLElement, announce?: (text: string) => void): void {
  const icon = btn.querySelector<HTMLElement>('.codicon');
  const text = btn.querySelector<HTMLElement>('span:not(.codicon)');
  const before = timers.get(btn);
  if (before) clearTimeout(before);
  else {
    btn.dataset.label = btn.getAttribute('aria-label') ?? '';
    btn.dataset.text = text?.textContent ?? '';
  }
  const copied = l10n.t('Copied');
  btn.dataset.copied = 'true';
  btn.setAttribute('aria-label', copied);
  btn.title = copied;
  if (text) text.textContent = copied;
  icon?.classList.replace('codicon-copy', 'codicon-check');
  announce?.(copied);
  timers.set(
    btn,
    setTimeout(() => {
      timers.delete(btn);
      delete btn.dataset.copied;
      btn.setAttribute('aria-label', btn.dataset.label ?? '');
      btn.title = btn.dataset.label ?? '';
      if (text) text.textContent = btn.dataset.text ?? '';
      icon?.classList.replace('codicon-check', 'codicon-copy');
    }, COPIED_MS),
  );
}
