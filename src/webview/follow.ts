import * as l10n from '@vscode/l10n';
import { h, icon } from './dom';

// Following the answer as it streams, as other chat panels do: while the reader is at the bottom
// the transcript stays there; one who scrolls up stays where they are, and "Jump to latest" (in
// the flow under the transcript, so it covers nothing) brings them back down.

/** How close to the bottom still counts as at it, in px: a rounding of the layout is not a scroll. */
const AT_BOTTOM_PX = 24;

export class ScrollFollower {
  readonly jump: HTMLButtonElement;

  /**
   * @param pinned whether the view follows the bottom at first (the page's saved state).
   * @param onScrolled the reader scrolled: where to, and whether they follow now, for the page's saved state.
   * @param onJump "Jump to latest" was pressed, after the view went down.
   */
  constructor(
    private readonly transcript: HTMLElement,
    public pinned: boolean,
    onScrolled: (scrollTop: number, pinned: boolean) => void,
    onJump: () => void,
  ) {
    this.jump = h(
      'button',
      { type: 'button', class: 'jump-to-latest', hidden: true, 'aria-label': l10n.t('Jump to latest') },
      icon('arrow-down'),
      h('span', {}, l10n.t('Jump to latest')),
    );
    transcript.addEventListener('scroll', () => {
      // A user who scrolls up while an answer streams stays where they are until they come back down.
      this.pinned = this.atBottom();
      this.setFollowing(this.pinned);
      this.jump.hidden = this.pinned;
      onScrolled(transcript.scrollTop, this.pinned);
    });
    this.jump.addEventListener('click', () => {
      this.pinned = true;
      this.follow();
      onJump();
    });
  }

  /**
   * Called after every render while an answer streams: goes to the bottom when pinned. It writes
   * to the page only what changed, since each write costs the browser a style recalculation.
   */
  follow(): void {
    const { transcript } = this;
    this.setFollowing(this.pinned);
    if (this.pinned) {
      const bottom = transcript.scrollHeight - transcript.clientHeight;
      if (transcript.scrollTop < bottom - 1) transcript.scrollTop = bottom;
    }
    const hide = this.pinned || this.atBottom();
    if (this.jump.hidden !== hide) this.jump.hidden = hide;
  }

  private atBottom(): boolean {
    const { transcript } = this;
    return transcript.scrollTop + transcript.clientHeight >= transcript.scrollHeight - AT_BOTTOM_PX;
  }

  // While the view follows the answer, follow() sets its scroll position after every render, and
  // the browser's scroll anchoring would only pick a new anchor node each time: a cost in every
  // layout of a streaming answer. A reader who scrolls up gets anchoring back, which keeps their
  // place if something above changes height (an image that loads late).
  private setFollowing(on: boolean): void {
    if (this.transcript.classList.contains('following') !== on) this.transcript.classList.toggle('following', on);
  }
}
