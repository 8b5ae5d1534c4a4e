// How often a streaming answer is rendered: ten times a second, whatever the pace, and the first
// text at once.
//
// Every render costs the browser a style and layout pass of the block it changes, and that pass
// grows with the block (Chromium lays a paragraph's lines out again whole, measured in the render
// benchmark), so rendering every frame cost about 14× one render of the final answer, against
// 2.9× at the old cadence. That cadence slowed to one render every 400 ms at a fast pace, and the
// text arrived several lines at a time. Ten renders a second is the pace at which text still reads
// as flowing; the benchmark's pace table shows it holds at every pace (issue 21).
//
// A 60 Hz frame clock ticks every 16.7 ms, so a render is due a little before RENDER_INTERVAL_MS:
// every sixth frame, never a seventh when the clock jitters.

export const RENDER_INTERVAL_MS = 100;
/** Half a frame: the slack that keeps a frame that comes a hair early from waiting another frame. */
const FRAME_SLACK_MS = 8;

/** Whether the growing text is due for a render, `elapsed` ms after the last one (Infinity before the first). */
export function renderDue(elapsed: number): boolean {
  return elapsed >= RENDER_INTERVAL_MS - FRAME_SLACK_MS;
}
