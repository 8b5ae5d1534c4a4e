// Focus never falls to the page's <body>. Three ways it would, and what this file does about each:
// - a render rebuilds the element that had focus (a snapshot replaces the composer's chips, a
//   status patch rebuilds an answer's buttons): the same control in the new DOM gets it back, or,
//   when it is gone (a chip just removed), the one now at its place in the same list, else the composer;
// - the webview loses focus to VS Code (a link the host opens, a dialog, a quick pick) and gets it
//   back with nothing focused inside: the element that had it, or its stand-in, gets it back;
// - VS Code focuses the webview itself (Focus on Ask Docs View) before anything in it was focused:
//   the composer gets it.

/** What identifies a control across renders: its kind and what it acts on, never its DOM node. */
const IDENTITY = ['action', 'action_name', 'chip', 'job', 'job_action'] as const;

function turnOf(el: Element): string {
  return el.closest<HTMLElement>('[data-turn]')?.dataset.turn ?? '';
}

function identity(el: Element): string {
  const d = el instanceof HTMLElement ? el.dataset : {};
  return JSON.stringify([el.tagName, el.getAttribute('href') ?? '', turnOf(el), ...IDENTITY.map((k) => d[k] ?? '')]);
}

/** Focusable things without an action: a link (in an answer, a source), and a turn (turnNavigation.ts). */
const PLAIN_KINDS: Record<string, string> = { A: 'a[href]', ARTICLE: 'article[data-turn]' };

/**
 * The controls of the same kind as `el` in the same place (a chip's remove buttons in the
 * composer, one answer's links), in page order. `turn` is where `el` was, as it may be detached now.
 */
function peersOf(el: Element, turn = turnOf(el)): Element[] {
  const action = el instanceof HTMLElement ? el.dataset.action : undefined;
  const kind = action ? `[data-action="${CSS.escape(action)}"]` : PLAIN_KINDS[el.tagName];
  // A control of no kind (the input box) has no peers: asking the page would walk all of it.
  return kind ? [...document.querySelectorAll(kind)].filter((p) => turnOf(p) === turn) : [];
}

function focusable(el: Element | null | undefined): el is HTMLElement {
  return el instanceof HTMLElement && el.isConnected && !(el as HTMLButtonElement).disabled && el.getClientRects().length > 0;
}

/** Where focus was: the element, who it is, and where it stood among its peers. */
interface Memo {
  el: HTMLElement;
  id: string;
  turn: string;
  index: number;
}

/** A window focus this soon after a pointer press is the user clicking in: their click decides. */
const POINTER_MS = 500;

export class FocusKeeper {
  private last: Memo | undefined;
  private lastPointer = -Infinity;

  /** `home` puts focus somewhere meaningful when nothing better is left: the composer. */
  constructor(private readonly home: () => void) {
    document.addEventListener('focusin', (e) => {
      if (e.target instanceof HTMLElement && e.target !== document.body) this.last = this.memo(e.target);
    });
    window.addEventListener('pointerdown', () => (this.lastPointer = performance.now()), true);
    // VS Code gives the webview focus back (after a link opened, a dialog, Focus on Ask Docs View).
    // Deferred: the browser settles the page's own focus first.
    window.addEventListener('focus', () => setTimeout(() => this.restoreIfLost(), 0));
  }

  /** Runs a render; focus inside what it rebuilt goes back to the same control, or its stand-in. */
  around<T>(render: () => T): T {
    const active = document.activeElement;
    // What focusin noted of the control serves while focus stays on it: noting it again would ask
    // the page for its peers at every patch of a streaming answer (a walk of every element each).
    const had = active instanceof HTMLElement && active !== document.body ? (this.last?.el === active ? this.last : this.memo(active)) : undefined;
    const result = render();
    if (had && document.activeElement !== had.el && !this.containsFocus()) this.restore(had);
    return result;
  }

  /** Puts focus back when the page has it on nothing (its <body>). */
  restoreIfLost(): void {
    if (this.containsFocus() || performance.now() - this.lastPointer < POINTER_MS) return;
    if (this.last) this.restore(this.last);
    else this.home();
  }

  private containsFocus(): boolean {
    const active = document.activeElement;
    return !!active && active !== document.body && active !== document.documentElement;
  }

  private memo(el: HTMLElement): Memo {
    return { el, id: identity(el), turn: turnOf(el), index: peersOf(el).indexOf(el) };
  }

  private restore(memo: Memo): void {
    const target = focusable(memo.el) ? memo.el : this.standIn(memo);
    if (target) target.focus({ preventScroll: true });
    else this.home();
  }

  /** The same control, rebuilt; else the one of its kind now at its place (the next chip), else none. */
  private standIn(memo: Memo): HTMLElement | undefined {
    const peers = peersOf(memo.el, memo.turn).filter(focusable);
    const same = peers.find((p) => identity(p) === memo.id);
    if (same) return same;
    return memo.index < 0 ? undefined : peers[Math.min(memo.index, peers.length - 1)];
  }
}
