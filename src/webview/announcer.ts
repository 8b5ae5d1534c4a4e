import { h } from './dom';
import { reasonOf } from './pendingRequests';

// The page's one live region. A screen reader hears what is written here and nothing else of the
// page as it changes: the transcript is not live (a streaming answer re-renders many times a
// second, and each render would be read), and an error box is not an alert (its retry countdown
// ticks every second). What is said, and when, is decided in chatAnnouncements.ts.

export class Announcer {
  readonly el = h('div', { class: 'sr-only', role: 'status', 'aria-live': 'polite' });

  /** Says `text` now: one mutation of the region, so one announcement. */
  say(text: string): void {
    const t = text.trim();
    if (t) this.el.textContent = t;
  }

  /** `reply` to a question sent, after saying why when it was not taken (refused, or not answered). */
  sayRefusal<T extends { accepted: boolean; reason?: string }>(reply: Promise<T>): Promise<T> {
    return reply.then(
      (r) => {
        if (!r.accepted && r.reason) this.say(r.reason);
        return r;
      },
      (e: unknown) => {
        this.say(reasonOf(e));
        throw e;
      },
    );
  }
}
