// Tab past the last control of the page (the input box's Send/Stop) goes to the first one (the
// conversation), and Shift+Tab before the first to the last, instead of leaving the webview's
// frame: in VS Code a webview is an overlay outside the workbench's own Tab order, so what Tab
// reaches after it is the workbench's <body>, then the status bar. The page is not a trap: VS
// Code's own keys leave it (F6 to the next part, Ctrl+1 to the editor, Ctrl+Shift+E and the like),
// since the webview passes every key press on to the workbench.

const TABBABLE = 'a[href], button, textarea, input, select, summary, [tabindex]';

function tabbable(el: HTMLElement): boolean {
  if (el.tabIndex < 0 || (el as HTMLButtonElement).disabled || el.closest('[hidden], [inert]')) return false;
  return el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
}

/** The page's Tab stops, in Tab order (the page sets no positive tabindex, so it is document order). */
function tabStops(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(TABBABLE)].filter(tabbable);
}

export function installTabCycle(root: HTMLElement): void {
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Tab' || e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    const stops = tabStops(root);
    const first = stops[0];
    const last = stops.at(-1);
    if (!first || !last) return;
    const active = document.activeElement;
    const outside = !active || active === document.body || !root.contains(active);
    if (e.shiftKey && (active === first || outside)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (active === last || outside)) {
      e.preventDefault();
      first.focus();
    }
  });
}
