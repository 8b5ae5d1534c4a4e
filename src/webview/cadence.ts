// How often a streaming answer is rendered. Every render costs the browser a style and layout
// pass whatever it adds (about a third of a millisecond in a long answer), and a model sends
// deltas about as often as the screen refreshes, so the renderer does not render every frame:
//
// - ten times a second while the text arrives at up to STEADY_PACE, 300 characters a second,
//   which is half a line or less per render: the text still flows;
// - less often as it arrives faster, in steps that grow with the pace, down to one render every
//   MAX_RENDER_INTERVAL_MS (at 1,200 characters a second and above).
//
// The pace is measured over the last second (PaceMeter), not over the time since the last
// render: deltas come in uneven sizes, and a few small ones in a row would otherwise make the
// stream look slow for a moment and pull a render forward.

export const MIN_RENDER_INTERVAL_MS = 100;
export const MAX_RENDER_INTERVAL_MS = 400;
/** Characters per millisecond up to which the text renders ten times a second. */
export const STEADY_PACE = 0.3;
export const PACE_WINDOW_MS = 1000;

/** Whether the growing text is due for a render, `elapsed` ms after the last one, while it arrives at `pace` characters per ms. */
export function renderDue(elapsed: number, pace: number): boolean {
  if (elapsed < MIN_RENDER_INTERVAL_MS) return false;
  if (elapsed >= MAX_RENDER_INTERVAL_MS) return true;
  return elapsed >= (MIN_RENDER_INTERVAL_MS * pace) / STEADY_PACE;
}

/** The pace at which a text grows, in characters per ms over the last PACE_WINDOW_MS. */
export class PaceMeter {
  private readonly times: number[] = [];
  private readonly lengths: number[] = [];

  /** Records that the text is `length` characters long at `time`, and returns the pace. */
  sample(time: number, length: number): number {
    const { times, lengths } = this;
    times.push(time);
    lengths.push(length);
    // The window starts at the last sample at least PACE_WINDOW_MS old, or the oldest there is.
    while (times.length > 2 && times[1]! <= time - PACE_WINDOW_MS) {
      times.shift();
      lengths.shift();
    }
    const span = time - times[0]!;
    return span > 0 ? Math.max(0, length - lengths[0]!) / span : 0;
  }

  reset(): void {
    this.times.length = 0;
    this.lengths.length = 0;
  }
}
