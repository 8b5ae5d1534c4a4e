import type { FrameScheduler, MarkdownRenderer } from '../src/webview/incremental';

// What the benchmark's stand-ins for the shipped renderer (naiveMarkdown.ts, floorMarkdown.ts)
// share: the MarkdownRenderer interface, the text so far, and the frame clock that renders what
// is pending once per frame, as the shipped renderer does. Each stand-in says only how it shows
// the text, when a frame may show it, and what finishing does.

export interface StandIn {
  /** Shows `text` (all of it so far). */
  show(text: string): void;
  /** Whether the frame at `time` may render; a frame that may not asks for the next one. Default: every frame. */
  due?(time: number): boolean;
  /** The text is complete; `pending`: text arrived after the last show. */
  finish(text: string, pending: boolean): void;
}

export function standInRenderer(element: HTMLElement, onRendered: () => void, schedule: FrameScheduler, standIn: StandIn): MarkdownRenderer {
  let text = '';
  let dirty = false;
  let scheduled = false;
  const show = () => {
    dirty = false;
    standIn.show(text);
  };
  const onFrame = (time: number) => {
    scheduled = false;
    if (!dirty) return;
    if (standIn.due && !standIn.due(time)) {
      scheduled = true;
      schedule(onFrame);
      return;
    }
    show();
    onRendered();
  };
  const request = () => {
    dirty = true;
    if (scheduled) return;
    scheduled = true;
    schedule(onFrame);
  };
  return {
    element,
    get text() {
      return text;
    },
    setText(next: string) {
      text = next;
      request();
    },
    append(delta: string) {
      text += delta;
      request();
    },
    flush() {
      if (dirty) show();
    },
    finish() {
      const pending = dirty;
      dirty = false;
      standIn.finish(text, pending);
    },
  };
}
