import type { TurnView } from '../common/protocol';
import { estimatedHeight, type TurnElement } from './turns';

// A long conversation stays light (issue 33): opening one draws the newest answers, about three
// screens of them, and each older answer when it comes within a screen or so of the view, found by
// an IntersectionObserver (no work on scroll events). Until then an answer is only its question and
// a space of about its height, so a 300-turn conversation costs the DOM and the layout of what is
// near the view. Drawing is sliced: answers that come into range together (a jump to the top) are
// drawn a few at a time, each slice its own task, so none is long.

/** How much of the view's height is drawn at once when a conversation opens. */
const SCREENS_AT_ONCE = 3;
/** How far beyond the view an answer starts to be drawn. */
const AHEAD = '1200px 0px';
/** The longest slice of drawing in one task. */
const SLICE_MS = 16;

/** The index of the first turn drawn at once: the newest ones, until about `screens` views of them. */
export function firstDrawnAtOnce(turns: readonly TurnView[], viewHeight: number, screens = SCREENS_AT_ONCE): number {
  let height = 0;
  let i = turns.length;
  while (i > 0 && height < viewHeight * screens) height += estimatedHeight(turns[--i]!.answer);
  return i;
}

export class LazyTurns {
  private readonly byRoot = new Map<Element, TurnElement>();
  private readonly due = new Set<TurnElement>();
  private readonly observer: IntersectionObserver;
  private scheduled = false;

  /** `onDrawn`: answers were drawn (the page follows the bottom if it did). */
  constructor(
    root: HTMLElement,
    private readonly onDrawn: () => void,
  ) {
    this.observer = new IntersectionObserver(
      (entries) => {
        for (const e of entries) {
          const el = this.byRoot.get(e.target);
          if (el && e.isIntersecting) this.due.add(el);
          else if (el) this.due.delete(el);
        }
        this.schedule();
      },
      { root, rootMargin: AHEAD },
    );
  }

  /** Draws `el` when it comes near the view, if it is waiting. */
  watch(el: TurnElement): void {
    if (!el.isWaiting || this.byRoot.has(el.root)) return;
    this.byRoot.set(el.root, el);
    this.observer.observe(el.root);
  }

  forget(el: TurnElement): void {
    if (!this.byRoot.delete(el.root)) return;
    this.observer.unobserve(el.root);
    this.due.delete(el);
  }

  private schedule(): void {
    if (this.scheduled || this.due.size === 0) return;
    this.scheduled = true;
    setTimeout(() => this.drain(), 0);
  }

  /** The newest answers in range first (a reader scrolls up from the bottom), within one slice. */
  private drain(): void {
    this.scheduled = false;
    const until = performance.now() + SLICE_MS;
    const order = [...this.due].sort((a, b) => (a.root.compareDocumentPosition(b.root) & Node.DOCUMENT_POSITION_FOLLOWING ? 1 : -1));
    for (const el of order) {
      if (performance.now() > until) break;
      this.forget(el);
      el.draw();
    }
    this.onDrawn();
    this.schedule();
  }
}
